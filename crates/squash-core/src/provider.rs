//! Which model provider answered: the name a provenance record keeps.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Which implementation answers a request.
///
/// One spelling everywhere: serde, `Display`, the `--provider` flag and provenance records all
/// use [`ProviderKind::as_str`] (`anthropic`, `openai`, `claude-cli`, `local`). Records written
/// before that spelled two of them differently (`open_ai`, `claude_cli`); [`ProviderKind::parse`]
/// still reads those, but nothing writes them any more.
///
/// It lives in the domain because the provenance record names the provider of an AI squash;
/// what each provider needs and how it is called is `squash-llm`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProviderKind {
    /// The Anthropic Messages API.
    Anthropic,
    /// An OpenAI-compatible Chat Completions API (OpenAI, Ollama, llama.cpp, vLLM, LM Studio).
    OpenAi,
    /// The Claude Code `claude` executable in print mode.
    ClaudeCli,
    /// A model embedded in the process.
    Local,
    /// The scripted model of the tests (`squash-llm`'s `test-support` feature): never
    /// selectable, but a record it made reads back.
    Fake,
}

impl ProviderKind {
    /// The providers a person can choose, in a stable order.
    pub const SELECTABLE: [ProviderKind; 4] = [
        ProviderKind::Anthropic,
        ProviderKind::OpenAi,
        ProviderKind::ClaudeCli,
        ProviderKind::Local,
    ];

    /// The one name of a provider: what people type, what records and JSON answers hold.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::OpenAi => "openai",
            ProviderKind::ClaudeCli => "claude-cli",
            ProviderKind::Local => "local",
            ProviderKind::Fake => "fake",
        }
    }

    /// Every kind this build knows.
    const ALL: &'static [ProviderKind] = &[
        ProviderKind::Anthropic,
        ProviderKind::OpenAi,
        ProviderKind::ClaudeCli,
        ProviderKind::Local,
        ProviderKind::Fake,
    ];

    /// The spellings records written before there was one name hold (serde's `open_ai`, the
    /// record's `claude_cli`): read, never written.
    fn legacy_names(self) -> &'static [&'static str] {
        match self {
            ProviderKind::OpenAi => &["open_ai"],
            ProviderKind::ClaudeCli => &["claude_cli"],
            _ => &[],
        }
    }

    /// The inverse of [`ProviderKind::as_str`], ignoring case and surrounding blanks, and also
    /// reading the spellings older records hold (`open_ai`, `claude_cli`).
    pub fn parse(name: &str) -> Option<ProviderKind> {
        let name = name.trim().to_ascii_lowercase();
        ProviderKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == name || k.legacy_names().contains(&name.as_str()))
    }

    /// The selectable names, for messages: `anthropic, openai, claude-cli, local`.
    pub fn names() -> String {
        ProviderKind::SELECTABLE
            .map(ProviderKind::as_str)
            .join(", ")
    }
}

crate::display_by_name!(ProviderKind);

impl std::str::FromStr for ProviderKind {
    type Err = UnknownProvider;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ProviderKind::parse(s).ok_or_else(|| UnknownProvider(s.trim().to_owned()))
    }
}

/// A provider name [`ProviderKind::parse`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown provider `{0}`: use one of {names}", names = ProviderKind::names())]
pub struct UnknownProvider(pub String);

impl Serialize for ProviderKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ProviderKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// `--provider` takes exactly the names [`ProviderKind::as_str`] gives; a wrong one is refused
/// with the list.
#[cfg(feature = "clap")]
impl clap::ValueEnum for ProviderKind {
    fn value_variants<'a>() -> &'a [Self] {
        &ProviderKind::SELECTABLE
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()).aliases(self.legacy_names()))
    }
}
