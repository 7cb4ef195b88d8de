//! The squash engine: selected messages in, one faithful message out.
//!
//! - `engine.rs`: [`SquashEngine`], the one public way to run, apply and re-run a squash;
//! - `faithful.rs`: the answer checked against the fact ledger, repaired, completed, or
//!   replaced by the extractive squash;
//! - `batch.rs`: selections larger than the model's context window, in parts;
//! - `digest_gist.rs`: a hybrid fit's digest with the model's gist above its facts;
//! - `asker.rs`: the model calls (sizes, streaming, usage), `options.rs`, `error.rs`,
//!   `result.rs`.

mod asker;
mod batch;
mod digest_gist;
mod engine;
mod error;
mod faithful;
mod input;
mod options;
mod result;

use std::sync::Arc;

use squash_core::{ContentItem, MessageId, SquashOperationId};
use squash_llm::ChatModel;

pub use asker::{Progress, SquashStage, StageListener};
pub use digest_gist::DigestToWrite;
pub use engine::{result_role, SquashEngine};
pub use error::SquashError;
pub use options::{
    prompt_style_for, SquashOptions, BRIEF_MAX_OUTPUT_TOKENS, CONTEXT_TOKENS_ENV,
    CONTEXT_WINDOW_ENV, SQUASH_MAX_OUTPUT_TOKENS, SQUASH_TEMPERATURE,
};
pub use result::{AiSquash, PromptPurpose, SentPrompt, SquashResult};

use crate::conversations::{ConversationService, OperationOutcome, SquashApplication};
use crate::error::ServiceError;
use squash_core::thread_ops::PartnerPolicy;
use squash_core::ConversationId;

impl ConversationService {
    /// Applies a computed squash: the result in place of its sources, on a new current thread,
    /// with a squash record holding every prompt sent, the model, the provider, the style, the
    /// custom instructions, token usage and duration. An append made while the model was
    /// working does not fail it: the squash is re-applied on the newer thread as long as every
    /// source is still there (otherwise a conflict, and nothing changes).
    pub async fn apply_ai_squash(
        &self,
        result: &SquashResult,
    ) -> Result<OperationOutcome, ServiceError> {
        let application = SquashApplication {
            messages: result.sources.clone(),
            content: vec![ContentItem::text_for(result.role, result.text.clone())],
            role: result.role,
            // The sources already hold every partner; a new one (a tool result that
            // arrived for a selected call during the model call) is not in the answer:
            // a conflict.
            policy: PartnerPolicy::Refuse,
            kind: result.operation_kind(),
            computed_on: Some(result.computed_on),
        };
        match &result.prepared {
            // Planned on the snapshot the result was computed on; a newer thread is re-planned
            // (and counted in `reapplied`) by the service.
            Some(prepared) => {
                self.apply_prepared_squash(prepared.clone(), application)
                    .await
            }
            None => self.apply_squash(result.conversation_id, application).await,
        }
    }

    /// Squashes `messages` with `model` and applies the result (see [`SquashEngine`]), with the
    /// default options.
    pub async fn squash_messages_with_ai(
        &self,
        model: Arc<dyn ChatModel>,
        conversation: ConversationId,
        messages: &[MessageId],
        custom_instructions: Option<&str>,
    ) -> Result<AiSquash, SquashError> {
        SquashEngine::new(self.clone(), model)
            .squash_and_apply(conversation, messages, custom_instructions)
            .await
    }

    /// Re-runs a recorded AI squash with `model` (see [`SquashEngine::rerun`]).
    pub async fn rerun_ai_squash(
        &self,
        model: Arc<dyn ChatModel>,
        operation: SquashOperationId,
    ) -> Result<AiSquash, SquashError> {
        SquashEngine::new(self.clone(), model)
            .rerun(operation)
            .await
    }
}
