//! The JSON API: one file per resource. [`ROUTES`] lists every route exactly as the router
//! serves it; a test checks it against `openapi.json` both ways.

mod chat;
mod conversations;
mod events;
pub mod fit;
mod messages;
mod model;
mod openapi;
mod operations;
mod originals;
pub mod paging;
mod previews;
mod provenance;
pub mod resume;
mod search;
mod squash;
mod threads;
mod transfer;

use std::str::FromStr;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, patch, post, put};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use squash_app::{ErrorCode, OperationOutcome, ThreadView};
use squash_core::{ConversationId, MessageId, SquashOperationId, ThreadId};

use crate::error::{ApiCode, ApiError};
use crate::state::AppState;

pub use openapi::OPENAPI_JSON;

/// Declares the routes once, for both the router and [`ROUTES`]. Every route has the API's
/// body limit ([`crate::body_limit`]); `, body_limit N` gives a route its own.
macro_rules! routes {
    (@limit) => { crate::body_limit::API_BODY_LIMIT };
    (@limit $limit:expr) => { $limit };
    ($($method:ident $path:literal => $handler:path $(, body_limit $limit:expr)?;)*) => {
        /// Every API route as `(method, path)`, in the router's path syntax (OpenAPI's too).
        pub const ROUTES: &[(&str, &str)] = &[$((stringify!($method), $path)),*];

        pub fn router() -> Router<AppState> {
            Router::new()$(.route(
                $path,
                crate::body_limit::limited($method($handler), routes!(@limit $($limit)?)),
            ))*
        }
    };
}

routes! {
    get "/api/openapi.json" => openapi::spec;
    get "/api/model" => model::status;
    get "/api/projects" => conversations::projects;
    get "/api/conversations" => conversations::list;
    post "/api/conversations" => conversations::create;
    get "/api/conversations/{id}" => conversations::get;
    patch "/api/conversations/{id}" => conversations::rename;
    delete "/api/conversations/{id}" => conversations::delete;
    get "/api/conversations/{id}/thread" => threads::current;
    get "/api/conversations/{id}/history" => threads::history;
    get "/api/conversations/{id}/events" => events::stream;
    post "/api/conversations/{id}/undo" => threads::undo;
    post "/api/conversations/{id}/redo" => threads::redo;
    post "/api/conversations/{id}/switch" => threads::switch;
    get "/api/threads/{id}" => threads::get;
    post "/api/conversations/{id}/messages" => messages::append;
    post "/api/conversations/{id}/messages/delete" => messages::delete_many;
    put "/api/conversations/{id}/messages/{message}" => messages::edit;
    delete "/api/conversations/{id}/messages/{message}" => messages::delete_one;
    get "/api/messages/{id}" => messages::get;
    get "/api/messages/{id}/provenance" => provenance::get;
    post "/api/conversations/{id}/squash/manual" => squash::manual;
    post "/api/conversations/{id}/squash/ai" => squash::ai;
    post "/api/conversations/{id}/fit/preview" => fit::preview;
    post "/api/conversations/{id}/fit" => fit::apply;
    post "/api/conversations/{id}/resume" => resume::resume;
    get "/api/conversations/{id}/previews/{preview}" => previews::get;
    post "/api/conversations/{id}/previews/{preview}/apply" => previews::apply;
    post "/api/conversations/{id}/previews/{preview}/retry" => previews::retry;
    delete "/api/conversations/{id}/previews/{preview}" => previews::discard;
    get "/api/conversations/{id}/operations" => operations::list;
    get "/api/conversations/{id}/subagents" => originals::subagents;
    get "/api/operations/{id}" => operations::get;
    get "/api/operations/{id}/sources" => originals::sources;
    post "/api/operations/{id}/rerun" => operations::rerun;
    post "/api/conversations/{id}/chat" => chat::turn;
    get "/api/conversations/{id}/export" => transfer::export;
    post "/api/import" => transfer::import, body_limit transfer::IMPORT_LIMIT;
    get "/api/search" => search::search;
}

/// A JSON body whose problems answer as `invalid_input` in the API's error shape.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let Json(value) = Json::<T>::from_request(req, state)
            .await
            .map_err(json_rejected)?;
        Ok(Body(value))
    }
}

/// A body that is not the JSON asked for: `invalid_input` (415 without the JSON content type),
/// or the 413 of a body over the limit that did not declare its length, stopped while read.
fn json_rejected(rejection: JsonRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::too_large(crate::body_limit::API_BODY_LIMIT);
    }
    let code = match rejection {
        JsonRejection::MissingJsonContentType(_) => ApiCode::UnsupportedMediaType,
        _ => ApiCode::Service(ErrorCode::InvalidInput),
    };
    // axum's text names the field and the problem, never server internals.
    ApiError::new(code, rejection.body_text())
}

/// A query string, likewise.
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let axum::extract::Query(value) =
            axum::extract::Query::<T>::from_request_parts(parts, state)
                .await
                .map_err(|rejection| ApiError::invalid(rejection.body_text()))?;
        Ok(Query(value))
    }
}

/// An id of the path (its one `{id}`), refused as [`parse_id`] refuses it.
pub struct IdPath<T>(pub T);

/// A conversation id and the id after it (`{id}/…/{message}`), each refused as [`parse_id`]
/// refuses it.
pub struct IdPaths<A, B>(pub A, pub B);

/// An id a path can carry, with the name a refusal gives it.
pub trait PathId: FromStr + Send {
    const WHAT: &'static str;
}

impl PathId for ConversationId {
    const WHAT: &'static str = "conversation";
}

impl PathId for MessageId {
    const WHAT: &'static str = "message";
}

impl PathId for ThreadId {
    const WHAT: &'static str = "thread";
}

impl PathId for SquashOperationId {
    const WHAT: &'static str = "operation";
}

impl<S: Send + Sync, T: PathId> FromRequestParts<S> for IdPath<T> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        parse_id(&raw, T::WHAT)
            .map(IdPath)
            .map_err(IntoResponse::into_response)
    }
}

impl<S: Send + Sync, A: PathId, B: PathId> FromRequestParts<S> for IdPaths<A, B> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let Path((a, b)) = Path::<(String, String)>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let ids = parse_id(&a, A::WHAT).and_then(|a| Ok(IdPaths(a, parse_id(&b, B::WHAT)?)));
        ids.map_err(IntoResponse::into_response)
    }
}

/// Parses an id from the path, naming what was expected when it is not one.
pub fn parse_id<T: FromStr>(raw: &str, what: &str) -> Result<T, ApiError> {
    raw.trim()
        .parse()
        .map_err(|_| ApiError::invalid(format!("`{raw}` is not a {what} id (a UUID)")))
}

/// A thread as `squash --json conversation show` prints it: `{conversation, thread, tokens,
/// messages}`, each message with its `tokens`.
pub fn view_json(view: &ThreadView) -> Value {
    json!(view)
}

/// An operation's outcome, serialized as `squash --json` prints it.
pub fn outcome_json(o: &OperationOutcome) -> Value {
    json!(o)
}
