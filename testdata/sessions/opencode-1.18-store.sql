-- The store opencode 1.18.33 wrote for one run against a loopback model (schema and the session's rows).
CREATE TABLE `workspace` (
          `id` text PRIMARY KEY,
          `type` text NOT NULL,
          `name` text DEFAULT '' NOT NULL,
          `branch` text,
          `directory` text,
          `extra` text,
          `project_id` text NOT NULL,
          `time_used` integer NOT NULL,
          CONSTRAINT `fk_workspace_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `data_migration` (
          `name` text PRIMARY KEY,
          `time_completed` integer NOT NULL
        );
CREATE TABLE `account_state` (
          `id` integer PRIMARY KEY,
          `active_account_id` text,
          `active_org_id` text,
          CONSTRAINT `fk_account_state_active_account_id_account_id_fk` FOREIGN KEY (`active_account_id`) REFERENCES `account`(`id`) ON DELETE SET NULL
        );
CREATE TABLE `account` (
          `id` text PRIMARY KEY,
          `email` text NOT NULL,
          `url` text NOT NULL,
          `access_token` text NOT NULL,
          `refresh_token` text NOT NULL,
          `token_expiry` integer,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL
        );
CREATE TABLE `control_account` (
          `email` text NOT NULL,
          `url` text NOT NULL,
          `access_token` text NOT NULL,
          `refresh_token` text NOT NULL,
          `token_expiry` integer,
          `active` integer NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          CONSTRAINT `control_account_pk` PRIMARY KEY(`email`, `url`)
        );
CREATE TABLE `credential` (
          `id` text PRIMARY KEY,
          `integration_id` text,
          `label` text NOT NULL,
          `value` text NOT NULL,
          `connector_id` text,
          `method_id` text,
          `active` integer,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL
        );
CREATE TABLE `event_sequence` (
          `aggregate_id` text PRIMARY KEY,
          `seq` integer NOT NULL,
          `owner_id` text
        );
CREATE TABLE `event` (
          `id` text PRIMARY KEY,
          `aggregate_id` text NOT NULL,
          `seq` integer NOT NULL,
          `type` text NOT NULL,
          `data` text NOT NULL,
          CONSTRAINT `fk_event_aggregate_id_event_sequence_aggregate_id_fk` FOREIGN KEY (`aggregate_id`) REFERENCES `event_sequence`(`aggregate_id`) ON DELETE CASCADE
        );
CREATE TABLE `permission` (
          `id` text PRIMARY KEY,
          `project_id` text NOT NULL,
          `action` text NOT NULL,
          `resource` text NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          CONSTRAINT `fk_permission_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `project_directory` (
          `project_id` text NOT NULL,
          `directory` text NOT NULL,
          `type` text,
          `strategy` text,
          `time_created` integer NOT NULL,
          CONSTRAINT `project_directory_pk` PRIMARY KEY(`project_id`, `directory`),
          CONSTRAINT `fk_project_directory_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `project` (
          `id` text PRIMARY KEY,
          `worktree` text NOT NULL,
          `vcs` text,
          `name` text,
          `icon_url` text,
          `icon_url_override` text,
          `icon_color` text,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `time_initialized` integer,
          `sandboxes` text NOT NULL,
          `commands` text
        );
CREATE TABLE `message` (
          `id` text PRIMARY KEY,
          `session_id` text NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `data` text NOT NULL,
          CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `part` (
          `id` text PRIMARY KEY,
          `message_id` text NOT NULL,
          `session_id` text NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `data` text NOT NULL,
          CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `session_context_epoch` (
          `session_id` text PRIMARY KEY,
          `baseline` text NOT NULL,
          `snapshot` text NOT NULL,
          `baseline_seq` integer NOT NULL,
          CONSTRAINT `fk_session_context_epoch_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `session_input` (
          `id` text PRIMARY KEY,
          `session_id` text NOT NULL,
          `prompt` text NOT NULL,
          `delivery` text NOT NULL,
          `admitted_seq` integer NOT NULL,
          `promoted_seq` integer,
          `time_created` integer NOT NULL,
          CONSTRAINT `fk_session_input_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `session_message` (
          `id` text PRIMARY KEY,
          `session_id` text NOT NULL,
          `type` text NOT NULL,
          `seq` integer NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `data` text NOT NULL,
          CONSTRAINT `fk_session_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `session` (
          `id` text PRIMARY KEY,
          `project_id` text NOT NULL,
          `workspace_id` text,
          `parent_id` text,
          `slug` text NOT NULL,
          `directory` text NOT NULL,
          `path` text,
          `title` text NOT NULL,
          `version` text NOT NULL,
          `share_url` text,
          `summary_additions` integer,
          `summary_deletions` integer,
          `summary_files` integer,
          `summary_diffs` text,
          `metadata` text,
          `cost` real DEFAULT 0 NOT NULL,
          `tokens_input` integer DEFAULT 0 NOT NULL,
          `tokens_output` integer DEFAULT 0 NOT NULL,
          `tokens_reasoning` integer DEFAULT 0 NOT NULL,
          `tokens_cache_read` integer DEFAULT 0 NOT NULL,
          `tokens_cache_write` integer DEFAULT 0 NOT NULL,
          `revert` text,
          `permission` text,
          `agent` text,
          `model` text,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `time_compacting` integer,
          `time_archived` integer,
          CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `todo` (
          `session_id` text NOT NULL,
          `content` text NOT NULL,
          `status` text NOT NULL,
          `priority` text NOT NULL,
          `position` integer NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          CONSTRAINT `todo_pk` PRIMARY KEY(`session_id`, `position`),
          CONSTRAINT `fk_todo_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `session_share` (
          `session_id` text PRIMARY KEY,
          `id` text NOT NULL,
          `secret` text NOT NULL,
          `url` text NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          CONSTRAINT `fk_session_share_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
        );
CREATE TABLE IF NOT EXISTS "migration" (id TEXT PRIMARY KEY, time_completed INTEGER NOT NULL);
CREATE UNIQUE INDEX `event_aggregate_seq_idx` ON `event` (`aggregate_id`,`seq`);
CREATE INDEX `event_aggregate_type_seq_idx` ON `event` (`aggregate_id`,`type`,`seq`);
CREATE UNIQUE INDEX `permission_project_action_resource_idx` ON `permission` (`project_id`,`action`,`resource`);
CREATE INDEX `message_session_time_created_id_idx` ON `message` (`session_id`,`time_created`,`id`);
CREATE INDEX `part_message_id_id_idx` ON `part` (`message_id`,`id`);
CREATE INDEX `part_session_idx` ON `part` (`session_id`);
CREATE INDEX `session_input_session_pending_delivery_seq_idx` ON `session_input` (`session_id`,`promoted_seq`,`delivery`,`admitted_seq`);
CREATE UNIQUE INDEX `session_input_session_admitted_seq_idx` ON `session_input` (`session_id`,`admitted_seq`);
CREATE UNIQUE INDEX `session_input_session_promoted_seq_idx` ON `session_input` (`session_id`,`promoted_seq`);
CREATE UNIQUE INDEX `session_message_session_seq_idx` ON `session_message` (`session_id`,`seq`);
CREATE INDEX `session_message_session_type_seq_idx` ON `session_message` (`session_id`,`type`,`seq`);
CREATE INDEX `session_message_session_time_created_id_idx` ON `session_message` (`session_id`,`time_created`,`id`);
CREATE INDEX `session_message_time_created_idx` ON `session_message` (`time_created`);
CREATE INDEX `session_project_idx` ON `session` (`project_id`);
CREATE INDEX `session_workspace_idx` ON `session` (`workspace_id`);
CREATE INDEX `session_parent_idx` ON `session` (`parent_id`);
CREATE INDEX `todo_session_idx` ON `todo` (`session_id`);
INSERT INTO project VALUES('global','/',NULL,NULL,NULL,NULL,NULL,1796112462965,1796112479841,NULL,'[]',NULL);
INSERT INTO session VALUES('ses_dcf5ac799ffeXdtbQcd0OSSZwO','global',NULL,NULL,'clever-cactus','/tmp/issue-22/explore/o1/project','tmp/issue-22/explore/o1/project','Probe session','1.18.33',NULL,0,0,0,NULL,NULL,0.0,36,21,0,0,0,NULL,'[{"permission":"question","pattern":"*","action":"deny"},{"permission":"plan_enter","pattern":"*","action":"deny"},{"permission":"plan_exit","pattern":"*","action":"deny"}]','build','{"id":"loopback-model","providerID":"loopback","variant":"default"}',1796112463974,1796112468641,NULL,NULL);
INSERT INTO message VALUES('msg_230a538fc001gyCBvyFemMlyPx','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112464124,1796112468370,'{"role":"user","time":{"created":1796112464124},"agent":"build","model":{"providerID":"loopback","modelID":"loopback-model"},"summary":{"diffs":[]}}');
INSERT INTO message VALUES('msg_230a53fbd001mJhnR1ee5K2q5R','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112465853,1796112467890,'{"parentID":"msg_230a538fc001gyCBvyFemMlyPx","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/tmp/issue-22/explore/o1/project","root":"/"},"cost":0,"tokens":{"total":19,"input":12,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"loopback-model","providerID":"loopback","time":{"created":1796112465853,"completed":1796112467887},"finish":"tool-calls"}');
INSERT INTO message VALUES('msg_230a547b90013t6MT1Fd5SfCCH','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112467897,1796112468328,'{"parentID":"msg_230a538fc001gyCBvyFemMlyPx","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/tmp/issue-22/explore/o1/project","root":"/"},"cost":0,"tokens":{"total":19,"input":12,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"loopback-model","providerID":"loopback","time":{"created":1796112467897,"completed":1796112468326},"finish":"tool-calls"}');
INSERT INTO message VALUES('msg_230a54970001vKYoAuAo0Fo4PS','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112468336,1796112468592,'{"parentID":"msg_230a538fc001gyCBvyFemMlyPx","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/tmp/issue-22/explore/o1/project","root":"/"},"cost":0,"tokens":{"total":19,"input":12,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"loopback-model","providerID":"loopback","time":{"created":1796112468336,"completed":1796112468590},"finish":"stop"}');
INSERT INTO part VALUES('prt_230a539110015ZNI4UJUddOJxT','msg_230a538fc001gyCBvyFemMlyPx','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112465814,1796112465818,'{"type":"text","text":"\"Write the probe file, then read it back.\""}');
INSERT INTO part VALUES('prt_230a5469f001SjKR01yA8vIViF','msg_230a53fbd001mJhnR1ee5K2q5R','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112467616,1796112467619,'{"type":"step-start"}');
INSERT INTO part VALUES('prt_230a546a5001ATq546YB9Moarg','msg_230a53fbd001mJhnR1ee5K2q5R','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112467622,1796112467666,'{"type":"text","text":"Writing the probe.","time":{"start":1796112467621,"end":1796112467663}}');
INSERT INTO part VALUES('prt_230a546ae001vipf2mTisFOipb','msg_230a53fbd001mJhnR1ee5K2q5R','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112467630,1796112467867,'{"type":"tool","tool":"bash","callID":"call_bash_1","state":{"status":"completed","input":{"command":"echo oc-probe-42 > out.txt && cat out.txt","description":"Write the probe"},"output":"oc-probe-42\n","metadata":{"output":"oc-probe-42\n","exit":0,"truncated":false},"title":"echo oc-probe-42 > out.txt && cat out.txt","time":{"start":1796112467649,"end":1796112467864}}}');
INSERT INTO part VALUES('prt_230a547a1001d8H0WpodKkPS8Y','msg_230a53fbd001mJhnR1ee5K2q5R','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112467873,1796112467876,'{"reason":"tool-calls","type":"step-finish","tokens":{"total":19,"input":12,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part VALUES('prt_230a54872001YpVdBDLYmES0rB','msg_230a547b90013t6MT1Fd5SfCCH','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112468083,1796112468086,'{"type":"step-start"}');
INSERT INTO part VALUES('prt_230a54879001kJF3COqWAuu8QI','msg_230a547b90013t6MT1Fd5SfCCH','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112468089,1796112468305,'{"type":"tool","tool":"read","callID":"call_read_2","state":{"status":"completed","input":{"filePath":"/tmp/issue-22/explore/o1/project/out.txt"},"output":"<path>/tmp/issue-22/explore/o1/project/out.txt</path>\n<type>file</type>\n<content>\n1: oc-probe-42\n\n(End of file - total 1 lines)\n</content>","metadata":{"preview":"oc-probe-42","truncated":false,"loaded":[],"display":{"type":"file","path":"/tmp/issue-22/explore/o1/project/out.txt","text":"oc-probe-42","lineStart":1,"lineEnd":1,"totalLines":1,"truncated":false}},"title":"tmp/issue-22/explore/o1/project/out.txt","time":{"start":1796112468106,"end":1796112468301}}}');
INSERT INTO part VALUES('prt_230a54957001EewQ5tp16h8GwF','msg_230a547b90013t6MT1Fd5SfCCH','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112468311,1796112468314,'{"reason":"tool-calls","type":"step-finish","tokens":{"total":19,"input":12,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part VALUES('prt_230a54a4b0014uf6mHeIn04mbP','msg_230a54970001vKYoAuAo0Fo4PS','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112468555,1796112468558,'{"type":"step-start"}');
INSERT INTO part VALUES('prt_230a54a51001s6qId3r3cytTI9','msg_230a54970001vKYoAuAo0Fo4PS','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112468562,1796112468572,'{"type":"text","text":"The probe file says oc-probe-42.","time":{"start":1796112468561,"end":1796112468569}}');
INSERT INTO part VALUES('prt_230a54a61001rErs8PVErUNpa4','msg_230a54970001vKYoAuAo0Fo4PS','ses_dcf5ac799ffeXdtbQcd0OSSZwO',1796112468577,1796112468580,'{"reason":"stop","type":"step-finish","tokens":{"total":19,"input":12,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
