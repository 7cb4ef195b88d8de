//! Errors on pages: a readable page instead of the API's JSON.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use maud::html;

use super::layout;
use crate::error::ApiError;

/// An error while rendering a page.
pub struct PageError(pub ApiError);

impl<E: Into<ApiError>> From<E> for PageError {
    fn from(e: E) -> PageError {
        PageError(e.into())
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        error_page(self.0.status(), &self.0.message)
    }
}

pub fn error_page(status: StatusCode, message: &str) -> Response {
    let title = status.canonical_reason().unwrap_or("Error");
    let body = html! {
        main.narrow {
            h1 { (title) }
            p.error-text { (message) }
            p { a href="/" { "Back to the conversations" } }
        }
    };
    (status, layout::page(title, None, body)).into_response()
}
