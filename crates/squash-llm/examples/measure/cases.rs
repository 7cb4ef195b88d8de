//! The squash cases the local model is measured on: the spec's situations (built here) and
//! runs cut from real sessions in `testdata/sessions` (parsed by hand: no importer exists in
//! this layer).

use std::collections::HashMap;
use std::path::Path;

use serde_json::{json, Value};
use squash_core::{ContentItem, ConversationId, Message, Role, StructuredText, SystemLevel};

/// One selection to squash.
pub struct Case {
    pub name: &'static str,
    pub messages: Vec<Message>,
}

fn conv() -> ConversationId {
    ConversationId::new()
}

fn items(role: Role, content: Vec<ContentItem>) -> Message {
    Message::new(conv(), role, content).expect("case content is non-empty")
}

fn text(role: Role, body: &str) -> Message {
    items(role, vec![ContentItem::text_for(role, body)])
}

fn call(id: &str, name: &str, input: Value) -> ContentItem {
    ContentItem::tool_call(id, name, input)
}

fn result(id: &str, name: &str, output: &str, is_error: bool) -> ContentItem {
    ContentItem::tool_result(id, name, output, is_error)
}

fn assistant_text(body: &str) -> ContentItem {
    ContentItem::AssistantMessage {
        structured: StructuredText {
            full_text: body.into(),
            ..Default::default()
        },
    }
}

/// All cases: the built ones, then those cut from the sessions in `sessions` (skipped with a
/// note when the directory is missing).
pub fn all(sessions: &Path) -> Vec<Case> {
    let mut cases = vec![
        tool_only(),
        error_then_correction(),
        thinking(),
        system_warnings(),
        non_contiguous(),
    ];
    match session_cases(sessions) {
        Ok(mut more) => cases.append(&mut more),
        Err(e) => eprintln!("note: no session cases from {}: {e}", sessions.display()),
    }
    cases
}

/// The spec's "tool calls only" case: grep finds 42 TypeScript files, read main.ts, tsc finds
/// 3 type errors.
fn tool_only() -> Case {
    let files: String = [
        "src/main.ts",
        "src/app.ts",
        "src/config.ts",
        "src/api/client.ts",
        "src/api/routes.ts",
        "src/api/errors.ts",
    ]
    .iter()
    .map(|f| format!("{f}\n"))
    .chain((1..=36).map(|i| format!("src/components/Widget{i:02}.ts\n")))
    .collect();
    let main_ts: String = [
        "import { loadConfig } from './config';",
        "import { ApiClient } from './api/client';",
        "import { renderApp } from './app';",
        "",
        "interface User {",
        "  id: number;",
        "  name: string;",
        "}",
        "",
        "async function main(): Promise<void> {",
        "  const config = loadConfig(process.env.APP_ENV ?? 'dev');",
        "  const client = new ApiClient(config.apiUrl, config.timeoutMs);",
        "  const user: User = await client.getUser('42');",
        "  const users = await fetchUsers(client);",
        "  renderApp(document.getElementById('root'), { user, users });",
        "}",
        "main();",
    ]
    .iter()
    .enumerate()
    .map(|(i, line)| format!("{:>6}\t{line}\n", i + 1))
    .collect();
    let a = |c| items(Role::Assistant, vec![c]);
    let u = |c| items(Role::User, vec![c]);
    Case {
        name: "tool-only",
        messages: vec![
            a(call(
                "t1",
                "Grep",
                json!({"pattern": "\\.ts$", "path": "src", "output_mode": "files_with_matches"}),
            )),
            u(result("t1", "Grep", &format!("Found 42 files\n{files}"), false)),
            a(call("t2", "Read", json!({"file_path": "/home/dev/web/src/main.ts"}))),
            u(result("t2", "Read", &main_ts, false)),
            a(call(
                "t3",
                "Bash",
                json!({"command": "npx tsc --noEmit", "description": "Type-check the project"}),
            )),
            u(result(
                "t3",
                "Bash",
                "src/main.ts(13,9): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\n\
                 src/main.ts(14,17): error TS2304: Cannot find name 'fetchUsers'.\n\
                 src/main.ts(15,13): error TS2345: Argument of type 'HTMLElement | null' is not assignable to parameter of type 'HTMLElement'.\n\
                 \n\
                 Found 3 errors in the same file, starting at: src/main.ts:13\n",
                true,
            )),
        ],
    }
}

