//! A selection resolved against a thread: validated, in thread order, with the tool partners it
//! must bring along.

use std::collections::{HashMap, HashSet};

use super::tool_pairs::{enforce_partner_policy, tool_partners, PartnerAdded, PartnerPolicy};
use crate::error::DomainError;
use crate::ids::MessageId;
use crate::message::ToolRefs;
use crate::positions::Positions;

/// Validates a selection against the thread and returns it in thread order.
///
/// Refuses an empty selection, an id given twice, and an id that is not in the thread.
pub fn order_by_thread<P: Positions + ?Sized>(
    links: &P,
    selected: &[MessageId],
) -> Result<Vec<MessageId>, DomainError> {
    if selected.is_empty() {
        return Err(DomainError::EmptySelection);
    }
    let mut seen = HashSet::with_capacity(selected.len());
    for id in selected {
        if !seen.insert(*id) {
            return Err(DomainError::DuplicateMessage(*id));
        }
    }
    let positions = links.positions_of(&seen);
    if let Some(missing) = selected.iter().find(|id| !positions.contains_key(id)) {
        return Err(DomainError::NotInThread(*missing));
    }
    let mut ordered: Vec<MessageId> = selected.to_vec();
    ordered.sort_by_key(|id| positions[id]);
    Ok(ordered)
}

/// A selection resolved against a thread: in thread order, with the tool partners it brought.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The selected messages and their partners, in thread order.
    pub ordered: Vec<MessageId>,
    /// The partners that joined, in the order they were found.
    pub added: Vec<PartnerAdded>,
}

/// The selection in thread order with the tool partners it must bring along, so that no tool
/// call is separated from its result. `refs` holds the tool references of the selection and of
/// the messages sharing tool-use ids with it (the store's closure); under
/// [`PartnerPolicy::Refuse`] a missing partner is an error instead.
pub fn select_with_partners<P: Positions + ?Sized>(
    links: &P,
    selected: &[MessageId],
    refs: &HashMap<MessageId, ToolRefs>,
    policy: PartnerPolicy,
) -> Result<Selection, DomainError> {
    let ordered = order_by_thread(links, selected)?;
    let added = tool_partners(links, &ordered, refs);
    enforce_partner_policy(&added, policy)?;
    if added.is_empty() {
        return Ok(Selection { ordered, added });
    }
    let mut all = ordered;
    all.extend(added.iter().map(|p| p.message));
    Ok(Selection {
        ordered: order_by_thread(links, &all)?,
        added,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thread_ops::fixtures::{ids, refs};

    #[test]
    fn selection_brings_partners_in_thread_order() {
        let l = ids(5);
        let map: HashMap<_, _> = [(l[1], refs(&["a"], &[])), (l[3], refs(&[], &["a"]))]
            .into_iter()
            .collect();
        let s = select_with_partners(&l, &[l[4], l[3]], &map, PartnerPolicy::Include).unwrap();
        assert_eq!(s.ordered, vec![l[1], l[3], l[4]]);
        assert_eq!(s.added.len(), 1);
        assert_eq!(s.added[0].message, l[1]);
        assert!(matches!(
            select_with_partners(&l, &[l[3]], &map, PartnerPolicy::Refuse),
            Err(DomainError::SplitToolPair { .. })
        ));
        let plain = select_with_partners(&l, &[l[2], l[0]], &map, PartnerPolicy::Refuse).unwrap();
        assert_eq!(plain.ordered, vec![l[0], l[2]]);
        assert!(plain.added.is_empty());
    }
}
