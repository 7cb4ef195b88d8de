//! Squash over HTTP: a JSON API (with server-sent events for the long operations and an
//! OpenAPI description at `/api/openapi.json`) and a web UI, served by one router.
//!
//! Everything here is an interface over `squash-app`'s services: no SQL, no provider HTTP.
//! Pages are rendered on the server with maud (every interpolation escaped); one small
//! embedded script drives selection, the Squash menu, streaming and dialogs.

pub mod api;
mod body_limit;
mod error;
mod etag;
mod previews;
mod remedy;
pub mod security;
mod sse;
mod state;
mod views;

use std::future::Future;
use std::net::SocketAddr;

use axum::http::header::{
    CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::{middleware, Router};
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

pub use body_limit::API_BODY_LIMIT;
pub use error::{ApiCode, ApiError};
pub use state::{AppState, ModelChoice};

/// No inline script or style, no plugins, no framing, images only from here or inline data:
/// even if some message content slipped through escaping, it could not run.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                   frame-ancestors 'none'";

/// The whole application: API, pages, static assets, behind the security guard.
pub fn router(state: AppState) -> Router {
    Router::new()
        .merge(api::router())
        .merge(views::router())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            security::guard,
        ))
        .layer(header(CONTENT_SECURITY_POLICY, CSP))
        .layer(header(X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(X_FRAME_OPTIONS, "DENY"))
        .layer(header(REFERRER_POLICY, "no-referrer"))
        // gzip or brotli, as the client accepts. tower-http's default predicate leaves
        // `text/event-stream` alone (and bodies under 32 bytes), so every server-sent event
        // still leaves as soon as it is sent; a test checks that.
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

fn header(
    name: axum::http::HeaderName,
    value: &'static str,
) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

/// Serves `state` on `listener` until `shutdown` completes; then live-update streams end and
/// the requests under way finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let closing = state.closing().clone();
    axum::serve(listener, router(state))
        .with_graceful_shutdown(async move {
            shutdown.await;
            closing.cancel();
        })
        .await
}

/// Refuses to listen beyond this machine without a token.
pub fn check_bind(addr: &SocketAddr, token: Option<&str>) -> Result<(), String> {
    let has_token = token.is_some_and(|t| !t.trim().is_empty());
    if addr.ip().is_loopback() || has_token {
        Ok(())
    } else {
        Err(format!(
            "listening on {addr} makes Squash reachable from other machines; that needs an \
             access token: pass --token TOKEN or set SQUASH_TOKEN (or listen on 127.0.0.1)"
        ))
    }
}

async fn not_found(uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        ApiError::not_found(format!("no API route {}", uri.path())).into_response()
    } else {
        views::errors::error_page(StatusCode::NOT_FOUND, "There is no page at this address.")
    }
}

async fn method_not_allowed() -> Response {
    ApiError::new(
        ApiCode::MethodNotAllowed,
        "this route does not accept that method",
    )
    .into_response()
}