fn error_then_correction() -> Case {
    Case {
        name: "error-correction",
        messages: vec![
            text(
                Role::Assistant,
                "The request timeout defaults to 30 seconds; it is set in config/default.toml \
                 as `request_timeout_secs = 30`.",
            ),
            text(
                Role::User,
                "No, that's wrong: we raised it to 60 seconds in PR #482 because the export \
                 endpoint kept timing out.",
            ),
            text(
                Role::Assistant,
                "You're right, sorry. The default is 60 seconds (`request_timeout_secs = 60` in \
                 config/default.toml, changed in PR #482 for the export endpoint). I've \
                 corrected docs/configuration.md to say 60.",
            ),
        ],
    }
}

fn thinking() -> Case {
    Case {
        name: "thinking",
        messages: vec![
            text(
                Role::User,
                "Why does `cargo test` hang on CI but not locally?",
            ),
            items(
                Role::Assistant,
                vec![
                    ContentItem::Thinking {
                        signature: "sig-1".into(),
                        thinking: "CI runs with 2 cores; locally 16. A hang that depends on \
                                   cores smells like a deadlock in a test that holds a std Mutex \
                                   across an await. Check tests/sync.rs first, then the tokio \
                                   runtime flavor."
                            .into(),
                    },
                    assistant_text(
                        "Probably a deadlock that only shows with few cores. Let me look at \
                         tests/sync.rs.",
                    ),
                ],
            ),
            items(
                Role::Assistant,
                vec![
                    ContentItem::Thinking {
                        signature: "sig-2".into(),
                        thinking: "Found it: `lock_state()` holds the MutexGuard across \
                                   `client.send().await` on line 88."
                            .into(),
                    },
                    assistant_text(
                        "tests/sync.rs:88 holds a std::sync::MutexGuard across an .await; with \
                         2 worker threads both block. Switching to tokio::sync::Mutex fixes it.",
                    ),
                ],
            ),
        ],
    }
}

fn system_warnings() -> Case {
    let system = |level, content: &str| {
        items(
            Role::System,
            vec![ContentItem::System {
                level,
                content: content.into(),
                tool_use_id: None,
            }],
        )
    };
    Case {
        name: "system-warnings",
        messages: vec![
            system(
                SystemLevel::Info,
                "Session resumed in /home/dev/web (branch feature/login).",
            ),
            text(
                Role::User,
                "Index the repository and tell me where login is handled.",
            ),
            system(
                SystemLevel::Warning,
                "Large file ignored: assets/bundle.min.js (4.2 MB exceeds the 1 MB limit).",
            ),
            system(
                SystemLevel::Error,
                "Tool Bash timed out after 120000 ms while running `npm run index`.",
            ),
            text(
                Role::Assistant,
                "Indexing timed out, but a direct search shows login is handled in \
                 src/auth/login.ts (handleLogin) and src/api/session.ts (createSession).",
            ),
        ],
    }
}

/// Messages 1, 3 and 5 of a thread, as a person selects them (the others stay).
fn non_contiguous() -> Case {
    Case {
        name: "non-contiguous",
        messages: vec![
            text(
                Role::User,
                "We need rate limiting on the public API before the launch on Friday.",
            ),
            text(
                Role::Assistant,
                "I'll add a token bucket in src/middleware/rate_limit.rs: 100 requests per \
                 minute per API key, burst of 20, answering HTTP 429 with a Retry-After header.",
            ),
            text(
                Role::User,
                "Also exempt /health and /metrics from the limit.",
            ),
        ],
    }
}

// ---------------------------------------------------------------------------------------------
// Cases cut from real sessions

