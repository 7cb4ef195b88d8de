//! The one script and the one stylesheet, embedded in the binary: nothing to build, nothing
//! to install.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;

const SCRIPT: &str = include_str!("../../static/app.js");
const STYLE: &str = include_str!("../../static/app.css");
const SIDEBAR_SCRIPT: &str = include_str!("../../static/sidebar.js");
const SIDEBAR_STYLE: &str = include_str!("../../static/sidebar.css");

pub async fn script() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        SCRIPT,
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
