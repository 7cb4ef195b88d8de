//! The recall server for the agent a resume starts: `squash mcp`, scoped to the resumed
//! conversation, registered with the agent for that run only — on its command line or in its
//! environment, never in the person's configuration files:
//!
//! - Claude Code: `--mcp-config` with the server as JSON, and its two read-only tools allowed;
//! - Codex: `-c mcp_servers.squash.…` overrides;
//! - Gemini CLI: a system-defaults settings file of Squash's own (`GEMINI_CLI_SYSTEM_DEFAULTS_PATH`,
//!   the lowest layer of its settings, under the person's);
//! - opencode: `OPENCODE_CONFIG_CONTENT`, merged with what the person set there.
//!
//! The database location reaches the server through the environment (`SQUASH_DB`), never a
//! command line another user could read.

use std::path::PathBuf;

use serde_json::{json, Value};
use squash_core::ConversationId;

use super::Agent;

/// The server's name in the agents' configurations: its tools are `mcp__squash__recall` in
/// Claude Code.
pub const SERVER_NAME: &str = "squash";
/// The variable the server reads the database location from.
pub const DATABASE_ENV: &str = "SQUASH_DB";

/// How an agent starts `squash mcp`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecallServer {
    /// The `squash` program (the running one, as a full path).
    pub program: String,
    /// The database it reads, as `squash --db` takes it.
    pub database: String,
    /// Where Squash keeps files of its own (Gemini CLI's settings layer is one).
    pub state_dir: PathBuf,
}

/// What the agent's command gains: arguments before its own, environment, and a file of
/// Squash's own written before it starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Registration {
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub file: Option<(PathBuf, String)>,
}

impl RecallServer {
    /// `squash mcp` for `conversation`, as `agent` is told to start it.
    pub fn registration(&self, agent: Agent, conversation: ConversationId) -> Registration {
        let args = vec![
            "mcp".to_owned(),
            "--conversation".to_owned(),
            conversation.to_string(),
        ];
        let mut env = vec![(DATABASE_ENV.to_owned(), self.database.clone())];
        match agent {
            Agent::Claude => {
                let config = json!({"mcpServers": {SERVER_NAME: {
                    "type": "stdio", "command": self.program, "args": args,
                }}});
                Registration {
                    args: vec![
                        "--mcp-config".into(),
                        config.to_string(),
                        "--allowedTools".into(),
                        format!("mcp__{SERVER_NAME}__recall,mcp__{SERVER_NAME}__search"),
                    ],
                    env,
                    file: None,
                }
            }
            Agent::Codex => {
                let key = |field: &str| format!("mcp_servers.{SERVER_NAME}.{field}");
                // `-c` values are TOML; a JSON string or array of strings is one too.
                let overrides = [
                    (key("command"), json!(self.program)),
                    (key("args"), json!(args)),
                    (key("env_vars"), json!([DATABASE_ENV])),
                    (key("default_tools_approval_mode"), json!("approve")),
                ];
                Registration {
                    args: overrides
                        .into_iter()
                        .flat_map(|(k, v)| ["-c".to_owned(), format!("{k}={v}")])
                        .collect(),
                    env,
                    file: None,
                }
            }
            Agent::Gemini => {
                let path = self
                    .state_dir
                    .join(format!("gemini-recall-{conversation}.json"));
                let settings = json!({"mcpServers": {SERVER_NAME: {
                    "command": self.program, "args": args, "trust": true,
                    "env": {DATABASE_ENV: format!("${DATABASE_ENV}")},
                }}});
                env.push((
                    "GEMINI_CLI_SYSTEM_DEFAULTS_PATH".into(),
                    path.display().to_string(),
                ));
                Registration {
                    args: Vec::new(),
                    env,
                    file: Some((path, settings.to_string())),
                }
            }
            Agent::Opencode => {
                let mut command = vec![self.program.clone()];
                command.extend(args);
                let server = json!({
                    "type": "local", "command": command, "enabled": true,
                    "environment": {DATABASE_ENV: self.database},
                });
                let content =
                    opencode_content(std::env::var("OPENCODE_CONFIG_CONTENT").ok(), server);
                env.push(("OPENCODE_CONFIG_CONTENT".into(), content));
                Registration {
                    args: Vec::new(),
                    env,
                    file: None,
                }
            }
        }
    }
}

/// opencode's inline configuration with the server added to what the person set there (an
/// unreadable one is left to opencode to report, with the server beside it).
fn opencode_content(theirs: Option<String>, server: Value) -> String {
    let mut config = theirs
        .and_then(|s| serde_json::from_str::<Value>(&s).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    if !config["mcp"].is_object() {
        config["mcp"] = json!({});
    }
    config["mcp"][SERVER_NAME] = server;
    config.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server() -> RecallServer {
        RecallServer {
            program: "/opt/bin/squash".into(),
            database: "postgres://u:secret@db/squash".into(),
            state_dir: PathBuf::from("/tmp/squash-state"),
        }
    }

    #[test]
    fn the_database_never_reaches_a_command_line() {
        let conv = ConversationId::new();
        for agent in Agent::ALL {
            let r = server().registration(agent, conv);
            assert!(
                r.args.iter().all(|a| !a.contains("secret")),
                "{agent}: {:?}",
                r.args
            );
            assert!(r
                .env
                .iter()
                .any(|(k, v)| k == DATABASE_ENV && v.contains("secret")));
            let text = format!("{:?}{:?}", r.args, r.env);
            assert!(
                text.contains(&conv.to_string()),
                "{agent} names the conversation"
            );
        }
    }

    #[test]
    fn opencode_keeps_what_the_person_set() {
        let mine = json!({"type": "local", "command": ["squash"]});
        let merged: Value = serde_json::from_str(&opencode_content(
            Some(r#"{"model":"x/y","mcp":{"other":{"type":"remote"}}}"#.into()),
            mine.clone(),
        ))
        .unwrap();
        assert_eq!(merged["model"], "x/y");
        assert_eq!(merged["mcp"]["other"]["type"], "remote");
        assert_eq!(merged["mcp"]["squash"], mine);
        let alone: Value =
            serde_json::from_str(&opencode_content(Some("not json".into()), mine.clone())).unwrap();
        assert_eq!(alone["mcp"]["squash"], mine);
    }
}
