//! The AI squash prompt: templates (the `.txt` files beside this module, so the wording can be
//! read and reviewed as text) and the builder that fills them with the selected messages.
//!
//! Message content is untrusted data — it may come from a web page a tool fetched or from a
//! file an agent read. In the [`PromptStyle::Spec`] prompt it is XML-escaped, so that it can
//! never open or close one of the prompt's tags; in the [`PromptStyle::Compact`] prompt each
//! message sits in a code fence longer than any backtick run inside it, which it cannot close.

mod content_text;
mod digest;
mod escape;
mod long_output;
mod template;
mod tool_args;

use serde::{Deserialize, Serialize};

use crate::ledger::{build_ledger, Fact, Ledger};
use crate::message::Message;
use crate::text::one_line;
use crate::tokens::estimate_tokens;

use content_text::{display_role, labelled, message_body, ToolNames};
use digest::brief_transcript;
pub use digest::BRIEF_TRANSCRIPT_MAX_TOKENS;

/// The most tokens of the facts list a brief prompt shows, and the longest line of one fact in
/// it: the 0.5B model's reading is most of its time (see [`BRIEF_TRANSCRIPT_MAX_TOKENS`]).
pub const BRIEF_FACTS_MAX_TOKENS: u64 = 400;
const BRIEF_FACT_MAX_CHARS: usize = 200;
use escape::fence_for;
pub use escape::{escape_xml, undo_escaping};
use template::fill;

const SPEC_TEMPLATE: &str = include_str!("spec.txt");
const SPEC_INSTRUCTIONS_TEMPLATE: &str = include_str!("spec_instructions.txt");
const COMPACT_SYSTEM: &str = include_str!("compact_system.txt");
const COMPACT_TEMPLATE: &str = include_str!("compact.txt");
const COMPACT_INSTRUCTIONS_TEMPLATE: &str = include_str!("compact_instructions.txt");
const NOTES_SYSTEM: &str = include_str!("notes_system.txt");
const NOTES_TEMPLATE: &str = include_str!("notes.txt");
const NOTES_INSTRUCTIONS_TEMPLATE: &str = include_str!("notes_instructions.txt");
const STRUCTURED_TEMPLATE: &str = include_str!("structured.txt");
const BRIEF_SYSTEM: &str = include_str!("brief_system.txt");
const BRIEF_TEMPLATE: &str = include_str!("brief.txt");
const REPAIR_TEMPLATE: &str = include_str!("repair.txt");

/// What a squash result should look like: the user's choice (`squash ai --style`), recorded
/// with the operation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SquashStyle {
    /// One concise message in prose (the spec's squash).
    #[default]
    Prose,
    /// Sections: goal, what was done, files, commands and results, errors and fixes,
    /// decisions, open items.
    Structured,
    /// The fact ledger as text, with no model call: instant, exact, offline.
    Extract,
}

crate::named_enum!(SquashStyle {
    Prose => "prose",
    Structured => "structured",
    Extract => "extract",
});

impl SquashStyle {
    /// Whether the style asks a model at all.
    pub fn needs_model(self) -> bool {
        matches!(self, SquashStyle::Prose | SquashStyle::Structured)
    }
}

/// Which shape of prompt to send.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptStyle {
    /// The spec's XML-structured prompt, for large hosted models (Claude, GPT-4-class), which
    /// follow tagged sections and long rule lists well.
    #[default]
    Spec,
    /// A shorter plain-text prompt for small local models: few rules, a system message, the
    /// instruction repeated after the messages (small models forget what came before a long
    /// input) and a `Summary:` line that primes the answer to start with the content.
    Compact,
    /// Bullet-point notes on a plain transcript, for the smallest local models (0.5B–1.5B):
    /// measured, they copy one of the compact prompt's fenced blocks instead of compressing
    /// them; a transcript with the task after it and a fixed answer shape works better.
    Notes,
    /// The spec's prompt asking for sections (the `structured` squash style).
    Structured,
    /// For the small local models: the fact ledger and a condensed transcript, asking only for
    /// the few sentences that connect the facts; the facts themselves are added by Squash.
    Brief,
}

crate::named_enum!(PromptStyle {
    Spec => "spec",
    Compact => "compact",
    Notes => "notes",
    Structured => "structured",
    Brief => "brief",
});

