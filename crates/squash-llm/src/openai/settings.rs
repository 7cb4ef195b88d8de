//! What the OpenAI-compatible provider reads: `OPENAI_API_KEY` (secret) or `OPENAI_BASE_URL`
//! (a local server needs no key), `OPENAI_MODEL` and `OPENAI_CONTEXT_WINDOW` from the
//! environment, and the configuration file's `model` when the file names a provider. Where
//! detection looks for a local server: `SQUASH_LOCAL_SERVERS`, else [`LOCAL_SERVERS`].

use std::time::Duration;

use squash_core::redact::redact_url;
use squash_core::ProviderKind;

use super::wire::TokenLimitField;
use crate::context_window::context_window_for;
use crate::http::client::DEFAULT_TIMEOUT;
use crate::http::retry::RetryPolicy;
use crate::settings::{
    ConfiguredBy, EnvVar, FileSettings, PromptNeeds, ProviderSettings, SettingsReport, SetupError,
};

/// Where the API lives unless `OPENAI_BASE_URL` says otherwise.
pub const OPENAI_DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
/// The model used unless `OPENAI_MODEL` or the configuration says otherwise.
pub const OPENAI_DEFAULT_MODEL: &str = "gpt-4o-mini";
/// The window of a model the table does not know, or of any model on a local server, whose
/// window depends on how it was started (set it explicitly there).
const FALLBACK_CONTEXT_WINDOW: u32 = 8_192;

const API_KEY: EnvVar = EnvVar::secret("OPENAI_API_KEY");
const BASE_URL: EnvVar = EnvVar::plain("OPENAI_BASE_URL");
const MODEL: EnvVar = EnvVar::plain("OPENAI_MODEL");
const CONTEXT_WINDOW: EnvVar = EnvVar::plain("OPENAI_CONTEXT_WINDOW");

/// The local servers detection tries, as OpenAI-compatible base URLs: Ollama's port, then
/// llama.cpp's server's.
pub const LOCAL_SERVERS: [&str; 2] = ["http://127.0.0.1:11434/v1", "http://127.0.0.1:8080/v1"];
/// Comma-separated base URLs tried instead of [`LOCAL_SERVERS`] (`none`: try none).
pub const LOCAL_SERVERS_ENV: &str = "SQUASH_LOCAL_SERVERS";

/// How to reach an OpenAI-compatible server.
#[derive(Clone)]
pub struct OpenAiConfig {
    /// Optional: local servers usually need none.
    pub api_key: Option<String>,
    /// Including the version path, e.g. `https://api.openai.com/v1` or
    /// `http://localhost:11434/v1`.
    pub base_url: String,
    pub model: String,
    pub context_window_tokens: u32,
    pub token_limit_field: TokenLimitField,
    /// Per attempt; for a stream, the longest wait for its next event.
    pub timeout: Duration,
    pub retry: RetryPolicy,
}

impl std::fmt::Debug for OpenAiConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiConfig")
            .field("api_key", &self.api_key.as_ref().map(|_| "[redacted]"))
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("context_window_tokens", &self.context_window_tokens)
            .field("token_limit_field", &self.token_limit_field)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .finish()
    }
}

impl OpenAiConfig {
    /// A configuration for `model` at `base_url`, with the field and context window that suit
    /// them (see [`OpenAiConfig::default_token_limit_field`] and
    /// [`OpenAiConfig::default_context_window`]).
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> OpenAiConfig {
        let base_url = base_url.into();
        let model = model.into();
        OpenAiConfig {
            api_key: None,
            token_limit_field: OpenAiConfig::default_token_limit_field(&base_url),
            context_window_tokens: OpenAiConfig::default_context_window(&base_url, &model),
            base_url,
            model,
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
        }
    }

    /// OpenAI's own API gets `max_completion_tokens` (its reasoning models refuse
    /// `max_tokens`); every other server gets `max_tokens`, which all of them understand.
    pub fn default_token_limit_field(base_url: &str) -> TokenLimitField {
        if is_official(base_url) {
            TokenLimitField::MaxCompletionTokens
        } else {
            TokenLimitField::MaxTokens
        }
    }

