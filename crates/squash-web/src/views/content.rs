//! Every content type, rendered readably. Message content is untrusted: all of it goes
//! through maud's escaping, except markdown (assistant and user text), which
//! [`super::markdown`] renders with raw HTML escaped.
//!
//! On the conversation page a tool call is one card that also shows its result (status,
//! duration, output), looked up in [`Tools`]; the message holding the result then only
//! points at the card. Elsewhere (provenance, previews) every item stands alone.

use std::collections::HashMap;

use chrono::{DateTime, TimeDelta, Utc};
use maud::{html, Markup, PreEscaped};
use squash_app::SubagentRun;
use squash_core::{
    ContentItem, ImageSource, Message, MessageId, Role, SystemLevel, ToolResultData,
};

use super::markdown;
use super::text::{compact, shorten};
pub use super::tool_facts::{format_duration, input_summary, ToolStatus};

/// Output lines shown before the rest is folded away.
const PREVIEW_LINES: usize = 4;
/// Output characters shown before the rest is folded away (one very long line).
const PREVIEW_CHARS: usize = 400;
/// System text past this many lines or characters is folded to its first line.
const LONG_LINES: usize = 6;
const LONG_CHARS: usize = 600;
/// Output beyond this many bytes stays on the server until asked for: a page of 50 messages
/// with 100 KB file reads would otherwise weigh megabytes.
const INLINE_OUTPUT_BYTES: usize = 4 * 1024;

/// Where the calls and results of the shown messages are, by tool-use id.
#[derive(Default)]
pub struct Tools<'a> {
    calls: HashMap<&'a str, Site>,
    results: HashMap<&'a str, ResultSite<'a>>,
    /// The sub-agent runs the calls started: each shown, folded, in its call's card.
    runs: HashMap<&'a str, &'a SubagentRun>,
    /// Messages listed under another, numbered `#N` in their list rather than `@N` in the thread.
    nested: bool,
}

#[derive(Clone, Copy)]
struct Site {
    position: usize,
    /// When the message was written; `None` for one an operation made (an edit, a mask),
    /// whose time says nothing about how long the tool ran.
    at: Option<DateTime<Utc>>,
}

#[derive(Clone, Copy)]
struct ResultSite<'a> {
    site: Site,
    result: &'a [ToolResultData],
    is_error: bool,
    source: OutputSource,
}

/// Where an output is stored: its message and the index of the result item in it, for the
/// script to load the rest of a long one.
#[derive(Clone, Copy)]
pub struct OutputSource {
    message: MessageId,
    item: usize,
}

impl<'a> Tools<'a> {
    /// The calls and results of `messages`, the first at `first_position` (1-based).
    pub fn of(messages: &'a [Message], first_position: usize) -> Tools<'a> {
        let mut tools = Tools::default();
        for (i, m) in messages.iter().enumerate() {
            let site = Site {
                position: first_position + i,
                at: m.squash_operation_id.is_none().then_some(m.created_at),
            };
            for (index, item) in m.content.iter().enumerate() {
                match item {
                    ContentItem::ToolCall { id, .. } => {
                        tools.calls.entry(id.as_str()).or_insert(site);
                    }
                    ContentItem::ToolResult {
                        tool_use_id,
                        result,
                        is_error,
                        ..
                    } => {
                        tools
                            .results
                            .entry(tool_use_id.as_str())
                            .or_insert(ResultSite {
                                site,
                                result,
                                is_error: *is_error,
                                source: OutputSource {
                                    message: m.id,
                                    item: index,
                                },
                            });
                    }
                    _ => {}
                }
            }
        }
        tools
    }

    /// These tools with the sub-agent runs `runs`, found by the calls that started them.
    pub fn with_runs(mut self, runs: &'a [SubagentRun]) -> Tools<'a> {
        self.runs = runs.iter().map(|r| (r.call_id.as_str(), r)).collect();
        self
    }

    /// These tools for messages listed under another (see `nested`).
    pub fn nested(mut self) -> Tools<'a> {
        self.nested = true;
        self
    }

    /// The result shown in the card of call `id` made at `position`: one that comes after it.
    fn result_of(&self, id: &str, position: usize) -> Option<ResultSite<'a>> {
        self.results
            .get(id)
            .copied()
            .filter(|r| r.site.position > position)
    }

