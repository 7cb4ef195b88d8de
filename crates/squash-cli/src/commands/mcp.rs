//! `squash mcp`: the recall server over stdio, for an agent (`squash resume` registers it with
//! the agent it starts) or an MCP client of your own.

use clap::Args;
use squash_app::ConversationService;
use squash_mcp::{Scope, SquashMcp};

#[derive(Args, Debug)]
pub struct McpArgs {
    /// A conversation the server answers about (id, unique id prefix, or exact name); repeat
    /// for several.
    #[arg(long, short, required_unless_present = "all")]
    pub conversation: Vec<String>,
    /// Answer about every conversation of the database.
    #[arg(long, conflicts_with = "conversation")]
    pub all: bool,
}

pub async fn run(service: &ConversationService, args: McpArgs) -> anyhow::Result<()> {
    let scope = if args.all {
        Scope::everything(service)
            .await
            .map_err(anyhow::Error::msg)?
    } else {
        let mut ids = Vec::new();
        for c in &args.conversation {
            ids.push(service.resolve_conversation(c).await?);
        }
        Scope::new(ids)?
    };
    squash_mcp::serve_stdio(SquashMcp::new(service.clone(), scope)).await?;
    Ok(())
}
