//! What a person can do about a failure, as data. The services say *what* would help; each
//! interface puts it in its own words — the CLI names its flags (`squash-cli/src/remedy.rs`),
//! the web its fields and buttons (`squash-web/src/remedy.rs`) — so no service text ever names
//! either.

use serde::Serialize;
use squash_formats::ImportFormat;

/// A way out of a failure, or what a report suggests. An error offers its ways out in order,
/// the most direct first ([`crate::AppError::remedies`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Remedy {
    /// Name the provider to use instead of the one selected.
    ChooseProvider,
    /// Check that the provider answers with a real request; `starts_agent` when that request
    /// starts a whole agent (the `claude` CLI), which is why it is not made unasked.
    Probe { starts_agent: bool },
    /// Ask for a budget the plan reaches: `to` tokens is the smallest it gets to.
    RaiseBudget { to: u64 },
    /// Keep less of the thread as it is (fewer of the newest steps, fewer last turns), so the
    /// fit may shrink more of it.
    KeepLess,
    /// Apply the smallest reachable although it stays over the budget.
    BestEffort,
    /// Squash with the extract, which asks no model.
    UseExtract,
    /// Configure a model (a provider's key, the `claude` CLI, a local server or model).
    ConfigureModel,
    /// What the provider itself advises after a failed call or setup: a key to check, a login,
    /// a wait. Its words come from the provider's module (`squash-llm`) and name no interface.
    FixProvider { advice: &'static str },
    /// Name the format of the input: one of `known`.
    NameFormat { known: Vec<ImportFormat> },
    /// Ask again, steering the model with instructions, or use another model.
    SteerModel,
    /// Squash fewer (or shorter) messages at once, or use a model with a larger window.
    SelectFewer,
    /// Select more messages (or longer ones): the few selected are already as short as any
    /// faithful note of them.
    SelectMore,
    /// Squash older messages to make room in the model's window, then send again.
    MakeRoom,
    /// Read the conversation again (it moved on meanwhile) and retry.
    Reload,
    /// Go back to the thread an operation was applied to before re-running it.
    SwitchBack,
    /// Write the new session without starting the agent (it is not installed here).
    WriteOnly,
    /// Import the session again (the stored conversation deleted first, with what was done to
    /// it), so that what the import keeps now is kept: its whole history, say.
    ImportAgain,
    /// Fit the thread the agent continues from rather than the session's whole history.
    FitCurrent,
}

impl Remedy {
    /// Naming the format, out of every one an import reads.
    pub fn name_format() -> Remedy {
        Remedy::NameFormat {
            known: ImportFormat::ALL.to_vec(),
        }
    }
}

/// Phrases joined as one suggestion: `a`, `a or b`, `a, b, or c`.
pub fn either(phrases: &[String]) -> Option<String> {
    match phrases {
        [] => None,
        [one] => Some(one.clone()),
        [first @ .., last] => {
            let comma = if first.len() > 1 { "," } else { "" };
            Some(format!("{}{comma} or {last}", first.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::either;

    #[test]
    fn phrases_join_as_alternatives() {
        let words = |w: &[&str]| either(&w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(words(&[]), None);
        assert_eq!(words(&["a"]).as_deref(), Some("a"));
        assert_eq!(words(&["a", "b"]).as_deref(), Some("a or b"));
        assert_eq!(words(&["a", "b", "c"]).as_deref(), Some("a, b, or c"));
    }
}