    /// Whether the result `id` at `position` is shown in its call's card above.
    fn shown_with_call(&self, id: &str, position: usize) -> Option<usize> {
        let call = self.calls.get(id)?;
        (call.position < position
            && self
                .result_of(id, call.position)
                .is_some_and(|r| r.site.position == position))
        .then_some(call.position)
    }

    /// A message of tool results only, each shown with its call: the page attaches it to the
    /// call's message instead of giving it a card of its own.
    pub fn attached(&self, position: usize, m: &Message) -> bool {
        !m.content.is_empty()
            && m.content.iter().all(|item| match item {
                ContentItem::ToolResult { tool_use_id, .. } => {
                    self.shown_with_call(tool_use_id, position).is_some()
                }
                _ => false,
            })
    }
}

/// Image types shown inline from base64 data; they cannot run script (SVG could).
const INLINE_IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// A message's content on its own (provenance, previews): every item stands alone.
pub fn message_body(message: &Message) -> Markup {
    message_body_with(message, 0, &Tools::default())
}

/// A message's content at `position` of the page whose calls and results are in `tools`.
pub fn message_body_with(message: &Message, position: usize, tools: &Tools) -> Markup {
    html! {
        @for (index, item) in message.content.iter().enumerate() {
            (item_in_page(item, message, position, tools, OutputSource { message: message.id, item: index }))
        }
    }
}

fn item_in_page(
    item: &ContentItem,
    message: &Message,
    position: usize,
    tools: &Tools,
    source: OutputSource,
) -> Markup {
    match item {
        ContentItem::ToolCall { id, name, input } => {
            let result = tools.result_of(id, position);
            let result = result.map(|r| {
                let ran = match (message.squash_operation_id, r.site.at) {
                    (None, Some(done)) => Some(done - message.created_at),
                    _ => None,
                };
                (r, ran)
            });
            let run = tools.runs.get(id.as_str()).copied();
            tool_card(Call { id, name, input }, result, run)
        }
        ContentItem::ToolResult {
            tool_use_id,
            tool_name,
            result,
            is_error,
        } => match tools.shown_with_call(tool_use_id, position) {
            Some(call_position) => {
                let status = ToolStatus::of(result, *is_error);
                html! {
                    a.tool-ref href={ "#call-" (tool_use_id) } {
                        "↳ " code { (tool_name) } " "
                        span class=(status.class()) { (status.label()) }
                        " · output shown with its call at " (if tools.nested { "#" } else { "@" }) (call_position)
                    }
                }
            }
            None => item_view(item, message.role, source),
        },
        other => item_view(other, message.role, source),
    }
}

/// A tool call as its message holds it.
struct Call<'a> {
    id: &'a str,
    name: &'a str,
    input: &'a serde_json::Value,
}

/// One card per tool call: name, what it was asked, and when its result is in view, the
/// status, the time it took and the output (its first lines, the rest folded); under it, the
/// sub-agent run it started, folded.
fn tool_card(
    Call { id, name, input }: Call,
    result: Option<(ResultSite, Option<TimeDelta>)>,
    run: Option<&SubagentRun>,
) -> Markup {
    let status = result.map(|(r, _)| ToolStatus::of(r.result, r.is_error));
    let class = match status {
        Some(ToolStatus::Error { .. }) => "tool-card tool-error",
        _ => "tool-card",
    };
    html! {
        div class=(class) id={ "call-" (id) } {
            div.tool-head {
                span.kind { "Tool" } " "
                code.tool-name { (name) } " "
                span.tool-input.muted { (input_summary(input)) }
                @if let Some(status) = status {
                    span class=(status.class()) { (status.label()) }
                }
                @if let Some(took) = result.and_then(|(_, d)| d).and_then(format_duration) {
                    span.tool-duration.muted.small title="From the call to its result" { (took) }
                }
            }
            details.tool.tool-call {
                summary.small.muted { "Input" }
                pre.json { (pretty(input)) }
                div.muted.small { "call id " code { (id) } }
            }
            @if let Some((r, _)) = result {
                (output_view(r.result, r.source))
            }
            @if let Some(run) = run {
                (super::run_fold::run_fold(run))
            }
        }
    }
}

