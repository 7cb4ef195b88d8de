//! `squash recall`: the original messages behind a `[ref N]` a fit or an AI squash wrote.

use clap::Args;
use squash_app::{ConversationService, LinePage};
use squash_core::RecallRef;

use crate::output::Output;

#[derive(Args, Debug)]
pub struct RecallArgs {
    /// The conversation (id, unique id prefix, or exact name).
    pub conversation: String,
    /// The reference as the thread shows it: 12, "ref 12" or "[ref 12]".
    #[arg(value_parser = parse_ref)]
    pub reference: RecallRef,
    /// The first line to show, from 0.
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    /// Lines to show, 1 to 2000.
    #[arg(long, short = 'n', default_value_t = squash_app::recall::DEFAULT_RECALL_LINES)]
    pub limit: usize,
}

fn parse_ref(s: &str) -> Result<RecallRef, String> {
    s.parse()
        .map_err(|e: squash_core::ids::BadRecallRef| e.to_string())
}

pub async fn run(
    service: &ConversationService,
    out: &Output,
    args: RecallArgs,
) -> anyhow::Result<()> {
    let conversation = service.resolve_conversation(&args.conversation).await?;
    let page = LinePage {
        offset: args.offset,
        limit: Some(args.limit),
    };
    let recalled = service.recall(conversation, args.reference, page).await?;
    out.emit(&recalled, || {
        let mut s = recalled.text.clone();
        if let Some(next) = recalled.next_offset {
            s.push_str(&format!(
                "\n[{} more lines: squash recall {} {} --offset {next}]",
                recalled.total_lines - next,
                args.conversation,
                recalled.recall_ref.get()
            ));
        }
        s
    })
}
