//! The scripts and the stylesheet, embedded in the binary: nothing to build, nothing
//! to install.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;

const SCRIPT: &str = include_str!("../../static/app.js");
const LIVE: &str = include_str!("../../static/live.js");
const STYLE: &str = include_str!("../../static/app.css");

pub async fn script() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        SCRIPT,
    )
}

/// Live updates (server-sent events), apart from the page script.
pub async fn live() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        LIVE,
    )
}

pub async fn style() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/css; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        STYLE,
    )
}
