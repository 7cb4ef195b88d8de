//! What the Anthropic provider reads: `ANTHROPIC_API_KEY` (required, secret),
//! `ANTHROPIC_BASE_URL` and `ANTHROPIC_MODEL` from the environment, and the configuration
//! file's `model` when the file names a provider.

use std::time::Duration;

use squash_core::redact::redact_url;
use squash_core::ProviderKind;

use crate::http::client::DEFAULT_TIMEOUT;
use crate::http::retry::RetryPolicy;
use crate::settings::{
    ConfiguredBy, EnvVar, FileSettings, PromptNeeds, ProviderSettings, SettingsReport, SetupError,
};

/// Where the API lives unless `ANTHROPIC_BASE_URL` says otherwise.
pub const ANTHROPIC_DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
/// The model used unless `ANTHROPIC_MODEL` or the configuration says otherwise.
pub const ANTHROPIC_DEFAULT_MODEL: &str = "claude-sonnet-4-5";
/// Every current Claude model accepts 200k tokens by default.
const CONTEXT_WINDOW: u32 = 200_000;

const API_KEY: EnvVar = EnvVar::secret("ANTHROPIC_API_KEY");
const BASE_URL: EnvVar = EnvVar::plain("ANTHROPIC_BASE_URL");
const MODEL: EnvVar = EnvVar::plain("ANTHROPIC_MODEL");

/// How to reach the Anthropic API.
#[derive(Clone)]
pub struct AnthropicConfig {
    pub api_key: String,
    /// Without the `/v1` suffix, e.g. `https://api.anthropic.com`.
    pub base_url: String,
    pub model: String,
    pub context_window_tokens: u32,
    /// Per attempt; for a stream, the longest wait for its next event.
    pub timeout: Duration,
    pub retry: RetryPolicy,
}

impl std::fmt::Debug for AnthropicConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnthropicConfig")
            .field("api_key", &"[redacted]")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("context_window_tokens", &self.context_window_tokens)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .finish()
    }
}

impl AnthropicConfig {
    /// The defaults with the given key.
    pub fn new(api_key: impl Into<String>) -> AnthropicConfig {
        AnthropicConfig {
            api_key: api_key.into(),
            base_url: ANTHROPIC_DEFAULT_BASE_URL.to_string(),
            model: ANTHROPIC_DEFAULT_MODEL.to_string(),
            context_window_tokens: CONTEXT_WINDOW,
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
        }
    }
}

impl ProviderSettings for AnthropicConfig {
    const KIND: ProviderKind = ProviderKind::Anthropic;
    const PROMPT_NEEDS: PromptNeeds = PromptNeeds::HOSTED;

    fn configured(_file: &FileSettings) -> Option<ConfiguredBy> {
        API_KEY.is_set().then_some(ConfiguredBy::Env(API_KEY.name))
    }

    fn report(file: &FileSettings) -> SettingsReport {
        SettingsReport::new(
            [API_KEY, BASE_URL, MODEL].map(|v| v.state()).to_vec(),
            Self::configured(file),
            MODEL.value_or(ANTHROPIC_DEFAULT_MODEL),
            redact_url(&BASE_URL.value_or(ANTHROPIC_DEFAULT_BASE_URL)),
        )
    }

    /// The key is required; the base URL and the model have defaults.
    fn from_env(_file: &FileSettings, model: Option<&str>) -> Result<Self, SetupError> {
        let api_key = API_KEY.value().ok_or_else(|| {
            SetupError::not_configured(Self::KIND, format!("{} is not set", API_KEY.name))
        })?;
        let mut config = AnthropicConfig::new(api_key);
        if let Some(base_url) = BASE_URL.value() {
            config.base_url = base_url;
        }
        if let Some(model) = model.map(str::to_owned).or_else(|| MODEL.value()) {
            config.model = model;
        }
        Ok(config)
    }

    fn for_verify(self, timeout: Duration) -> Self {
        AnthropicConfig {
            timeout,
            retry: RetryPolicy::none(),
            ..self
        }
    }
}
