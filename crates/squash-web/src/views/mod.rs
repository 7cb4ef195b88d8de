//! The web UI: server-rendered pages (maud escapes everything it interpolates) plus fragments
//! the page script loads into dialogs and panels. The script only moves server-made HTML and
//! sets text; it never builds markup from data.

mod assets;
mod content;
mod conversation;
mod dialog;
pub mod errors;
mod fit;
mod history;
mod home;
mod layout;
mod markdown;
mod message;
mod originals;
mod preview;
mod provenance;
mod resume;
mod run_fold;
mod shortcuts;
mod sidebar;
mod text;
mod tool_facts;

use axum::routing::get;
use axum::Router;
use chrono::{DateTime, Utc};

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(home::page))
        .route("/c/{id}", get(conversation::page))
        .route("/ui/messages/{id}/provenance", get(provenance::fragment))
        .route(
            "/ui/conversations/{id}/previews/{preview}",
            get(preview::fragment),
        )
        .route("/ui/conversations/{id}/fit", get(fit::fragment))
        .route(
            "/ui/operations/{id}/sources",
            get(originals::sources_fragment),
        )
        .route("/ui/conversations/{id}/run", get(originals::run_fragment))
        .route(
            "/ui/conversations/{id}/messages",
            get(conversation::messages_fragment),
        )
        .route("/static/app.js", get(assets::script))
        .route("/static/live.js", get(assets::live))
        .route("/static/app.css", get(assets::style))
        .route("/static/reader.js", get(assets::reader_script))
        .route("/static/reader.css", get(assets::reader_style))
        .route("/static/sidebar.js", get(assets::sidebar_script))
        .route("/static/sidebar.css", get(assets::sidebar_style))
}

/// A timestamp as people read it.
fn when(at: &DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%M:%S UTC").to_string()
}

/// The last characters of an id (the random part of a UUIDv7; its start is a timestamp that
/// ids made together share), enough to tell ids apart on screen.
fn short_id(id: &impl std::fmt::Display) -> String {
    let id = id.to_string();
    let start = id.len().saturating_sub(8);
    id.get(start..).unwrap_or(&id).to_owned()
}
