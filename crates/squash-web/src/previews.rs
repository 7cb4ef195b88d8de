//! Computed AI squashes waiting for the person to apply, edit, retry or discard them.
//!
//! They live in memory only: a preview is a proposal, not data. A restart loses them, and
//! nothing in the conversation changed, so nothing is lost that matters.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use squash_app::SquashResult;
use squash_core::{ConversationId, MessageId};
use uuid::Uuid;

/// How many previews are kept at most; the oldest go first.
const MAX_PREVIEWS: usize = 64;
/// How long an untouched preview is kept.
const PREVIEW_TTL: Duration = Duration::from_secs(6 * 60 * 60);

/// One pending AI squash result.
#[derive(Clone, Debug)]
pub struct Preview {
    pub id: Uuid,
    pub result: SquashResult,
    /// What the person selected (before tool partners joined), for a retry.
    pub selection: Vec<MessageId>,
    pub strict: bool,
    created: Instant,
}

impl Preview {
    pub fn conversation_id(&self) -> ConversationId {
        self.result.conversation_id
    }
}

#[derive(Default)]
pub struct Previews {
    map: Mutex<HashMap<Uuid, Preview>>,
}

impl Previews {
    /// Stores a result and returns its preview.
    pub fn insert(&self, result: SquashResult, selection: Vec<MessageId>, strict: bool) -> Preview {
        let preview = Preview {
            id: Uuid::now_v7(),
            result,
            selection,
            strict,
            created: Instant::now(),
        };
        let mut map = self.lock();
        map.retain(|_, p| p.created.elapsed() < PREVIEW_TTL);
        while map.len() >= MAX_PREVIEWS {
            // Ids are time-ordered: the smallest is the oldest.
            let Some(oldest) = map.keys().min().copied() else {
                break;
            };
            map.remove(&oldest);
        }
        map.insert(preview.id, preview.clone());
        preview
    }

    /// The preview `id` of `conversation`, if it is still there.
    pub fn get(&self, conversation: ConversationId, id: Uuid) -> Option<Preview> {
        self.lock()
            .get(&id)
            .filter(|p| p.conversation_id() == conversation)
            .cloned()
    }

    /// Removes and returns the preview.
    pub fn take(&self, conversation: ConversationId, id: Uuid) -> Option<Preview> {
        let mut map = self.lock();
        match map.get(&id) {
            Some(p) if p.conversation_id() == conversation => map.remove(&id),
            _ => None,
        }
    }

    /// Puts a preview back (an apply that failed leaves the proposal available).
    pub fn restore(&self, preview: Preview) {
        self.lock().insert(preview.id, preview);
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Uuid, Preview>> {
        // A panic elsewhere must not make every later request fail.
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
