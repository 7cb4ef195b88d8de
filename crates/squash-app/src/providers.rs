//! Choosing a model provider from what the environment configures, and `doctor`: what is
//! configured, and does it answer.
//!
//! Which provider is chosen when none is named is [`crate::selection`]'s business; the local
//! model's loading is in [`crate::local`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use squash_llm::{
    find_on_path, AnthropicConfig, AnthropicModel, CancellationToken, ChatMessage, ChatModel,
    ChatRequest, ClaudeCliConfig, ClaudeCliModel, LlmError, OpenAiConfig, OpenAiModel,
    ProviderKind, RetryPolicy, ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_DEFAULT_MODEL,
    CLAUDE_CLI_DEFAULT_MODEL, OPENAI_DEFAULT_BASE_URL, OPENAI_DEFAULT_MODEL,
};
use thiserror::Error;

use squash_llm::models::ModelError;

use squash_core::redact::redact_url;
use squash_llm::env::{is_set as env_set, non_empty as env_value};

use crate::config::{load_config, ConfigError, LoadedConfig};
use crate::error::ErrorCode;
use crate::local;
use crate::selection::{select, Selection};
use crate::squash::CONTEXT_WINDOW_ENV;

/// How long `doctor` waits for a provider's answer.
const PROBE_TIMEOUT: Duration = Duration::from_secs(20);

/// Why no model could be built.
#[derive(Debug, Error)]
pub enum ProviderError {
    #[error(
        "the {0} provider cannot be selected: use one of {names}",
        names = ProviderKind::names()
    )]
    Unsupported(ProviderKind),
    #[error(
        "this build of squash has no embedded local model (built without the `local` feature): \
         set ANTHROPIC_API_KEY or OPENAI_API_KEY, put `claude` on PATH, or run a local server"
    )]
    NoLocalSupport,
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    LocalModel(#[from] ModelError),
    #[error("{provider}: {source}")]
    Llm {
        provider: ProviderKind,
        #[source]
        source: LlmError,
    },
}

impl ProviderError {
    pub fn code(&self) -> ErrorCode {
        match self {
            ProviderError::Unsupported(_) => ErrorCode::InvalidInput,
            ProviderError::NoLocalSupport
            | ProviderError::Config(_)
            | ProviderError::LocalModel(_)
            | ProviderError::Llm {
                source: LlmError::NotConfigured(_),
                ..
            } => ErrorCode::NotConfigured,
            ProviderError::Llm { .. } => ErrorCode::ModelError,
        }
    }

    pub fn is_retryable(&self) -> bool {
        match self {
            ProviderError::Unsupported(_)
            | ProviderError::NoLocalSupport
            | ProviderError::Config(_)
            | ProviderError::LocalModel(_) => false,
            ProviderError::Llm { source, .. } => source.is_retryable(),
        }
    }
}

/// The model to use and why it was chosen: the provider `explicit` names (`--provider`), else
/// the one [`select`](crate::selection::select) detects; `model` instead of the configured
/// model id when given (for `local`: a catalog name or a GGUF path).
pub async fn select_model(
    explicit: Option<ProviderKind>,
    model: Option<&str>,
) -> Result<(Arc<dyn ChatModel>, Selection), ProviderError> {
    let config = load_config()?;
    let selection = select(explicit, &config).await?;
    let built = build(&selection, model, None, &config).await?;
    Ok((built, selection))
}

/// [`select_model`] without the reason.
pub async fn model_from_env(
    provider: Option<ProviderKind>,
    model: Option<&str>,
) -> Result<Arc<dyn ChatModel>, ProviderError> {
    Ok(select_model(provider, model).await?.0)
}

/// A model of `provider` (as recorded by an earlier squash), configured from the environment
/// and the configuration file.
pub async fn build_model(
    provider: ProviderKind,
    model: Option<&str>,
) -> Result<Arc<dyn ChatModel>, ProviderError> {
    let config = load_config()?;
    let selection = Selection {
        provider,
        why: "recorded".into(),
        server: None,
    };
    build(&selection, model, None, &config).await
}

