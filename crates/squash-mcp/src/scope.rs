//! Which conversations a server answers about: those of the session it was started for, so an
//! agent sees its own history and nothing else of the store.

use squash_app::ConversationService;
use squash_core::ConversationId;

/// The conversations a server may read. Never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    conversations: Vec<ConversationId>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScopeError {
    #[error("a recall server needs at least one conversation to answer about")]
    Empty,
    #[error("conversation {0} is not one this server answers about (it answers about {1})")]
    Outside(ConversationId, String),
    #[error("{0:?} is no conversation id")]
    BadId(String),
}

impl Scope {
    pub fn new(conversations: Vec<ConversationId>) -> Result<Scope, ScopeError> {
        if conversations.is_empty() {
            return Err(ScopeError::Empty);
        }
        let mut unique = conversations;
        unique.dedup();
        Ok(Scope {
            conversations: unique,
        })
    }

    /// Every conversation the store holds (for a person who runs the server by hand on their
    /// own store).
    pub async fn everything(service: &ConversationService) -> Result<Scope, String> {
        let all = service
            .list_conversations(None)
            .await
            .map_err(|e| e.to_string())?;
        Scope::new(all.into_iter().map(|c| c.id).collect()).map_err(|e| e.to_string())
    }

    pub fn conversations(&self) -> &[ConversationId] {
        &self.conversations
    }

    /// The conversations a call names (one, checked against the scope) or, when it names
    /// none, all of the scope's.
    pub fn pick(&self, asked: Option<&str>) -> Result<Vec<ConversationId>, ScopeError> {
        let Some(asked) = asked.map(str::trim).filter(|s| !s.is_empty()) else {
            return Ok(self.conversations.clone());
        };
        let id: ConversationId = asked
            .parse()
            .map_err(|_| ScopeError::BadId(asked.to_owned()))?;
        if self.conversations.contains(&id) {
            Ok(vec![id])
        } else {
            Err(ScopeError::Outside(id, self.listed()))
        }
    }

    fn listed(&self) -> String {
        self.conversations
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_picks_within_the_scope_only() {
        let (a, b) = (ConversationId::new(), ConversationId::new());
        let scope = Scope::new(vec![a]).unwrap();
        assert_eq!(scope.pick(None), Ok(vec![a]));
        assert_eq!(scope.pick(Some(" ")), Ok(vec![a]));
        assert_eq!(scope.pick(Some(&a.to_string())), Ok(vec![a]));
        assert!(matches!(
            scope.pick(Some(&b.to_string())),
            Err(ScopeError::Outside(..))
        ));
        assert!(matches!(
            scope.pick(Some("nope")),
            Err(ScopeError::BadId(_))
        ));
        assert_eq!(Scope::new(Vec::new()), Err(ScopeError::Empty));
    }
}
