//! A thread of one agent made fit for another: the calls of tools both agents have (a shell
//! command, reading, writing and editing a file) are rewritten into the target's tool and
//! argument names, with their results; a call the target has no tool for becomes assistant text
//! that says which tool of which agent was called with what, and its result user text, so that
//! the target reads what happened without being handed a call it cannot make. Thinking is left
//! out: it is bound to the provider that produced it (a Claude signature, Codex's encrypted
//! reasoning) and no other accepts it. Content the target has no form for becomes text.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::{json, Map, Value};
use squash_core::{render, ContentItem, Message, Role, SourceFormat, ToolResultData};

use crate::detect::described;

/// The agents' session formats, between which a thread can be handed over.
pub fn is_agent_format(format: SourceFormat) -> bool {
    matches!(
        format,
        SourceFormat::ClaudeCode
            | SourceFormat::Codex
            | SourceFormat::Gemini
            | SourceFormat::Opencode
    )
}

/// What a handoff changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HandoffReport {
    pub from: Option<SourceFormat>,
    pub to: Option<SourceFormat>,
    /// Calls rewritten into one of the target's tools.
    pub calls_mapped: usize,
    /// Calls (and their results) written as text.
    pub calls_as_text: usize,
    pub thinking_left_out: usize,
    /// Other content written as text.
    pub content_as_text: usize,
}

impl HandoffReport {
    pub fn warnings(&self) -> Vec<String> {
        let (Some(from), Some(to)) = (self.from, self.to) else {
            return Vec::new();
        };
        let mut out = vec![format!(
            "handed over from {} to {}: {} call(s) rewritten into its tools, {} written as text \
             (it has no such tool)",
            described(from),
            described(to),
            self.calls_mapped,
            self.calls_as_text
        )];
        if self.thinking_left_out > 0 {
            out.push(format!(
                "{} thinking block(s) left out: they are bound to the provider that wrote them",
                self.thinking_left_out
            ));
        }
        if self.content_as_text > 0 {
            out.push(format!(
                "{} content item(s) with no form in the target written as text",
                self.content_as_text
            ));
        }
        out
    }
}

/// The tools agents share, with their arguments in a neutral form.
#[derive(Clone, Debug, PartialEq)]
enum Tool {
    Shell {
        command: String,
        description: Option<String>,
    },
    Read {
        path: String,
    },
    Write {
        path: String,
        content: String,
    },
    Edit {
        path: String,
        old: String,
        new: String,
    },
}

fn text_arg(input: &Value, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
        .map(str::to_owned)
}

/// What a call of agent `from` does, when it is one of the shared tools.
fn classify(from: SourceFormat, name: &str, input: &Value) -> Option<Tool> {
    let description = text_arg(input, &["description"]);
    let shell = |keys: &[&str]| {
        text_arg(input, keys).map(|command| Tool::Shell {
            command,
            description: description.clone(),
        })
    };
    let read = |keys: &[&str]| text_arg(input, keys).map(|path| Tool::Read { path });
    let write = |p: &[&str], c: &[&str]| {
        Some(Tool::Write {
            path: text_arg(input, p)?,
            content: text_arg(input, c)?,
        })
    };
    let edit = |p: &[&str], o: &[&str], n: &[&str]| {
        Some(Tool::Edit {
            path: text_arg(input, p)?,
            old: text_arg(input, o)?,
            new: text_arg(input, n)?,
        })
    };
    match (from, name) {
        (SourceFormat::ClaudeCode, "Bash") => shell(&["command"]),
        (SourceFormat::ClaudeCode, "Read") => read(&["file_path"]),
        (SourceFormat::ClaudeCode, "Write") => write(&["file_path"], &["content"]),
        (SourceFormat::ClaudeCode, "Edit") => {
            edit(&["file_path"], &["old_string"], &["new_string"])
        }
        (SourceFormat::Codex, "exec_command") => shell(&["cmd", "command"]),
        (SourceFormat::Codex, "shell" | "local_shell") => match input.get("command") {
            Some(Value::Array(argv)) => {
                let argv: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
                // `["bash", "-lc", "script"]` runs the script.
                let command = match argv.as_slice() {
                    [_, "-lc" | "-c", script] => (*script).to_owned(),
                    other => other.join(" "),
                };
                Some(Tool::Shell {
                    command,
                    description: None,
                })
            }
            _ => shell(&["command"]),
        },
        (SourceFormat::Gemini, "run_shell_command") => shell(&["command"]),
        (SourceFormat::Gemini, "read_file") => read(&["absolute_path", "file_path"]),
        (SourceFormat::Gemini, "write_file") => write(&["file_path"], &["content"]),
        (SourceFormat::Gemini, "replace") => edit(&["file_path"], &["old_string"], &["new_string"]),
        (SourceFormat::Opencode, "bash") => shell(&["command"]),
        (SourceFormat::Opencode, "read") => read(&["filePath"]),
        (SourceFormat::Opencode, "write") => write(&["filePath"], &["content"]),
        (SourceFormat::Opencode, "edit") => edit(&["filePath"], &["oldString"], &["newString"]),
        _ => None,
    }
}

