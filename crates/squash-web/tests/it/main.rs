//! The HTTP API and the web UI: in-process requests, a real HTTP server, headless Chromium.
//!
//! One test binary for the whole crate (each module was a binary of its own): the stack is
//! compiled and linked once. Shared support comes from `squash-testkit`.

mod api;
mod browser;
mod e2e;
mod e2e_sidebar;
mod http;
mod shared_answers;

/// A response's whole body.
async fn body_bytes<B>(response: axum::http::Response<B>) -> axum::body::Bytes
where
    B: axum::body::HttpBody,
    B::Error: std::fmt::Debug,
{
    use http_body_util::BodyExt;
    response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
}
