//! A computed squash, before and after it is applied.

use std::time::Duration;

use serde::Serialize;
use squash_core::operation::{FlatProvenance, KindTag};
use squash_core::prompt::{PromptStyle, SquashPrompt, SquashStyle};
use squash_core::quality::QualityReport;
use squash_core::thread_ops::PartnerAdded;
use squash_core::{ConversationId, MessageId, OperationKind, Role, ThreadId, TokenUsage};
use squash_llm::{ProviderKind, StopReason};

use crate::conversations::{OperationOutcome, PreparedSquash};

/// Why a prompt was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PromptPurpose {
    /// The squash itself.
    Squash,
    /// One part of a selection too large for the model's context window.
    Chunk { index: usize, of: usize },
    /// The parts' results, squashed into one.
    Combine,
    /// A follow-up asking to correct the previous answer.
    Repair,
}

/// One prompt as sent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SentPrompt {
    pub purpose: PromptPurpose,
    pub prompt: SquashPrompt,
}

/// A computed squash, not yet applied.
#[derive(Clone, Debug, Serialize)]
pub struct SquashResult {
    pub conversation_id: ConversationId,
    /// The new message's text: the model's answer, cleaned, checked and completed with the
    /// facts it left out (or the extractive squash).
    pub text: String,
    /// The style of `text` (the extractive one when it stood in for the one asked for).
    pub style: SquashStyle,
    /// The style asked for.
    pub requested_style: SquashStyle,
    /// The role the new message gets.
    pub role: Role,
    /// The first prompt exactly as sent; `None` for the extractive style.
    pub prompt: Option<SquashPrompt>,
    /// Every prompt sent, in order (parts of a large selection, repairs).
    pub prompts: Vec<SentPrompt>,
    /// The model id the provider reported; `None` when no model was asked.
    pub model: Option<String>,
    pub provider: Option<ProviderKind>,
    /// Tokens as the provider counted them, over every call; `None` when a call's count is
    /// unknown (or no model was asked).
    pub usage: Option<TokenUsage>,
    /// How long the model calls took.
    #[serde(rename = "duration_ms", serialize_with = "crate::answers::as_millis")]
    pub duration: Duration,
    pub report: QualityReport,
    /// The squashed messages in thread order, tool partners included.
    pub sources: Vec<MessageId>,
    /// Tool partners that joined the selection.
    #[serde(serialize_with = "crate::answers::partners")]
    pub added_partners: Vec<PartnerAdded>,
    pub custom_instructions: Option<String>,
    /// The thread and revision the result was computed from.
    pub computed_on: (ThreadId, u64),
    /// The estimated tokens of the first prompt and the context window they were checked
    /// against.
    pub estimated_prompt_tokens: u64,
    pub context_window: u32,
    pub stop_reason: Option<StopReason>,
    /// The answer hit the output limit and may be cut off.
    pub truncated: bool,
    /// The selection as resolved on the thread it was computed on, so that applying it plans
    /// on the same snapshot (no second read of the thread).
    #[serde(skip)]
    pub prepared: Option<PreparedSquash>,
}

impl SquashResult {
    /// The duration in whole milliseconds, as recorded.
    pub fn duration_ms(&self) -> u64 {
        u64::try_from(self.duration.as_millis()).unwrap_or(u64::MAX)
    }

    /// The prompt style of the first prompt, as recorded with the operation.
    pub fn prompt_style(&self) -> Option<PromptStyle> {
        self.prompt.as_ref().map(|p| p.style)
    }

    /// How the operation record says this result was made: the extract when no model was
    /// asked, otherwise the model's squash with every prompt sent.
    pub fn operation_kind(&self) -> OperationKind {
        if self.model.is_none() {
            return OperationKind::Extract {
                custom_instructions: self.custom_instructions.clone(),
            };
        }
        OperationKind::from_flat(
            KindTag::Ai,
            FlatProvenance {
                prompt: self.recorded_prompt(),
                model: self.model.clone(),
                provider: self.provider,
                custom_instructions: self.custom_instructions.clone(),
                usage: self.usage,
                duration_ms: Some(self.duration_ms()),
                style: Some(self.style.into()),
                prompt_style: self.prompt_style(),
            },
        )
    }

    /// Every prompt as one text for the operation record: the prompt alone when it was the
    /// only one, otherwise each under a header naming its purpose.
    pub fn recorded_prompt(&self) -> Option<String> {
        match self.prompts.as_slice() {
            [] => None,
            [only] => Some(only.prompt.full_text()),
            all => Some(
                all.iter()
                    .enumerate()
                    .map(|(i, p)| {
                        format!(
                            "=== prompt {} of {}: {} ===\n{}",
                            i + 1,
                            all.len(),
                            purpose_label(p.purpose),
                            p.prompt.full_text()
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n\n"),
            ),
        }
    }
}

fn purpose_label(purpose: PromptPurpose) -> String {
    match purpose {
        PromptPurpose::Squash => "squash".into(),
        PromptPurpose::Chunk { index, of } => format!("part {index} of {of}"),
        PromptPurpose::Combine => "combine the parts".into(),
        PromptPurpose::Repair => "repair".into(),
    }
}

/// An applied squash: the computed result and what storing it did.
#[derive(Clone, Debug)]
pub struct AiSquash {
    pub result: SquashResult,
    pub outcome: OperationOutcome,
}
