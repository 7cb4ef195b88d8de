//! Entity tags for thread reads: `If-None-Match` answered with 304 before anything is rendered.
//!
//! A thread is immutable except for appends, which bump its `revision`; every write to a
//! conversation (append, squash, edit, undo, switch, rename) also moves the conversation's
//! `updated_at`. So the conversation row plus the thread's header identify everything a thread
//! answer holds, at the cost of two one-row reads instead of the whole thread. The raw query
//! string is part of the tag (a page of a thread is not the whole thread), and so is the
//! running binary ([`build_epoch`]): a new build may render the same data differently.
//!
//! The tags are weak (`W/"…"`): the same data is sent gzip-, brotli- or un-compressed, which
//! are different bytes; `If-None-Match` compares weakly anyway, so 304s work the same.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::OnceLock;

use axum::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use squash_core::{Conversation, Thread};

use crate::state::{AppState, ModelChoice};

/// A validator for one answer.
pub struct Tag(HeaderValue);

impl Tag {
    /// The tag of an answer that shows `thread` of `conversation` for the request's `query`;
    /// `extra` is whatever else the answer shows (the page's model status, say).
    pub fn of(
        route: &str,
        conversation: &Conversation,
        thread: &Thread,
        query: Option<&str>,
        extra: &str,
    ) -> Tag {
        let mut h = DefaultHasher::new();
        build_epoch().hash(&mut h);
        route.hash(&mut h);
        conversation.id.to_string().hash(&mut h);
        conversation.display_name.hash(&mut h);
        conversation.current_thread_id.to_string().hash(&mut h);
        conversation.updated_at.timestamp_micros().hash(&mut h);
        thread.id.to_string().hash(&mut h);
        thread.revision.hash(&mut h);
        thread.message_count.hash(&mut h);
        query.unwrap_or("").hash(&mut h);
        extra.hash(&mut h);
        // Revision in clear, for people reading headers; the hash makes it unique.
        let value = format!("W/\"r{}-{:016x}\"", thread.revision, h.finish());
        Tag(HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("W/\"0\"")))
    }

    /// Whether the client already holds this answer (`If-None-Match` names the tag or `*`).
    pub fn matches(&self, headers: &HeaderMap) -> bool {
        let ours = opaque(self.0.to_str().unwrap_or_default());
        headers
            .get_all(IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .any(|candidate| candidate == "*" || opaque(candidate) == ours)
    }

    /// 304 with the tag, no body.
    pub fn not_modified(&self) -> Response {
        self.stamp(StatusCode::NOT_MODIFIED.into_response())
    }

    /// `response` carrying the tag; clients must ask again each time (`no-cache`), which is
    /// cheap with the tag. `private`: the answer may be behind a token.
    pub fn stamp(&self, mut response: Response) -> Response {
        let headers = response.headers_mut();
        headers.insert(ETAG, self.0.clone());
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
        response
    }
}

/// What a page shows besides the conversation's data: the model (or why there is none) and
/// the options that size the context meter and the dialogs.
pub fn server_facts(state: &AppState) -> String {
    let model = match state.model_choice() {
        ModelChoice::Ready(m) => format!("{:?}", m.info()),
        ModelChoice::Missing(reason) => format!("missing: {reason}"),
    };
    format!(
        "{model}|{:?}|{:?}|{}",
        state.chat_options(),
        state.squash_options(),
        state.default_project()
    )
}

/// The tag without its weakness marker: `If-None-Match` uses the weak comparison.
fn opaque(tag: &str) -> &str {
    tag.strip_prefix("W/").unwrap_or(tag)
}

/// Identifies the running binary: its version, and the size and modification time of the
/// executable. Servers started from the same file agree (so a tag from one is good at another
/// behind a load balancer); a rebuilt or upgraded binary starts over.
fn build_epoch() -> u64 {
    static EPOCH: OnceLock<u64> = OnceLock::new();
    *EPOCH.get_or_init(|| {
        let mut h = DefaultHasher::new();
        env!("CARGO_PKG_VERSION").hash(&mut h);
        if let Some(meta) = std::env::current_exe()
            .ok()
            .and_then(|p| std::fs::metadata(p).ok())
        {
            meta.len().hash(&mut h);
            if let Ok(modified) = meta.modified() {
                modified.hash(&mut h);
            }
        }
        h.finish()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(value: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(IF_NONE_MATCH, HeaderValue::from_static(value));
        h
    }

    #[test]
    fn if_none_match_compares_weakly_and_takes_lists_and_stars() {
        let tag = Tag(HeaderValue::from_static("W/\"r3-abc\""));
        assert!(tag.matches(&headers("W/\"r3-abc\"")));
        assert!(tag.matches(&headers("\"r3-abc\"")));
        assert!(tag.matches(&headers("\"x\", W/\"r3-abc\"")));
        assert!(tag.matches(&headers("*")));
        assert!(!tag.matches(&headers("W/\"r4-abc\"")));
        assert!(!tag.matches(&HeaderMap::new()));
    }
}
