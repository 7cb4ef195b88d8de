//! What the messages a ledger is made of are: a person's selection, or a fit's steps.

/// What the observations of a ledger are, for which prose is an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Excerpt {
    /// Messages a person selected: an answer is the last prose after a request they hold, so
    /// that a squash is not asked to restate what its selection merely continues. The note
    /// is all that is left of them: a request keeps its later constraints, an answer's code
    /// what it defines, and an answer the agent took back is not stated.
    Selection,
    /// Steps of a fit, each rendered on its own: the last prose before each request they hold
    /// and at their end answers a request, theirs or one before them. Observed once for every
    /// plan, read as the fit's extracts were tuned.
    Steps,
}
