//! The conversation service and its explicit operations: append, edit, delete, squash. Each is
//! planned by `squash_core::thread_ops` on the current thread and committed copy-on-write, with
//! conflict handling (`commit`). Reading threads is `reading` (whole) and `pages`; which
//! conversations exist, `catalog`; moving between threads, `switch`.

use std::collections::HashMap;
use std::sync::Arc;

use squash_core::recall::{marked, Mark};
use squash_core::thread_ops::{self, PartnerAdded, PartnerPolicy, Selection};
use squash_core::Positions;
use squash_core::{
    render, ContentItem, ConversationId, DomainError, Message, MessageId, OperationKind, Role,
    SquashOperation, SquashOperationId, Thread, ThreadId, ThreadOrigin, ToolRefs,
};
use squash_store::{
    Appended, ClosurePositions, ConversationStore, NewLinks, StoreError, ThreadPositions, ThreadRef,
};

use crate::commit::{commit_on_positions, Committed, Planned, Refs};
use crate::error::ServiceError;
use crate::token_sums::TokenSums;

type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// What an explicit operation did.
#[derive(Clone, Debug)]
pub struct OperationOutcome {
    pub conversation_id: ConversationId,
    /// The new current thread.
    pub thread: Thread,
    /// The message the operation introduced (squash result, edited message).
    pub message: Option<Message>,
    pub operation: Option<SquashOperation>,
    /// Tool-call partners that joined the selection so no call was separated from its result.
    pub added_partners: Vec<PartnerAdded>,
    /// The removed or squashed messages, in thread order.
    pub sources: Vec<MessageId>,
    /// How many times the operation was recomputed because the conversation moved on.
    pub reapplied: u32,
}

/// A manual squash: sources plus, optionally, the text to put in their place.
#[derive(Clone, Debug, Default)]
pub struct ManualSquashRequest {
    pub messages: Vec<MessageId>,
    /// The result's text; `None` concatenates the sources readably.
    pub text: Option<String>,
    /// The result's content, overriding `text` (e.g. JSON content from the CLI).
    pub content: Option<Vec<ContentItem>>,
    /// Defaults to user.
    pub role: Option<Role>,
    pub policy: PartnerPolicy,
}

#[derive(Clone, Debug)]
pub struct EditRequest {
    pub message: MessageId,
    pub content: Vec<ContentItem>,
}

/// A computed squash result ready to apply, with its provenance.
#[derive(Clone, Debug)]
pub struct SquashApplication {
    pub messages: Vec<MessageId>,
    pub content: Vec<ContentItem>,
    pub role: Role,
    pub policy: PartnerPolicy,
    /// How the result was made (a manual squash, an extract, a model's answer), as recorded.
    pub kind: OperationKind,
    /// The thread (and revision) the result was computed from, when it was computed earlier
    /// (an AI call): a source missing now is then a conflict rather than bad input.
    pub computed_on: Option<(ThreadId, u64)>,
}

/// A selection resolved once on one snapshot of the current thread: what a squash (or a
/// delete) is planned on. Made by [`ConversationService::prepare_squash`]; an AI squash makes it
/// before the model call and hands it to [`ConversationService::apply_prepared_squash`], so the
/// 10,000-link thread is read and the tool closure built once per squash.
#[derive(Clone, Debug)]
pub struct PreparedSquash {
    pub conversation_id: ConversationId,
    /// The current thread when the selection was resolved, with the positions of the selection
    /// and of every message of its tool closure (`refs`).
    pub snapshot: ThreadPositions,
    /// The tool references of the selection and its partners: what re-planning on a newer
    /// thread needs.
    pub refs: HashMap<MessageId, ToolRefs>,
    /// The selection in thread order with the partners it brought.
    pub selection: Selection,
}

impl PreparedSquash {
    /// The sources in thread order, partners included.
    pub fn sources(&self) -> &[MessageId] {
        &self.selection.ordered
    }

    /// The thread and revision the selection was resolved on.
    pub fn computed_on(&self) -> (ThreadId, u64) {
        (self.snapshot.thread.id, self.snapshot.thread.revision)
    }
}