/// The call of `tool` in agent `to`'s own names, if it has the tool.
fn call_in(to: SourceFormat, tool: &Tool) -> Option<(&'static str, Value)> {
    let mut args = Map::new();
    let mut put = |k: &str, v: &str| {
        args.insert(k.to_owned(), json!(v));
    };
    // Claude Code and Gemini CLI take the same arguments under other tool names.
    let named = |claude: &'static str, gemini: &'static str| match to {
        SourceFormat::ClaudeCode => claude,
        _ => gemini,
    };
    let name = match (to, tool) {
        (
            SourceFormat::ClaudeCode | SourceFormat::Gemini,
            Tool::Shell {
                command,
                description,
            },
        ) => {
            put("command", command);
            if let Some(d) = description {
                put("description", d);
            }
            named("Bash", "run_shell_command")
        }
        (SourceFormat::Codex, Tool::Shell { command, .. }) => {
            put("cmd", command);
            "exec_command"
        }
        (
            SourceFormat::Opencode,
            Tool::Shell {
                command,
                description,
            },
        ) => {
            put("command", command);
            put("description", description.as_deref().unwrap_or(command));
            "bash"
        }
        (SourceFormat::ClaudeCode | SourceFormat::Gemini, Tool::Read { path }) => {
            put("file_path", path);
            named("Read", "read_file")
        }
        (SourceFormat::Opencode, Tool::Read { path }) => {
            put("filePath", path);
            "read"
        }
        (SourceFormat::ClaudeCode | SourceFormat::Gemini, Tool::Write { path, content }) => {
            put("file_path", path);
            put("content", content);
            named("Write", "write_file")
        }
        (SourceFormat::Opencode, Tool::Write { path, content }) => {
            put("filePath", path);
            put("content", content);
            "write"
        }
        (SourceFormat::ClaudeCode | SourceFormat::Gemini, Tool::Edit { path, old, new }) => {
            put("file_path", path);
            put("old_string", old);
            put("new_string", new);
            named("Edit", "replace")
        }
        (SourceFormat::Opencode, Tool::Edit { path, old, new }) => {
            put("filePath", path);
            put("oldString", old);
            put("newString", new);
            "edit"
        }
        _ => return None,
    };
    Some((name, Value::Object(args)))
}

/// The longest input written into the text of a call the target cannot make.
const INPUT_TEXT_LIMIT: usize = 4_000;

fn clipped(text: &str) -> String {
    if text.len() <= INPUT_TEXT_LIMIT {
        return text.to_owned();
    }
    let mut end = INPUT_TEXT_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes more)", &text[..end], text.len() - end)
}

/// What became of each call, by id: its new name, or `None` when it is written as text.
type Decisions = HashMap<String, (String, Option<String>)>;