/// A tool's output: a few lines in view, the rest behind a native disclosure, and of a long
/// output only its first [`INLINE_OUTPUT_BYTES`] with a button that loads the rest.
fn output_view(result: &[ToolResultData], source: OutputSource) -> Markup {
    html! {
        @for (part, data) in result.iter().enumerate() {
            @match data {
                ToolResultData::Text { text } => {
                    @match preview_of(text) {
                        None => pre.output { (text) },
                        Some((head, hidden_lines)) => {
                            pre.output.output-preview { (head) "…" }
                            details.tool-output {
                                summary.small { "Show all " (text.lines().count()) " lines"
                                    @if hidden_lines > 0 { " (" (hidden_lines) " more)" } }
                                @match inline_head(text) {
                                    None => pre.output { (text) },
                                    Some(head) => {
                                        pre.output { (head) }
                                        button.load-output type="button" data-message=(source.message)
                                            data-item=(source.item) data-part=(part) {
                                            "Load the remaining " (text[head.len()..].lines().count()) " lines ("
                                            (size_words(text.len() - head.len())) ")"
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                other => (result_view(other)),
            }
        }
    }
}

/// The part of a long output sent with the page: whole lines up to [`INLINE_OUTPUT_BYTES`];
/// `None` when the output is short enough to send whole.
fn inline_head(text: &str) -> Option<&str> {
    if text.len() <= INLINE_OUTPUT_BYTES {
        return None;
    }
    let mut cut = INLINE_OUTPUT_BYTES;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = &text[..cut];
    Some(match head.rfind('\n') {
        Some(end) if end > 0 => &head[..=end],
        _ => head,
    })
}

/// The head of an output too long to show whole and how many lines it leaves out; `None`
/// when it is short enough to show as it is.
pub fn preview_of(text: &str) -> Option<(String, usize)> {
    let text = text.trim_end();
    let lines = text.lines().count();
    if lines <= PREVIEW_LINES && text.chars().count() <= PREVIEW_CHARS {
        return None;
    }
    let head: String = text
        .lines()
        .take(PREVIEW_LINES)
        .collect::<Vec<_>>()
        .join("\n")
        .chars()
        .take(PREVIEW_CHARS)
        .collect();
    Some((head, lines.saturating_sub(PREVIEW_LINES)))
}

/// Whether system text is long enough to fold to its first line.
pub fn is_long(text: &str) -> bool {
    text.lines().count() > LONG_LINES || text.chars().count() > LONG_CHARS
}

fn folded(kind: &str, text: &str, body: Markup) -> Markup {
    html! {
        details.long-text {
            summary {
                span.kind { (kind) } " "
                span.muted { (shorten(text, 90)) }
                " " span.muted.small { "(" (text.lines().count()) " lines, " (text.chars().count()) " characters)" }
            }
            (body)
        }
    }
}

fn item_view(item: &ContentItem, role: Role, source: OutputSource) -> Markup {
    match item {
        ContentItem::UserMessage { text } if role == Role::System && is_long(text) => {
            folded("System prompt", text, html! { div.text.plain { (text) } })
        }
        ContentItem::UserMessage { text } if role == Role::System => {
            html! { div.text.plain { (text) } }
        }
        ContentItem::UserMessage { text } => html! {
            div.text.markdown.user-markdown { (PreEscaped(markdown::render_user(text))) }
        },
        ContentItem::AssistantMessage { structured } => html! {
            div.text.markdown { (PreEscaped(markdown::render(&structured.full_text))) }
            @if let Some(tone) = &structured.voice_tone {
                div.muted.small { "voice tone: " (tone) }
            }
        },
        ContentItem::ToolCall { id, name, input } => html! {
            details.tool.tool-call {
                summary {
                    span.kind { "Tool call" } " " code { (name) } " "
                    span.muted { (shorten(&compact(input), 80)) }
                }
                pre.json { (pretty(input)) }
                div.muted.small { "call id " code { (id) } }
            }
        },
        ContentItem::ToolResult {
            tool_use_id,
            tool_name,
            result,
            is_error,
        } => html! {
            details.tool.tool-result.tool-error[ToolStatus::of(result, *is_error) != ToolStatus::Ok] {
                summary {
                    span.kind { @if *is_error { "Tool error" } @else { "Tool result" } }
                    " " code { (tool_name) } " "
                    span class=(ToolStatus::of(result, *is_error).class()) { (ToolStatus::of(result, *is_error).label()) } " "
                    span.muted { (shorten(&first_text(result), 80)) }
                }
                (output_view(result, source))
                div.muted.small { "for call " code { (tool_use_id) } }
            }
        },
        ContentItem::Thinking { thinking, .. } => html! {
            details.thinking {
                summary { span.kind { "Thinking" } " " span.muted { (shorten(thinking, 80)) } }
                div.text.plain { (thinking) }
            }
        },
        ContentItem::System { level, content, .. } if is_long(content) => html! {
            div class={ "system level-" (level.as_str()) } {
                (folded(if *level == SystemLevel::Info { "system" } else { level.as_str() }, content, html! { div.text.plain { (content) } }))
            }
        },
        ContentItem::System { level, content, .. } => html! {
            div class={ "system level-" (level.as_str()) } {
                span.level { (level.as_str()) }
                " "
                span.text.plain { (content) }
            }
        },
        ContentItem::Image { source } => image_view(source),
        ContentItem::UnknownJson { json } => html! {
            details.unknown {
                summary { span.kind { "Unknown content" } }
                pre.json { (pretty(json)) }
            }
        },
    }
}

fn result_view(data: &ToolResultData) -> Markup {
    match data {
        ToolResultData::Text { text } => html! { pre.output { (text) } },
        ToolResultData::Base64 { media_type, data } => {
            if INLINE_IMAGE_TYPES.contains(&media_type.as_str()) {
                html! { img.inline-image src={ "data:" (media_type) ";base64," (data) } alt="tool output image"; }
            } else {
                html! { div.muted { "[" (media_type) ", " (data.len()) " bytes base64]" } }
            }
        }
        ToolResultData::Url { url } => link(url),
        ToolResultData::File { path, .. } => html! { div { "file " code { (path) } } },
    }
}

/// An image is an attachment: folded to one line saying what it is, shown when opened.
fn image_view(source: &ImageSource) -> Markup {
    let what = match source {
        ImageSource::Base64 { media_type, data } => {
            format!("{media_type}, {}", size_words(data.len() / 4 * 3))
        }
        ImageSource::Url { url } => shorten(url, 60),
        ImageSource::File { path } => shorten(path, 60),
    };
    html! {
        details.attachment {
            summary { span.kind { "Image attachment" } " " span.muted { (what) } }
            (image_inline(source))
        }
    }
}

fn size_words(bytes: usize) -> String {
    match bytes {
        b if b < 1024 => format!("{b} bytes"),
        b if b < 1024 * 1024 => format!("{} KB", b / 1024),
        b => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
    }
}

fn image_inline(source: &ImageSource) -> Markup {
    match source {
        ImageSource::Base64 { media_type, data }
            if INLINE_IMAGE_TYPES.contains(&media_type.as_str()) =>
        {
            html! { img.inline-image src={ "data:" (media_type) ";base64," (data) } alt="image"; }
        }
        ImageSource::Base64 { media_type, data } => {
            html! { div.muted { "[image " (media_type) ", " (data.len()) " bytes]" } }
        }
        // Remote images are not fetched by themselves: a link the person may follow.
        ImageSource::Url { url } => html! { div { "image: " (link(url)) } },
        ImageSource::File { path } => html! { div { "image file " code { (path) } } },
    }
}

fn link(url: &str) -> Markup {
    if markdown::is_safe_url(url) {
        html! { a href=(url) rel="noopener noreferrer nofollow" target="_blank" { (url) } }
    } else {
        html! { code { (url) } }
    }
}

fn first_text(result: &[ToolResultData]) -> String {
    result
        .iter()
        .find_map(|d| match d {
            ToolResultData::Text { text } => text.lines().find(|l| !l.trim().is_empty()),
            _ => None,
        })
        .unwrap_or("")
        .to_owned()
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

#[cfg(test)]
#[path = "content_tests.rs"]
mod tests;
