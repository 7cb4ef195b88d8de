//! Which provider to use when none is named: provider auto-detection.
//!
//! In order, the first that applies wins: `--provider`; `provider` in the configuration file;
//! `ANTHROPIC_API_KEY`; `OPENAI_API_KEY` or `OPENAI_BASE_URL`; a `claude` executable on
//! `PATH`; an OpenAI-compatible server on 127.0.0.1:11434 (Ollama) or :8080 (llama.cpp's
//! server) that answers; else the embedded local model. Every selection says why, for
//! `squash doctor`.

use std::time::Duration;

use serde::Serialize;
use squash_llm::env::is_set as env_set;
use squash_llm::{find_on_path, list_models, ProviderKind};

use crate::config::LoadedConfig;
use crate::providers::ProviderError;

/// The local servers tried, as OpenAI-compatible base URLs.
pub const LOCAL_SERVERS: [&str; 2] = ["http://127.0.0.1:11434/v1", "http://127.0.0.1:8080/v1"];
/// Comma-separated base URLs tried instead of [`LOCAL_SERVERS`] (`none`: try none).
pub const LOCAL_SERVERS_ENV: &str = "SQUASH_LOCAL_SERVERS";
/// A server on loopback answers at once or is not there.
const SERVER_PROBE_TIMEOUT: Duration = Duration::from_millis(500);

/// The provider chosen and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Selection {
    pub provider: ProviderKind,
    /// One sentence for a person: what decided it.
    pub why: String,
    /// For a detected local server: where it is and the model it serves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<DetectedServer>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DetectedServer {
    pub base_url: String,
    pub model: String,
}

impl Selection {
    fn new(provider: ProviderKind, why: impl Into<String>) -> Selection {
        Selection {
            provider,
            why: why.into(),
            server: None,
        }
    }
}

/// Picks the provider: `explicit` (from `--provider`) if given, else the first that applies in
/// the order the module describes.
pub async fn select(
    explicit: Option<ProviderKind>,
    config: &LoadedConfig,
) -> Result<Selection, ProviderError> {
    if let Some(kind) = explicit {
        return Ok(Selection::new(
            selectable(kind)?,
            format!("--provider {kind}"),
        ));
    }
    if let Some(kind) = config.config.model.explicit_provider() {
        let file = config
            .path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "the configuration".into());
        return Ok(Selection::new(
            selectable(kind)?,
            format!("provider = \"{kind}\" in {file}"),
        ));
    }
    for (var, kind) in [
        ("ANTHROPIC_API_KEY", ProviderKind::Anthropic),
        ("OPENAI_API_KEY", ProviderKind::OpenAi),
        ("OPENAI_BASE_URL", ProviderKind::OpenAi),
    ] {
        if env_set(var) {
            return Ok(Selection::new(kind, format!("{var} is set")));
        }
    }
    if let Some(path) = find_on_path("claude") {
        return Ok(Selection::new(
            ProviderKind::ClaudeCli,
            format!(
                "no API key is set and `claude` is on PATH ({})",
                path.display()
            ),
        ));
    }
    for base_url in local_servers() {
        if let Ok(models) = list_models(&base_url, SERVER_PROBE_TIMEOUT).await {
            if let Some(model) = models.into_iter().next() {
                return Ok(Selection {
                    provider: ProviderKind::OpenAi,
                    why: format!(
                        "no API key or `claude` on PATH; an OpenAI-compatible server answers at \
                         {base_url} with the model {model}"
                    ),
                    server: Some(DetectedServer { base_url, model }),
                });
            }
        }
    }
    Ok(Selection::new(
        ProviderKind::Local,
        format!(
            "no API key, no `claude` on PATH and no local server answered ({}): the embedded \
             local model",
            local_servers().join(", ")
        ),
    ))
}

/// `kind`, when a person may choose it (the test fake is built directly, never selected).
fn selectable(kind: ProviderKind) -> Result<ProviderKind, ProviderError> {
    if ProviderKind::SELECTABLE.contains(&kind) {
        Ok(kind)
    } else {
        Err(ProviderError::Unsupported(kind))
    }
}

fn local_servers() -> Vec<String> {
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
