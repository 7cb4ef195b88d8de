//! Nothing hidden: under each message a fit or squash made, "show the original" opens the
//! messages it stands for, as they were, a page at a time (a digest can stand for thousands);
//! under the call that started a sub-agent, its run, folded with its size. Both are fragments
//! the page script loads into place (static/originals.js). Their messages are rendered as the
//! thread renders its own, so a source that is itself a squash has its own "show the original".

use axum::extract::State;
use maud::{html, Markup};
use squash_app::MessagePage;
use squash_core::tokens::format_count;
use squash_core::{ConversationId, Message, SquashOperationId};

use super::content::message_body_with;
use super::message::{self, Context};
use crate::api::paging::OffsetQuery;
use crate::api::{IdPath, Query};
use crate::error::ApiError;
use crate::state::AppState;

/// Messages an opening shows, and each "show more" adds: about a screenful.
pub const PAGE: u32 = 20;

/// `/ui/operations/{id}/sources?offset=&limit=`: a page of the messages operation `id`
/// replaced, in conversation order.
pub async fn sources_fragment(
    State(state): State<AppState>,
    IdPath(id): IdPath<SquashOperationId>,
    Query(query): Query<OffsetQuery>,
) -> Result<Markup, ApiError> {
    let (offset, limit) = query.get(PAGE);
    let _turn = state.read_turn().await?;
    let sources = state.service().operation_sources(id, offset, limit).await?;
    let page = &sources.page;
    Ok(html! {
        @if page.offset == 0 {
            p.originals-caption.muted.small {
                @match page.total {
                    1 => "The message it stands for, as it was:",
                    n => { "The " (format_count(n)) " messages it stands for, as they were:" }
                }
            }
        }
        (page_view(page, Listing::Sources(id), limit))
    })
}

/// `/ui/conversations/{id}/run?offset=&limit=`: a page of a sub-agent's run (its
/// conversation's current thread), for the fold under the call that started it.
pub async fn run_fragment(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    Query(query): Query<OffsetQuery>,
) -> Result<Markup, ApiError> {
    let (offset, limit) = query.get(PAGE);
    let _turn = state.read_turn().await?;
    let page = state.service().current_page(id, offset, limit).await?;
    Ok(page_view(&page, Listing::Run(id), limit))
}

/// What a page lists, for the address of the next one.
#[derive(Clone, Copy)]
enum Listing {
    Sources(SquashOperationId),
    Run(ConversationId),
}

impl Listing {
    fn url(self, offset: u64, limit: u32) -> String {
        match self {
            Listing::Sources(op) => {
                format!("/ui/operations/{op}/sources?offset={offset}&limit={limit}")
            }
            Listing::Run(c) => format!("/ui/conversations/{c}/run?offset={offset}&limit={limit}"),
        }
    }
}

/// The page's messages, numbered in the whole list, and a button for the next page.
fn page_view(page: &MessagePage, listing: Listing, limit: u32) -> Markup {
    let first = page.offset as usize + 1;
    let ctx = Context::new(
        &page.messages,
        first,
        &page.operations,
        &page.runs,
        squash_core::time::now(),
    )
    .nested();
    let shown = page.offset + page.messages.len() as u64;
    let left = page.total.saturating_sub(shown);
    html! {
        @if page.total == 0 {
            p.muted.small { "No messages." }
        }
        ol.originals-list start=(first) tabindex="-1"
            aria-label={ "Messages " (first) "–" (shown) " of " (page.total) } {
            @for ((n, m), tokens) in (first..).zip(&page.messages).zip(&page.message_tokens) {
                (item(n, page.total, m, *tokens, &ctx))
            }
        }
        @if left > 0 && !page.messages.is_empty() {
            button.originals-more type="button" data-src=(listing.url(shown, limit)) {
                "Show " (format_count(left.min(u64::from(limit)))) " more ("
                (format_count(left)) " of " (format_count(page.total)) " not shown)"
            }
        }
    }
}

/// Message `m`, the `n`-th of `total`: a thread's card without what only the thread's own
/// messages have (selection, edit, delete).
fn item(n: usize, total: u64, m: &Message, tokens: u64, ctx: &Context) -> Markup {
    let attached = ctx.tools.attached(n, m);
    let class = if attached {
        format!("orig-msg role-{} attached", m.role.as_str())
    } else {
        format!("orig-msg role-{}", m.role.as_str())
    };
    html! {
        li class=(class) data-id=(m.id) {
            div.msg-head {
                span.pos title={ "Message " (n) " of " (total) } { "#" (n) }
                @if attached {
                    span.role.tool-role { "↳ tool result" }
                } @else {
                    span.role { (m.role.as_str()) }
                }
                (message::made_by(m, ctx))
                span.msg-tokens.muted.small { (format_count(tokens)) " tokens" }
                (message::time_view(&m.created_at, ctx.now))
            }
            div.msg-body { (message_body_with(m, n, &ctx.tools)) }
            (message::originals_slot(m))
        }
    }
}
