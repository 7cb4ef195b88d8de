//! Every content type, rendered readably. Message content is untrusted: all of it goes
//! through maud's escaping, except assistant markdown, which [`super::markdown`] renders
//! with raw HTML escaped.

use maud::{html, Markup, PreEscaped};
use squash_core::{ContentItem, ImageSource, Message, ToolResultData};

use super::markdown;

/// Image types shown inline from base64 data; they cannot run script (SVG could).
const INLINE_IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

pub fn message_body(message: &Message) -> Markup {
    html! {
        @for item in &message.content {
            (item_view(item))
        }
    }
}

pub fn item_view(item: &ContentItem) -> Markup {
    match item {
        ContentItem::UserMessage { text } => html! { div.text.plain { (text) } },
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
            details.tool.tool-result.tool-error[*is_error] {
                summary {
                    span.kind { @if *is_error { "Tool error" } @else { "Tool result" } }
                    " " code { (tool_name) } " "
                    span.muted { (shorten(&first_text(result), 80)) }
                }
                @for data in result {
                    (result_view(data))
                }
                div.muted.small { "for call " code { (tool_use_id) } }
            }
        },
        ContentItem::Thinking { thinking, .. } => html! {
            details.thinking {
                summary { span.kind { "Thinking" } " " span.muted { (shorten(thinking, 80)) } }
                div.text.plain { (thinking) }
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

fn image_view(source: &ImageSource) -> Markup {
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

fn compact(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The first line, at most `max` characters.
pub fn shorten(text: &str, max: usize) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut out: String = line.chars().take(max).collect();
    if line.chars().count() > max || text.trim().lines().count() > 1 {
        out.push('…');
    }
    out
}