/// Builds the model; `probe` shortens timeouts and disables retries for `doctor`.
async fn build(
    selection: &Selection,
    model: Option<&str>,
    probe: Option<Duration>,
    config: &LoadedConfig,
) -> Result<Arc<dyn ChatModel>, ProviderError> {
    let provider = selection.provider;
    let configured = &config.config.model;
    // The configured model id belongs to the configured provider only.
    let configured_model = if configured.explicit_provider().is_some() {
        configured.model.as_deref()
    } else {
        None
    };
    let model = model
        .or(configured_model)
        .map(str::trim)
        .filter(|m| !m.is_empty());
    let llm = |source| ProviderError::Llm { provider, source };
    match provider {
        ProviderKind::Anthropic => {
            let mut config = AnthropicConfig::from_env().map_err(llm)?;
            if let Some(m) = model {
                config.model = m.to_owned();
            }
            if let Some(timeout) = probe {
                config.timeout = timeout;
                config.retry = RetryPolicy::none();
            }
            Ok(Arc::new(AnthropicModel::new(config).map_err(llm)?))
        }
        ProviderKind::OpenAi => {
            let mut config = match &selection.server {
                Some(server) => OpenAiConfig::new(&server.base_url, &server.model),
                None => OpenAiConfig::from_env().map_err(llm)?,
            };
            if let Some(m) = model {
                config.model = m.to_owned();
                if !env_set("OPENAI_CONTEXT_WINDOW") {
                    config.context_window_tokens =
                        OpenAiConfig::default_context_window(&config.base_url, m);
                }
            }
            if let Some(timeout) = probe {
                config.timeout = timeout;
                config.retry = RetryPolicy::none();
            }
            Ok(Arc::new(OpenAiModel::new(config).map_err(llm)?))
        }
        ProviderKind::ClaudeCli => {
            let mut config = ClaudeCliConfig::from_path().map_err(llm)?;
            if let Some(m) = model {
                config.model = m.to_owned();
            }
            if let Some(timeout) = probe {
                config.timeout = timeout;
            }
            Ok(Arc::new(ClaudeCliModel::new(config)))
        }
        ProviderKind::Local => local::build(model, configured).await,
        other => Err(ProviderError::Unsupported(other)),
    }
}

// ---- doctor ---------------------------------------------------------------------------------

/// What `doctor` checks.
#[derive(Clone, Copy, Debug, Default)]
pub struct DoctorOptions {
    /// Send a tiny request to each configured HTTP provider.
    pub probe: bool,
    /// Also run the Claude CLI once (slow: it starts a whole agent runtime).
    pub probe_cli: bool,
}

/// One setting a provider reads. Secrets are reported as set or not, never by value.
#[derive(Clone, Debug, Serialize)]
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

/// Whether a provider answered.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Probe {
    /// Not tried; `reason` says why.
    Skipped {
        reason: String,
    },
    Reachable {
        model: String,
        latency_ms: u64,
    },
    Failed {
        class: String,
        message: String,
        hint: String,
    },
}

/// One provider's configuration and reachability.
#[derive(Clone, Debug, Serialize)]
pub struct ProviderStatus {
    pub provider: ProviderKind,
    /// The name to pass to `--provider` (the same as `provider`; kept for readers of the
    /// JSON report).
    pub name: &'static str,
    pub configured: bool,
    pub settings: Vec<Setting>,
    /// The model id used unless overridden.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Where requests go (a URL, or the executable's path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_window: Option<u32>,
    pub probe: Probe,
}

/// What `doctor` found.
#[derive(Clone, Debug, Serialize)]
pub struct DoctorReport {
    pub providers: Vec<ProviderStatus>,
    /// The provider used when none is named.
    pub selected: Option<ProviderKind>,
    /// The same, with the reason it was chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection: Option<Selection>,
    /// The configuration file read, if one exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config_file: Option<String>,
    /// Why none is selected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection_error: Option<String>,
    /// `SQUASH_CONTEXT_WINDOW`, the window assumed for models the table does not know.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_context_window: Option<String>,
}

