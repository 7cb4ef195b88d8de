//! Tool calls and their results are never separated: the partners a selection must bring, the
//! policy when it does not, and the check that an edit keeps every pair whole.

use std::collections::{BTreeSet, HashMap, VecDeque};

use crate::error::DomainError;
use crate::ids::MessageId;
use crate::message::ToolRefs;
use crate::positions::Positions;

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

impl PartnerPolicy {
    /// The policy a `strict` switch asks for: [`Refuse`](Self::Refuse) when set.
    pub fn strict(strict: bool) -> PartnerPolicy {
        if strict {
            PartnerPolicy::Refuse
        } else {
            PartnerPolicy::Include
        }
    }
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
    // A call dropped must not leave its result behind, nor a result dropped its call.
    let dropped = |old: &'_ [String], new: &[String]| -> Vec<String> {
        old.iter().filter(|id| !new.contains(id)).cloned().collect()
    };
    let calls = dropped(&old.calls, &new.calls)
        .into_iter()
        .map(|id| (id, true));
    let results = dropped(&old.results, &new.results)
        .into_iter()
        .map(|id| (id, false));
    for (id, was_call) in calls.chain(results) {
        let partner = others.iter().find(|(m, r)| {
            let other_side = if was_call { &r.results } else { &r.calls };
            **m != target && other_side.contains(&id)
        });
        if let Some((partner, _)) = partner {
            return Err(DomainError::EditBreaksToolPair {
                tool_use_id: id,
                partner: *partner,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thread_ops::fixtures::{ids, refs};

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
}
