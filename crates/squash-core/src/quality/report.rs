//! The quality report shown next to a squash result: how much was compressed, which salient
//! terms survived, were dropped or appeared from nowhere, and what the fact ledger says.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::facts::FactReport;
use crate::prompt::SquashStyle;
use crate::terms::compare_terms;
use crate::tokens::{estimate_tokens, format_count};

/// How a squash result compares with the messages it replaces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QualityReport {
    /// Characters (not bytes) of the messages' text.
    pub input_chars: u64,
    /// Characters of the result.
    pub output_chars: u64,
    /// Estimates ([`estimate_tokens`]), not the provider's counts.
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Output over input characters; 0 when the input is empty.
    pub char_ratio: f64,
    /// Output over input estimated tokens; 0 when the input is empty.
    pub token_ratio: f64,
    /// Salient terms of the input that the output still has, in input order.
    pub kept: Vec<String>,
    /// Salient terms of the input that the output lost, in input order.
    pub dropped: Vec<String>,
    /// Salient terms of the output that the input never had (possible inventions), in output
    /// order.
    pub introduced: Vec<String>,
    /// The fact ledger against the result; `None` for a report made without a ledger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facts: Option<FactReport>,
    /// How many repair requests were sent after the first answer.
    #[serde(default)]
    pub repairs: u32,
    /// Set when another style stood in for the one asked for (the extractive squash after
    /// unusable answers).
    #[serde(default)]
    pub fallback: Option<Fallback>,
    /// The size limit of a selection of 200 tokens or more, and what was applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<SizeLimit>,
}

/// Compares a squash result with the text of the messages it replaces (use
/// [`messages_text`](crate::prompt::messages_text), the text the model saw); the terms as
/// [`compare_terms`] sorts them.
pub fn quality_report(input_text: &str, output_text: &str) -> QualityReport {
    let terms = compare_terms(input_text, output_text);
    let input_chars = input_text.chars().count() as u64;
    let output_chars = output_text.chars().count() as u64;
    let input_tokens = estimate_tokens(input_text);
    let output_tokens = estimate_tokens(output_text);
    let ratio = |out: u64, inp: u64| {
        if inp == 0 {
            0.0
        } else {
            out as f64 / inp as f64
        }
    };
    QualityReport {
        input_chars,
        output_chars,
        input_tokens,
        output_tokens,
        char_ratio: ratio(output_chars, input_chars),
        token_ratio: ratio(output_tokens, input_tokens),
        kept: terms.kept,
        dropped: terms.dropped,
        introduced: terms.introduced,
        facts: None,
        repairs: 0,
        fallback: None,
        size: None,
    }
}

/// The result is not what was asked for: another style had to stand in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fallback {
    /// The style applied instead.
    pub style: SquashStyle,
    /// Why, in words.
    pub reason: String,
    /// Why, as a kind (records from before it was kept read as [`FallbackCause::Unusable`]).
    #[serde(default)]
    pub cause: FallbackCause,
}

/// Why another style stood in for the one asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FallbackCause {
    /// The model gave no usable answer (after a repair request), or one that invented terms.
    #[default]
    Unusable,
    /// The answer was over the size limit and the facts alone are shorter.
    TooLong,
}

/// The size limit of a squash ([`size_limit`]) and what the applied text came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SizeLimit {
    /// Estimated tokens of the selection.
    pub selection_tokens: u64,
    /// The most the applied text may have.
    pub limit_tokens: u64,
    /// Estimated tokens of the applied text.
    pub applied_tokens: u64,
}

impl SizeLimit {
    /// The limit of a `selection_tokens` selection against an applied text of
    /// `applied_tokens`; `None` for an empty selection.
    pub fn of(selection_tokens: u64, applied_tokens: u64) -> Option<SizeLimit> {
        size_limit(selection_tokens).map(|limit_tokens| SizeLimit {
            selection_tokens,
            limit_tokens,
            applied_tokens,
        })
    }

