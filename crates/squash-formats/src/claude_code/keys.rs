//! The uuids a session's lines name (their own, their parents', their sub-agent runs'), each
//! held once: a line of a 1 GB session kept two strings of 36 bytes and a map entry of its own,
//! and the lines are all in memory while the tree is built.
//!
//! A uuid written the way Claude Code writes them (lower-case, hyphenated) is held as its 16
//! bytes and written back the same; any other text is held as it is, so an export gives back
//! exactly what was read.

use std::hash::BuildHasher;
use std::num::NonZeroU32;

use hashbrown::HashTable;
use uuid::Uuid;

/// A key of [`Keys`]: small, so that a line can hold three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Key(NonZeroU32);

impl Key {
    /// Keys are numbered from 0 in the order they were first seen.
    pub fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }
}

/// What a key stands for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Held<'a> {
    Uuid(u128),
    Text(&'a str),
}

impl Held<'_> {
    fn of(text: &str) -> Held<'_> {
        match canonical_uuid(text) {
            Some(u) => Held::Uuid(u),
            None => Held::Text(text),
        }
    }
}

/// The value of `text` when it is a uuid that formats back to exactly `text`.
fn canonical_uuid(text: &str) -> Option<u128> {
    if text.len() != 36 {
        return None;
    }
    let uuid = Uuid::try_parse(text).ok()?;
    let mut buf = [0u8; 36];
    (uuid.hyphenated().encode_lower(&mut buf) == text).then(|| uuid.as_u128())
}

#[derive(Default)]
pub(super) struct Keys {
    /// Per key: its uuid, or (for text) the index of its text in `texts`.
    values: Vec<u128>,
    is_text: Vec<bool>,
    texts: Vec<Box<str>>,
    /// Key indexes, found by the hash of what they stand for.
    table: HashTable<u32>,
    hasher: foldhash::fast::FixedState,
}

impl Keys {
    fn held(&self, index: usize) -> Held<'_> {
        held_at(&self.values, &self.is_text, &self.texts, index)
    }

    fn hash(&self, held: Held<'_>) -> u64 {
        hash_of(&self.hasher, held)
    }

    fn find(&self, held: Held<'_>, hash: u64) -> Option<Key> {
        self.table
            .find(hash, |&k| self.held(k as usize) == held)
            .map(|&k| key_at(k as usize))
    }

    /// The key of `text`, if it was interned.
    pub fn get(&self, text: &str) -> Option<Key> {
        let held = Held::of(text);
        self.find(held, self.hash(held))
    }

    /// Gives back the room the keys' growth left; for when no more are interned.
    pub fn shrink_to_fit(&mut self) {
        self.values.shrink_to_fit();
        self.is_text.shrink_to_fit();
        self.texts.shrink_to_fit();
    }

    /// The key of `text`, interning it when it is new.
    pub fn intern(&mut self, text: &str) -> Key {
        let held = Held::of(text);
        let hash = self.hash(held);
        if let Some(key) = self.find(held, hash) {
            return key;
        }
        let index = self.values.len();
        match held {
            Held::Uuid(u) => {
                self.values.push(u);
                self.is_text.push(false);
            }
            Held::Text(t) => {
                self.values.push(self.texts.len() as u128);
                self.is_text.push(true);
                self.texts.push(t.into());
            }
        }
        // The table is borrowed mutably while it rehashes: the fields it reads are lent apart.
        let (values, is_text, texts, hasher) =
            (&self.values, &self.is_text, &self.texts, &self.hasher);
        let rehash = |&k: &u32| hash_of(hasher, held_at(values, is_text, texts, k as usize));
        self.table.insert_unique(hash, index as u32, rehash);
        key_at(index)
    }

    /// How many keys there are (the largest [`Key::index`] is one less).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// The text of `key`, as it was written.
    pub fn text(&self, key: Key) -> String {
        match self.held(key.index()) {
            Held::Uuid(u) => Uuid::from_u128(u).hyphenated().to_string(),
            Held::Text(t) => t.to_owned(),
        }
    }

    /// Whether `key` stands for `text` (the tests check the keys by it).
    #[cfg(test)]
    pub fn is(&self, key: Key, text: &str) -> bool {
        self.held(key.index()) == Held::of(text)
    }
}

fn held_at<'a>(values: &[u128], is_text: &[bool], texts: &'a [Box<str>], index: usize) -> Held<'a> {
    if is_text[index] {
        Held::Text(&texts[values[index] as usize])
    } else {
        Held::Uuid(values[index])
    }
}

fn hash_of(hasher: &foldhash::fast::FixedState, held: Held<'_>) -> u64 {
    match held {
        Held::Uuid(u) => hasher.hash_one((0u8, u)),
        Held::Text(t) => hasher.hash_one((1u8, t)),
    }
}

fn key_at(index: usize) -> Key {
    // A session has fewer than 4 billion distinct uuids: each takes a line of its own.
    let n = u32::try_from(index + 1).unwrap_or(u32::MAX);
    Key(NonZeroU32::new(n).unwrap_or(NonZeroU32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uuid_and_other_text_come_back_as_written() {
        let mut keys = Keys::default();
        let written = [
            "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
            "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D",
            "0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4d",
            "agent-a1b2c3",
            "",
        ];
        let keys_of: Vec<Key> = written.iter().map(|t| keys.intern(t)).collect();
        for (text, key) in written.iter().zip(&keys_of) {
            assert_eq!(keys.text(*key), *text);
            assert_eq!(keys.get(text), Some(*key));
            assert!(keys.is(*key, text));
        }
        // Upper case is another key: the export writes back what was read.
        assert_ne!(keys_of[0], keys_of[1]);
        assert_eq!(keys.intern(written[0]), keys_of[0]);
        assert_eq!(keys.len(), written.len());
        assert_eq!(keys.get("0a1b2c3d-4e5f-4a6b-8c7d-000000000000"), None);
    }

    #[test]
    fn many_keys_are_found_again() {
        let mut keys = Keys::default();
        let texts: Vec<String> = (0..5000u128)
            .map(|i| Uuid::from_u128(i * 7919 + 1).hyphenated().to_string())
            .chain((0..500).map(|i| format!("agent-{i}")))
            .collect();
        let interned: Vec<Key> = texts.iter().map(|t| keys.intern(t)).collect();
        for (i, (text, key)) in texts.iter().zip(&interned).enumerate() {
            assert_eq!(key.index(), i);
            assert_eq!(keys.get(text), Some(*key));
        }
    }
}
