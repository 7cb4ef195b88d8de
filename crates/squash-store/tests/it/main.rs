//! Both stores end to end: the copy-on-write layout, link edits, commits of many messages, migrations of old databases, pages, PostgreSQL.
//!
//! One test binary for the whole crate (each module was a binary of its own): the stack is
//! compiled and linked once. Shared support comes from `squash-testkit`.

mod layout;
mod link_edit;
mod many_messages;
mod migration;
mod pages;
mod postgres_smoke;
mod sqlite_close;
