//! Every provider by its kind: the one place that goes from a [`ProviderKind`] to a provider's
//! module — its settings as `doctor` shows them, what its models need from a prompt, and its
//! model made from its settings.

use std::sync::Arc;

use squash_core::ProviderKind;

use crate::anthropic::{AnthropicConfig, AnthropicModel};
use crate::claude_cli::{ClaudeCliConfig, ClaudeCliModel};
use crate::local::LocalSettings;
use crate::model::ChatModel;
use crate::openai::{LocalServer, OpenAiConfig, OpenAiModel};
use crate::settings::{FileSettings, PromptNeeds, ProviderSettings, SettingsReport, SetupError};
use crate::verify::VERIFY_TIMEOUT;

/// What the models of `kind` need from a squash prompt.
pub fn prompt_needs(kind: ProviderKind) -> PromptNeeds {
    match kind {
        ProviderKind::Anthropic => AnthropicConfig::PROMPT_NEEDS,
        ProviderKind::OpenAi => OpenAiConfig::PROMPT_NEEDS,
        ProviderKind::ClaudeCli => ClaudeCliConfig::PROMPT_NEEDS,
        ProviderKind::Local => LocalSettings::PROMPT_NEEDS,
        // The test fake stands in for a hosted model.
        ProviderKind::Fake => PromptNeeds::HOSTED,
    }
}

/// The settings of `kind` as they are now; `None` for the test fake, which reads none.
pub fn settings_report(kind: ProviderKind, file: &FileSettings) -> Option<SettingsReport> {
    match kind {
        ProviderKind::Anthropic => Some(AnthropicConfig::report(file)),
        ProviderKind::OpenAi => Some(OpenAiConfig::report(file)),
        ProviderKind::ClaudeCli => Some(ClaudeCliConfig::report(file)),
        ProviderKind::Local => Some(LocalSettings::report(file)),
        ProviderKind::Fake => None,
    }
}

/// What to make a model of.
#[derive(Clone, Copy, Debug)]
pub struct ModelSpec<'a> {
    pub provider: ProviderKind,
    /// The configuration file's values.
    pub file: &'a FileSettings,
    /// A detected local server, reached instead of what the environment configures.
    pub server: Option<&'a LocalServer>,
    /// A model id instead of the configured one (for `local`: a catalog name or a GGUF path).
    pub model: Option<&'a str>,
    /// Short timeouts and no retries, for [`crate::verify`].
    pub verifying: bool,
}

impl<'a> ModelSpec<'a> {
    /// A model of `provider` as its settings and `file` configure it.
    pub fn new(provider: ProviderKind, file: &'a FileSettings) -> ModelSpec<'a> {
        ModelSpec {
            provider,
            file,
            server: None,
            model: None,
            verifying: false,
        }
    }

    /// The model id asked for, else the file's.
    fn model(&self) -> Option<&'a str> {
        self.model
            .or(self.file.named_model())
            .map(str::trim)
            .filter(|m| !m.is_empty())
    }

    fn settings<T: ProviderSettings>(&self) -> Result<T, SetupError> {
        Ok(self.tuned(T::from_env(self.file, self.model())?))
    }

    fn tuned<T: ProviderSettings>(&self, settings: T) -> T {
        if self.verifying {
            settings.for_verify(VERIFY_TIMEOUT)
        } else {
            settings
        }
    }
}

/// The model `spec` asks for, made from its provider's settings.
pub async fn build(spec: ModelSpec<'_>) -> Result<Arc<dyn ChatModel>, SetupError> {
    let llm = SetupError::of(spec.provider);
    match spec.provider {
        ProviderKind::Anthropic => Ok(Arc::new(
            AnthropicModel::new(spec.settings::<AnthropicConfig>()?).map_err(llm)?,
        )),
        ProviderKind::OpenAi => {
            let config = match spec.server {
                Some(server) => spec.tuned(server.config(spec.model())),
                None => spec.settings::<OpenAiConfig>()?,
            };
            Ok(Arc::new(OpenAiModel::new(config).map_err(llm)?))
        }
        ProviderKind::ClaudeCli => Ok(Arc::new(ClaudeCliModel::new(
            spec.settings::<ClaudeCliConfig>()?,
        ))),
        ProviderKind::Local => load_local(spec.settings::<LocalSettings>()?).await,
        ProviderKind::Fake => Err(SetupError::Unselectable(ProviderKind::Fake)),
    }
}

/// Loading reads hundreds of megabytes: off the async threads.
#[cfg(feature = "local")]
async fn load_local(settings: LocalSettings) -> Result<Arc<dyn ChatModel>, SetupError> {
    let LocalSettings { path, config } = settings;
    let loaded = tokio::task::spawn_blocking(move || crate::local::LocalModel::load(&path, config))
        .await
        .map_err(|e| {
            SetupError::not_configured(
                ProviderKind::Local,
                format!("loading the model failed: {e}"),
            )
        })?
        .map_err(SetupError::of(ProviderKind::Local))?;
    Ok(loaded)
}

#[cfg(not(feature = "local"))]
async fn load_local(_settings: LocalSettings) -> Result<Arc<dyn ChatModel>, SetupError> {
    Err(SetupError::NoLocalSupport)
}