/// The thread made fit for agent `to`; `from` is the agent that wrote it.
pub fn adapt(
    messages: &[Message],
    from: SourceFormat,
    to: SourceFormat,
) -> (Vec<Message>, HandoffReport) {
    let mut report = HandoffReport {
        from: Some(from),
        to: Some(to),
        ..HandoffReport::default()
    };
    let mut decisions: Decisions = HashMap::new();
    let agent = described(from);
    let mut out = Vec::with_capacity(messages.len());
    for message in messages {
        let mut content = Vec::with_capacity(message.content.len());
        for item in &message.content {
            match item {
                ContentItem::ToolCall { id, name, input } => {
                    match classify(from, name, input).and_then(|t| call_in(to, &t)) {
                        Some((new_name, args)) => {
                            report.calls_mapped += 1;
                            decisions.insert(id.clone(), (name.clone(), Some(new_name.to_owned())));
                            content.push(ContentItem::tool_call(id.clone(), new_name, args));
                        }
                        None => {
                            report.calls_as_text += 1;
                            decisions.insert(id.clone(), (name.clone(), None));
                            let text = format!(
                                "[{agent} called its tool `{name}` (call {id}), which {} has no tool for, with: {}]",
                                described(to),
                                clipped(&input.to_string())
                            );
                            content.push(ContentItem::text_for(Role::Assistant, text));
                        }
                    }
                }
                ContentItem::ToolResult {
                    tool_use_id,
                    tool_name,
                    result,
                    is_error,
                } => match decisions.get(tool_use_id) {
                    Some((_, Some(new_name))) => content.push(ContentItem::ToolResult {
                        tool_use_id: tool_use_id.clone(),
                        tool_name: new_name.clone(),
                        result: result.clone(),
                        is_error: *is_error,
                    }),
                    Some((original, None)) => {
                        content.push(ContentItem::text_for(
                            Role::User,
                            result_as_text(original, tool_use_id, result, *is_error),
                        ));
                    }
                    // A result whose call is not in the thread: the writers say so.
                    None => content.push(ContentItem::ToolResult {
                        tool_use_id: tool_use_id.clone(),
                        tool_name: tool_name.clone(),
                        result: result.clone(),
                        is_error: *is_error,
                    }),
                },
                ContentItem::Thinking { .. } => report.thinking_left_out += 1,
                ContentItem::UnknownJson { json } => {
                    report.content_as_text += 1;
                    let text = format!(
                        "[{agent} content with no form here: {}]",
                        clipped(&json.to_string())
                    );
                    content.push(ContentItem::text_for(message.role, text));
                }
                other => content.push(other.clone()),
            }
        }
        if content.is_empty() {
            continue;
        }
        let mut m = message.clone();
        m.content = content;
        out.push(m);
    }
    (out, report)
}

fn result_as_text(name: &str, id: &str, result: &[ToolResultData], is_error: bool) -> String {
    format!(
        "[result of `{name}` (call {id}){}]\n{}",
        if is_error { ", an error" } else { "" },
        render::results_text(result)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use squash_core::ConversationId;

    fn message(role: Role, content: Vec<ContentItem>) -> Message {
        let mut m = Message::new(ConversationId::new(), role, content).unwrap();
        m.metadata = None;
        m
    }

    #[test]
    fn shared_tools_are_rewritten_and_the_rest_is_told() {
        let thread = vec![
            message(
                Role::User,
                vec![ContentItem::UserMessage { text: "go".into() }],
            ),
            message(
                Role::Assistant,
                vec![
                    ContentItem::Thinking {
                        signature: "sig".into(),
                        thinking: "plan".into(),
                    },
                    ContentItem::tool_call(
                        "toolu_1",
                        "Bash",
                        json!({"command": "ls", "description": "List"}),
                    ),
                    ContentItem::tool_call("toolu_2", "TodoWrite", json!({"todos": []})),
                ],
            ),
            message(
                Role::User,
                vec![
                    ContentItem::tool_result("toolu_1", "Bash", "a b", false),
                    ContentItem::tool_result("toolu_2", "TodoWrite", "ok", false),
                ],
            ),
        ];
        let (out, report) = adapt(&thread, SourceFormat::ClaudeCode, SourceFormat::Codex);
        assert_eq!(report.calls_mapped, 1);
        assert_eq!(report.calls_as_text, 1);
        assert_eq!(report.thinking_left_out, 1);
        match &out[1].content[0] {
            ContentItem::ToolCall { name, input, .. } => {
                assert_eq!(name, "exec_command");
                assert_eq!(input, &json!({"cmd": "ls"}));
            }
            other => panic!("{other:?}"),
        }
        let told = render::item_text(&out[1].content[1]);
        assert!(
            told.contains("`TodoWrite`") && told.contains("toolu_2"),
            "{told}"
        );
        assert!(
            matches!(&out[2].content[0], ContentItem::ToolResult { tool_name, .. } if tool_name == "exec_command")
        );
        let result = render::item_text(&out[2].content[1]);
        assert!(
            result.contains("result of `TodoWrite`") && result.contains("ok"),
            "{result}"
        );

        // And back: Codex's shell call becomes Claude Code's Bash.
        let (back, report) = adapt(&out, SourceFormat::Codex, SourceFormat::ClaudeCode);
        assert_eq!(report.calls_mapped, 1);
        assert!(
            matches!(&back[1].content[0], ContentItem::ToolCall { name, input, .. }
            if name == "Bash" && input == &json!({"command": "ls"}))
        );
    }
}
