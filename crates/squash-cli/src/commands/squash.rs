use squash_app::{ConversationService, ManualSquashRequest, PartnerPolicy};

use crate::cli::ManualArgs;
use crate::output::{outcome_json, outcome_text, Output};

pub async fn manual(
    service: &ConversationService,
    out: &Output,
    args: ManualArgs,
) -> anyhow::Result<()> {
    let conv = service.resolve_conversation(&args.conversation).await?;
    let ids = service.resolve_messages(conv, &args.messages).await?;
    let outcome = service
        .squash_manual(
            conv,
            ManualSquashRequest {
                messages: ids,
                text: args.text,
                content: None,
                role: Some(args.role.into()),
                policy: PartnerPolicy::strict(args.strict),
            },
        )
        .await?;
    out.emit(&outcome_json(&outcome), || {
        outcome_text("squashed", &outcome)
    })
}