/// A built prompt: an optional system message and the user message to send.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquashPrompt {
    /// The system message, when the style uses one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// The user message: instructions and the messages to squash.
    pub user: String,
    /// The style it was built in, recorded so a squash can be reproduced.
    pub style: PromptStyle,
}

impl SquashPrompt {
    /// The exact text sent, as one string, to record in the squash's provenance: the user
    /// message alone when there is no system message, otherwise both under `[system]` and
    /// `[user]` headers (the layout of the manual squash's concatenation).
    pub fn full_text(&self) -> String {
        match &self.system {
            None => self.user.clone(),
            Some(system) => format!("[system]\n{system}\n\n[user]\n{}", self.user),
        }
    }

    /// Estimated prompt tokens (system and user message), for
    /// [`check_fits`](crate::tokens::check_fits).
    pub fn estimated_tokens(&self) -> u64 {
        self.system.as_deref().map_or(0, estimate_tokens) + estimate_tokens(&self.user)
    }
}

/// Builds the AI squash prompt for `messages`, which must already be in thread order (the
/// domain sorts a selection by position before it gets here); they are numbered 1..n.
/// Blank `custom_instructions` count as none.
///
/// The prompt holds no ids or timestamps: the same messages give the same prompt, which keeps
/// provenance comparable and lets a provider cache it.
pub fn build_squash_prompt(
    messages: &[&Message],
    custom_instructions: Option<&str>,
    style: PromptStyle,
) -> SquashPrompt {
    let instructions = custom_instructions.map(str::trim).filter(|s| !s.is_empty());
    let names = ToolNames::of(messages);
    match style {
        PromptStyle::Spec | PromptStyle::Structured => {
            let elements: Vec<String> = messages
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    format!(
                        "<message index=\"{}\" role=\"{}\">\n{}\n</message>",
                        i + 1,
                        display_role(m),
                        escape_xml(&message_body(m, &names))
                    )
                })
                .collect();
            let instructions_block = instructions
                .map(|text| {
                    fill(
                        SPEC_INSTRUCTIONS_TEMPLATE,
                        &[("instructions", &escape_xml(text))],
                    )
                })
                .unwrap_or_default();
            let template = if style == PromptStyle::Spec {
                SPEC_TEMPLATE
            } else {
                STRUCTURED_TEMPLATE
            };
            let user = fill(
                template,
                &[
                    ("additional_instructions", &instructions_block),
                    ("messages", &elements.join("\n\n")),
                ],
            );
            SquashPrompt {
                system: None,
                user,
                style,
            }
        }
        PromptStyle::Compact => {
            let bodies: Vec<String> = messages.iter().map(|m| message_body(m, &names)).collect();
            let fence = fence_for(&bodies);
            let blocks: Vec<String> = messages
                .iter()
                .zip(&bodies)
                .enumerate()
                .map(|(i, (m, body))| {
                    format!(
                        "Message {} ({}):\n{fence}\n{body}\n{fence}",
                        i + 1,
                        display_role(m)
                    )
                })
                .collect();
            let instructions_block = instructions
                .map(|text| {
                    // Set off by a blank line above; the template's own line break ends it.
                    let block = fill(COMPACT_INSTRUCTIONS_TEMPLATE, &[("instructions", text)]);
                    format!("\n{}", block.trim_end())
                })
                .unwrap_or_default();
            let count = messages.len().to_string();
            let user = fill(
                COMPACT_TEMPLATE,
                &[
                    ("count", &count),
                    ("instructions", &instructions_block),
                    ("messages", &blocks.join("\n\n")),
                ],
            );
            SquashPrompt {
                system: Some(COMPACT_SYSTEM.trim().to_owned()),
                user: user.trim_end().to_owned(),
                style,
            }
        }
        PromptStyle::Brief => build_brief_prompt(messages, &build_ledger(messages), instructions),
        PromptStyle::Notes => {
            let transcript = transcript(messages, &names, message_body, "\n");
            let instructions_block = inline_instructions(instructions);
            let user = fill(
                NOTES_TEMPLATE,
                &[
                    ("transcript", &transcript),
                    ("instructions", &instructions_block),
                ],
            );
            SquashPrompt {
                system: Some(NOTES_SYSTEM.trim().to_owned()),
                user: user.trim_end().to_owned(),
                style,
            }
        }
    }
}