impl Committed {
    pub(crate) fn into_outcome(self, conversation_id: ConversationId) -> OperationOutcome {
        let Planned {
            mut messages,
            mut operations,
            added_partners,
            sources,
            ..
        } = self.planned;
        OperationOutcome {
            conversation_id,
            thread: self.thread,
            message: messages.pop(),
            operation: operations.pop(),
            added_partners,
            sources,
            reapplied: self.reapplied,
        }
    }
}

#[derive(Clone)]
pub struct ConversationService {
    store: Arc<dyn ConversationStore>,
    actor: Option<String>,
    token_sums: Arc<TokenSums>,
}

impl ConversationService {
    pub fn new(store: Arc<dyn ConversationStore>) -> ConversationService {
        ConversationService {
            store,
            actor: None,
            token_sums: Arc::default(),
        }
    }

    pub(crate) fn token_sums(&self) -> &TokenSums {
        &self.token_sums
    }

    /// Names who performs operations (recorded in provenance).
    pub fn with_actor(mut self, actor: Option<String>) -> ConversationService {
        self.actor = actor;
        self
    }

    pub fn store(&self) -> &Arc<dyn ConversationStore> {
        &self.store
    }

    /// The ids of the conversations that writes change from now on, whoever makes them: this
    /// process on SQLite, every server on the same PostgreSQL database (live updates).
    pub async fn subscribe(&self) -> Result<squash_store::Changes> {
        Ok(self.store.changes().await?)
    }

    // ---- append (the fast path) -------------------------------------------------------------

    /// Appends a new message to the current thread in place.
    pub async fn append(
        &self,
        conversation: ConversationId,
        role: Role,
        content: Vec<ContentItem>,
    ) -> Result<(Message, Appended)> {
        let message = Message::new(conversation, role, content)?;
        let appended = self.store.append(&message).await?;
        Ok((message, appended))
    }

    /// Appends an already built message (imports, chat replies).
    pub async fn append_message(&self, message: &Message) -> Result<Appended> {
        if message.content.is_empty() {
            return Err(DomainError::EmptyContent.into());
        }
        Ok(self.store.append(message).await?)
    }

    // ---- explicit operations (copy-on-write) ------------------------------------------------

    /// Replaces a message by an edited copy, recorded as a one-source operation.
    pub async fn edit(
        &self,
        conversation: ConversationId,
        req: EditRequest,
    ) -> Result<OperationOutcome> {
        if req.content.is_empty() {
            return Err(DomainError::EmptyContent.into());
        }
        if req.content.iter().all(ContentItem::is_blank) {
            return Err(DomainError::EmptyText.into());
        }
        let original = self.store.message(req.message).await?;
        if original.conversation_id != conversation {
            return Err(DomainError::NotInThread(req.message).into());
        }
        if original.content == req.content {
            return Err(ServiceError::Invalid(
                "the edit changes nothing: the new content equals the old".into(),
            ));
        }
        // The closure and the positions in one call; the first attempt plans on them.
        let ClosurePositions { refs, positions } = self
            .store
            .closure_positions(conversation, &[req.message])
            .await?;
        let new_refs = ToolRefs::of(&req.content);
        let op_id = SquashOperationId::new();
        let edited = Message {
            id: MessageId::new(),
            conversation_id: conversation,
            squash_operation_id: Some(op_id),
            reply_to: original.reply_to,
            role: original.role,
            content: req.content,
            instructions: original.instructions.clone(),
            metadata: None,
            created_at: squash_core::time::now(),
        };
        let operation = self.new_operation(
            op_id,
            conversation,
            (vec![req.message], edited.id),
            OperationKind::Edit,
        );
        let target = req.message;
        let asked = asked_positions(&[target], &refs);
        commit_on_positions(
            self.store.as_ref(),
            conversation,
            None,
            Some(positions),
            &asked,
            Refs::None,
            move |snap, _| {
                let edit = thread_ops::plan_edit(&snap.positions, target)?;
                let in_thread = in_thread(&snap.positions, &refs);
                let old_refs = refs.get(&target).cloned().unwrap_or_default();
                thread_ops::check_edit_keeps_pairs(target, &old_refs, &new_refs, &in_thread)?;
                Ok(Planned {
                    links: NewLinks::Edit(edit),
                    origin: ThreadOrigin::Edit {
                        operation_id: op_id,
                    },
                    messages: vec![edited.clone()],
                    operations: vec![operation.clone()],
                    added_partners: Vec::new(),
                    sources: vec![target],
                })
            },
        )
        .await
        .map(|c| c.into_outcome(conversation))
    }

