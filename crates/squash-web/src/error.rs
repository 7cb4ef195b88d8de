//! One error shape for every API response:
//! `{"error": {"code", "message", "class"?, "hint"?, "retryable"}}`.
//!
//! `code` is stable (`not_found`, `invalid_input`, `conflict`, `model_error`,
//! `bad_model_output`, `input_too_large`, `not_configured`, `storage_error`, `unauthorized`,
//! `forbidden`, `method_not_allowed`); `class` refines model failures (`auth`, `rate_limit`,
//! `timeout`, ... or the output problem: `empty`, `refusal`, ...). Storage failures are logged
//! in full and answered with a generic message: SQL text and paths stay out of responses.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use squash_app::{AppError, ErrorCode, Remedy};
use thiserror::Error;

/// What went wrong, as the API answers it: a service's [`ErrorCode`], or one of the failures
/// only HTTP has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiCode {
    Service(ErrorCode),
    /// The body is not JSON (`invalid_input`, but 415).
    UnsupportedMediaType,
    /// An upload over the limit (`input_too_large`, but 413).
    PayloadTooLarge,
    Unauthorized,
    Forbidden,
    MethodNotAllowed,
}

impl ApiCode {
    /// The `code` field of the answer.
    pub fn as_str(self) -> &'static str {
        match self {
            ApiCode::Service(code) => code.as_str(),
            ApiCode::UnsupportedMediaType => ErrorCode::InvalidInput.as_str(),
            ApiCode::PayloadTooLarge => ErrorCode::InputTooLarge.as_str(),
            ApiCode::Unauthorized => "unauthorized",
            ApiCode::Forbidden => "forbidden",
            ApiCode::MethodNotAllowed => "method_not_allowed",
        }
    }

    /// The one place a failure becomes an HTTP status. A storage failure that may pass
    /// (`retryable`: the database is busy) is 503, any other 500.
    pub fn status(self, retryable: bool) -> StatusCode {
        match self {
            ApiCode::Service(ErrorCode::NotFound) => StatusCode::NOT_FOUND,
            ApiCode::Service(ErrorCode::InvalidInput) => StatusCode::BAD_REQUEST,
            ApiCode::Service(ErrorCode::Conflict) => StatusCode::CONFLICT,
            ApiCode::Service(ErrorCode::ModelError | ErrorCode::BadModelOutput) => {
                StatusCode::BAD_GATEWAY
            }
            ApiCode::Service(ErrorCode::InputTooLarge) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiCode::Service(ErrorCode::StorageError) if retryable => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiCode::Service(ErrorCode::StorageError) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiCode::Service(ErrorCode::NotConfigured) => StatusCode::SERVICE_UNAVAILABLE,
            ApiCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiCode::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiCode::Forbidden => StatusCode::FORBIDDEN,
            ApiCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        }
    }
}

impl From<ErrorCode> for ApiCode {
    fn from(code: ErrorCode) -> ApiCode {
        ApiCode::Service(code)
    }
}

#[derive(Debug, Error)]
#[error("{message}")]
pub struct ApiError {
    pub code: ApiCode,
    pub message: String,
    pub class: Option<&'static str>,
    pub hint: Option<String>,
    pub retryable: bool,
}

impl ApiError {
    pub fn new(code: impl Into<ApiCode>, message: impl Into<String>) -> ApiError {
        ApiError {
            code: code.into(),
            message: message.into(),
            class: None,
            hint: None,
            retryable: false,
        }
    }

    /// The HTTP status the answer is sent with.
    pub fn status(&self) -> StatusCode {
        self.code.status(self.retryable)
    }

