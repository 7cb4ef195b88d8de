//! The conversation service: every thread operation, copy-on-write, with conflict handling.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use squash_core::page::PageSpan;
use squash_core::thread_ops::{self, PartnerAdded, PartnerPolicy, Selection};
use squash_core::Positions;
use squash_core::{
    render, ContentItem, Conversation, ConversationId, DomainError, Message, MessageId,
    OperationKind, Project, ProjectId, Role, SquashOperation, SquashOperationId, Thread, ThreadId,
    ThreadOrigin, ToolRefs,
};
use squash_store::{
    Appended, Commit, ConversationStore, ConversationSummary, Direction, NewLinks, StoreError,
    ThreadPositions, ThreadRef, ThreadSnapshot,
};

use crate::error::ServiceError;
use crate::pages::TokenSums;

type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// How often an operation is recomputed when other writers keep moving the conversation on.
const MAX_ATTEMPTS: u32 = 32;

/// The current state of a conversation, as people see it.
#[derive(Clone, Debug)]
pub struct ThreadView {
    pub conversation: Conversation,
    pub thread: Thread,
    /// The whole thread, or the page of it that [`ThreadView::span`] says.
    pub messages: Vec<Message>,
    /// Each message's estimated tokens ([`squash_core::tokens::message_tokens`]), in the order
    /// of `messages`: read with them where the store keeps them.
    pub message_tokens: Vec<u64>,
    /// Where `messages` lie in the thread (1-based positions).
    pub span: PageSpan,
    /// The whole thread's estimated tokens, summed by the store over the estimates stored with
    /// its messages; each message's own is [`squash_core::tokens::message_tokens`].
    pub tokens: u64,
}

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

/// One attempt's plan: the new thread as a change of its base, and what it introduces.
pub(crate) struct Planned {
    pub(crate) links: NewLinks,
    pub(crate) origin: ThreadOrigin,
    /// The messages the new thread introduces, each with its operation (none for a delete).
    pub(crate) messages: Vec<Message>,
    pub(crate) operations: Vec<SquashOperation>,
    pub(crate) added_partners: Vec<PartnerAdded>,
    pub(crate) sources: Vec<MessageId>,
}

/// A plan as stored: the new current thread, and the plan with each operation's threads set.
pub(crate) struct Committed {
    pub(crate) thread: Thread,
    pub(crate) planned: Planned,
    pub(crate) reapplied: u32,
}

