//! The command line, declared with clap.

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "squash",
    version,
    about = "Keep AI conversations small and high-signal without losing anything",
    long_about = "Squash stores conversations as immutable messages in copy-on-write threads. \
Select any messages and squash them into one; every edit, delete and squash creates a new \
thread, so `undo` and `redo` always work and `provenance` shows where a message came from.\n\n\
Messages are referred to by full id, a unique id prefix, or @N (the N-th message of the \
conversation's current thread, 1-based). Conversations by full id, unique id prefix or exact name.",
    after_help = "Examples:\n  \
squash conversation new \"Fix the build\"\n  \
squash message add 0192 --role user --text \"The build fails with E0308\"\n  \
squash conversation show 0192\n  \
squash manual 0192 @2 @4 @5\n  \
squash ai 0192 @2 @3 @4 --preview\n  \
squash undo 0192"
)]
pub struct Cli {
    /// Database: a SQLite file path (default: squash.db in the user's data directory) or a
    /// postgres:// URL.
    #[arg(long, global = true, env = "SQUASH_DB", value_name = "PATH|URL")]
    pub db: Option<String>,

    /// Print machine-readable JSON instead of text.
    #[arg(long, global = true)]
    pub json: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Create, list, show, rename and delete conversations.
    #[command(subcommand, visible_alias = "conv")]
    Conversation(ConversationCmd),
    /// Add, edit and delete messages.
    #[command(subcommand, visible_alias = "msg")]
    Message(MessageCmd),
    /// Squash messages into one by concatenation (or your own text).
    Manual(ManualArgs),
    /// Switch back to the thread the current one was derived from.
    Undo(ConvArg),
    /// Switch forward to the most recent thread derived from the current one.
    Redo(ConvArg),
    /// List a conversation's threads as a tree, or switch to one.
    #[command(subcommand)]
    Thread(ThreadCmd),
    /// Show how a message came to be: its operation and sources, recursively.
    Provenance(ProvenanceArgs),
    /// Squash messages into one with an LLM: semantic compression, optionally following your
    /// instructions. Shows the result's quality report; --preview applies nothing.
    Ai(crate::commands::ai::AiArgs),
    /// Bring the current thread under a token budget with the least loss, no model needed: the
    /// oldest steps first, one level at a time — tool outputs trimmed to the lines that carry
    /// facts, then each step's one-line extract, then runs' extracts, then one digest of each
    /// request's work (every fact once) — until it fits. What you typed and the newest steps
    /// (a fifth of the budget) stay as they are; only when the budget cannot be reached
    /// otherwise do the newest steps give way, then the oldest requests join the digest of
    /// their work (the newest stays as typed). Applied as one new thread: one `squash undo`
    /// restores it.
    #[command(
        after_help = "Examples:\n  squash fit 0192 --budget 50k --preview\n  squash fit 0192 --budget 50k --strategy mask\n  squash fit 0192 --budget 20k --keep-recent 2k --best-effort\n  squash fit 0192 --budget 30k --strategy hybrid   # runs squashed, digests headed by the model"
    )]
    Fit(crate::commands::fit::FitArgs),
    /// Resume an agent session smaller: take the latest Claude Code or Codex session of this
    /// directory (or the one named), import it, fit it into a budget (default: half the
    /// model's window), write it as a new session beside the original (never overwritten) and
    /// start the agent on it.
    #[command(
        after_help = "Examples:\n  squash resume --dry-run\n  squash resume --agent codex --budget 80k\n  squash resume 3f2a…-session-id --strategy mask -- --model sonnet"
    )]
    Resume(crate::commands::resume::ResumeArgs),
    /// Repeat a recorded AI squash with its stored prompt and model, as a new thread (the
    /// earlier result stays reachable). Its sources must be in the current thread again.
    Rerun(crate::commands::ai::RerunArgs),
    /// Send a message to the model and stream its reply; both are stored in the conversation.
    Chat(crate::commands::chat::ChatArgs),
    /// Show which model providers are configured, which one is used by default and why, and
    /// whether they answer.
    Doctor(crate::commands::doctor::DoctorArgs),
    /// List and install the embedded local models (no API key or network service needed to
    /// run them).
    #[command(subcommand)]
    Model(crate::commands::model::ModelCmd),
    /// The main job on a shipped coding-agent session: AI-squash its run of tool calls with the
    /// model at hand (the embedded local model on a bare machine), show the quality report,
    /// apply it.
    Demo(crate::commands::demo::DemoArgs),
    /// Serve the web UI and the HTTP API (default http://127.0.0.1:7878).
    Serve(crate::commands::serve::ServeArgs),
    /// Import sessions: Claude Code and Codex CLI logs, OpenAI- or Anthropic-style chat JSON,
    /// Gromozeka databases, Squash JSON exports — a file or a whole directory. Importing the
    /// same source again changes nothing; a session that grew gets its new messages appended.
    Import(crate::commands::import::ImportArgs),
    /// Export a conversation: a Markdown transcript, lossless Squash JSON, or a Claude Code
    /// session that `claude --resume` accepts (--install puts it where Claude Code looks).
    Export(crate::commands::export::ExportArgs),
    /// Full-text search over the messages of current threads (a squashed-away message is no
    /// hit): every word and "quoted phrase" must match; words are stemmed.
    #[command(
        after_help = "Examples:\n  squash search lexer panic\n  squash search '\"cargo test\"' --conversation 0192 -n 50"
    )]
    Search(crate::commands::search::SearchArgs),
    /// Show the original messages behind a `[ref N]` that a fit or an AI squash wrote where it
    /// shortened the thread: verbatim, a page of lines at a time.
    #[command(
        after_help = "Examples:\n  squash recall 0192 12\n  squash recall 0192 '[ref 12]' --offset 200"
    )]
    Recall(crate::commands::recall::RecallArgs),
    /// Serve recall and search over a conversation's whole history as a Model Context Protocol
    /// server on stdin/stdout (read-only). `squash resume` registers it with the agent it
    /// starts; run it yourself for another MCP client.
    #[command(after_help = "Examples:\n  squash mcp --conversation 0192\n  squash mcp --all")]
    Mcp(crate::commands::mcp::McpArgs),
}

