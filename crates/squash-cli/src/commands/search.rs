//! `squash search`: full-text search over the messages of current threads.

use clap::Args;
use squash_app::ConversationService;

use crate::output::Output;

#[derive(Args, Debug)]
pub struct SearchArgs {
    /// Words and "quoted phrases", all of which a hit contains (quote a phrase for the shell
    /// too: '"cargo test"').
    #[arg(required = true, num_args = 1..)]
    pub query: Vec<String>,
    /// Only this conversation (id, unique id prefix, or exact name).
    #[arg(long, short)]
    pub conversation: Option<String>,
    /// Hits to show, 1 to 200.
    #[arg(long, short = 'n', default_value_t = squash_app::DEFAULT_SEARCH_LIMIT)]
    pub limit: u32,
}

pub async fn run(
    service: &ConversationService,
    out: &Output,
    args: SearchArgs,
) -> anyhow::Result<()> {
    let conversation = service
        .resolve_conversation_if(args.conversation.as_deref())
        .await?;
    let query = args.query.join(" ");
    let results = service
        .search(&query, conversation, Some(args.limit))
        .await?;
    out.emit(&results, || {
        let mut s = String::new();
        for hit in &results.hits {
            let snippet = squash_core::search::marked_line(&hit.snippet);
            s.push_str(&format!(
                "{} @{} [{}] {}\n    {}\n",
                hit.conversation_name, hit.position, hit.role, hit.message_id, snippet
            ));
        }
        s.push_str(&match results.total {
            0 => "no matching messages".to_owned(),
            n if results.more => format!(
                "the best {} of the newest {n} of more matching messages",
                results.hits.len()
            ),
            n if n > results.hits.len() as u64 => {
                format!("{} of {n} matching messages", results.hits.len())
            }
            n => format!("{n} matching messages"),
        });
        s
    })
}