    /// The context window of well-known OpenAI models (the shared table,
    /// [`crate::context_window_for`]); 8192 tokens for anything else, since a local server's
    /// window depends on how it was started (set it explicitly there).
    pub fn default_context_window(base_url: &str, model: &str) -> u32 {
        if !is_official(base_url) {
            return FALLBACK_CONTEXT_WINDOW;
        }
        context_window_for(model).unwrap_or(FALLBACK_CONTEXT_WINDOW)
    }

    /// Another model: its window follows unless `OPENAI_CONTEXT_WINDOW` sets one.
    pub fn with_model(mut self, model: &str) -> OpenAiConfig {
        self.model = model.to_owned();
        if !CONTEXT_WINDOW.is_set() {
            self.context_window_tokens =
                OpenAiConfig::default_context_window(&self.base_url, model);
        }
        self
    }
}

fn is_official(base_url: &str) -> bool {
    base_url.contains("://api.openai.com")
}

impl ProviderSettings for OpenAiConfig {
    const KIND: ProviderKind = ProviderKind::OpenAi;
    const PROMPT_NEEDS: PromptNeeds = PromptNeeds::HOSTED;

    fn configured(_file: &FileSettings) -> Option<ConfiguredBy> {
        [API_KEY, BASE_URL]
            .into_iter()
            .find(EnvVar::is_set)
            .map(|v| ConfiguredBy::Env(v.name))
    }

    fn report(file: &FileSettings) -> SettingsReport {
        SettingsReport::new(
            [API_KEY, BASE_URL, MODEL, CONTEXT_WINDOW]
                .map(|v| v.state())
                .to_vec(),
            Self::configured(file),
            MODEL.value_or(OPENAI_DEFAULT_MODEL),
            redact_url(&BASE_URL.value_or(OPENAI_DEFAULT_BASE_URL)),
        )
    }

    /// OpenAI itself needs the key; a custom base URL (a local server) does not.
    fn from_env(_file: &FileSettings, model: Option<&str>) -> Result<Self, SetupError> {
        let api_key = API_KEY.value();
        let base_url = BASE_URL.value();
        if api_key.is_none() && base_url.is_none() {
            return Err(SetupError::not_configured(
                Self::KIND,
                format!("neither {} nor {} is set", API_KEY.name, BASE_URL.name),
            ));
        }
        let mut config = OpenAiConfig::new(
            base_url.unwrap_or_else(|| OPENAI_DEFAULT_BASE_URL.to_string()),
            MODEL.value_or(OPENAI_DEFAULT_MODEL),
        );
        config.api_key = api_key;
        if let Some(window) = CONTEXT_WINDOW.value() {
            config.context_window_tokens = window.trim().parse().map_err(|_| {
                SetupError::not_configured(
                    Self::KIND,
                    format!(
                        "{} is not a number of tokens: {window}",
                        CONTEXT_WINDOW.name
                    ),
                )
            })?;
        }
        Ok(match model {
            Some(model) => config.with_model(model),
            None => config,
        })
    }

    fn for_verify(self, timeout: Duration) -> Self {
        OpenAiConfig {
            timeout,
            retry: RetryPolicy::none(),
            ..self
        }
    }
}

/// The base URLs detection tries for a local server, in order.
pub fn local_servers() -> Vec<String> {
    match std::env::var(LOCAL_SERVERS_ENV) {
        Ok(v) if v.trim().eq_ignore_ascii_case("none") => Vec::new(),
        Ok(v) if !v.trim().is_empty() => v
            .split(',')
            .map(|s| s.trim().trim_end_matches('/').to_owned())
            .filter(|s| !s.is_empty())
            .collect(),
        _ => LOCAL_SERVERS.iter().map(|s| (*s).to_owned()).collect(),
    }
}
