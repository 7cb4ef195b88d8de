//! The words every provider's settings are declared in. Each provider has a `settings.rs` of
//! its own (`anthropic/settings.rs`, `openai/settings.rs`, `claude_cli/settings.rs`,
//! `local/settings.rs`) that implements [`ProviderSettings`] with them: the environment
//! variables it reads and which are secret, its defaults, what it takes from the configuration
//! file (whose values the app passes in as [`FileSettings`]), whether it is configured and by
//! what, and what its models need from a squash prompt.

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;
use squash_core::redact::redact_url;
use squash_core::ProviderKind;
use thiserror::Error;

use crate::env;
use crate::error::LlmError;
use crate::models::ModelError;

/// What every provider declares about its settings; implemented by each provider's
/// configuration type.
pub trait ProviderSettings: Sized {
    /// The provider these settings are for.
    const KIND: ProviderKind;
    /// What its models need from a squash prompt.
    const PROMPT_NEEDS: PromptNeeds;

    /// What configures it now, if anything: detection asks the providers in its order.
    fn configured(file: &FileSettings) -> Option<ConfiguredBy>;

    /// Its settings as they are now, for `doctor`.
    fn report(file: &FileSettings) -> SettingsReport;

    /// The settings from the environment and the configuration file's values; `model` is the
    /// model id to use instead of the configured one.
    fn from_env(file: &FileSettings, model: Option<&str>) -> Result<Self, SetupError>;

    /// The same settings with `timeout` and no retries, for [`crate::verify`]: a check must
    /// answer quickly, and one that fails says so rather than waiting.
    fn for_verify(self, timeout: Duration) -> Self;
}

/// One environment variable a provider reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnvVar {
    pub name: &'static str,
    /// A secret is reported as set or not, never by value.
    pub secret: bool,
}

impl EnvVar {
    pub const fn plain(name: &'static str) -> EnvVar {
        EnvVar {
            name,
            secret: false,
        }
    }

    pub const fn secret(name: &'static str) -> EnvVar {
        EnvVar { name, secret: true }
    }

    /// Its value, unless it is unset or blank.
    pub fn value(&self) -> Option<String> {
        env::non_empty(self.name)
    }

    /// Its value, else `default`.
    pub fn value_or(&self, default: &str) -> String {
        self.value().unwrap_or_else(|| default.to_owned())
    }

    pub fn is_set(&self) -> bool {
        env::is_set(self.name)
    }

    /// Its state now: a plain value without the credentials a URL may carry, a secret as set
    /// or not.
    pub fn state(&self) -> Setting {
        let value = if self.secret {
            None
        } else {
            self.value().map(|v| redact_url(&v))
        };
        Setting {
            name: self.name.to_owned(),
            set: self.is_set(),
            value,
            secret: self.secret,
            missing: "not set",
        }
    }
}

/// One setting a provider reads, as it is now. Secrets are reported as set or not, never by
/// value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Setting {
    pub name: String,
    pub set: bool,
    /// The value, for settings that are not secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    pub secret: bool,
    /// What a person reads when it is not set.
    #[serde(skip)]
    pub missing: &'static str,
}

impl Setting {
    /// A setting that is no environment variable (an executable on `PATH`, a value of the
    /// configuration file): `value` when there is one, else `missing` says what that means.
    pub fn found(name: &str, value: Option<String>, missing: &'static str) -> Setting {
        Setting {
            name: name.to_owned(),
            set: value.is_some(),
            value,
            secret: false,
            missing,
        }
    }
}

/// The values of the configuration file's `[model]` table, as plain data: the app reads the
/// file, each provider takes what concerns it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileSettings {
    /// The file, for reasons that name it; `None` without one.
    pub path: Option<PathBuf>,
    /// `provider`, unless it is `auto`.
    pub provider: Option<ProviderKind>,
    /// `model`: a model id for the provider the file names.
    pub model: Option<String>,
    /// `local_model`: a catalog name or the path of a GGUF file.
    pub local_model: Option<String>,
    /// `threads`: CPU threads for the local model.
    pub threads: Option<u32>,
    /// `context_tokens`: the local model's context.
    pub context_tokens: Option<u32>,
}