    /// Removes messages from the current thread (never from storage).
    pub async fn delete(
        &self,
        conversation: ConversationId,
        messages: &[MessageId],
        policy: PartnerPolicy,
    ) -> Result<OperationOutcome> {
        let prepared = self.prepare_squash(conversation, messages, policy).await?;
        let PreparedSquash {
            snapshot,
            refs,
            selection,
            ..
        } = prepared;
        let selected = messages.to_vec();
        let asked = asked_positions(&selected, &refs);
        // The first attempt plans on the snapshot the selection was resolved on.
        let mut first = Some(((snapshot.thread.id, snapshot.thread.revision), selection));
        commit_on_positions(
            self.store.as_ref(),
            conversation,
            None,
            Some(snapshot),
            &asked,
            Refs::None,
            move |snap, _| {
                let Selection { ordered, added } = match first.take() {
                    Some((on, sel)) if on == (snap.thread.id, snap.thread.revision) => sel,
                    _ => {
                        thread_ops::select_with_partners(&snap.positions, &selected, &refs, policy)?
                    }
                };
                let links = NewLinks::Edit(thread_ops::plan_delete(&snap.positions, &ordered)?);
                Ok(Planned {
                    links,
                    origin: ThreadOrigin::Delete {
                        message_ids: ordered.clone(),
                    },
                    messages: Vec::new(),
                    operations: Vec::new(),
                    added_partners: added,
                    sources: ordered,
                })
            },
        )
        .await
        .map(|c| c.into_outcome(conversation))
    }

    /// The manual squash: concatenation (or the caller's text) in place of the sources.
    pub async fn squash_manual(
        &self,
        conversation: ConversationId,
        req: ManualSquashRequest,
    ) -> Result<OperationOutcome> {
        let role = req.role.unwrap_or(Role::User);
        let mut prepared = None;
        let content = match (req.content, req.text) {
            (Some(content), _) => content,
            (None, Some(text)) => {
                if text.trim().is_empty() {
                    return Err(DomainError::EmptyText.into());
                }
                vec![ContentItem::text_for(role, text)]
            }
            (None, None) => {
                // The concatenation renders the sources as they will be squashed, partners
                // included; resolve them on the current thread first.
                let ready = self
                    .prepare_squash(conversation, &req.messages, req.policy)
                    .await?;
                if ready.sources().len() < 2 {
                    return Err(DomainError::TooFewMessages(ready.sources().len()).into());
                }
                let sources = self.store.messages(ready.sources()).await?;
                // The squash is planned on this same snapshot; the commit's revision check
                // still catches a conversation that moved on since.
                prepared = Some(ready);
                vec![ContentItem::text_for(role, render::concatenate(&sources))]
            }
        };
        self.apply_squash_on(
            conversation,
            prepared,
            SquashApplication {
                messages: req.messages,
                content,
                role,
                policy: req.policy,
                kind: OperationKind::Manual,
                computed_on: None,
            },
        )
        .await
    }

    /// Applies a squash result: a new message in place of the sources, a new thread, and the
    /// operation record — one transaction.
    pub async fn apply_squash(
        &self,
        conversation: ConversationId,
        app: SquashApplication,
    ) -> Result<OperationOutcome> {
        self.apply_squash_on(conversation, None, app).await
    }

    /// Resolves `messages` on the current thread: in thread order, with the tool partners
    /// `policy` brings in (or refuses). Reads the positions of the selection and its tool
    /// closure only, not the thread. Stores nothing. Apply the squash with
    /// [`Self::apply_prepared_squash`]; a delete or a manual squash does the same internally.
    pub async fn prepare_squash(
        &self,
        conversation: ConversationId,
        messages: &[MessageId],
        policy: PartnerPolicy,
    ) -> Result<PreparedSquash> {
        let (snapshot, selection, refs) = self
            .select_with_partners(conversation, messages, policy)
            .await?;
        Ok(PreparedSquash {
            conversation_id: conversation,
            snapshot,
            refs,
            selection,
        })
    }

