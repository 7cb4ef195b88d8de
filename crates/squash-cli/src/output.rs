//! Text for people, JSON for programs: every command prints through here.

use std::io::Write;

use serde::Serialize;
use squash_app::{OperationOutcome, ThreadView};
use squash_core::tokens::{format_count, message_tokens};
use squash_core::{render, Message, MessageId, TokenUsage};

pub struct Output {
    json: bool,
}

impl Output {
    pub fn new(json: bool) -> Output {
        Output { json }
    }

    pub fn is_json(&self) -> bool {
        self.json
    }

    /// Prints `value` as JSON, or the text `human` builds.
    pub fn emit<T: Serialize>(
        &self,
        value: &T,
        human: impl FnOnce() -> String,
    ) -> anyhow::Result<()> {
        if self.json {
            print_line(&serde_json::to_string_pretty(value)?)?;
        } else {
            let text = human();
            if !text.is_empty() {
                print_line(&text)?;
            }
        }
        Ok(())
    }
}

/// Writes `text` and a newline to stdout. `println!` panics when stdout is closed (`squash … |
/// head`); this returns the `BrokenPipe` error instead, which `main` turns into a quiet exit.
pub fn print_line(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()
}

/// Stdout for a stream of output written by a library that reports errors as text (the export):
/// it remembers that stdout was closed, so the caller can tell that from a real failure.
#[derive(Default)]
pub struct Stdout {
    closed: bool,
}

impl Stdout {
    /// The `BrokenPipe` error, if stdout was closed while writing.
    pub fn closed(&self) -> std::io::Result<()> {
        if self.closed {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        }
        Ok(())
    }

    fn note<T>(&mut self, result: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(e) = &result {
            self.closed |= e.kind() == std::io::ErrorKind::BrokenPipe;
        }
        result
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let result = std::io::stdout().lock().write(buf);
        self.note(result)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let result = std::io::stdout().lock().flush();
        self.note(result)
    }
}

/// Whether an error comes from writing to a closed stdout (the reader of a pipe went away).
pub fn stdout_closed(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

pub fn badge(m: &Message) -> &'static str {
    if m.squash_operation_id.is_some() {
        " ◆"
    } else {
        ""
    }
}

/// `@3   assistant    412 tok ◆ preview…   (id)`: the estimated tokens in a column, so the
/// large messages stand out.
pub fn message_line(n: usize, m: &Message) -> String {
    format!(
        "@{n:<3} {:<9} {:>7} tok{}  {}   ({})",
        m.role.as_str(),
        format_count(message_tokens(m)),
        badge(m),
        render::preview(m, 90),
        m.id
    )
}

pub fn thread_text(view: &ThreadView, full: bool) -> String {
    let mut out = format!(
        "{} ({})\nthread {} · {} messages · {} tokens (estimated) · revision {}",
        view.conversation.display_name,
        view.conversation.id,
        view.thread.id,
        view.messages.len(),
        format_count(view.tokens),
        view.thread.revision
    );
    if view.thread.id != view.conversation.current_thread_id {
        out.push_str(" · not the current thread");
    }
    for (i, m) in view.messages.iter().enumerate() {
        out.push('\n');
        if full {
            out.push_str(&format!(
                "\n@{} {}{} ({} tokens, {})\n{}",
                i + 1,
                m.role,
                badge(m),
                format_count(message_tokens(m)),
                m.id,
                render::message_text(m)
            ));
        } else {
            out.push_str(&message_line(i + 1, m));
        }
    }
    out
}

/// `{conversation, thread, tokens, messages}` as the API answers it.
pub fn thread_json(view: &ThreadView) -> serde_json::Value {
    serde_json::json!(view)
}

/// An operation's outcome, serialized as the API answers it.
pub fn outcome_json(o: &OperationOutcome) -> serde_json::Value {
    serde_json::json!(o)
}

/// `1,234 → 56 tokens`, or `tokens unknown` when the provider did not count (never `0`).
pub fn usage_text(usage: Option<TokenUsage>) -> String {
    match usage {
        Some(u) => format!(
            "{} → {} tokens",
            format_count(u.input_tokens),
            format_count(u.output_tokens)
        ),
        None => "tokens unknown".to_owned(),
    }
}

pub fn ids(list: &[MessageId]) -> String {
    list.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn outcome_text(verb: &str, o: &OperationOutcome) -> String {
    let mut out = format!("{verb} {} message(s): {}", o.sources.len(), ids(&o.sources));
    if let Some(m) = &o.message {
        out.push_str(&format!("\nnew message {}", m.id));
    }
    if let Some(op) = &o.operation {
        out.push_str(&format!("\noperation {}", op.id));
    }
    for p in &o.added_partners {
        out.push_str(&format!(
            "\nalso included {} (the tool {} of `{}`), so the call and its result stay together",
            p.message, p.side, p.tool_use_id
        ));
    }
    if o.reapplied > 0 {
        out.push_str(&format!(
            "\nthe conversation changed meanwhile; re-applied on the newer thread ({}×)",
            o.reapplied
        ));
    }
    out.push_str(&format!(
        "\nnow on thread {} ({} messages); `squash undo {}` restores the previous one",
        o.thread.id, o.thread.message_count, o.conversation_id
    ));
    out
}
