//! The statements a squash and an edit send to PostgreSQL, counted: each is a round trip, and
//! the floor of the thread-operation benchmark (BENCHMARKS.md) makes 7.
//!
//! sqlx reports each statement it sends as a `tracing` event of target `sqlx::query` (COMMIT
//! too, not BEGIN: one more round trip each); a subscriber set for this thread only counts them.
//! The test runs on a current-thread runtime, so the pool's work is on this thread and no other
//! test's is. A connection the pool opens meanwhile (a released one returns to it in a task of
//! its own) sends its session settings first, and has sqlx look up the `tsvector` type the
//! search terms are bound as: those are the connection's, not the operation's.

use std::sync::{Arc, Mutex};

use squash_app::{EditRequest, ManualSquashRequest, PartnerPolicy};
use squash_core::{ContentItem, ConversationId, MessageId, Role};
use squash_testkit::fixtures::new_conversation;
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Collects the summary of each statement sqlx reports.
#[derive(Clone, Default)]
struct Statements(Arc<Mutex<Vec<String>>>);

impl Statements {
    /// The statements since the last call, without a new connection's setup: its session
    /// settings, and the statement that has sqlx look the `tsvector` type up (with the type
    /// lookups just before it, which belong to it; one anywhere else is the operation's).
    fn take(&self) -> Vec<String> {
        let all = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        let mut kept: Vec<String> = Vec::new();
        for s in all {
            if s.starts_with("SET lock_timeout") {
                continue;
            }
            if s.starts_with("SELECT $1::tsvector, $2::tsvector[]") {
                while kept.last().is_some_and(|k| k.starts_with(TYPE_LOOKUP)) {
                    kept.pop();
                }
                continue;
            }
            kept.push(s);
        }
        kept
    }
}

/// How sqlx looks a type up by its oid.
const TYPE_LOOKUP: &str = "SELECT oid::regtype::text, typtype, typcategory";

struct Summary(String);

impl tracing::field::Visit for Summary {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        if field.name() == "summary" {
            self.0 = value.to_owned();
        }
    }
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "summary" {
            self.0 = format!("{value:?}");
        }
    }
}

impl Subscriber for Statements {
    // Asked at every event, never cached: another test's thread, with no subscriber of its own,
    // may have registered sqlx's callsites first and left them "never" in the global cache.
    fn register_callsite(&self, _: &'static Metadata<'static>) -> tracing::subscriber::Interest {
        tracing::subscriber::Interest::sometimes()
    }
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target() == "sqlx::query"
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut summary = Summary(String::new());
        event.record(&mut summary);
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(summary.0);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn text(s: &str) -> Vec<ContentItem> {
    vec![ContentItem::text_for(Role::User, s)]
}

/// Statements counted on this thread while it lives.
struct Counting {
    statements: Statements,
    _default: tracing::subscriber::DefaultGuard,
    _registered: tracing::Dispatch,
}

fn counting() -> Counting {
    let statements = Statements::default();
    let default = tracing::subscriber::set_default(statements.clone());
    // While one dispatcher alone is registered, tracing-core computes a callsite's interest from
    // the default of whichever thread reaches it first: another test's thread, with none, would
    // leave sqlx's callsites "never" for the whole process. A second registered dispatcher (never
    // any thread's default) makes it ask every registered one, this test's included.
    let registered = tracing::Dispatch::new(statements.clone());
    tracing::callsite::rebuild_interest_cache();
    Counting {
        statements,
        _default: default,
        _registered: registered,
    }
}

/// A new conversation of six appended messages, and their ids; what that sent is not counted.
async fn six_messages(
    b: &squash_testkit::Backend,
    counting: &Counting,
    project: &str,
) -> (ConversationId, Vec<MessageId>) {
    let conv = new_conversation(&b.service, project, "round trips").await;
    let mut ids = Vec::new();
    for n in 0..6 {
        let (m, _) = b
            .service
            .append(conv.id, Role::User, text(&format!("message {n}")))
            .await
            .expect("append");
        ids.push(m.id);
    }
    counting.statements.take();
    (conv.id, ids)
}

#[tokio::test]
async fn a_squash_makes_six_round_trips_and_an_edit_seven() {
    let Some(b) = squash_testkit::postgres().await else {
        return;
    };
    let counting = counting();
    let statements = &counting.statements;
    let (conv, ids) = six_messages(&b, &counting, "/tmp/round-trips").await;

    let squash = ManualSquashRequest {
        messages: vec![ids[0], ids[2], ids[4]],
        text: Some("squashed".into()),
        policy: PartnerPolicy::Refuse,
        ..ManualSquashRequest::default()
    };
    b.service.squash_manual(conv, squash).await.expect("squash");
    let sent = statements.take();
    // The closure with the positions; (BEGIN;) the lock; the thread's runs; the message with
    // the thread and the operation; COMMIT.
    assert_eq!(sent.len(), 5, "a squash's statements: {sent:#?}");

    let edit = EditRequest {
        message: ids[1],
        content: text("edited"),
    };
    b.service.edit(conv, edit).await.expect("edit");
    let sent = statements.take();
    // The original message first, then as a squash.
    assert_eq!(sent.len(), 6, "an edit's statements: {sent:#?}");

    drop(counting);
    b.cleanup().await;
}

#[tokio::test]
async fn a_stored_page_is_two_statements_then_one_without_a_transaction() {
    let Some(b) = squash_testkit::postgres().await else {
        return;
    };
    let counting = counting();
    let statements = &counting.statements;
    let (conv, _) = six_messages(&b, &counting, "/tmp/round-trips-page").await;

    let window = squash_app::PageWindow {
        anchor: squash_app::PageAnchor::Before { position: 5 },
        limit: 3,
    };
    // The first read sums the thread's tokens in its second statement; the next knows them and
    // the thread's length, and reads the header and the links in one.
    for (read, expected) in [("first", 2), ("second", 1)] {
        let view = b
            .service
            .thread_page_stored(squash_app::ThreadRef::Current(conv), window)
            .await
            .expect("page");
        assert_eq!(view.messages.len(), 3);
        let sent = statements.take();
        // The conversation with the header; the links with the revision (no BEGIN, no COMMIT).
        assert_eq!(
            sent.len(),
            expected,
            "the {read} page's statements: {sent:#?}"
        );
        assert!(
            sent.iter().all(|s| !s.starts_with("COMMIT")),
            "no transaction: {sent:#?}"
        );
    }

    drop(counting);
    b.cleanup().await;
}