    /// The selection on the conversation's current thread with its tool partners, the
    /// thread's positions it was resolved on, and the tool references that decided them: the
    /// store's closure around the selection, the positions of all of it in the current thread,
    /// then the domain rule ([`thread_ops::select_with_partners`]).
    pub async fn select_with_partners(
        &self,
        conversation: ConversationId,
        selected: &[MessageId],
        policy: PartnerPolicy,
    ) -> Result<(ThreadPositions, Selection, HashMap<MessageId, ToolRefs>)> {
        let ClosurePositions {
            refs,
            positions: base,
        } = self.closure_positions(conversation, selected).await?;
        let selection = thread_ops::select_with_partners(&base.positions, selected, &refs, policy)?;
        Ok((base, selection, refs))
    }

    /// [`Self::apply_squash`] on a selection prepared earlier: the first attempt plans on the
    /// prepared snapshot without reading the thread again. If the conversation moved on since
    /// (an append while a model was working), the commit's revision check refuses that attempt
    /// and the squash is planned again on the newer thread, as long as its sources are still
    /// there (`outcome.reapplied` then counts it). `app.messages` should be the prepared
    /// sources; `app.computed_on` defaults to the prepared snapshot.
    pub async fn apply_prepared_squash(
        &self,
        prepared: PreparedSquash,
        mut app: SquashApplication,
    ) -> Result<OperationOutcome> {
        app.computed_on.get_or_insert(prepared.computed_on());
        self.apply_squash_on(prepared.conversation_id, Some(prepared), app)
            .await
    }

    /// [`Self::apply_squash`], planned first on `prepared` when the caller already resolved
    /// the selection.
    async fn apply_squash_on(
        &self,
        conversation: ConversationId,
        prepared: Option<PreparedSquash>,
        app: SquashApplication,
    ) -> Result<OperationOutcome> {
        if app.content.is_empty() {
            return Err(DomainError::EmptyContent.into());
        }
        if app.content.iter().all(ContentItem::is_blank) {
            return Err(DomainError::EmptyText.into());
        }
        // A prepared selection is planned on as it is by the first attempt; without one, the
        // first attempt reads the thread (and a result computed on an older thread that no
        // longer fits it is a conflict, not bad input).
        let (snapshot, refs, mut first_selection) = match prepared {
            Some(p) => {
                let on = p.computed_on();
                (Some(p.snapshot), p.refs, Some((on, p.selection)))
            }
            // The closure and the positions in one call; the first attempt plans on them.
            None => {
                let read = self.closure_positions(conversation, &app.messages).await?;
                (Some(read.positions), read.refs, None)
            }
        };
        let op_id = SquashOperationId::new();
        let result = Message {
            id: MessageId::new(),
            conversation_id: conversation,
            squash_operation_id: Some(op_id),
            reply_to: None,
            role: app.role,
            content: app.content.clone(),
            instructions: Vec::new(),
            metadata: None,
            created_at: squash_core::time::now(),
        };
        let refs_wanted = if app.kind.writes_recall_ref() {
            Refs::Numbered
        } else {
            Refs::None
        };
        let template = self.new_operation(op_id, conversation, (Vec::new(), result.id), app.kind);
        // The result's content was made from one set of sources; it must not be applied to
        // another.
        let mut first_sources: Option<Vec<MessageId>> = None;
        let selected = app.messages.clone();
        let policy = app.policy;
        let asked = asked_positions(&selected, &refs);
        commit_on_positions(self.store.as_ref(), conversation, app.computed_on, snapshot, &asked, refs_wanted, move |snap, next_ref| {
            let Selection { ordered, added } = match first_selection.take() {
                Some((on, sel)) if on == (snap.thread.id, snap.thread.revision) => sel,
                _ => thread_ops::select_with_partners(&snap.positions, &selected, &refs, policy)?,
            };
            if ordered.len() < 2 {
                return Err(DomainError::TooFewMessages(ordered.len()).into());
            }
            match &first_sources {
                Some(first) if *first != ordered => {
                    return Err(ServiceError::Conflict(
                        "the messages to squash changed meanwhile (a tool result arrived for a selected call)"
                            .into(),
                    ))
                }
                Some(_) => {}
                None => first_sources = Some(ordered.clone()),
            }
            // The result takes the first source's place; the other sources leave.
            let links = NewLinks::Edit(thread_ops::plan_squash(&snap.positions, &ordered)?);
            let mut operation = template.clone();
            operation.source_message_ids = ordered.clone();
            let mut message = result.clone();
            if let Some(recall) = next_ref {
                operation.recall_ref = Some(recall);
                message.content = marked(&message.content, message.role, Mark { recall, first: false });
            }
            Ok(Planned {
                links,
                origin: ThreadOrigin::Squash {
                    operation_id: op_id,
                },
                messages: vec![message],
                operations: vec![operation],
                added_partners: added,
                sources: ordered,
            })
        })
        .await
        .map(|c| c.into_outcome(conversation))
    }

