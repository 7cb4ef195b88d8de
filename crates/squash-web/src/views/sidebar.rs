//! The sidebar of the home and conversation pages: search, import, and the conversations
//! grouped by project (newest first, with their size) with rename, delete and export. Its
//! script is static/sidebar.js; the templates below are what the script clones for search
//! hits, so that it only sets text.

use maud::{html, Markup};
use squash_app::ConversationSummary;
use squash_core::tokens::format_compact;
use squash_core::ConversationId;

use super::errors::PageError;
use crate::state::AppState;

/// The export formats offered (`GET /api/conversations/{id}/export?format=…`), with labels.
const EXPORTS: &[(&str, &str)] = &[
    ("markdown", "Markdown"),
    ("json", "Squash JSON (lossless)"),
    ("claude-code", "Claude Code session"),
    ("codex", "Codex session"),
];

/// The sidebar, with `current` marked (and search scoped to it by default) on its page.
pub async fn sidebar(
    state: &AppState,
    current: Option<ConversationId>,
) -> Result<Markup, PageError> {
    let service = state.service();
    let summaries = service.conversation_summaries(None).await?;
    let paths = service.project_paths().await?;
    // Projects ordered by their newest conversation; the listing is newest first already.
    let mut groups: Vec<(&str, Vec<&ConversationSummary>)> = Vec::new();
    for s in &summaries {
        let path = paths
            .get(&s.conversation.project_id)
            .map_or("(unknown project)", String::as_str);
        match groups.iter_mut().find(|(p, _)| *p == path) {
            Some((_, list)) => list.push(s),
            None => groups.push((path, vec![s])),
        }
    }
    Ok(html! {
        button #sidebar-toggle.sidebar-toggle type="button" aria-controls="sidebar" aria-expanded="false" {
            "☰ Conversations & search"
        }
        aside #sidebar.sidebar data-current=[current] {
            (search_box(current))
            div.sidebar-actions {
                button #import-btn type="button" title="Import a session file: Claude Code, Codex, ChatGPT, OpenAI or Anthropic JSON, Gromozeka, Squash JSON" { "Import…" }
                input #import-file type="file" hidden multiple;
                a.button-link href="/" { "All conversations" }
            }
            div #import-drop.import-drop { "…or drop session files here" }
            div #import-progress.import-progress hidden {
                progress #import-bar max="100" value="0" {}
                span #import-status aria-live="polite" {}
            }
            nav.sidebar-conversations aria-label="Conversations" {
                @if groups.is_empty() {
                    p.empty { "No conversations yet." }
                }
                @for (path, list) in &groups {
                    section.sidebar-project {
                        h3 title=(path) { (path) }
                        ul {
                            @for s in list {
                                (entry(s, current))
                            }
                        }
                    }
                }
            }
        }
    })
}

fn search_box(current: Option<ConversationId>) -> Markup {
    html! {
        form #search-form.search-form role="search" {
            input #search-input type="search" name="q" placeholder="Search messages" aria-label="Search messages" autocomplete="off";
            button type="submit" { "Search" }
            @if current.is_some() {
                label.search-scope {
                    input #search-scope type="checkbox" checked;
                    " This conversation only"
                }
            }
        }
        div.search-found {
            span #search-status.muted.small aria-live="polite" {}
            @if current.is_some() {
                button #search-select type="button" hidden title="Select these messages in the thread, e.g. to squash them" { "Select hits" }
            }
        }
        ol #search-results.search-results {}
        template #search-hit-template {
            li.search-hit {
                a.search-hit-link {
                    span.search-hit-head {
                        span.search-hit-conversation {}
                        span.search-hit-where.muted.small {}
                    }
                    span.search-hit-snippet {}
                }
            }
        }
        template #search-mark-template { mark {} }
    }
}

fn entry(s: &ConversationSummary, current: Option<ConversationId>) -> Markup {
    let c = &s.conversation;
    let is_current = current == Some(c.id);
    html! {
        li.sidebar-conversation.current[is_current] data-id=(c.id) {
            div.sidebar-row {
                a.sidebar-link href={ "/c/" (c.id) } aria-current=[is_current.then_some("page")] { (c.display_name) }
                span.sidebar-size.muted.small title={ (s.message_count) " messages, about " (s.tokens) " tokens" } {
                    (format_compact(s.tokens)) " tok"
                }
            }
            div.sidebar-entry-actions {
                button.sidebar-rename type="button" { "Rename" }
                button.sidebar-delete.danger type="button" { "Delete" }
                details.sidebar-export {
                    summary { "Export" }
                    ul {
                        @for (format, label) in EXPORTS {
                            li { a href={ "/api/conversations/" (c.id) "/export?format=" (format) } download { (label) } }
                        }
                    }
                }
            }
            form.sidebar-rename-form hidden {
                input name="name" value=(c.display_name) aria-label="New name" required;
                button.primary type="submit" { "Save" }
                button.sidebar-rename-cancel type="button" { "Cancel" }
            }
        }
    }
}
