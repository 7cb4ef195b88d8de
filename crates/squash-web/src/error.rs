//! One error shape for every API response:
//! `{"error": {"code", "message", "class"?, "hint"?, "retryable"}}`.
//!
//! `code` is stable (`not_found`, `invalid_input`, `conflict`, `model_error`,
//! `bad_model_output`, `input_too_large`, `not_configured`, `storage_error`, `unauthorized`,
//! `forbidden`, `method_not_allowed`); `class` refines model failures (`auth`, `rate_limit`,
//! `timeout`, ... or the output problem: `empty`, `refusal`, ...). Storage failures are logged
//! in full and answered with a generic message: SQL text and paths stay out of responses.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use squash_app::fit::FitError;
use squash_app::import::ImportError;
use squash_app::providers::ProviderError;
use squash_app::resume::ResumeError;
use squash_app::{ChatError, ErrorCode, ServiceError, SquashError};
use squash_core::tokens::format_count;
use squash_llm::{LlmError, SetupError};
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
        ApiError::new(ErrorCode::NotConfigured, reason).with_hint(
            "Configure a model (ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL, or the \
             claude CLI) and restart `squash serve`. Manual squash, edit, delete and undo work \
             without one.",
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

    fn with_class(mut self, class: &'static str) -> ApiError {
        self.class = Some(class);
        self
    }

    fn with_hint(mut self, hint: impl Into<String>) -> ApiError {
        self.hint = Some(hint.into());
        self
    }

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

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status(), Json(self.body())).into_response()
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> ApiError {
        let retryable = e.is_retryable();
        let err = match &e {
            ServiceError::NotFound(..) => ApiError::not_found(e.to_string()),
            ServiceError::Invalid(_) | ServiceError::Domain(_) | ServiceError::Ambiguous(_) => {
                ApiError::invalid(e.to_string())
            }
            ServiceError::Conflict(_) => ApiError::new(ErrorCode::Conflict, e.to_string())
                .with_hint("Reload the conversation and try again."),
            ServiceError::Store(inner) => {
                // The store's text may hold SQL or file paths: log it, answer generically.
                tracing::error!(error = ?inner, "storage failure");
                ApiError::new(
                    ErrorCode::StorageError,
                    if inner.is_retryable() {
                        "the database is busy; try again"
                    } else {
                        "the database failed; the server log has the details"
                    },
                )
            }
        };
        err.retryable(retryable)
    }
}

impl From<LlmError> for ApiError {
    fn from(e: LlmError) -> ApiError {
        tracing::warn!(class = e.class(), error = %e, "model call failed");
        ApiError::new(ErrorCode::ModelError, format!("the model call failed: {e}"))
            .with_class(e.class())
            .with_hint(e.hint())
            .retryable(e.is_retryable())
    }
}

impl From<SquashError> for ApiError {
    fn from(e: SquashError) -> ApiError {
        let retryable = e.is_retryable();
        let hint = e.hint();
        let err = match e {
            SquashError::Service(s) => return s.into(),
            SquashError::Model(m) => return m.into(),
            SquashError::TooLarge(_) => ApiError::new(ErrorCode::InputTooLarge, e.to_string())
                .with_hint(
                "Select fewer or shorter messages, or use a model with a larger context window.",
            ),
            SquashError::Output(ref p) => {
                let class = p.class();
                ApiError::new(ErrorCode::BadModelOutput, e.to_string()).with_class(class)
            }
            SquashError::NotAiSquash(_) => ApiError::invalid(e.to_string()),
            SquashError::NoModel(_) => {
                return ApiError::not_configured(&e.to_string()).retryable(retryable)
            }
            SquashError::SourcesGone { .. } => ApiError::new(ErrorCode::Conflict, e.to_string()),
        };
        let err = match hint {
            // The CLI's hint names a flag; the API says the same in its own words.
            Some(_) if err.code == ApiCode::Service(ErrorCode::BadModelOutput) => err
                .with_hint("Try again, add instructions to steer the model, or use another model."),
            Some(h) => err.with_hint(h),
            None => err,
        };
        err.retryable(retryable)
    }
}

impl From<FitError> for ApiError {
    fn from(e: FitError) -> ApiError {
        match e {
            FitError::Service(s) => s.into(),
            FitError::Squash(s) => s.into(),
            // The service's text names the CLI's flags; the API says it with its own fields.
            FitError::OutOfReach {
                budget,
                best_reachable,
                protected,
                keep_recent,
                keep_last,
                strategy,
            } => ApiError::invalid(format!(
                "cannot fit into {} tokens: the smallest the {strategy} strategy reaches is {} \
                 tokens ({} of them kept as they are: what comes before the first request, what \
                 was typed, and the newest steps up to {} tokens{})",
                format_count(budget),
                format_count(best_reachable),
                format_count(protected),
                format_count(keep_recent),
                match keep_last {
                    0 => String::new(),
                    1 => ", and the last turn".to_owned(),
                    n => format!(", and the last {n} turns"),
                },
            ))
            .with_class("out_of_reach")
            .with_hint(
                "Raise the budget, keep less of the newest steps (`keep_recent`) or fewer turns \
                 (`keep_last`), or send `best_effort: true` to apply the smallest reachable.",
            ),
        }
    }
}

impl From<ResumeError> for ApiError {
    fn from(e: ResumeError) -> ApiError {
        match e {
            ResumeError::Fit(f) => f.into(),
            ResumeError::Service(s) => s.into(),
            ResumeError::Import(ImportError::Service(s)) => s.into(),
            ResumeError::Provider(p) => p.into(),
            ResumeError::NoModel { reason } => ApiError::not_configured(&reason),
            other => ApiError::new(other.code(), other.to_string()),
        }
    }
}

impl From<ChatError> for ApiError {
    fn from(e: ChatError) -> ApiError {
        let retryable = e.is_retryable();
        let hint = e.hint();
        let err = match e {
            ChatError::Service(s) => return s.into(),
            ChatError::Model(m) => return m.into(),
            ChatError::TooLarge(_) => ApiError::new(ErrorCode::InputTooLarge, e.to_string()),
            ChatError::EmptyReply => {
                ApiError::new(ErrorCode::BadModelOutput, e.to_string()).with_class("empty")
            }
        };
        let err = match hint {
            Some(_) if err.code == ApiCode::Service(ErrorCode::InputTooLarge) => {
                err.with_hint("Squash older messages to make room, then try again.")
            }
            Some(h) => err.with_hint(h),
            None => err,
        };
        err.retryable(retryable)
    }
}

impl From<ProviderError> for ApiError {
    fn from(e: ProviderError) -> ApiError {
        match e {
            ProviderError::Setup(SetupError::Llm { source, .. }) => source.into(),
            ProviderError::Setup(SetupError::Unselectable(_)) => ApiError::invalid(e.to_string()),
            ProviderError::Setup(SetupError::NoLocalSupport | SetupError::LocalModel(_))
            | ProviderError::Config(_) => ApiError::not_configured(&e.to_string()),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        // A body over the limit that did not declare its length, stopped while being read.
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return crate::body_limit::too_large(crate::body_limit::API_BODY_LIMIT);
        }
        let code = match rejection {
            JsonRejection::MissingJsonContentType(_) => ApiCode::UnsupportedMediaType,
            _ => ApiCode::Service(ErrorCode::InvalidInput),
        };
        // axum's text names the field and the problem, never server internals.
        ApiError::new(code, rejection.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        ApiError::invalid(rejection.body_text())
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