    pub fn invalid(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::InvalidInput, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::NotFound, message)
    }

    pub fn not_configured(reason: &str) -> ApiError {
        let hint = crate::remedy::hint(&[Remedy::ConfigureModel]);
        ApiError {
            hint,
            ..ApiError::new(ErrorCode::NotConfigured, reason)
        }
    }

    /// The answer to a request body over `limit` bytes.
    pub fn too_large(limit: usize) -> ApiError {
        ApiError::new(
            ApiCode::PayloadTooLarge,
            format!(
                "the request body is larger than this route's limit of {}",
                size(limit)
            ),
        )
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(
            ApiCode::Unauthorized,
            "this server needs an access token: send `Authorization: Bearer TOKEN`, or open \
             the address `squash serve` printed (it ends in ?token=…)",
        )
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(ApiCode::Forbidden, message)
    }

    #[cfg(test)]
    fn retryable(mut self, retryable: bool) -> ApiError {
        self.retryable = retryable;
        self
    }

    /// The JSON body, also sent as the data of an SSE `error` event.
    pub fn body(&self) -> serde_json::Value {
        let mut error = json!({
            "code": self.code.as_str(),
            "message": self.message,
            "retryable": self.retryable,
        });
        if let Some(class) = self.class {
            error["class"] = json!(class);
        }
        if let Some(hint) = &self.hint {
            error["hint"] = json!(hint);
        }
        json!({ "error": error })
    }
}

fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status(), Json(self.body())).into_response()
    }
}

/// Every app error answers through this one mapping: its code gives the status, its class and
/// retryability their fields, its remedies the `hint` (in the web's words, [`crate::remedy`]).
/// A storage failure's text may hold SQL or file paths: it is logged and answered generically.
impl<E: AppError> From<E> for ApiError {
    fn from(e: E) -> ApiError {
        let code = e.code();
        let retryable = e.is_retryable();
        let message = match code {
            ErrorCode::StorageError => {
                tracing::error!(error = ?e, "storage failure");
                if retryable {
                    "the database is busy; try again".to_owned()
                } else {
                    "the server failed; the server log has the details".to_owned()
                }
            }
            ErrorCode::ModelError => {
                tracing::warn!(class = e.class(), error = %e, "model call failed");
                e.to_string()
            }
            _ => e.to_string(),
        };
        let mut remedies = e.remedies();
        if code == ErrorCode::NotConfigured && remedies.is_empty() {
            remedies.push(Remedy::ConfigureModel);
        }
        ApiError {
            code: code.into(),
            message,
            class: e.class(),
            hint: crate::remedy::hint(&remedies),
            retryable,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_keep_their_names_and_map_to_one_status() {
        let cases = [
            (ApiCode::Service(ErrorCode::NotFound), "not_found", 404),
            (
                ApiCode::Service(ErrorCode::InvalidInput),
                "invalid_input",
                400,
            ),
            (ApiCode::UnsupportedMediaType, "invalid_input", 415),
            (ApiCode::Service(ErrorCode::Conflict), "conflict", 409),
            (ApiCode::Service(ErrorCode::ModelError), "model_error", 502),
            (
                ApiCode::Service(ErrorCode::BadModelOutput),
                "bad_model_output",
                502,
            ),
            (
                ApiCode::Service(ErrorCode::InputTooLarge),
                "input_too_large",
                422,
            ),
            (ApiCode::PayloadTooLarge, "input_too_large", 413),
            (
                ApiCode::Service(ErrorCode::StorageError),
                "storage_error",
                500,
            ),
            (
                ApiCode::Service(ErrorCode::NotConfigured),
                "not_configured",
                503,
            ),
            (ApiCode::Unauthorized, "unauthorized", 401),
            (ApiCode::Forbidden, "forbidden", 403),
            (ApiCode::MethodNotAllowed, "method_not_allowed", 405),
        ];
        for (code, name, status) in cases {
            assert_eq!(code.as_str(), name);
            assert_eq!(code.status(false).as_u16(), status, "{name}");
        }
        // A busy database may answer next time: 503, not 500.
        let busy = ApiError::new(ErrorCode::StorageError, "busy").retryable(true);
        assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(busy.body()["error"]["code"], "storage_error");
    }
}