impl DoctorReport {
    /// A few lines for a person.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for p in &self.providers {
            let mark = match (&p.probe, p.configured) {
                (Probe::Reachable { .. }, _) => "✓",
                (Probe::Failed { .. }, _) => "✗",
                (_, true) => "•",
                (_, false) => "-",
            };
            let selected = if self.selected == Some(p.provider) {
                "  (selected by default)"
            } else {
                ""
            };
            out.push_str(&format!(
                "{mark} {}: {}{selected}\n",
                p.name,
                if p.configured {
                    "configured"
                } else {
                    "not configured"
                }
            ));
            for s in &p.settings {
                let state = match (&s.value, s.set) {
                    (Some(v), true) => v.clone(),
                    (None, true) => "set".to_owned(),
                    (_, false) => s.missing.to_owned(),
                };
                out.push_str(&format!("    {:<22} {state}\n", s.name));
            }
            if let Some(m) = &p.model {
                out.push_str(&format!("    {:<22} {m}\n", "model"));
            }
            if let Some(e) = &p.endpoint {
                out.push_str(&format!("    {:<22} {e}\n", "endpoint"));
            }
            if let Some(w) = p.context_window {
                out.push_str(&format!(
                    "    {:<22} {} tokens\n",
                    "context window",
                    squash_core::tokens::format_count(u64::from(w))
                ));
            }
            let probe = match &p.probe {
                Probe::Skipped { reason } => format!("not checked ({reason})"),
                Probe::Reachable { model, latency_ms } => {
                    format!("reachable: {model} answered in {latency_ms} ms")
                }
                Probe::Failed {
                    class,
                    message,
                    hint,
                } => format!("FAILED ({class}): {message}\n    {:<22} {hint}", "hint"),
            };
            out.push_str(&format!("    {:<22} {probe}\n", "reachability"));
        }
        if let Some(file) = &self.config_file {
            out.push_str(&format!("\nconfiguration file: {file}"));
        }
        match (&self.selection, &self.selection_error) {
            (Some(s), _) => out.push_str(&format!(
                "\ndefault provider: {} (override with --provider)\n  because {}",
                s.provider, s.why
            )),
            (None, Some(e)) => out.push_str(&format!("\n{e}")),
            (None, None) => {}
        }
        if let Some(w) = &self.default_context_window {
            out.push_str(&format!("\n{CONTEXT_WINDOW_ENV} = {w}"));
        }
        out
    }
}

/// Reports what each provider is configured with, which one is used by default and why, and,
/// optionally, whether they answer.
pub async fn doctor(options: DoctorOptions, cancel: &CancellationToken) -> DoctorReport {
    let (config, config_error) = match load_config() {
        Ok(config) => (config, None),
        Err(e) => (LoadedConfig::default(), Some(e.to_string())),
    };
    let mut providers = Vec::new();
    for kind in ProviderKind::SELECTABLE {
        providers.push(provider_status(kind, options, cancel, &config).await);
    }
    let (selection, selection_error) = match &config_error {
        Some(e) => (None, Some(e.clone())),
        None => match select(None, &config).await {
            Ok(s) => (Some(s), None),
            Err(e) => (None, Some(e.to_string())),
        },
    };
    DoctorReport {
        providers,
        selected: selection.as_ref().map(|s| s.provider),
        selection,
        selection_error,
        config_file: config.path.map(|p| p.display().to_string()),
        default_context_window: env_value(CONTEXT_WINDOW_ENV),
    }
}

