//! What a person can do about a failure, as data. The services say *what* would help; each
//! interface puts it in its own words — the CLI names its flags, the web its fields and
//! buttons — so no service text ever names either.

use serde::Serialize;

/// A way out of a failure, or what a report suggests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Remedy {
    /// Name the provider to use instead of the one selected.
    ChooseProvider,
    /// Check that the provider answers with a real request; `starts_agent` when that request
    /// starts a whole agent (the `claude` CLI), which is why it is not made unasked.
    Probe { starts_agent: bool },
}
