//! The scripts and stylesheets, embedded in the binary: nothing to build, nothing to install.
//! `app.*` run the page; `reader.*` add reading (tool cards, dark theme, sheets) and the
//! keyboard; `live.js` follows changes made elsewhere (server-sent events); `resume.js`, served
//! as the end of `app.js`, writes a conversation as an agent's session, and `originals.js`,
//! served after it, opens the originals under messages and sub-agent runs under their calls.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;

/// The page script, and its "Resume in…" part kept in a file of its own (one script for the
/// page all the same).
const SCRIPT: &str = concat!(
    include_str!("../../static/app.js"),
    include_str!("../../static/resume.js"),
    include_str!("../../static/originals.js")
);
const LIVE: &str = include_str!("../../static/live.js");
const STYLE: &str = include_str!("../../static/app.css");
const READER_SCRIPT: &str = include_str!("../../static/reader.js");
/// The reading styles, with those of the originals opened under messages (`originals.js`).
const READER_STYLE: &str = concat!(
    include_str!("../../static/reader.css"),
    include_str!("../../static/originals.css")
);
const SIDEBAR_SCRIPT: &str = include_str!("../../static/sidebar.js");
const SIDEBAR_STYLE: &str = include_str!("../../static/sidebar.css");

pub async fn script() -> impl IntoResponse {
    javascript(SCRIPT)
}

pub async fn style() -> impl IntoResponse {
    css(STYLE)
}

pub async fn reader_script() -> impl IntoResponse {
    javascript(READER_SCRIPT)
}

pub async fn reader_style() -> impl IntoResponse {
    css(READER_STYLE)
}

fn javascript(body: &'static str) -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// Live updates (server-sent events), apart from the page script.
pub async fn live() -> impl IntoResponse {
    javascript(LIVE)
}

fn css(body: &'static str) -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/css; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

pub async fn sidebar_script() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        SIDEBAR_SCRIPT,
    )
}

pub async fn sidebar_style() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/css; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        SIDEBAR_STYLE,
    )
}