impl FileSettings {
    /// The file's model id, used only when the file names a provider: a model id belongs to
    /// the provider it was written for.
    pub fn named_model(&self) -> Option<&str> {
        self.provider.and(self.model.as_deref())
    }
}

/// What configures a provider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfiguredBy {
    /// This environment variable is set.
    Env(&'static str),
    /// This executable is on `PATH`.
    Executable(PathBuf),
    /// This model file is there.
    ModelFile(PathBuf),
}

/// A provider's settings as they are now, for `doctor`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsReport {
    /// Every setting it reads, in a fixed order.
    pub settings: Vec<Setting>,
    /// What configures it; `None` when nothing does.
    pub configured_by: Option<ConfiguredBy>,
    /// The model id used unless overridden, when it is configured.
    pub model: Option<String>,
    /// Where requests go (a URL without credentials, the executable or the model file) when it
    /// is configured; else, where the provider can tell, why it is not.
    pub endpoint: Option<String>,
    /// Whether [`crate::verify`] starts something heavy (the Claude CLI starts a whole agent),
    /// so that it is not run unasked.
    pub verify_starts_agent: bool,
}

impl SettingsReport {
    /// The report of a provider that is configured by `configured_by`, or not: its model and
    /// endpoint only in the first case.
    pub fn new(
        settings: Vec<Setting>,
        configured_by: Option<ConfiguredBy>,
        model: String,
        endpoint: String,
    ) -> SettingsReport {
        let configured = configured_by.is_some();
        SettingsReport {
            settings,
            configured_by,
            model: configured.then_some(model),
            endpoint: configured.then_some(endpoint),
            verify_starts_agent: false,
        }
    }

    pub fn configured(&self) -> bool {
        self.configured_by.is_some()
    }
}

/// What a provider's models need from a squash prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromptNeeds {
    /// Small models (the embedded ones) read the brief prompt, which carries the fact ledger
    /// and asks only for the sentences that connect it (measured: QUALITY.md); large ones the
    /// prompt of the squash style.
    pub brief_prompt: bool,
    /// Repair requests after a first answer that leaves facts out or invents terms.
    pub repair_rounds: u32,
}

impl PromptNeeds {
    /// A large hosted model: the style's prompt, and one repair request.
    pub const HOSTED: PromptNeeds = PromptNeeds {
        brief_prompt: false,
        repair_rounds: 1,
    };
}

/// Why a provider could not be chosen, or its model not made from its settings.
#[derive(Debug, Error)]
pub enum SetupError {
    #[error(
        "the {0} provider cannot be selected: use one of {names}",
        names = ProviderKind::names()
    )]
    Unselectable(ProviderKind),
    #[error(
        "this build of squash has no embedded local model (built without the `local` feature): \
         set ANTHROPIC_API_KEY or OPENAI_API_KEY, put `claude` on PATH, or run a local server"
    )]
    NoLocalSupport,
    #[error(transparent)]
    LocalModel(#[from] ModelError),
    #[error("{provider}: {source}")]
    Llm {
        provider: ProviderKind,
        #[source]
        source: LlmError,
    },
}

impl SetupError {
    /// The provider's settings do not configure it: `message` says what is missing.
    pub(crate) fn not_configured(provider: ProviderKind, message: impl Into<String>) -> Self {
        SetupError::Llm {
            provider,
            source: LlmError::NotConfigured(message.into()),
        }
    }

    /// A model error of `provider` while setting it up.
    pub(crate) fn of(provider: ProviderKind) -> impl FnOnce(LlmError) -> SetupError {
        move |source| SetupError::Llm { provider, source }
    }
}