async fn provider_status(
    kind: ProviderKind,
    options: DoctorOptions,
    cancel: &CancellationToken,
    config: &LoadedConfig,
) -> ProviderStatus {
    let (settings, configured, model, endpoint) = match kind {
        ProviderKind::Anthropic => (
            vec![
                secret("ANTHROPIC_API_KEY"),
                plain("ANTHROPIC_BASE_URL"),
                plain("ANTHROPIC_MODEL"),
            ],
            env_set("ANTHROPIC_API_KEY"),
            env_value("ANTHROPIC_MODEL").unwrap_or_else(|| ANTHROPIC_DEFAULT_MODEL.to_owned()),
            Some(redact_url(
                &env_value("ANTHROPIC_BASE_URL")
                    .unwrap_or_else(|| ANTHROPIC_DEFAULT_BASE_URL.to_owned()),
            )),
        ),
        ProviderKind::OpenAi => (
            vec![
                secret("OPENAI_API_KEY"),
                plain("OPENAI_BASE_URL"),
                plain("OPENAI_MODEL"),
                plain("OPENAI_CONTEXT_WINDOW"),
            ],
            env_set("OPENAI_API_KEY") || env_set("OPENAI_BASE_URL"),
            env_value("OPENAI_MODEL").unwrap_or_else(|| OPENAI_DEFAULT_MODEL.to_owned()),
            Some(redact_url(
                &env_value("OPENAI_BASE_URL").unwrap_or_else(|| OPENAI_DEFAULT_BASE_URL.to_owned()),
            )),
        ),
        ProviderKind::Local => {
            let resolved = local::resolve_path(None, &config.config.model);
            let mut settings = vec![plain(squash_llm::models::LOCAL_MODEL_ENV)];
            settings.push(Setting {
                name: "local_model (config)".into(),
                set: config.config.model.local_model.is_some(),
                value: config.config.model.local_model.clone(),
                secret: false,
                missing: "not set (the first installed model)",
            });
            let (configured, model, endpoint) = match &resolved {
                Ok(path) => (
                    true,
                    path.file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    Some(path.display().to_string()),
                ),
                Err(e) => (false, String::new(), Some(e.to_string())),
            };
            (settings, configured, model, endpoint)
        }
        _ => {
            let path = find_on_path("claude");
            (
                vec![Setting {
                    name: "claude on PATH".into(),
                    set: path.is_some(),
                    value: path.as_ref().map(|p| p.display().to_string()),
                    secret: false,
                    missing: "not found",
                }],
                path.is_some(),
                CLAUDE_CLI_DEFAULT_MODEL.to_owned(),
                path.map(|p| p.display().to_string()),
            )
        }
    };
    // For the local model, the endpoint line says why it is not usable.
    let endpoint = if configured || kind == ProviderKind::Local {
        endpoint
    } else {
        None
    };
    let mut status = ProviderStatus {
        provider: kind,
        name: kind.as_str(),
        configured,
        settings,
        model: configured.then_some(model),
        endpoint,
        context_window: None,
        probe: Probe::Skipped {
            reason: "not configured".into(),
        },
    };
    if !configured {
        return status;
    }
    let selection = Selection {
        provider: kind,
        why: "doctor".into(),
        server: None,
    };
    let built = match build(&selection, None, Some(PROBE_TIMEOUT), config).await {
        Ok(m) => m,
        Err(e) => {
            status.probe = failed(&e);
            return status;
        }
    };
    let info = built.info();
    status.model = Some(info.model.clone());
    status.context_window = Some(info.context_window_tokens);
    let wanted = match kind {
        ProviderKind::ClaudeCli => options.probe_cli,
        _ => options.probe,
    };
    if !wanted {
        status.probe = Probe::Skipped {
            reason: match kind {
                ProviderKind::ClaudeCli => "a CLI call starts a whole agent; use --probe-cli",
                _ => "use --probe to send a tiny request",
            }
            .into(),
        };
        return status;
    }
    let mut request = ChatRequest::new(vec![ChatMessage::user("Reply with the single word OK.")]);
    request.max_output_tokens = 16;
    let started = Instant::now();
    status.probe = match built.complete(&request, cancel).await {
        Ok(response) => Probe::Reachable {
            model: response.model,
            latency_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        },
        Err(e) => Probe::Failed {
            class: e.class().into(),
            message: e.to_string(),
            hint: e.hint().into(),
        },
    };
    status
}

fn failed(e: &ProviderError) -> Probe {
    match e {
        ProviderError::Llm { source, .. } => Probe::Failed {
            class: source.class().into(),
            message: source.to_string(),
            hint: source.hint().into(),
        },
        other => Probe::Failed {
            class: other.code().as_str().into(),
            message: other.to_string(),
            hint: String::new(),
        },
    }
}

fn secret(name: &str) -> Setting {
    Setting {
        name: name.into(),
        set: env_set(name),
        value: None,
        secret: true,
        missing: "not set",
    }
}

fn plain(name: &str) -> Setting {
    let value = env_value(name).map(|v| redact_url(&v));
    Setting {
        name: name.into(),
        set: value.is_some(),
        value,
        secret: false,
        missing: "not set",
    }
}
