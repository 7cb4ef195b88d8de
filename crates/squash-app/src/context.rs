//! The context meter: how much of the chosen model's context window the current thread takes.

use serde::Serialize;
use squash_core::tokens::content_tokens_with;
use squash_core::Message;
use squash_llm::ChatModel;

use crate::chat::ChatOptions;
use crate::reading::ThreadView;

/// Who counted a meter's tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenCounter {
    /// `squash_core::tokens::estimate_tokens`, summed by the store.
    Estimate,
    /// The model's own tokenizer (the embedded model), over the same texts.
    Tokenizer,
}

/// The current thread's tokens against a model's window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ContextMeter {
    pub tokens: u64,
    /// The chosen model's context window; `None` without a model.
    pub window: Option<u32>,
    pub counter: TokenCounter,
}

impl ContextMeter {
    /// The tokens of `view` against the window of `model` as a chat with `options` resolves
    /// it; counted by the model's tokenizer where it has one and `view` is the whole thread,
    /// else the store's estimate.
    pub fn of(view: &ThreadView, model: Option<&dyn ChatModel>, options: &ChatOptions) -> Self {
        let Some(model) = model else {
            return ContextMeter {
                tokens: view.tokens,
                window: None,
                counter: TokenCounter::Estimate,
            };
        };
        // A page of a long thread leaves the rest untokenized: the store's estimate then.
        let counted = view
            .span
            .is_whole()
            .then(|| counted_by(model, &view.messages))
            .flatten();
        let (tokens, counter) = match counted {
            Some(tokens) => (tokens, TokenCounter::Tokenizer),
            None => (view.tokens, TokenCounter::Estimate),
        };
        ContextMeter {
            tokens,
            window: Some(options.context_window_of(model)),
            counter,
        }
    }

    /// The share of the window used, in whole percent rounded down (above 100 when the
    /// thread no longer fits).
    pub fn percent(&self) -> Option<u64> {
        let window = u64::from(self.window?).max(1);
        Some(self.tokens.saturating_mul(100) / window)
    }
}

/// The messages' tokens in `model`'s tokenizer, by the rule of
/// `squash_core::tokens::message_tokens`; `None` when the model has no tokenizer here.
pub fn counted_by(model: &dyn ChatModel, messages: &[Message]) -> Option<u64> {
    // An empty text tells whether there is a tokenizer without tokenizing anything.
    model.count_tokens("")?;
    let count = |text: &str| model.count_tokens(text).unwrap_or(0);
    Some(
        messages
            .iter()
            .map(|m| content_tokens_with(m.role, &m.content, &count))
            .sum(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meter(tokens: u64, window: Option<u32>) -> ContextMeter {
        ContextMeter {
            tokens,
            window,
            counter: TokenCounter::Estimate,
        }
    }

    #[test]
    fn percent_rounds_down_and_goes_past_full() {
        assert_eq!(meter(48_213, Some(200_000)).percent(), Some(24));
        assert_eq!(meter(199_999, Some(200_000)).percent(), Some(99));
        assert_eq!(meter(300_000, Some(200_000)).percent(), Some(150));
        assert_eq!(meter(5, None).percent(), None);
    }
}
