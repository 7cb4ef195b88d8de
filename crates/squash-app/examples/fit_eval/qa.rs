//! Q&A conversations (QUALITY.md, "Answers survive an extract"): each chat export of
//! testdata/eval/qa_facts.json imported into a fresh store, each conversation fitted with the
//! defaults and no model to a budget nothing but the typed requests can meet (`--best-effort`:
//! every assistant turn goes as far down the levels as it can), read back, and scored by the
//! answers written by hand — exact strings, case-insensitive, in the text the thread shows.

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use squash_app::fit::{message_cost, FitService, FitStrategy};
use squash_app::import::{ImportOptions, NoProgress};
use squash_app::{ConversationService, SquashEngine};
use squash_core::fit::FitRequest;
use squash_store::sqlite::SqliteStore;

use super::specifics;

/// One conversation of testdata/eval/qa_facts.json: where it is and what it answered.
#[derive(Clone, Debug, Deserialize)]
pub struct Entry {
    pub name: String,
    /// The export, under testdata/sessions.
    pub file: String,
    /// The conversation's title in the export.
    pub title: String,
    /// Each answer, as the accepted spellings of its key string.
    pub answers: Vec<Vec<String>>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub case: String,
    pub messages: usize,
    pub tokens_before: u64,
    pub tokens_after: u64,
    pub answers: usize,
    pub kept: usize,
    pub missing: Vec<String>,
    pub error: Option<String>,
}

pub fn load(path: &Path) -> Result<Vec<Entry>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub async fn run(root: &Path, entry: &Entry, tmp: &Path, dump: Option<&Path>) -> Row {
    let mut row = Row {
        case: entry.name.clone(),
        answers: entry.answers.len(),
        ..Row::default()
    };
    if let Err(e) = fit(root, entry, tmp, dump, &mut row).await {
        row.error = Some(e);
    }
    row
}

async fn fit(
    root: &Path,
    entry: &Entry,
    tmp: &Path,
    dump: Option<&Path>,
    row: &mut Row,
) -> Result<(), String> {
    let dir = tempfile::tempdir_in(tmp).map_err(|e| e.to_string())?;
    let store = SqliteStore::open(dir.path().join("qa.db")).map_err(|e| e.to_string())?;
    let service = ConversationService::new(Arc::new(store));
    let file = root.join("testdata/sessions").join(&entry.file);
    let summary = service
        .import_file(&file, &ImportOptions::default(), Arc::new(NoProgress))
        .await
        .map_err(|e| e.to_string())?;
    let mut conv = None;
    for c in &summary.conversations {
        let named = service
            .conversation(c.conversation_id)
            .await
            .map_err(|e| e.to_string())?;
        if named.display_name == entry.title {
            conv = Some(c.conversation_id);
        }
    }
    let conv = conv.ok_or_else(|| format!("no conversation titled {:?}", entry.title))?;
    let before = service
        .current_thread(conv)
        .await
        .map_err(|e| e.to_string())?
        .messages;
    // An answer the conversation does not hold is a mistake in the case, not a score.
    let held = specifics::visible_text(&before).to_lowercase();
    if let Some(absent) = entry
        .answers
        .iter()
        .find(|a| !a.iter().any(|s| held.contains(&s.to_lowercase())))
    {
        return Err(format!(
            "the conversation does not hold {absent:?} (fix the case)"
        ));
    }
    row.messages = before.len();
    row.tokens_before = before.iter().map(message_cost).sum();
    let fitter = FitService::new(SquashEngine::offline(service.clone()));
    let planned = fitter
        .plan(conv, FitRequest::new(1, FitStrategy::default()))
        .await
        .map_err(|e| e.to_string())?;
    fitter
        .apply(planned, true, &|_| {})
        .await
        .map_err(|e| e.to_string())?;
    let after = service
        .current_thread(conv)
        .await
        .map_err(|e| e.to_string())?
        .messages;
    row.tokens_after = after.iter().map(message_cost).sum();
    let shown = specifics::visible_text(&after);
    if let Some(dir) = dump {
        let name: String = entry
            .name
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '-' })
            .collect();
        std::fs::write(dir.join(format!("qa-{name}.txt")), &shown).map_err(|e| e.to_string())?;
    }
    let text = shown.to_lowercase();
    for answer in &entry.answers {
        if answer.iter().any(|s| text.contains(&s.to_lowercase())) {
            row.kept += 1;
        } else {
            row.missing.push(answer.join(" | "));
        }
    }
    Ok(())
}

pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| conversation | messages | tokens before → after | answers kept | missing |\n|---|---|---|---|---|\n",
    );
    for r in rows {
        match &r.error {
            Some(e) => out.push_str(&format!("| {} | error: {e} | | | |\n", r.case)),
            None => out.push_str(&format!(
                "| {} | {} | {} → {} | {}/{} | {} |\n",
                r.case,
                r.messages,
                r.tokens_before,
                r.tokens_after,
                r.kept,
                r.answers,
                r.missing.join("; ")
            )),
        }
    }
    let (kept, total) = rows
        .iter()
        .fold((0, 0), |(k, t), r| (k + r.kept, t + r.answers));
    out.push_str(&format!("| **all** | | | **{kept}/{total}** | |\n"));
    out
}
