//! How a message came to be, each way with exactly what it records.

use serde::Serialize;

use super::TokenUsage;
use crate::prompt::{PromptStyle, SquashStyle};
use crate::provider::ProviderKind;

/// How an operation made its result. Serialized with its tag in `kind` (`edit`, `manual`,
/// `extract`, `mask`, `ai`, `ai_legacy`) and the variant's fields beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OperationKind {
    /// One message's content replaced by hand.
    Edit,
    /// Messages made one by hand: the text given, or the sources concatenated.
    Manual,
    /// The sources' fact ledger as text, without a model: the `extract` squash style, or a
    /// fit's extract level.
    Extract {
        /// The instructions the squash was asked with: an extract does not follow them, but
        /// the record keeps what was asked.
        #[serde(skip_serializing_if = "Option::is_none")]
        custom_instructions: Option<String>,
    },
    /// One message's tool outputs trimmed to the lines that carry facts (a fit's first level,
    /// see [`crate::fit::trim`]): no model, no style.
    Mask,
    /// A squash a model wrote, as the engine records it.
    Ai(AiRecord),
    /// An AI squash recorded with less than the engine records: imported from another tool,
    /// or written by a Squash older than the typed record.
    AiLegacy(LegacyAiRecord),
}

/// What the engine records of an AI squash: enough to show how it was made and to run it
/// again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AiRecord {
    pub provider: ProviderKind,
    /// The model id the provider reported.
    pub model: String,
    /// Every prompt sent, as one text: the prompt alone when it was the only one, otherwise
    /// each under a header naming its purpose (a part, the combination, a repair).
    pub prompt: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_instructions: Option<String>,
    /// `None` when the provider did not count (unknown, never zero).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
    /// How long the model calls took.
    pub duration_ms: u64,
    /// The result's style: the one asked for, or `extract` when the fact ledger stood in for
    /// an unusable answer.
    pub style: SquashStyle,
    /// The prompt the engine sent first, so a re-run sends the same kind.
    pub prompt_style: PromptStyle,
}

/// An AI squash's record as far as it was kept: each field only when its source recorded it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LegacyAiRecord {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<ProviderKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_instructions: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub style: Option<SquashStyle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_style: Option<PromptStyle>,
}

impl OperationKind {
    /// Whether a model made the result.
    pub fn performed_by_agent(&self) -> bool {
        matches!(self, OperationKind::Ai(_) | OperationKind::AiLegacy(_))
    }

    /// Whether the result carries a recall reference: what a fit or an AI (or extract) squash
    /// made stands for messages it took out of the thread; an edit or a squash by hand is the
    /// person's own text.
    pub fn writes_recall_ref(&self) -> bool {
        matches!(
            self,
            OperationKind::Mask
                | OperationKind::Extract { .. }
                | OperationKind::Ai(_)
                | OperationKind::AiLegacy(_)
        )
    }

    /// The model that wrote the result, when one did and it is known.
    pub fn model(&self) -> Option<&str> {
        match self {
            OperationKind::Ai(ai) => Some(&ai.model),
            OperationKind::AiLegacy(ai) => ai.model.as_deref(),
            _ => None,
        }
    }

    /// The provider that answered, when a model did and it is known.
    pub fn provider(&self) -> Option<ProviderKind> {
        match self {
            OperationKind::Ai(ai) => Some(ai.provider),
            OperationKind::AiLegacy(ai) => ai.provider,
            _ => None,
        }
    }

    /// Every prompt sent, when a model was asked and the prompt is known.
    pub fn prompt(&self) -> Option<&str> {
        match self {
            OperationKind::Ai(ai) => Some(&ai.prompt),
            OperationKind::AiLegacy(ai) => ai.prompt.as_deref(),
            _ => None,
        }
    }

    /// The instructions the squash was asked with.
    pub fn custom_instructions(&self) -> Option<&str> {
        match self {
            OperationKind::Ai(ai) => ai.custom_instructions.as_deref(),
            OperationKind::AiLegacy(ai) => ai.custom_instructions.as_deref(),
            OperationKind::Extract {
                custom_instructions,
            } => custom_instructions.as_deref(),
            OperationKind::Edit | OperationKind::Manual | OperationKind::Mask => None,
        }
    }

    /// The squash style of a result the engine made (an extract's is `extract`); none for a
    /// person's edit or squash, a mask, or a record that did not keep it.
    pub fn style(&self) -> Option<SquashStyle> {
        match self {
            OperationKind::Ai(ai) => Some(ai.style),
            OperationKind::AiLegacy(ai) => ai.style,
            OperationKind::Extract { .. } => Some(SquashStyle::Extract),
            OperationKind::Edit | OperationKind::Manual | OperationKind::Mask => None,
        }
    }

    /// Tokens the model calls used, when a provider counted them.
    pub fn usage(&self) -> Option<TokenUsage> {
        match self {
            OperationKind::Ai(ai) => ai.usage,
            OperationKind::AiLegacy(ai) => ai.usage,
            _ => None,
        }
    }

    /// The prompt the engine sent first, when it was recorded.
    pub fn prompt_style(&self) -> Option<PromptStyle> {
        match self {
            OperationKind::Ai(ai) => Some(ai.prompt_style),
            OperationKind::AiLegacy(ai) => ai.prompt_style,
            _ => None,
        }
    }

    /// How long the model calls took, when recorded.
    pub fn duration_ms(&self) -> Option<u64> {
        match self {
            OperationKind::Ai(ai) => Some(ai.duration_ms),
            OperationKind::AiLegacy(ai) => ai.duration_ms,
            _ => None,
        }
    }
}
