//! An operation's kind in the columns of `squash_operations` (`kind`, `prompt`, `model`,
//! `provider`, `custom_instructions`, `input_tokens`, `output_tokens`, `duration_ms`, `style`,
//! `prompt_style`): the one rule both backends write and read it by. The columns are the flat
//! shape of squash-core's `operation::FlatProvenance` as SQL values; which of them a kind fills
//! is the domain's rule ([`OperationKind::flat`], [`OperationKind::from_flat`]).

use squash_core::operation::{FlatProvenance, FlatStyle, KindTag};
use squash_core::prompt::PromptStyle;
use squash_core::{OperationKind, ProviderKind, RecallRef, TokenUsage};

use crate::error::StoreError;

/// The provenance columns of one operation, named as both backends' SQL selects them.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub(crate) struct KindColumns {
    pub kind: String,
    pub prompt: Option<String>,
    pub model: Option<String>,
    pub provider: Option<String>,
    pub custom_instructions: Option<String>,
    pub input_tokens: Option<i64>,
    pub output_tokens: Option<i64>,
    pub duration_ms: Option<i64>,
    pub style: Option<String>,
    pub prompt_style: Option<String>,
}

impl KindColumns {
    /// The columns that store `kind`.
    pub fn of(kind: &OperationKind) -> Result<KindColumns, StoreError> {
        let flat = kind.flat();
        Ok(KindColumns {
            kind: kind.tag().as_str().to_owned(),
            prompt: flat.prompt,
            model: flat.model,
            provider: flat.provider.map(|p| p.as_str().to_owned()),
            custom_instructions: flat.custom_instructions,
            input_tokens: flat
                .usage
                .map(|u| to_i64("input tokens", u.input_tokens))
                .transpose()?,
            output_tokens: flat
                .usage
                .map(|u| to_i64("output tokens", u.output_tokens))
                .transpose()?,
            duration_ms: flat
                .duration_ms
                .map(|d| to_i64("duration", d))
                .transpose()?,
            style: flat.style.map(|s| s.as_str().to_owned()),
            prompt_style: flat.prompt_style.map(|s| s.as_str().to_owned()),
        })
    }

    /// The kind these columns store. A name this version does not know (a kind, provider or
    /// style a newer version wrote) is corrupt data, not "none".
    pub fn into_kind(self) -> Result<OperationKind, StoreError> {
        let tag =
            KindTag::parse(&self.kind).ok_or_else(|| unknown("operation kind", &self.kind))?;
        let usage = match (self.input_tokens, self.output_tokens) {
            (Some(input), Some(output)) => Some(TokenUsage {
                input_tokens: to_u64("input tokens", input)?,
                output_tokens: to_u64("output tokens", output)?,
            }),
            _ => None,
        };
        let flat = FlatProvenance {
            prompt: self.prompt,
            model: self.model,
            provider: parsed("provider", self.provider, ProviderKind::parse)?,
            custom_instructions: self.custom_instructions,
            usage,
            duration_ms: self
                .duration_ms
                .map(|d| to_u64("duration", d))
                .transpose()?,
            style: parsed("squash style", self.style, FlatStyle::parse)?,
            prompt_style: parsed("prompt style", self.prompt_style, PromptStyle::parse)?,
        };
        Ok(OperationKind::from_flat(tag, flat))
    }
}

fn parsed<T>(
    what: &str,
    stored: Option<String>,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, StoreError> {
    stored
        .map(|s| parse(&s).ok_or_else(|| unknown(what, &s)))
        .transpose()
}

fn unknown(what: &str, name: &str) -> StoreError {
    StoreError::Corrupt(format!("unknown {what} {name:?}"))
}

/// A count read back as the domain keeps it: a negative one is corrupt data.
pub(crate) fn to_u64(what: &str, value: i64) -> Result<u64, StoreError> {
    u64::try_from(value).map_err(|_| StoreError::Corrupt(format!("{what} is negative: {value}")))
}

/// Counts the domain keeps as u64 are 64-bit signed integers in both databases; values past
/// i64::MAX cannot be stored.
pub(crate) fn to_i64(what: &str, value: u64) -> Result<i64, StoreError> {
    i64::try_from(value).map_err(|_| StoreError::Invalid(format!("{what} is too large: {value}")))
}

/// The `recall_ref` column as read by both backends: a number from 1, or none.
pub(crate) fn recall_ref(column: Option<i64>) -> Result<Option<RecallRef>, StoreError> {
    column
        .map(|n| {
            u32::try_from(n)
                .ok()
                .and_then(RecallRef::new)
                .ok_or_else(|| StoreError::Corrupt(format!("recall reference {n}")))
        })
        .transpose()
}

/// The reference after the highest a conversation's operations carry (`None`: they carry none).
pub(crate) fn next_recall_ref(highest: Option<i64>) -> Result<RecallRef, StoreError> {
    match recall_ref(highest)? {
        None => Ok(RecallRef::FIRST),
        Some(r) => r.next().ok_or_else(|| {
            StoreError::Invalid("the conversation has no recall reference left".into())
        }),
    }
}

/// A recall target from its row: the operation's id, kind column and last source position.
pub(crate) fn recall_target(
    id: uuid::Uuid,
    kind: &str,
    last_position: Option<i64>,
) -> Result<crate::RecallTarget, StoreError> {
    Ok(crate::RecallTarget {
        id: id.into(),
        kind: KindTag::parse(kind)
            .ok_or_else(|| StoreError::Corrupt(format!("operation kind {kind:?}")))?,
        sources: last_position.map_or(0, |p| p.max(0) as u64 + 1),
    })
}
