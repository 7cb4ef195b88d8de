//! The thread operations as pure functions over link lists.
//!
//! A thread is an ordered list of message ids. Each function takes the current list and returns
//! the new one; the caller stores it as a new thread (copy-on-write) or, for an append, in place.
//! Nothing here touches storage, so every rule can be tested without a database.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use crate::error::DomainError;
use crate::ids::MessageId;
use crate::message::ToolRefs;
use crate::plan;
use crate::positions::Positions;

/// Appends `message` at the end: the fast path, no copy of the thread is needed by the caller.
pub fn append(links: &[MessageId], message: MessageId) -> Vec<MessageId> {
    let mut next = Vec::with_capacity(links.len() + 1);
    next.extend_from_slice(links);
    next.push(message);
    next
}

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

/// Squashes `sources` (any order, at least two) into `result`: the result takes the position
/// of the first source, the other sources leave, everything else keeps its order. The list form
/// of [`plan::plan_squash`](crate::plan::plan_squash).
pub fn squash(
    links: &[MessageId],
    sources: &[MessageId],
    result: MessageId,
) -> Result<Vec<MessageId>, DomainError> {
    if sources.len() < 2 {
        return Err(DomainError::TooFewMessages(sources.len()));
    }
    let ordered = order_by_thread(links, sources)?;
    plan::plan_squash(links, &ordered)?.apply(links, Some(result))
}

/// Replaces `target` by `replacement` at the same position.
pub fn edit(
    links: &[MessageId],
    target: MessageId,
    replacement: MessageId,
) -> Result<Vec<MessageId>, DomainError> {
    plan::plan_edit(links, target)?.apply(links, Some(replacement))
}

/// Removes `targets` from the thread.
pub fn delete(links: &[MessageId], targets: &[MessageId]) -> Result<Vec<MessageId>, DomainError> {
    let ordered = order_by_thread(links, targets)?;
    plan::plan_delete(links, &ordered)?.apply(links, None)
}

/// A message that joined a selection because it holds the other side of a tool call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartnerAdded {
    pub message: MessageId,
    /// The selected (or already added) message it is the partner of.
    pub partner_of: MessageId,
    pub tool_use_id: String,
    /// "call" or "result": which side `message` holds.
    pub side: &'static str,
}

/// What to do when a selection holds only one side of a tool call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PartnerPolicy {
    /// Bring the partner in and report it.
    #[default]
    Include,
    /// Refuse the request with a message naming the partner.
    Refuse,
}

/// The messages of the thread that must join `selected` so that no tool call is separated from
/// its result, following chains (a partner may itself hold further calls).
///
/// `refs` holds the tool references of the selected messages and of every thread message that
/// shares a tool-use id with them; messages not in `links` are ignored.
pub fn tool_partners<P: Positions + ?Sized>(
    links: &P,
    selected: &[MessageId],
    refs: &HashMap<MessageId, ToolRefs>,
) -> Vec<PartnerAdded> {
    let in_thread = links.positions_of(&refs.keys().copied().collect());
    // tool-use id -> (messages holding the call, messages holding the result), in thread only.
    let mut holders: HashMap<&str, (Vec<MessageId>, Vec<MessageId>)> = HashMap::new();
    for (id, r) in refs.iter().filter(|(id, _)| in_thread.contains_key(id)) {
        for call in &r.calls {
            holders.entry(call.as_str()).or_default().0.push(*id);
        }
        for result in &r.results {
            holders.entry(result.as_str()).or_default().1.push(*id);
        }
    }
    let mut chosen: BTreeSet<MessageId> = selected.iter().copied().collect();
    let mut queue: VecDeque<MessageId> = selected.iter().copied().collect();
    let mut added = Vec::new();
    while let Some(current) = queue.pop_front() {
        let Some(r) = refs.get(&current) else {
            continue;
        };
        let sides = r
            .calls
            .iter()
            .map(|id| (id, true))
            .chain(r.results.iter().map(|id| (id, false)));
        for (tool_use_id, holds_call) in sides {
            let Some((calls, results)) = holders.get(tool_use_id.as_str()) else {
                continue;
            };
            let partners = if holds_call { results } else { calls };
            for partner in partners {
                if chosen.insert(*partner) {
                    queue.push_back(*partner);
                    added.push(PartnerAdded {
                        message: *partner,
                        partner_of: current,
                        tool_use_id: tool_use_id.clone(),
                        side: if holds_call { "result" } else { "call" },
                    });
                }
            }
        }
    }
    added
}

/// Applies `policy` to the partners [`tool_partners`] found: under `Refuse`, the first one is
/// reported as an error.
pub fn enforce_partner_policy(
    added: &[PartnerAdded],
    policy: PartnerPolicy,
) -> Result<(), DomainError> {
    match (policy, added.first()) {
        (PartnerPolicy::Refuse, Some(p)) => Err(DomainError::SplitToolPair {
            message: p.partner_of,
            partner: p.message,
            tool_use_id: p.tool_use_id.clone(),
            side: if p.side == "result" { "call" } else { "result" },
            partner_side: p.side,
        }),
        _ => Ok(()),
    }
}

