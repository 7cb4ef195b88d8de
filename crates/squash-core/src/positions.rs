//! Where messages are in a thread, as the planners ask it: of a whole link list, or of the few
//! messages an operation names, as a store finds them without reading the thread (two index
//! probes a message, whatever its length). A squash, edit or delete of a 100,000-message thread
//! then plans on a handful of positions.

use std::collections::{HashMap, HashSet};

use crate::ids::MessageId;

/// The 0-based positions of messages in one thread.
pub trait Positions {
    /// The positions of those of `ids` the thread holds (the first, if one is there twice).
    fn positions_of(&self, ids: &HashSet<MessageId>) -> HashMap<MessageId, u64>;
}

impl Positions for [MessageId] {
    fn positions_of(&self, ids: &HashSet<MessageId>) -> HashMap<MessageId, u64> {
        let mut out = HashMap::with_capacity(ids.len());
        for (position, id) in self.iter().enumerate() {
            if ids.contains(id) {
                out.entry(*id).or_insert(position as u64);
            }
        }
        out
    }
}

impl Positions for Vec<MessageId> {
    fn positions_of(&self, ids: &HashSet<MessageId>) -> HashMap<MessageId, u64> {
        self.as_slice().positions_of(ids)
    }
}

/// The positions of some messages in a thread, found for them: it answers for those messages
/// only, so it must be read for every message an operation will ask about (the selection and
/// its tool partners' closure). A message it was read for but does not hold is not in the
/// thread.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownPositions {
    /// The messages it was read for.
    pub asked: HashSet<MessageId>,
    /// Those of them in the thread, with their positions.
    pub found: HashMap<MessageId, u64>,
}

impl Positions for KnownPositions {
    fn positions_of(&self, ids: &HashSet<MessageId>) -> HashMap<MessageId, u64> {
        debug_assert!(
            ids.is_subset(&self.asked),
            "positions asked for messages they were not read for"
        );
        ids.iter()
            .filter_map(|id| self.found.get(id).map(|p| (*id, *p)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_and_known_positions_agree() {
        let links: Vec<MessageId> = (0..6).map(|_| MessageId::new()).collect();
        let stranger = MessageId::new();
        let asked: HashSet<MessageId> = [links[4], links[1], stranger].into_iter().collect();
        let known = KnownPositions {
            asked: asked.clone(),
            found: [(links[4], 4), (links[1], 1)].into_iter().collect(),
        };
        assert_eq!(links.positions_of(&asked), known.positions_of(&asked));
        assert_eq!(links.positions_of(&asked).get(&stranger), None);
    }
}
