//! The answers the HTTP API and `squash --json` share: one list of fields each, checked by both
//! the CLI's tests and the web's.

/// The fields of a computed AI squash, as both `squash --json ai` and the API print it.
pub const SQUASH_RESULT_KEYS: [&str; 20] = [
    "added_partners",
    "computed_on",
    "context_window",
    "conversation_id",
    "custom_instructions",
    "duration_ms",
    "estimated_prompt_tokens",
    "model",
    "prompt",
    "prompts",
    "provider",
    "report",
    "requested_style",
    "role",
    "sources",
    "stop_reason",
    "style",
    "text",
    "truncated",
    "usage",
];

/// The fields of an operation's outcome.
pub const OUTCOME_KEYS: [&str; 7] = [
    "added_partners",
    "conversation_id",
    "message",
    "operation",
    "reapplied",
    "sources",
    "thread",
];