/// An edit may change a message's text but must not drop one side of a tool call whose other
/// side stays in the thread. `others` are the tool references of the other thread messages
/// sharing ids with `old`.
pub fn check_edit_keeps_pairs(
    target: MessageId,
    old: &ToolRefs,
    new: &ToolRefs,
    others: &HashMap<MessageId, ToolRefs>,
) -> Result<(), DomainError> {
    let dropped_calls = old.calls.iter().filter(|c| !new.calls.contains(c));
    for call in dropped_calls {
        if let Some((partner, _)) = others
            .iter()
            .find(|(id, r)| **id != target && r.results.contains(call))
        {
            return Err(DomainError::EditBreaksToolPair {
                tool_use_id: call.clone(),
                partner: *partner,
            });
        }
    }
    let dropped_results = old.results.iter().filter(|c| !new.results.contains(c));
    for result in dropped_results {
        if let Some((partner, _)) = others
            .iter()
            .find(|(id, r)| **id != target && r.calls.contains(result))
        {
            return Err(DomainError::EditBreaksToolPair {
                tool_use_id: result.clone(),
                partner: *partner,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: usize) -> Vec<MessageId> {
        (0..n).map(|_| MessageId::new()).collect()
    }

    #[test]
    fn squash_puts_result_at_first_source_and_keeps_order() {
        let l = ids(6);
        let r = MessageId::new();
        // selected out of order and non-contiguous
        let out = squash(&l, &order_by_thread(&l, &[l[4], l[1], l[2]]).unwrap(), r).unwrap();
        assert_eq!(out, vec![l[0], r, l[3], l[5]]);
    }

    #[test]
    fn squash_refuses_bad_selections() {
        let l = ids(3);
        let r = MessageId::new();
        assert_eq!(
            squash(&l, &[l[0]], r).unwrap_err(),
            DomainError::TooFewMessages(1)
        );
        assert_eq!(
            squash(&l, &[l[0], l[0]], r).unwrap_err(),
            DomainError::DuplicateMessage(l[0])
        );
        let stranger = MessageId::new();
        assert_eq!(
            squash(&l, &[l[0], stranger], r).unwrap_err(),
            DomainError::NotInThread(stranger)
        );
        assert_eq!(
            order_by_thread(&l, &[]).unwrap_err(),
            DomainError::EmptySelection
        );
    }

    #[test]
    fn edit_replaces_in_place() {
        let l = ids(3);
        let r = MessageId::new();
        assert_eq!(edit(&l, l[1], r).unwrap(), vec![l[0], r, l[2]]);
        assert!(edit(&l, MessageId::new(), r).is_err());
    }

    #[test]
    fn delete_removes_only_targets() {
        let l = ids(4);
        assert_eq!(delete(&l, &[l[3], l[1]]).unwrap(), vec![l[0], l[2]]);
        assert!(delete(&l, &[]).is_err());
    }

    #[test]
    fn append_adds_at_end() {
        let l = ids(2);
        let m = MessageId::new();
        assert_eq!(append(&l, m), vec![l[0], l[1], m]);
    }

    fn refs(calls: &[&str], results: &[&str]) -> ToolRefs {
        ToolRefs {
            calls: calls.iter().map(|s| s.to_string()).collect(),
            results: results.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn partners_follow_chains() {
        // m1 calls a and b; m2 answers a; m3 answers b and calls c; m4 answers c.
        let l = ids(5);
        let map: HashMap<_, _> = [
            (l[1], refs(&["a", "b"], &[])),
            (l[2], refs(&[], &["a"])),
            (l[3], refs(&["c"], &["b"])),
            (l[4], refs(&[], &["c"])),
        ]
        .into_iter()
        .collect();
        let added = tool_partners(&l, &[l[2]], &map);
        let added_ids: BTreeSet<_> = added.iter().map(|p| p.message).collect();
        assert_eq!(added_ids, [l[1], l[3], l[4]].into_iter().collect());
        let err = enforce_partner_policy(&added, PartnerPolicy::Refuse).unwrap_err();
        assert!(err.to_string().contains("`a`"), "{err}");
        assert!(enforce_partner_policy(&added, PartnerPolicy::Include).is_ok());
    }

    #[test]
    fn partners_outside_the_thread_are_ignored() {
        let l = ids(2);
        let outside = MessageId::new();
        let map: HashMap<_, _> = [(l[0], refs(&["a"], &[])), (outside, refs(&[], &["a"]))]
            .into_iter()
            .collect();
        assert!(tool_partners(&l, &[l[0]], &map).is_empty());
    }

    #[test]
    fn edit_must_not_orphan_a_result() {
        let target = MessageId::new();
        let partner = MessageId::new();
        let others: HashMap<_, _> = [(partner, refs(&[], &["a"]))].into_iter().collect();
        let err = check_edit_keeps_pairs(target, &refs(&["a"], &[]), &ToolRefs::default(), &others)
            .unwrap_err();
        assert_eq!(
            err,
            DomainError::EditBreaksToolPair {
                tool_use_id: "a".into(),
                partner
            }
        );
        assert!(
            check_edit_keeps_pairs(target, &refs(&["a"], &[]), &refs(&["a"], &[]), &others).is_ok()
        );
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn squash_keeps_every_other_message_in_order(
                n in 2usize..40,
                picks in proptest::collection::btree_set(0usize..40, 2..8),
            ) {
                let l = ids(n);
                let chosen: Vec<MessageId> = picks.iter().filter(|p| **p < n).map(|p| l[*p]).collect();
                prop_assume!(chosen.len() >= 2);
                let r = MessageId::new();
                let out = squash(&l, &chosen, r).unwrap();
                prop_assert_eq!(out.len(), n - chosen.len() + 1);
                let first_pos = l.iter().position(|id| *id == chosen[0]).unwrap();
                prop_assert_eq!(out[first_pos], r);
                let expected: Vec<MessageId> = l.iter().filter(|id| !chosen.contains(id)).copied().collect();
                let rest: Vec<MessageId> = out.iter().filter(|id| **id != r).copied().collect();
                prop_assert_eq!(rest, expected);
            }
        }
    }
}