    // ---- internals --------------------------------------------------------------------------

    /// The record of an operation this service performs: by its actor, made now.
    pub(crate) fn new_operation(
        &self,
        id: SquashOperationId,
        conversation: ConversationId,
        (sources, result): (Vec<MessageId>, MessageId),
        kind: OperationKind,
    ) -> SquashOperation {
        SquashOperation::new(id, conversation, sources, result, kind, self.actor.clone())
    }

    /// The tool closure of `selected` and the current thread's positions of all of it, in one
    /// store call. An id that is no message is bad input, reported as "not in the current
    /// thread" by the planner: then the closure of the others, and the positions of all.
    async fn closure_positions(
        &self,
        conversation: ConversationId,
        selected: &[MessageId],
    ) -> Result<ClosurePositions> {
        let seed = distinct(selected);
        match self.store.closure_positions(conversation, &seed).await {
            Err(StoreError::NotFound(squash_store::Entity::Message, _)) => {}
            read => return Ok(read?),
        }
        let refs = self.tool_refs(conversation, selected).await?;
        let asked = asked_positions(selected, &refs);
        let positions = self
            .store
            .thread_positions(ThreadRef::Current(conversation), &asked)
            .await?;
        Ok(ClosurePositions { refs, positions })
    }

    async fn tool_refs(
        &self,
        conversation: ConversationId,
        messages: &[MessageId],
    ) -> Result<HashMap<MessageId, ToolRefs>> {
        // Unknown ids are bad input, reported as "not in the current thread" by the planner;
        // only the ids that exist seed the closure.
        let known = distinct(messages);
        match self.store.tool_refs_closure(conversation, &known).await {
            Ok(refs) => Ok(refs),
            Err(StoreError::NotFound(squash_store::Entity::Message, _)) => {
                let mut existing = Vec::new();
                for id in known {
                    if self.store.message(id).await.is_ok() {
                        existing.push(id);
                    }
                }
                Ok(self
                    .store
                    .tool_refs_closure(conversation, &existing)
                    .await?)
            }
            Err(e) => Err(e.into()),
        }
    }
}

/// `ids` without repeats, in their order.
fn distinct(ids: &[MessageId]) -> Vec<MessageId> {
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        if !out.contains(id) {
            out.push(*id);
        }
    }
    out
}

fn in_thread(
    positions: &impl Positions,
    refs: &HashMap<MessageId, ToolRefs>,
) -> HashMap<MessageId, ToolRefs> {
    let found = positions.positions_of(&refs.keys().copied().collect());
    refs.iter()
        .filter(|(id, _)| found.contains_key(id))
        .map(|(id, r)| (*id, r.clone()))
        .collect()
}

/// The messages whose positions an operation on `selected` plans with: the selection and its
/// tool closure.
fn asked_positions(selected: &[MessageId], refs: &HashMap<MessageId, ToolRefs>) -> Vec<MessageId> {
    let mut asked: Vec<MessageId> = selected.to_vec();
    asked.extend(refs.keys().filter(|id| !selected.contains(id)));
    asked.sort_unstable();
    asked.dedup();
    asked
}
