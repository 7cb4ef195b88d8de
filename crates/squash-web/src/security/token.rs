//! The access token a server may require, and how a candidate is compared with it.

use std::sync::Arc;

/// The token settings of a server: none, or the token every request must carry.
#[derive(Clone, Default)]
pub struct Security {
    token: Option<Arc<str>>,
}

impl Security {
    /// A blank token counts as none.
    pub fn new(token: Option<String>) -> Security {
        Security {
            token: token
                .map(|t| t.trim().to_owned())
                .filter(|t| !t.is_empty())
                .map(Arc::from),
        }
    }

    pub fn has_token(&self) -> bool {
        self.token.is_some()
    }

    pub(crate) fn matches(&self, candidate: &str) -> bool {
        self.token
            .as_deref()
            .is_some_and(|t| constant_time_eq(t.as_bytes(), candidate.as_bytes()))
    }
}

/// Compares without an early exit, so response timing does not reveal how much of a guessed
/// token was right.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_compare_exactly() {
        let s = Security::new(Some("abc".into()));
        assert!(s.matches("abc"));
        assert!(!s.matches("abd"));
        assert!(!s.matches("ab"));
        assert!(!Security::new(Some("  ".into())).has_token());
    }
}