fn session_cases(dir: &Path) -> Result<Vec<Case>, String> {
    let subagents = read_lines(&dir.join("claude-code-subagents-5c0375b4.jsonl"))?;
    let linear = read_lines(&dir.join("claude-code-linear-1af7fc5e.jsonl"))?;
    let swe = std::fs::read_to_string(dir.join("swe-agent-marshmallow-1867.traj"))
        .map_err(|e| e.to_string())?;
    let swe: Value = serde_json::from_str(&swe).map_err(|e| e.to_string())?;
    Ok(vec![
        Case {
            // A sub-agent finds and reads package.json, then reports the versions.
            name: "cc-package-json",
            messages: claude_code_messages(&subagents[17..=21]),
        },
        Case {
            // An edit refused because the file was not read, the read, then 6 edits applied.
            name: "cc-edit-retry",
            messages: claude_code_messages(&subagents[43..=49]),
        },
        Case {
            // Listing an empty directory, then a write the user has not permitted.
            name: "cc-empty-dir",
            messages: claude_code_messages(&linear[15..=25]),
        },
        Case {
            // SWE-agent: open the file, an edit that breaks indentation, the fixed edit, the
            // reproduction now printing 345.
            name: "swe-fix",
            messages: swe_messages(&swe, 5..=8),
        },
    ])
}

fn read_lines(path: &Path) -> Result<Vec<Value>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| e.to_string()))
        .collect()
}

/// Claude Code JSONL lines (`{"type": "user"|"assistant", "message": {...}}`) as messages.
fn claude_code_messages(lines: &[Value]) -> Vec<Message> {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut out = Vec::new();
    for line in lines {
        let role = match line["type"].as_str() {
            Some("assistant") => Role::Assistant,
            Some("user") => Role::User,
            _ => continue,
        };
        let content = &line["message"]["content"];
        let mut items_out = Vec::new();
        if let Some(s) = content.as_str() {
            items_out.push(ContentItem::text_for(role, s));
        }
        for block in content.as_array().into_iter().flatten() {
            match block["type"].as_str() {
                Some("text") => {
                    items_out.push(ContentItem::text_for(
                        role,
                        block["text"].as_str().unwrap_or_default(),
                    ));
                }
                Some("thinking") => items_out.push(ContentItem::Thinking {
                    signature: block["signature"].as_str().unwrap_or_default().into(),
                    thinking: block["thinking"].as_str().unwrap_or_default().into(),
                }),
                Some("tool_use") => {
                    let id = block["id"].as_str().unwrap_or_default().to_owned();
                    let name = block["name"].as_str().unwrap_or_default().to_owned();
                    names.insert(id.clone(), name.clone());
                    items_out.push(call(&id, &name, block["input"].clone()));
                }
                Some("tool_result") => {
                    let id = block["tool_use_id"].as_str().unwrap_or_default();
                    let body = squash_testkit::content_text(&block["content"], "\n");
                    let name = names.get(id).cloned().unwrap_or_default();
                    items_out.push(result(
                        id,
                        &name,
                        &body,
                        block["is_error"].as_bool().unwrap_or(false),
                    ));
                }
                _ => {}
            }
        }
        if let Ok(message) = Message::new(conv(), role, items_out) {
            out.push(message);
        }
    }
    out
}

/// SWE-agent trajectory steps: the thought and command as an assistant tool call, the
/// observation as its result.
fn swe_messages(traj: &Value, steps: std::ops::RangeInclusive<usize>) -> Vec<Message> {
    let mut out = Vec::new();
    for i in steps {
        let step = &traj["trajectory"][i];
        let id = format!("swe-{i}");
        let thought = step["thought"].as_str().unwrap_or_default();
        let action = step["action"].as_str().unwrap_or_default();
        let observation = step["observation"]
            .as_str()
            .unwrap_or_default()
            .replace("\r\n", "\n");
        out.push(items(
            Role::Assistant,
            vec![
                assistant_text(thought),
                call(&id, "bash", json!({ "command": action })),
            ],
        ));
        let is_error = observation.contains("syntax error");
        out.push(items(
            Role::User,
            vec![result(&id, "bash", &observation, is_error)],
        ));
    }
    out
}
