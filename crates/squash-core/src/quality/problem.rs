//! Why a model's answer was not accepted as a squash result.

use thiserror::Error;

use crate::tokens::format_count;

/// Why a model's answer was not accepted as a squash result. Every variant means nothing was
/// applied; the messages stay as they were.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OutputProblem {
    /// Nothing but whitespace.
    #[error("the model returned an empty answer; nothing was applied")]
    Empty,
    #[error(
        "the model's answer is only a comment about the task, not a compressed message; \
         nothing was applied"
    )]
    /// Only talk about the task ("Here is the compressed message:" and nothing after it).
    MetaOnly,
    #[error(
        "the model's answer is {} the messages it should compress ({} vs {} characters); \
         nothing was applied",
        if .output_chars > .input_chars { "longer than" } else { "as long as" },
        format_count(*.output_chars),
        format_count(*.input_chars)
    )]
    /// At least as long as the input, in characters: no compression happened.
    NotShorter { input_chars: u64, output_chars: u64 },
    #[error("the model refused to compress the messages (\"{excerpt}\"); nothing was applied")]
    /// A refusal; `excerpt` is the start of its first line.
    Refusal { excerpt: String },
    #[error(
        "the model's answer repeats the prompt's markup (`{markup}`) instead of giving a \
         compressed message; nothing was applied"
    )]
    /// The prompt's own tags in the answer (and not in the messages).
    EchoedMarkup { markup: String },
    #[error(
        "the model's answer repeats itself (\"{repeated}\" appears {times} times); \
         nothing was applied"
    )]
    /// A line, sentence, word sequence or character pattern repeated like a runaway loop.
    Looping { repeated: String, times: u64 },
    #[error(
        "the model's answer only copies a part of the messages ({} of {} characters, word for \
         word) instead of compressing them all; nothing was applied",
        format_count(*.output_chars),
        format_count(*.input_chars)
    )]
    /// The answer is a verbatim piece of the input, at most half of it: small models copy
    /// one message (often the first) instead of compressing the selection.
    CopiedPart { input_chars: u64, output_chars: u64 },
}

impl OutputProblem {
    /// A stable machine-readable name, for logs, metrics and API error bodies.
    pub fn class(&self) -> &'static str {
        match self {
            OutputProblem::Empty => "empty",
            OutputProblem::MetaOnly => "meta_only",
            OutputProblem::NotShorter { .. } => "not_shorter",
            OutputProblem::Refusal { .. } => "refusal",
            OutputProblem::EchoedMarkup { .. } => "echoed_markup",
            OutputProblem::Looping { .. } => "looping",
            OutputProblem::CopiedPart { .. } => "copied_part",
        }
    }
}
