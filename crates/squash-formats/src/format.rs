//! The formats an import can be asked for and the formats an export writes.

use serde::Serialize;
use squash_core::SourceFormat;
use thiserror::Error;

/// The format an import is asked to read: one of the [`SourceFormat`]s, or `auto` to detect it
/// from the content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ImportFormat {
    /// Detect from the content.
    Auto,
    ClaudeCode,
    Codex,
    Gemini,
    Opencode,
    #[serde(rename = "openai")]
    OpenAi,
    Anthropic,
    Gromozeka,
    /// The ChatGPT data export (`conversations.json`).
    #[serde(rename = "chatgpt")]
    ChatGpt,
    /// The claude.ai data export (`conversations.json` with `chat_messages`).
    ClaudeAi,
    /// Our own lossless JSON export.
    Squash,
}

impl ImportFormat {
    pub const ALL: [ImportFormat; 11] = [
        ImportFormat::Auto,
        ImportFormat::ClaudeCode,
        ImportFormat::Codex,
        ImportFormat::Gemini,
        ImportFormat::Opencode,
        ImportFormat::OpenAi,
        ImportFormat::Anthropic,
        ImportFormat::Gromozeka,
        ImportFormat::ChatGpt,
        ImportFormat::ClaudeAi,
        ImportFormat::Squash,
    ];

    /// Every name `--format` takes, comma-separated (for messages).
    pub fn names() -> String {
        ImportFormat::list(&ImportFormat::ALL)
    }

    /// The names of `formats`, comma-separated (for messages).
    pub fn list(formats: &[ImportFormat]) -> String {
        formats
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub fn as_str(self) -> &'static str {
        match self.source() {
            Some(format) => format.as_str(),
            None => "auto",
        }
    }

    /// The format to read, `None` for `auto`.
    pub fn source(self) -> Option<SourceFormat> {
        match self {
            ImportFormat::Auto => None,
            ImportFormat::ClaudeCode => Some(SourceFormat::ClaudeCode),
            ImportFormat::Codex => Some(SourceFormat::Codex),
            ImportFormat::Gemini => Some(SourceFormat::Gemini),
            ImportFormat::Opencode => Some(SourceFormat::Opencode),
            ImportFormat::OpenAi => Some(SourceFormat::OpenAi),
            ImportFormat::Anthropic => Some(SourceFormat::Anthropic),
            ImportFormat::Gromozeka => Some(SourceFormat::Gromozeka),
            ImportFormat::ChatGpt => Some(SourceFormat::ChatGpt),
            ImportFormat::ClaudeAi => Some(SourceFormat::ClaudeAi),
            ImportFormat::Squash => Some(SourceFormat::Squash),
        }
    }
}

impl From<SourceFormat> for ImportFormat {
    fn from(format: SourceFormat) -> Self {
        match format {
            SourceFormat::ClaudeCode => ImportFormat::ClaudeCode,
            SourceFormat::Codex => ImportFormat::Codex,
            SourceFormat::Gemini => ImportFormat::Gemini,
            SourceFormat::Opencode => ImportFormat::Opencode,
            SourceFormat::OpenAi => ImportFormat::OpenAi,
            SourceFormat::Anthropic => ImportFormat::Anthropic,
            SourceFormat::Gromozeka => ImportFormat::Gromozeka,
            SourceFormat::ChatGpt => ImportFormat::ChatGpt,
            SourceFormat::ClaudeAi => ImportFormat::ClaudeAi,
            SourceFormat::Squash => ImportFormat::Squash,
        }
    }
}

squash_core::display_by_name!(ImportFormat);

/// A name that is not one of the [`ImportFormat`]s.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown import format {name:?} ({names})", name = .0, names = ImportFormat::names())]
pub struct UnknownImportFormat(pub String);

squash_core::from_str_by_name!(ImportFormat, UnknownImportFormat);

/// The formats an export writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExportFormat {
    Markdown,
    Json,
    ClaudeCode,
    /// A Codex CLI rollout.
    Codex,
    /// A Gemini CLI chat recording.
    Gemini,
    /// An opencode session document, as `opencode import` reads it.
    Opencode,
}

squash_core::named_enum!(ExportFormat {
    Markdown => "markdown",
    Json => "json",
    ClaudeCode => "claude-code",
    Codex => "codex",
    Gemini => "gemini",
    Opencode => "opencode",
});

impl ExportFormat {
    /// Every export format's name, comma-separated (for messages).
    pub fn names() -> String {
        ExportFormat::ALL.map(ExportFormat::as_str).join(", ")
    }

    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Markdown => "md",
            ExportFormat::Json | ExportFormat::Opencode => "json",
            ExportFormat::ClaudeCode | ExportFormat::Codex | ExportFormat::Gemini => "jsonl",
        }
    }
}

/// A name that is not one of the [`ExportFormat`]s.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown export format {name:?} ({names})", name = .0, names = ExportFormat::names())]
pub struct UnknownExportFormat(pub String);

squash_core::from_str_by_name!(ExportFormat, UnknownExportFormat);

/// `--format` of an export takes exactly the names [`ExportFormat::as_str`] gives.
#[cfg(feature = "clap")]
impl clap::ValueEnum for ExportFormat {
    fn value_variants<'a>() -> &'a [Self] {
        &ExportFormat::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let value = clap::builder::PossibleValue::new(self.as_str());
        Some(match self {
            ExportFormat::Gemini => {
                value.help("A Gemini CLI recording, for `gemini --resume <session>`")
            }
            ExportFormat::Opencode => {
                value.help("An opencode session document, for `opencode import <file>`")
            }
            _ => value,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_back() {
        for f in ImportFormat::ALL {
            assert_eq!(f.as_str().parse::<ImportFormat>().unwrap(), f);
            assert_eq!(
                serde_json::to_value(f).unwrap(),
                serde_json::Value::String(f.as_str().to_owned())
            );
            if let Some(source) = f.source() {
                assert_eq!(ImportFormat::from(source), f);
                assert_eq!(source.as_str(), f.as_str());
            }
        }
        assert!("nope".parse::<ImportFormat>().is_err());
        for f in ExportFormat::ALL {
            assert_eq!(f.as_str().parse::<ExportFormat>().unwrap(), f);
        }
        assert_eq!(
            "pdf".parse::<ExportFormat>(),
            Err(UnknownExportFormat("pdf".into()))
        );
    }
}