/// The facts list of a brief prompt: each fact on one line of at most [`BRIEF_FACT_MAX_CHARS`],
/// at most [`BRIEF_FACTS_MAX_TOKENS`] in all, then how many more there are. The model reads it
/// to write a gist; every fact is added to the note whether it saw it or not.
fn brief_facts(ledger: &Ledger) -> String {
    if ledger.is_empty() {
        return "(none)".to_owned();
    }
    let mut lines: Vec<String> = Vec::new();
    let mut used = 0;
    for fact in &ledger.facts {
        let line = format!("- {}", one_line(&fact.text, BRIEF_FACT_MAX_CHARS));
        let cost = estimate_tokens(&line) + 1;
        if used + cost > BRIEF_FACTS_MAX_TOKENS {
            break;
        }
        used += cost;
        lines.push(line);
    }
    let more = ledger.len() - lines.len();
    if more > 0 {
        lines.push(format!("- [… {more} more facts …]"));
    }
    lines.join("\n")
}

/// The small-model prompt ([`PromptStyle::Brief`]): a condensed transcript and the ledger's
/// facts, asking for the sentences that connect them.
pub fn build_brief_prompt(
    messages: &[&Message],
    ledger: &Ledger,
    custom_instructions: Option<&str>,
) -> SquashPrompt {
    let names = ToolNames::of(messages);
    let transcript = brief_transcript(messages, &names);
    let facts = brief_facts(ledger);
    let instructions =
        inline_instructions(custom_instructions.map(str::trim).filter(|s| !s.is_empty()));
    let user = fill(
        BRIEF_TEMPLATE,
        &[
            ("transcript", &transcript),
            ("facts", &facts),
            ("instructions", &instructions),
        ],
    );
    SquashPrompt {
        system: Some(BRIEF_SYSTEM.trim().to_owned()),
        user: user.trim_end().to_owned(),
        style: PromptStyle::Brief,
    }
}

/// The plain transcript of the notes and brief prompts: each message's `body` after its role in
/// capitals and `separator`.
fn transcript(
    messages: &[&Message],
    names: &ToolNames<'_>,
    body: fn(&Message, &ToolNames<'_>) -> String,
    separator: &str,
) -> String {
    messages
        .iter()
        .map(|m| labelled(m, &body(m, names), separator))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The user's instructions as the sentence the notes and brief prompts end with; empty for
/// none.
fn inline_instructions(instructions: Option<&str>) -> String {
    instructions
        .map(|text| {
            fill(NOTES_INSTRUCTIONS_TEMPLATE, &[("instructions", text)])
                .trim_end()
                .to_owned()
        })
        .unwrap_or_default()
}

/// The follow-up turn that asks a model to correct its answer: the facts it left out, the
/// terms it invented, or why the answer could not be used at all.
pub fn build_repair_prompt(
    missing: &[&Fact],
    invented: &[String],
    problem: Option<&str>,
) -> String {
    let missing = if missing.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = missing.iter().map(|f| format!("- {}", f.text)).collect();
        format!(
            "It leaves out these facts from the messages; state each of them:\n{}",
            list.join("\n")
        )
    };
    let invented = if invented.is_empty() {
        String::new()
    } else {
        format!(
            "It mentions terms that do not occur in the messages; remove them: {}",
            invented.join(", ")
        )
    };
    let problem = problem
        .map(|p| {
            format!(
                "It could not be used: {p}. Write a compressed message that is much shorter \
                 than the messages and says what happened in them."
            )
        })
        .unwrap_or_default();
    fill(
        REPAIR_TEMPLATE,
        &[
            ("missing", &missing),
            ("invented", &invented),
            ("problem", &problem),
        ],
    )
    .trim_end()
    .to_owned()
}

/// The messages' text as the prompt shows it (same extraction, same shortening of long tool
/// output), without markup or escaping: what a squash result is compared against in the
/// [quality report](crate::quality::quality_report).
pub fn messages_text(messages: &[&Message]) -> String {
    let names = ToolNames::of(messages);
    messages
        .iter()
        .map(|m| message_body(m, &names))
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[cfg(test)]
mod tests;
