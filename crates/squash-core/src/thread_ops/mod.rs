//! The copy-on-write rule: what an append, an edit, a delete or a squash makes of a thread.
//!
//! A thread is an ordered list of message ids. An append lands at the end of the current thread
//! ([`plan_append`]), in place; every other operation derives a new thread from the current one,
//! described as a [`LinkEdit`] of it: the base positions it leaves out and the one it points to
//! the operation's new message. A planner ([`plan_edit`], [`plan_delete`], [`plan_squash`])
//! needs only the positions of the messages it names, and the store copies the base thread's
//! links with the edit applied (inside the database, so a change of a few links on a
//! 10,000-link thread never ships 10,000 ids). Nothing here touches storage.
//!
//! Before a plan, the selection rules ([`select_with_partners`]): sources in thread order
//! whatever order they were picked in, and no tool call separated from its result — a partner
//! joins the selection, or under [`PartnerPolicy::Refuse`] the request is refused. The list
//! forms ([`squash`], [`edit`], [`delete`], [`append`]) run the same rule over a list in
//! memory: the property tests use them as the oracle for what the store must hold.

mod link_edit;
mod lists;
mod selection;
mod tool_pairs;

#[cfg(test)]
mod fixtures;

pub use link_edit::{plan_append, plan_delete, plan_edit, plan_squash, LinkEdit};
pub use lists::{append, delete, edit, squash};

pub use selection::{order_by_thread, select_with_partners, Selection};
pub use tool_pairs::{
    check_edit_keeps_pairs, enforce_partner_policy, tool_partners, PartnerAdded, PartnerPolicy,
};
