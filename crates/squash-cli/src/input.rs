//! Message content from the command line: `--text`, or a JSON array of content items on stdin.

use std::io::Read;

use anyhow::{bail, Context};
use squash_core::{ContentItem, Role};

pub fn content(role: Role, text: Option<String>) -> anyhow::Result<Vec<ContentItem>> {
    if let Some(text) = text {
        return Ok(vec![ContentItem::text_for(role, text)]);
    }
    let mut raw = String::new();
    std::io::stdin()
        .read_to_string(&mut raw)
        .context("cannot read stdin")?;
    if raw.trim().is_empty() {
        bail!("no content: pass --text TEXT or a JSON array of content items on stdin");
    }
    serde_json::from_str::<Vec<ContentItem>>(&raw).context(
        "stdin is not a JSON array of content items (e.g. [{\"type\":\"user_message\",\"text\":\"hi\"}])",
    )
}