    /// The applied text is over the limit: its facts alone need more.
    pub fn exceeded(&self) -> bool {
        self.applied_tokens > self.limit_tokens
    }
}

/// From this size on, a squash is at most [`SIZE_LIMIT_PERCENT`] of its selection; below it, it
/// is only shorter than the selection (a few lines leave little to take out).
pub const SIZE_LIMIT_FROM_TOKENS: u64 = 200;
/// A squash of a larger selection is at most this share of it, in percent.
pub const SIZE_LIMIT_PERCENT: u64 = 40;

/// The most tokens the squash of a `selection_tokens` selection may have: 40% from 200 tokens
/// up, below that one token less than the selection; `None` for an empty selection.
pub fn size_limit(selection_tokens: u64) -> Option<u64> {
    match selection_tokens {
        0 => None,
        n if n >= SIZE_LIMIT_FROM_TOKENS => Some(n * SIZE_LIMIT_PERCENT / 100),
        n => Some(n - 1),
    }
}

/// How many terms a one-line summary lists before "and N more".
const RENDER_MAX_TERMS: usize = 8;

impl QualityReport {
    /// Share of the input's salient terms the output kept; 1.0 when the input had none.
    pub fn salient_recall(&self) -> f64 {
        let total = self.kept.len() + self.dropped.len();
        if total == 0 {
            1.0
        } else {
            self.kept.len() as f64 / total as f64
        }
    }

    /// One line for a person: "compressed 4,210 → 612 chars (14.5%), ~1,052 → ~153 tokens;
    /// kept 12/14 salient terms; dropped: src/b.rs, 42; new: foo_bar".
    pub fn render(&self) -> String {
        let mut out = format!(
            "compressed {} → {} chars ({:.1}%), ~{} → ~{} tokens",
            format_count(self.input_chars),
            format_count(self.output_chars),
            self.char_ratio * 100.0,
            format_count(self.input_tokens),
            format_count(self.output_tokens),
        );
        let total = self.kept.len() + self.dropped.len();
        if total == 0 {
            out.push_str("; no salient terms");
        } else {
            out.push_str(&format!(
                "; kept {}/{} salient terms",
                self.kept.len(),
                total
            ));
        }
        if let Some(facts) = &self.facts {
            out.push_str(&format!(
                "; facts: {}/{} stated",
                facts.stated(),
                facts.total
            ));
            if !facts.restored.is_empty() {
                out.push_str(&format!(
                    " ({} added as lines of the note)",
                    facts.restored.len()
                ));
            }
            if !facts.invented.is_empty() {
                let terms: Vec<String> = facts.invented.iter().map(|t| t.term.clone()).collect();
                out.push_str(&format!("; invented and removed: {}", list_terms(&terms)));
            }
        }
        if self.repairs > 0 {
            out.push_str(&format!("; {} repair request(s)", self.repairs));
        }
        if let Some(fallback) = &self.fallback {
            out.push_str(&format!(
                "; fell back to the {} style: {}",
                fallback.style, fallback.reason
            ));
        }
        if let Some(size) = self.size.filter(SizeLimit::exceeded) {
            out.push_str(&format!(
                "; over the size limit: the facts alone need ~{} tokens (the limit is ~{}, \
                 {}% of the selection)",
                format_count(size.applied_tokens),
                format_count(size.limit_tokens),
                SIZE_LIMIT_PERCENT
            ));
        }
        if !self.dropped.is_empty() {
            out.push_str(&format!("; dropped: {}", list_terms(&self.dropped)));
        }
        if !self.introduced.is_empty() {
            out.push_str(&format!("; new: {}", list_terms(&self.introduced)));
        }
        out
    }
}

impl fmt::Display for QualityReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

fn list_terms(terms: &[String]) -> String {
    let mut out = terms
        .iter()
        .take(RENDER_MAX_TERMS)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if terms.len() > RENDER_MAX_TERMS {
        out.push_str(&format!(" and {} more", terms.len() - RENDER_MAX_TERMS));
    }
    out
}