impl Committed {
    fn into_outcome(self, conversation_id: ConversationId) -> OperationOutcome {
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

    // ---- conversations ----------------------------------------------------------------------

    pub async fn create_conversation(
        &self,
        project_path: &str,
        name: &str,
    ) -> Result<Conversation> {
        let name = name.trim();
        if name.is_empty() {
            return Err(ServiceError::Invalid(
                "the conversation name is empty".into(),
            ));
        }
        if project_path.trim().is_empty() {
            return Err(ServiceError::Invalid("the project path is empty".into()));
        }
        let project = self.store.ensure_project(project_path.trim()).await?;
        Ok(self.store.create_conversation(project.id, name).await?)
    }

    pub async fn projects(&self) -> Result<Vec<Project>> {
        Ok(self.store.projects().await?)
    }

    pub async fn project(&self, id: ProjectId) -> Result<Project> {
        Ok(self.store.project(id).await?)
    }

    /// Conversations, most recent first; only those of the project at `project_path` if given.
    pub async fn list_conversations(
        &self,
        project_path: Option<&str>,
    ) -> Result<Vec<Conversation>> {
        match self.project_filter(project_path).await? {
            Some(project) => Ok(self.store.conversations(project).await?),
            None => Ok(Vec::new()),
        }
    }

    /// [`list_conversations`](Self::list_conversations) with the size of each current thread
    /// (messages and estimated tokens), for listings.
    pub async fn conversation_summaries(
        &self,
        project_path: Option<&str>,
    ) -> Result<Vec<ConversationSummary>> {
        match self.project_filter(project_path).await? {
            Some(project) => Ok(self.store.conversation_summaries(project).await?),
            None => Ok(Vec::new()),
        }
    }

    /// The store's project filter for `project_path`: `Some(None)` for every project, `None`
    /// when no project has that path (so nothing can match).
    async fn project_filter(
        &self,
        project_path: Option<&str>,
    ) -> Result<Option<Option<ProjectId>>> {
        let Some(path) = project_path else {
            return Ok(Some(None));
        };
        let projects = self.store.projects().await?;
        Ok(projects
            .into_iter()
            .find(|p| p.path == path)
            .map(|p| Some(p.id)))
    }

    pub async fn conversation(&self, id: ConversationId) -> Result<Conversation> {
        Ok(self.store.conversation(id).await?)
    }

    pub async fn rename_conversation(
        &self,
        id: ConversationId,
        name: &str,
    ) -> Result<Conversation> {
        let name = name.trim();
        if name.is_empty() {
            return Err(ServiceError::Invalid(
                "the conversation name is empty".into(),
            ));
        }
        Ok(self.store.rename_conversation(id, name).await?)
    }

    pub async fn delete_conversation(&self, id: ConversationId) -> Result<()> {
        Ok(self.store.delete_conversation(id).await?)
    }

    // ---- reading ----------------------------------------------------------------------------

    pub async fn current_thread(&self, id: ConversationId) -> Result<ThreadView> {
        let conversation = self.store.conversation(id).await?;
        // The header, not the links: the messages come with the next read.
        let thread = self.store.current_thread_header(id).await?;
        self.view_of(conversation, thread).await
    }

    pub async fn thread_view(&self, id: ThreadId) -> Result<ThreadView> {
        let thread = self.store.thread_header(id).await?;
        let conversation = self.store.conversation(thread.conversation_id).await?;
        self.view_of(conversation, thread).await
    }

    /// A conversation and its current thread's header, without the links: two one-row reads
    /// that tell whether anything a reader of the thread saw has changed (HTTP's ETags).
    pub async fn current_thread_header(
        &self,
        id: ConversationId,
    ) -> Result<(Conversation, Thread)> {
        let conversation = self.store.conversation(id).await?;
        let thread = self.store.current_thread_header(id).await?;
        Ok((conversation, thread))
    }

    /// A thread's header with its conversation, likewise.
    pub async fn thread_header(&self, id: ThreadId) -> Result<(Conversation, Thread)> {
        let thread = self.store.thread_header(id).await?;
        let conversation = self.store.conversation(thread.conversation_id).await?;
        Ok((conversation, thread))
    }

    async fn view_of(&self, conversation: Conversation, thread: Thread) -> Result<ThreadView> {
        // One read of the thread as its header says it is (appends made since come after),
        // with the token estimates stored beside the messages: no recount, no second sum.
        let limit = u32::try_from(thread.message_count).map_err(|_| {
            ServiceError::Invalid(format!(
                "thread {} has {} messages, more than one read returns; read it in pages",
                thread.id, thread.message_count
            ))
        })?;
        let range = self.store.thread_range(thread.id, 0, limit).await?;
        let total = range.messages.len() as u64;
        Ok(ThreadView {
            conversation,
            thread,
            span: PageSpan::of((total > 0).then_some(1..=total).as_ref(), total),
            tokens: range.message_tokens.iter().sum(),
            message_tokens: range.message_tokens,
            messages: range.messages,
        })
    }

    /// The estimated tokens of a thread, without reading its messages.
    pub async fn thread_tokens(&self, id: ThreadId) -> Result<u64> {
        Ok(self.store.thread_tokens(id).await?)
    }

    pub async fn current_links(&self, id: ConversationId) -> Result<ThreadSnapshot> {
        Ok(self.store.current_thread(id).await?)
    }

    pub async fn message(&self, id: MessageId) -> Result<Message> {
        Ok(self.store.message(id).await?)
    }

    pub async fn messages(&self, ids: &[MessageId]) -> Result<Vec<Message>> {
        Ok(self.store.messages(ids).await?)
    }

    pub async fn operation(&self, id: SquashOperationId) -> Result<SquashOperation> {
        Ok(self.store.operation(id).await?)
    }

    pub async fn operations(&self, conversation: ConversationId) -> Result<Vec<SquashOperation>> {
        Ok(self.store.operations(conversation).await?)
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
        let refs = self
            .store
            .tool_refs_closure(conversation, &[req.message])
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
        self.commit_on_positions(conversation, None, None, &asked, move |snap| {
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
        })
        .await
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
        self.commit_on_positions(conversation, None, Some(snapshot), &asked, move |snap| {
            let Selection { ordered, added } = match first.take() {
                Some((on, sel)) if on == (snap.thread.id, snap.thread.revision) => sel,
                _ => thread_ops::select_with_partners(&snap.positions, &selected, &refs, policy)?,
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
        })
        .await
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
        let refs = self.tool_refs(conversation, selected).await?;
        let asked = asked_positions(selected, &refs);
        let base = self
            .store
            .thread_positions(ThreadRef::Current(conversation), &asked)
            .await?;
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
            None => (
                None,
                self.tool_refs(conversation, &app.messages).await?,
                None,
            ),
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
        let template = self.new_operation(op_id, conversation, (Vec::new(), result.id), app.kind);
        // The result's content was made from one set of sources; it must not be applied to
        // another.
        let mut first_sources: Option<Vec<MessageId>> = None;
        let selected = app.messages.clone();
        let policy = app.policy;
        let asked = asked_positions(&selected, &refs);
        self.commit_on_positions(conversation, app.computed_on, snapshot, &asked, move |snap| {
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
            Ok(Planned {
                links,
                origin: ThreadOrigin::Squash {
                    operation_id: op_id,
                },
                messages: vec![result.clone()],
                operations: vec![operation],
                added_partners: added,
                sources: ordered,
            })
        })
        .await
    }

    // ---- undo / redo / switch ---------------------------------------------------------------

    /// Switches back to the thread the current one was derived from.
    pub async fn undo(&self, conversation: ConversationId) -> Result<Conversation> {
        // One store call: the target is found inside the write transaction.
        self.store
            .switch_relative(conversation, Direction::Back)
            .await?
            .ok_or_else(|| {
                ServiceError::Invalid("nothing to undo: this is the first thread".into())
            })
    }

    /// Switches forward to the most recent thread derived from the current one.
    pub async fn redo(&self, conversation: ConversationId) -> Result<Conversation> {
        self.store
            .switch_relative(conversation, Direction::Forward)
            .await?
            .ok_or_else(|| {
                ServiceError::Invalid("nothing to redo: no thread was derived from this one".into())
            })
    }

    /// Makes any thread of the conversation current.
    pub async fn switch_thread(
        &self,
        conversation: ConversationId,
        to: ThreadId,
    ) -> Result<Conversation> {
        let target = self.store.thread_header(to).await?;
        if target.conversation_id != conversation {
            return Err(ServiceError::Invalid(format!(
                "thread {to} belongs to another conversation"
            )));
        }
        self.switch_relative(conversation, move |_| async move { Ok(to) })
            .await
    }

    async fn switch_relative<F, Fut>(
        &self,
        conversation: ConversationId,
        pick: F,
    ) -> Result<Conversation>
    where
        F: Fn(Thread) -> Fut,
        Fut: std::future::Future<Output = Result<ThreadId>>,
    {
        for _ in 0..MAX_ATTEMPTS {
            // Undo and redo need the current thread's row (and, for redo, its newest child),
            // not its links nor the whole thread list: both grow with the conversation.
            let current = self.store.current_thread_header(conversation).await?;
            let current_id = current.id;
            let to = pick(current).await?;
            match self.store.switch_thread(conversation, to, current_id).await {
                Ok(c) => return Ok(c),
                Err(StoreError::Conflict { .. }) => continue,
                Err(e) if e.is_retryable() => tokio::time::sleep(Duration::from_millis(5)).await,
                Err(e) => return Err(e.into()),
            }
        }
        Err(ServiceError::Conflict(
            "the conversation kept changing; try again".into(),
        ))
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

    async fn tool_refs(
        &self,
        conversation: ConversationId,
        messages: &[MessageId],
    ) -> Result<HashMap<MessageId, ToolRefs>> {
        // Unknown ids are bad input, reported as "not in the current thread" by the planner;
        // only the ids that exist seed the closure.
        let mut known = Vec::with_capacity(messages.len());
        for id in messages {
            if !known.contains(id) {
                known.push(*id);
            }
        }
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

    /// Commits what `plan` makes of the current thread's positions (`asked`, as
    /// [`ConversationStore::thread_positions`] reads them), retrying on a newer thread as
    /// [`Self::commit_planned`] does: a squash, edit or delete reads a few positions, not the
    /// thread.
    async fn commit_on_positions(
        &self,
        conversation: ConversationId,
        computed_on: Option<(ThreadId, u64)>,
        first: Option<ThreadPositions>,
        asked: &[MessageId],
        plan: impl FnMut(&ThreadPositions) -> Result<Planned>,
    ) -> Result<OperationOutcome> {
        let read = || async {
            self.store
                .thread_positions(ThreadRef::Current(conversation), asked)
                .await
        };
        Ok(self
            .commit_on(conversation, computed_on, first, read, |b| &b.thread, plan)
            .await?
            .into_outcome(conversation))
    }

    /// Commits what `plan` makes of the current thread (read whole), for any number of new
    /// messages and operations (a fit's steps).
    pub(crate) async fn commit_planned(
        &self,
        conversation: ConversationId,
        computed_on: Option<(ThreadId, u64)>,
        first: Option<ThreadSnapshot>,
        plan: impl FnMut(&ThreadSnapshot) -> Result<Planned>,
    ) -> Result<Committed> {
        let read = || self.store.current_thread(conversation);
        self.commit_on(conversation, computed_on, first, read, |s| &s.thread, plan)
            .await
    }

    /// The commit loop: plans on `first` (or what `read` reads of the current thread), commits
    /// if the thread is still at that revision, and on a conflict reads and plans again.
    async fn commit_on<B, R, F>(
        &self,
        conversation: ConversationId,
        computed_on: Option<(ThreadId, u64)>,
        mut first: Option<B>,
        read: R,
        header: fn(&B) -> &Thread,
        mut plan: impl FnMut(&B) -> Result<Planned>,
    ) -> Result<Committed>
    where
        R: Fn() -> F,
        F: std::future::Future<Output = squash_store::Result<B>>,
    {
        let mut base = computed_on;
        for attempt in 0..MAX_ATTEMPTS {
            let snap = match first.take() {
                Some(snap) => snap,
                None => read().await?,
            };
            let base_thread = header(&snap);
            let moved_on = base.is_some_and(|b| b != (base_thread.id, base_thread.revision));
            let mut planned = match plan(&snap) {
                Ok(p) => p,
                Err(e) if moved_on => {
                    return Err(ServiceError::Conflict(format!(
                    "the conversation changed meanwhile and the operation no longer applies: {e}"
                )))
                }
                Err(e) => return Err(e),
            };
            // Planning on a newer thread than the one the result was computed from is a
            // re-application, even on the first attempt.
            let replanned = u32::from(moved_on && attempt == 0);
            base = Some((base_thread.id, base_thread.revision));
            let thread_id = ThreadId::new();
            for op in &mut planned.operations {
                op.base_thread_id = Some(base_thread.id);
                op.result_thread_id = Some(thread_id);
            }
            let commit = Commit {
                conversation_id: conversation,
                base_thread_id: base_thread.id,
                base_revision: base_thread.revision,
                thread_id,
                origin: planned.origin.clone(),
                links: planned.links.clone(),
                messages: planned.messages.clone(),
                operations: planned.operations.clone(),
            };
            match self.store.commit(&commit).await {
                Ok(thread) => {
                    return Ok(Committed {
                        thread,
                        planned,
                        reapplied: attempt + replanned,
                    })
                }
                Err(StoreError::Conflict { .. }) => {
                    tracing::debug!(attempt, "conversation moved on; recomputing the operation");
                }
                Err(e) if e.is_retryable() => {
                    tokio::time::sleep(Duration::from_millis(5 * u64::from(attempt + 1))).await
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(ServiceError::Conflict(
            "the conversation kept changing while the operation was applied; nothing was changed, try again"
                .into(),
        ))
    }
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
