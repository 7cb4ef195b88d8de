//! The configuration file: `$SQUASH_CONFIG`, else `config.toml` in the user's configuration
//! directory (`~/.config/squash/config.toml` on Linux). Every key is optional; a missing file
//! is the empty configuration.
//!
//! ```toml
//! [model]
//! provider = "local"              # auto (the default), anthropic, openai, claude-cli, local
//! model = "gpt-4o-mini"           # the provider's model id
//! local_model = "qwen2.5-coder-0.5b"  # a catalog name or a path to any .gguf file
//! threads = 2                     # CPU threads for the local model
//! context_tokens = 8192           # the local model's context
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use squash_llm::{FileSettings, ProviderKind};
use thiserror::Error;

use crate::error::{AppError, ErrorCode};

/// Names the configuration file instead of the default location.
pub const CONFIG_ENV: &str = "SQUASH_CONFIG";

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub model: ModelConfig,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ModelConfig {
    /// `auto` or a provider name; a named provider wins over anything detected.
    pub provider: Option<ProviderSetting>,
    /// The model id for the provider (not for `local`: see `local_model`).
    pub model: Option<String>,
    /// A catalog name (`squash model list`) or the path of a GGUF file.
    pub local_model: Option<String>,
    pub threads: Option<u32>,
    pub context_tokens: Option<u32>,
}

impl ModelConfig {
    /// The configured provider, unless it is `auto` (or not set).
    pub fn explicit_provider(&self) -> Option<ProviderKind> {
        match self.provider {
            Some(ProviderSetting::Named(kind)) => Some(kind),
            Some(ProviderSetting::Auto) | None => None,
        }
    }
}

/// `provider = ...` in the configuration file: `auto` (detect, the default) or one provider,
/// by its name. Anything else is refused when the file is read, with the
/// list of valid names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProviderSetting {
    Auto,
    Named(ProviderKind),
}

impl ProviderSetting {
    const AUTO: &'static str = "auto";

    pub fn as_str(self) -> &'static str {
        match self {
            ProviderSetting::Auto => ProviderSetting::AUTO,
            ProviderSetting::Named(kind) => kind.as_str(),
        }
    }
}

impl Serialize for ProviderSetting {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ProviderSetting {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if name.trim().eq_ignore_ascii_case(ProviderSetting::AUTO) {
            return Ok(ProviderSetting::Auto);
        }
        ProviderKind::parse(&name)
            .map(ProviderSetting::Named)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown provider `{}`: use auto or one of {}",
                    name.trim(),
                    ProviderKind::names()
                ))
            })
    }
}

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read the configuration file {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the configuration file {} is not valid: {message}", .path.display())]
    Parse { path: PathBuf, message: String },
}

/// A configuration file that cannot be read leaves no model to use.
impl AppError for ConfigError {
    fn code(&self) -> ErrorCode {
        ErrorCode::NotConfigured
    }
}

/// A configuration and the file it came from.
#[derive(Clone, Debug, Default)]
pub struct LoadedConfig {
    /// `None` when no file exists (the empty configuration).
    pub path: Option<PathBuf>,
    pub config: Config,
}

impl LoadedConfig {
    /// The file's `[model]` values, as the providers take them.
    pub fn file_settings(&self) -> FileSettings {
        let model = &self.config.model;
        FileSettings {
            path: self.path.clone(),
            provider: model.explicit_provider(),
            model: model.model.clone(),
            local_model: model.local_model.clone(),
            threads: model.threads,
            context_tokens: model.context_tokens,
        }
    }
}

/// Where the configuration file is looked for.
pub fn config_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(CONFIG_ENV).filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(p));
    }
    directories::ProjectDirs::from("dev", "squash", "squash")
        .map(|d| d.config_dir().join("config.toml"))
}

/// Reads the configuration file; a missing file is the empty configuration, an unreadable or
/// invalid one an error (a typo must not silently select another provider).
pub fn load_config() -> Result<LoadedConfig, ConfigError> {
    match config_path() {
        Some(path) => load_from(&path),
        None => Ok(LoadedConfig::default()),
    }
}

pub fn load_from(path: &Path) -> Result<LoadedConfig, ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(LoadedConfig::default()),
        Err(source) => {
            return Err(ConfigError::Read {
                path: path.to_owned(),
                source,
            })
        }
    };
    let config = toml::from_str(&text).map_err(|e| ConfigError::Parse {
        path: path.to_owned(),
        message: e.message().to_owned(),
    })?;
    Ok(LoadedConfig {
        path: Some(path.to_owned()),
        config,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_empty_and_a_typo_is_an_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        let missing = load_from(&dir.path().join("none.toml")).expect("missing is fine");
        assert_eq!(missing.config, Config::default());
        assert!(missing.path.is_none());

        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "[model]\nprovider = \"local\"\nlocal_model = \"x.gguf\"\n",
        )
        .expect("write");
        let loaded = load_from(&path).expect("valid");
        assert_eq!(
            loaded.config.model.explicit_provider(),
            Some(ProviderKind::Local)
        );
        assert_eq!(loaded.config.model.local_model.as_deref(), Some("x.gguf"));

        std::fs::write(&path, "[model]\nprovidr = \"local\"\n").expect("write");
        let err = load_from(&path).expect_err("unknown key");
        assert!(err.to_string().contains("providr"), "{err}");
    }

    fn provider_in(text: &str) -> Result<ModelConfig, toml::de::Error> {
        toml::from_str::<Config>(text).map(|c| c.model)
    }

    #[test]
    fn auto_is_no_explicit_provider() {
        let auto = provider_in("[model]\nprovider = \" Auto \"\n").expect("auto");
        assert_eq!(auto.provider, Some(ProviderSetting::Auto));
        assert_eq!(auto.explicit_provider(), None);
        assert_eq!(ModelConfig::default().explicit_provider(), None);
    }

    #[test]
    fn providers_are_read_in_every_spelling_and_written_in_one() {
        for (written, kind) in [
            ("anthropic", ProviderKind::Anthropic),
            ("openai", ProviderKind::OpenAi),
            ("open_ai", ProviderKind::OpenAi),
            ("claude-cli", ProviderKind::ClaudeCli),
            ("claude_cli", ProviderKind::ClaudeCli),
            ("local", ProviderKind::Local),
        ] {
            let model = provider_in(&format!("[model]\nprovider = \"{written}\"\n"))
                .unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(model.explicit_provider(), Some(kind), "{written}");
            let again = serde_json::to_value(&model).expect("serializes");
            assert_eq!(again["provider"], kind.as_str(), "{written}");
        }
    }

    #[test]
    fn an_unknown_provider_is_refused_with_the_valid_names() {
        let err = provider_in("[model]\nprovider = \"gemini\"\n")
            .expect_err("unknown")
            .to_string();
        assert!(
            err.contains("gemini")
                && err.contains("auto or one of anthropic, openai, claude-cli, local"),
            "{err}"
        );
    }
}