#[derive(Args, Debug)]
pub struct ConvArg {
    /// Conversation id, unique id prefix, or exact name.
    pub conversation: String,
}

#[derive(Subcommand, Debug)]
pub enum ConversationCmd {
    /// Create a conversation.
    New {
        /// Display name.
        name: String,
        /// Project (working directory) it belongs to; defaults to the current directory.
        #[arg(long)]
        project: Option<String>,
    },
    /// List conversations, grouped by project, most recent first.
    List {
        /// Only this project's conversations.
        #[arg(long)]
        project: Option<String>,
    },
    /// Show the messages of the current thread (or of another thread).
    Show {
        conversation: String,
        /// A thread id or prefix instead of the current thread.
        #[arg(long)]
        thread: Option<String>,
        /// Print whole messages instead of one line each.
        #[arg(long, short)]
        full: bool,
    },
    /// Rename a conversation.
    Rename { conversation: String, name: String },
    /// Delete a conversation with all its threads, messages and operations.
    Delete { conversation: String },
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum RoleArg {
    User,
    Assistant,
    System,
}

impl From<RoleArg> for squash_core::Role {
    fn from(r: RoleArg) -> Self {
        match r {
            RoleArg::User => squash_core::Role::User,
            RoleArg::Assistant => squash_core::Role::Assistant,
            RoleArg::System => squash_core::Role::System,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum MessageCmd {
    /// Append a message to the current thread. Without --text, reads a JSON array of content
    /// items from stdin, e.g. [{"type":"tool_call","id":"t1","name":"Grep","input":{}}].
    Add {
        conversation: String,
        #[arg(long, value_enum, default_value = "user")]
        role: RoleArg,
        #[arg(long)]
        text: Option<String>,
    },
    /// Replace a message by an edited copy (a new thread; undo restores the original).
    /// Without --text, reads a JSON array of content items from stdin.
    Edit {
        conversation: String,
        message: String,
        #[arg(long)]
        text: Option<String>,
    },
    /// Remove messages from the current thread (a new thread; storage keeps them).
    Delete {
        conversation: String,
        #[arg(required = true)]
        messages: Vec<String>,
        /// Refuse instead of also removing a tool call's result (or a result's call).
        #[arg(long)]
        strict: bool,
    },
    /// Show one message in full, as JSON with --json.
    Show {
        message: String,
        /// Conversation, needed for @N references.
        #[arg(long, short)]
        conversation: Option<String>,
    },
}

#[derive(Args, Debug)]
pub struct ManualArgs {
    pub conversation: String,
    /// Two or more messages, in any order; non-contiguous is fine.
    #[arg(required = true, num_args = 1..)]
    pub messages: Vec<String>,
    /// The squashed message's text; default: a readable concatenation of the sources.
    #[arg(long)]
    pub text: Option<String>,
    /// Role of the squashed message.
    #[arg(long, value_enum, default_value = "user")]
    pub role: RoleArg,
    /// Refuse instead of bringing in a selected tool call's result (or a result's call).
    #[arg(long)]
    pub strict: bool,
}

#[derive(Subcommand, Debug)]
pub enum ThreadCmd {
    /// The thread tree: what created each thread, which one is current.
    List { conversation: String },
    /// Make a thread current.
    Switch {
        conversation: String,
        thread: String,
    },
}

#[derive(Args, Debug)]
pub struct ProvenanceArgs {
    pub message: String,
    /// Conversation, needed for @N references.
    #[arg(long, short)]
    pub conversation: Option<String>,
}
