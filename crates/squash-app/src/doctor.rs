//! `doctor`: what each provider is configured with, which one is used by default and why,
//! and, when asked, whether they answer. Each provider's settings, its detection and its check
//! are squash-llm's ([`squash_llm::settings_report`], [`squash_llm::choose`],
//! [`squash_llm::verify`]); this gathers them into one report and words it.

use serde::Serialize;
use squash_llm::env::non_empty as env_value;
use squash_llm::{
    build, choose, settings_report, verify, CancellationToken, FileSettings, ModelSpec,
    ProviderChoice, ProviderKind, Setting, SetupError,
};

use crate::config::{load_config, LoadedConfig};
use crate::providers::ProviderError;
use crate::remedy::Remedy;
use crate::squash::CONTEXT_WINDOW_ENV;

/// How an interface words a remedy (the CLI names its flags).
pub type RemedyWords<'a> = &'a (dyn Fn(&Remedy) -> String + Send + Sync);

/// What `doctor` checks.
#[derive(Clone, Copy)]
pub struct DoctorOptions<'a> {
    /// Send a tiny request to each configured provider whose check is cheap.
    pub probe: bool,
    /// Also run the Claude CLI once (slow: it starts a whole agent runtime).
    pub probe_cli: bool,
    /// The interface's words for what the report suggests (a provider not checked: how to
    /// check it).
    pub words: RemedyWords<'a>,
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
    /// The provider's name (the same as `provider`; kept for readers of the JSON report).
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
    pub selection: Option<ProviderChoice>,
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
    /// A few lines for a person; `words` words what it suggests, as for [`doctor`].
    pub fn render(&self, words: RemedyWords<'_>) -> String {
        let mut out = String::new();
        for p in &self.providers {
            let selected = self.selected == Some(p.provider);
            out.push_str(&render_provider(p, selected));
        }
        if let Some(file) = &self.config_file {
            out.push_str(&format!("\nconfiguration file: {file}"));
        }
        match (&self.selection, &self.selection_error) {
            (Some(s), _) => out.push_str(&format!(
                "\ndefault provider: {} ({})\n  because {}",
                s.provider,
                words(&Remedy::ChooseProvider),
                s.why()
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

fn render_provider(p: &ProviderStatus, selected: bool) -> String {
    let mark = match (&p.probe, p.configured) {
        (Probe::Reachable { .. }, _) => "✓",
        (Probe::Failed { .. }, _) => "✗",
        (_, true) => "•",
        (_, false) => "-",
    };
    let mut out = format!(
        "{mark} {}: {}{}\n",
        p.name,
        if p.configured {
            "configured"
        } else {
            "not configured"
        },
        if selected {
            "  (selected by default)"
        } else {
            ""
        }
    );
    let mut line = |name: &str, value: &str| out.push_str(&format!("    {name:<22} {value}\n"));
    for s in &p.settings {
        let state = match (&s.value, s.set) {
            (Some(v), true) => v.as_str(),
            (None, true) => "set",
            (_, false) => s.missing,
        };
        line(&s.name, state);
    }
    if let Some(m) = &p.model {
        line("model", m);
    }
    if let Some(e) = &p.endpoint {
        line("endpoint", e);
    }
    if let Some(w) = p.context_window {
        let tokens = squash_core::tokens::format_count(u64::from(w));
        line("context window", &format!("{tokens} tokens"));
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
    line("reachability", &probe);
    out
}

/// Reports what each provider is configured with, which one is used by default and why, and,
/// optionally, whether they answer.
pub async fn doctor(options: DoctorOptions<'_>, cancel: &CancellationToken) -> DoctorReport {
    let (config, config_error) = match load_config() {
        Ok(config) => (config, None),
        Err(e) => (LoadedConfig::default(), Some(e.to_string())),
    };
    let file = config.file_settings();
    let mut providers = Vec::new();
    for kind in ProviderKind::SELECTABLE {
        if let Some(status) = provider_status(kind, options, cancel, &file).await {
            providers.push(status);
        }
    }
    let (selection, selection_error) = match &config_error {
        Some(e) => (None, Some(e.clone())),
        None => match choose(None, &file).await {
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

/// `None` for a provider without settings (the test fake).
async fn provider_status(
    kind: ProviderKind,
    options: DoctorOptions<'_>,
    cancel: &CancellationToken,
    file: &FileSettings,
) -> Option<ProviderStatus> {
    let report = settings_report(kind, file)?;
    let configured = report.configured();
    let mut status = ProviderStatus {
        provider: kind,
        name: kind.as_str(),
        configured,
        settings: report.settings,
        model: report.model,
        endpoint: report.endpoint,
        context_window: None,
        probe: Probe::Skipped {
            reason: "not configured".into(),
        },
    };
    if !configured {
        return Some(status);
    }
    let spec = ModelSpec {
        verifying: true,
        ..ModelSpec::new(kind, file)
    };
    let built = match build(spec).await {
        Ok(m) => m,
        Err(e) => {
            status.probe = failed(e);
            return Some(status);
        }
    };
    let info = built.info();
    status.model = Some(info.model.clone());
    status.context_window = Some(info.context_window_tokens);
    let starts_agent = report.verify_starts_agent;
    let wanted = if starts_agent {
        options.probe_cli
    } else {
        options.probe
    };
    status.probe = if !wanted {
        Probe::Skipped {
            reason: (options.words)(&Remedy::Probe { starts_agent }),
        }
    } else {
        match verify(built.as_ref(), cancel).await {
            Ok(reached) => Probe::Reachable {
                model: reached.model,
                latency_ms: u64::try_from(reached.latency.as_millis()).unwrap_or(u64::MAX),
            },
            Err(e) => Probe::Failed {
                class: e.class().into(),
                message: e.to_string(),
                hint: e.hint().into(),
            },
        }
    };
    Some(status)
}

fn failed(e: SetupError) -> Probe {
    match e {
        SetupError::Llm { source, .. } => Probe::Failed {
            class: source.class().into(),
            message: source.to_string(),
            hint: source.hint().into(),
        },
        other => {
            let other = ProviderError::Setup(other);
            Probe::Failed {
                class: crate::AppError::code(&other).as_str().into(),
                message: other.to_string(),
                hint: String::new(),
            }
        }
    }
}
