//! A long coding-agent session for the web's paging test and its benchmark: turns of a user
//! request in markdown, the agent's reply, tool calls with their outputs (20 to 120 lines, some
//! failing) and a closing summary, as Claude Code sessions run. Deterministic.

use squash_core::{
    ContentItem, ConversationId, Message, MessageId, Role, SourceFormat, StructuredText,
};
use squash_store::ConversationStore;

use crate::fixtures::single_thread_batch;

/// A small deterministic generator (xorshift), enough to vary sizes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: &[&str] = &[
    "thread", "message", "squash", "store", "commit", "index", "page", "render", "token", "budget",
    "parse", "import", "export", "error", "result", "config", "session", "cursor",
];

fn words(rng: &mut Rng, n: u64) -> String {
    (0..n)
        .map(|_| WORDS[rng.below(WORDS.len() as u64) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

fn message(conversation: ConversationId, role: Role, content: Vec<ContentItem>) -> Message {
    Message::new(conversation, role, content).expect("a generated message is valid")
}

fn text(conversation: ConversationId, role: Role, text: String) -> Message {
    message(conversation, role, vec![ContentItem::text_for(role, text)])
}

/// `n` messages (the last turn is cut where `n` ends).
pub fn long_session(conversation: ConversationId, n: usize) -> Vec<Message> {
    let mut rng = Rng(0x5eed_cafe_f00d_0001);
    let mut out = Vec::with_capacity(n);
    let mut turn = 0;
    while out.len() < n {
        turn += 1;
        out.push(text(
            conversation,
            Role::User,
            format!(
                "## Turn {turn}\n\nMake `report_{turn}` pass: {}.\n\n- keep `src/page_{turn}.rs` small\n- run `cargo test`",
                words(&mut rng, 12)
            ),
        ));
        out.push(message(
            conversation,
            Role::Assistant,
            vec![ContentItem::AssistantMessage {
                structured: StructuredText {
                    full_text: format!(
                        "I'll look at src/page_{turn}.rs first: {}.",
                        words(&mut rng, 20)
                    ),
                    ..StructuredText::default()
                },
            }],
        ));
        for call in 0..4 {
            let id = format!("toolu_{turn}_{call}");
            let (name, input) = if call % 2 == 0 {
                (
                    "Bash",
                    serde_json::json!({ "command": format!("cargo test report_{turn}") }),
                )
            } else {
                (
                    "Read",
                    serde_json::json!({ "file_path": format!("/work/src/page_{turn}.rs") }),
                )
            };
            out.push(message(
                conversation,
                Role::Assistant,
                vec![ContentItem::tool_call(id.clone(), name, input)],
            ));
            let lines = 20 + rng.below(100);
            let output = (1..=lines)
                .map(|i| format!("{i:>5}\t{}", words(&mut rng, 8)))
                .collect::<Vec<_>>()
                .join("\n");
            out.push(message(
                conversation,
                Role::User,
                vec![ContentItem::tool_result(
                    id,
                    name,
                    output,
                    rng.below(8) == 0,
                )],
            ));
        }
        out.push(text(
            conversation,
            Role::Assistant,
            format!("report_{turn} passes now; {}.", words(&mut rng, 15)),
        ));
    }
    out.truncate(n);
    out
}

/// A conversation of `n` generated messages, stored in one transaction as an import stores
/// one; returns it and its message ids in thread order.
pub async fn stored(store: &dyn ConversationStore, n: usize) -> (ConversationId, Vec<MessageId>) {
    let conversation = ConversationId::new();
    let messages = long_session(conversation, n);
    let ids: Vec<MessageId> = messages.iter().map(|m| m.id).collect();
    let key = format!("long-session:{conversation}");
    let mut batch = single_thread_batch(conversation, messages, &key, "/work/long-session");
    batch.source.format = SourceFormat::Squash;
    batch.display_name = format!("{n} messages");
    store
        .import_conversation(batch)
        .await
        .expect("store the long session");
    (conversation, ids)
}
