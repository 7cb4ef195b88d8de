//! Which provider to use: provider auto-detection.
//!
//! In order, the first that applies wins: the provider the caller names; `provider` in the
//! configuration file; `ANTHROPIC_API_KEY`; `OPENAI_API_KEY` or `OPENAI_BASE_URL`; a `claude`
//! executable on `PATH`; an OpenAI-compatible server on 127.0.0.1:11434 (Ollama) or :8080
//! (llama.cpp's server) that answers; else the embedded local model. Every choice says why,
//! for `squash doctor`.

use std::path::PathBuf;

use serde::{Serialize, Serializer};
use squash_core::ProviderKind;

use crate::anthropic::AnthropicConfig;
use crate::claude_cli::ClaudeCliConfig;
use crate::openai::{find_local_server, local_servers, LocalServer, OpenAiConfig};
use crate::providers::ModelSpec;
use crate::settings::{ConfiguredBy, FileSettings, ProviderSettings, SetupError};

/// The provider chosen and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderChoice {
    pub provider: ProviderKind,
    pub reason: Reason,
}

/// Why a provider was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The caller named it (an interface words how: the CLI by its option).
    Named,
    /// The configuration file names it.
    ConfigFile { path: Option<PathBuf> },
    /// Its settings configure it (an environment variable, an executable on `PATH`), and
    /// nothing before it in the order does.
    Configured(ConfiguredBy),
    /// A local OpenAI-compatible server answers, and nothing before it is configured.
    LocalServer(LocalServer),
    /// Nothing else applies: the embedded local model. `tried` are the servers that did not
    /// answer.
    NothingElse { tried: Vec<String> },
}

impl ProviderChoice {
    fn new(provider: ProviderKind, reason: Reason) -> ProviderChoice {
        ProviderChoice { provider, reason }
    }

    /// The detected local server, when that is the choice.
    pub fn server(&self) -> Option<&LocalServer> {
        match &self.reason {
            Reason::LocalServer(server) => Some(server),
            Reason::Named
            | Reason::ConfigFile { .. }
            | Reason::Configured(_)
            | Reason::NothingElse { .. } => None,
        }
    }

    /// What to make of the choice: its provider (at the detected server), with `model` instead
    /// of the configured model id when given.
    pub fn spec<'a>(&'a self, file: &'a FileSettings, model: Option<&'a str>) -> ModelSpec<'a> {
        ModelSpec {
            server: self.server(),
            model,
            ..ModelSpec::new(self.provider, file)
        }
    }

    /// One sentence for a person: what decided it.
    pub fn why(&self) -> String {
        match &self.reason {
            Reason::Named => format!("{} was named", self.provider),
            Reason::ConfigFile { path } => format!(
                "provider = \"{}\" in {}",
                self.provider,
                path.as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| "the configuration".into())
            ),
            Reason::Configured(ConfiguredBy::Env(var)) => format!("{var} is set"),
            Reason::Configured(ConfiguredBy::Executable(path)) => format!(
                "no API key is set and `{}` is on PATH ({})",
                path.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                path.display()
            ),
            Reason::Configured(ConfiguredBy::ModelFile(path)) => {
                format!("the model file {} is there", path.display())
            }
            Reason::LocalServer(server) => format!(
                "no API key or `claude` on PATH; an OpenAI-compatible server answers at {} with \
                 the model {}",
                server.base_url, server.model
            ),
            Reason::NothingElse { tried } => format!(
                "no API key, no `claude` on PATH and no local server answered ({}): the embedded \
                 local model",
                tried.join(", ")
            ),
        }
    }
}

/// `{provider, why, server}`: the shape `doctor --json` reports.
impl Serialize for ProviderChoice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Shown<'a> {
            provider: ProviderKind,
            why: String,
            #[serde(skip_serializing_if = "Option::is_none")]
            server: Option<&'a LocalServer>,
        }
        Shown {
            provider: self.provider,
            why: self.why(),
            server: self.server(),
        }
        .serialize(s)
    }
}

/// Picks the provider: `named` if given, else the first that applies in the order the module
/// describes.
pub async fn choose(
    named: Option<ProviderKind>,
    file: &FileSettings,
) -> Result<ProviderChoice, SetupError> {
    if let Some(kind) = named {
        return Ok(ProviderChoice::new(selectable(kind)?, Reason::Named));
    }
    if let Some(kind) = file.provider {
        let path = file.path.clone();
        return Ok(ProviderChoice::new(
            selectable(kind)?,
            Reason::ConfigFile { path },
        ));
    }
    let configured = [
        (ProviderKind::Anthropic, AnthropicConfig::configured(file)),
        (ProviderKind::OpenAi, OpenAiConfig::configured(file)),
        (ProviderKind::ClaudeCli, ClaudeCliConfig::configured(file)),
    ];
    if let Some((kind, by)) = configured
        .into_iter()
        .find_map(|(kind, by)| Some((kind, by?)))
    {
        return Ok(ProviderChoice::new(kind, Reason::Configured(by)));
    }
    if let Some(server) = find_local_server().await {
        return Ok(ProviderChoice::new(
            ProviderKind::OpenAi,
            Reason::LocalServer(server),
        ));
    }
    Ok(ProviderChoice::new(
        ProviderKind::Local,
        Reason::NothingElse {
            tried: local_servers(),
        },
    ))
}

/// `kind`, when a person may choose it (the test fake is built directly, never selected).
fn selectable(kind: ProviderKind) -> Result<ProviderKind, SetupError> {
    if ProviderKind::SELECTABLE.contains(&kind) {
        Ok(kind)
    } else {
        Err(SetupError::Unselectable(kind))
    }
}
