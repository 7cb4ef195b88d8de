//! The OpenAPI description, maintained by hand next to the routes (a test checks that every
//! route is described and every description is routed).

use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;

pub const OPENAPI_JSON: &str = include_str!("../../openapi.json");

pub async fn spec() -> impl IntoResponse {
    ([(CONTENT_TYPE, "application/json")], OPENAPI_JSON)
}
