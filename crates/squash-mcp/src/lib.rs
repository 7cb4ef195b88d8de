//! `squash mcp`: Squash as a Model Context Protocol server over stdio, for the agent that
//! resumes a session Squash fitted. Everything a fit or a squash took out of the thread stays in
//! the store; this server puts it one tool call away:
//!
//! - `recall(ref)`: the original messages behind a `[ref N]` the thread shows, verbatim, a page
//!   of lines at a time;
//! - `search(query)`: the whole history of the conversation, what was squashed away included.
//!
//! It is read-only and scoped to the conversations it was started for ([`Scope`]). The protocol
//! itself (JSON-RPC framing, the handshake, tool schemas) is the official SDK's (`rmcp`); this
//! crate is an interface like the web: it parses a call, asks one use case of squash-app, and
//! words the answer (`words.rs`).

mod scope;
mod server;
mod words;

pub use scope::{Scope, ScopeError};
pub use server::SquashMcp;

/// Serves `server` over this process's stdin and stdout until the client closes them.
pub async fn serve_stdio(server: SquashMcp) -> Result<(), ServeError> {
    use rmcp::ServiceExt;
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| ServeError(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| ServeError(e.to_string()))?;
    Ok(())
}

/// The connection with the client failed (its handshake, or the transport).
#[derive(Debug, thiserror::Error)]
#[error("the MCP session failed: {0}")]
pub struct ServeError(String);
