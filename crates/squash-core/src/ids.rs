//! UUIDv7 newtype ids: time-ordered, so ids sort by creation and index well.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(Uuid);

        impl $name {
            /// A fresh, time-ordered id.
            pub fn new() -> Self {
                Self(Uuid::now_v7())
            }

            pub const fn from_uuid(uuid: Uuid) -> Self {
                Self(uuid)
            }

            pub const fn as_uuid(&self) -> &Uuid {
                &self.0
            }

            pub fn as_bytes(&self) -> &[u8; 16] {
                self.0.as_bytes()
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        impl FromStr for $name {
            type Err = uuid::Error;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Uuid::parse_str(s).map(Self)
            }
        }

        impl From<Uuid> for $name {
            fn from(uuid: Uuid) -> Self {
                Self(uuid)
            }
        }
    };
}

id_type!(
    /// A project: a working directory that groups conversations.
    ProjectId
);
id_type!(
    /// A conversation.
    ConversationId
);
id_type!(
    /// A thread: one ordered list of message references.
    ThreadId
);
id_type!(
    /// An immutable message.
    MessageId
);
id_type!(
    /// A recorded squash or edit.
    SquashOperationId
);

/// A reference to one squash operation of a conversation: its sources are the originals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RecallRef(u32);

impl RecallRef {
    pub const FIRST: RecallRef = RecallRef(1);
    /// The reference plans price marks at (six digits): never less than a real one costs below
    /// a million references in a conversation.
    pub const PRICED: RecallRef = RecallRef(999_999);

    /// `n` as a reference; references start at 1.
    pub fn new(n: u32) -> Option<RecallRef> {
        (n >= 1).then_some(RecallRef(n))
    }

    pub fn get(self) -> u32 {
        self.0
    }

    /// The reference after this one, or `None` past the last.
    pub fn next(self) -> Option<RecallRef> {
        self.0.checked_add(1).map(RecallRef)
    }
}

impl fmt::Display for RecallRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ref {}", self.0)
    }
}

/// What a reference as written in a thread or typed by a person may look like.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is no recall reference: a reference is a number from 1, as in `[ref 12]`")]
pub struct BadRecallRef(pub String);

impl FromStr for RecallRef {
    type Err = BadRecallRef;

    /// Accepts the number alone and the forms a thread shows it in: `12`, `ref 12`, `[ref 12]`,
    /// `#12`, `r12`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadRecallRef(s.to_owned());
        let t = s.trim();
        let t = t.strip_prefix('[').unwrap_or(t);
        let t = t.strip_suffix(']').unwrap_or(t).trim();
        let t = t
            .strip_prefix("ref")
            .or_else(|| t.strip_prefix('#'))
            .or_else(|| t.strip_prefix('r'))
            .unwrap_or(t)
            .trim_start_matches([' ', ':', '#']);
        let n: u32 = t.parse().map_err(|_| bad())?;
        RecallRef::new(n).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_v7_and_ordered() {
        let a = MessageId::new();
        let b = MessageId::new();
        assert_eq!(a.as_uuid().get_version_num(), 7);
        assert!(a < b);
    }

    #[test]
    fn display_parses_back() {
        let id = ThreadId::new();
        assert_eq!(id.to_string().parse::<ThreadId>().unwrap(), id);
        assert!("not-a-uuid".parse::<ThreadId>().is_err());
    }

    #[test]
    fn a_reference_reads_in_every_form_a_thread_shows() {
        for s in [
            "12",
            "ref 12",
            "[ref 12]",
            " [ref 12] ",
            "#12",
            "r12",
            "ref:12",
        ] {
            assert_eq!(s.parse::<RecallRef>(), Ok(RecallRef(12)), "{s}");
        }
        for s in ["", "0", "ref", "-3", "12a", "ref 1.5", "99999999999"] {
            assert!(s.parse::<RecallRef>().is_err(), "{s}");
        }
    }
}
