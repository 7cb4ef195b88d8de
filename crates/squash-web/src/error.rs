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
use squash_app::providers::ProviderError;
use squash_app::{ChatError, ServiceError, SquashError};
use squash_llm::LlmError;
use thiserror::Error;

#[derive(Debug, Error)]
#[error("{message}")]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub class: Option<&'static str>,
    pub hint: Option<String>,
    pub retryable: bool,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            class: None,
            hint: None,
            retryable: false,
        }
    }

    pub fn invalid(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid_input", message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    pub fn not_configured(reason: &str) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "not_configured", reason).with_hint(
            "Configure a model (ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL, or the \
             claude CLI) and restart `squash serve`. Manual squash, edit, delete and undo work \
             without one.",
        )
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "this server needs an access token: send `Authorization: Bearer TOKEN`, or open \
             the address `squash serve` printed (it ends in ?token=…)",
        )
    }

    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
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
            "code": self.code,
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
        (self.status, Json(self.body())).into_response()
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
            ServiceError::Conflict(_) => {
                ApiError::new(StatusCode::CONFLICT, "conflict", e.to_string())
                    .with_hint("Reload the conversation and try again.")
            }
            ServiceError::Store(inner) => {
                // The store's text may hold SQL or file paths: log it, answer generically.
                tracing::error!(error = ?inner, "storage failure");
                if inner.is_retryable() {
                    ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "storage_error",
                        "the database is busy; try again",
                    )
                } else {
                    ApiError::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "storage_error",
                        "the database failed; the server log has the details",
                    )
                }
            }
        };
        err.retryable(retryable)
    }
}

impl From<LlmError> for ApiError {
    fn from(e: LlmError) -> ApiError {
        tracing::warn!(class = e.class(), error = %e, "model call failed");
        ApiError::new(
            StatusCode::BAD_GATEWAY,
            "model_error",
            format!("the model call failed: {e}"),
        )
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
            SquashError::TooLarge(_) => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "input_too_large",
                e.to_string(),
            )
            .with_hint(
                "Select fewer or shorter messages, or use a model with a larger context window.",
            ),
            SquashError::Output(ref p) => {
                let class = p.class();
                ApiError::new(StatusCode::BAD_GATEWAY, "bad_model_output", e.to_string())
                    .with_class(class)
            }
            SquashError::NotAiSquash(_) => ApiError::invalid(e.to_string()),
            SquashError::NoModel(_) => return ApiError::not_configured(&e.to_string()).retryable(retryable),
            SquashError::SourcesGone { .. } => {
                ApiError::new(StatusCode::CONFLICT, "conflict", e.to_string())
            }
        };
        let err = match hint {
            // The CLI's hint names a flag; the API says the same in its own words.
            Some(_) if err.code == "bad_model_output" => err
                .with_hint("Try again, add instructions to steer the model, or use another model."),
            Some(h) => err.with_hint(h),
            None => err,
        };
        err.retryable(retryable)
    }
}

impl From<ChatError> for ApiError {
    fn from(e: ChatError) -> ApiError {
        let retryable = e.is_retryable();
        let hint = e.hint();
        let err = match e {
            ChatError::Service(s) => return s.into(),
            ChatError::Model(m) => return m.into(),
            ChatError::TooLarge(_) => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "input_too_large",
                e.to_string(),
            ),
            ChatError::EmptyReply => {
                ApiError::new(StatusCode::BAD_GATEWAY, "bad_model_output", e.to_string())
                    .with_class("empty")
            }
        };
        let err = match hint {
            Some(_) if err.code == "input_too_large" => {
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
            ProviderError::Llm { source, .. } => source.into(),
            ProviderError::Unknown(_) | ProviderError::Unsupported(_) => {
                ApiError::invalid(e.to_string())
            }
            ProviderError::NoLocalSupport
            | ProviderError::Config(_)
            | ProviderError::LocalModel(_) => ApiError::not_configured(&e.to_string()),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        let status = match rejection {
            JsonRejection::MissingJsonContentType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            _ => StatusCode::BAD_REQUEST,
        };
        // axum's text names the field and the problem, never server internals.
        ApiError::new(status, "invalid_input", rejection.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        ApiError::invalid(rejection.body_text())
    }
}
