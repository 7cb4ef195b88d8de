//! The cases: the published sessions of testdata/sessions with key facts written by hand
//! (testdata/eval/fit_facts.json), and generated sessions whose facts the generator planted.
//! Each case is loaded into a fresh store the way a user would have it: sessions through
//! Squash's importer, generated ones appended message by message.

use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;
use squash_app::import::{ImportOptions, NoProgress};
use squash_app::ConversationService;
use squash_core::ConversationId;

use super::generate;

/// One entry of fit_facts.json (its `about`, what the session is, is for the reader).
#[derive(Clone, Debug, Deserialize)]
pub struct SessionFacts {
    pub name: String,
    /// A file of testdata/sessions.
    pub session: String,
    pub facts: Vec<Vec<String>>,
}

#[derive(Clone, Debug)]
pub enum Source {
    Session(String),
    Generated { seed: u64, messages: usize },
}

#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub source: Source,
    /// Each fact: its accepted spellings (case-insensitive substrings).
    pub facts: Vec<Vec<String>>,
}

impl Case {
    pub fn origin(&self) -> &'static str {
        match self.source {
            Source::Session(_) => "session",
            Source::Generated { .. } => "generated",
        }
    }
}

pub fn load(facts: &Path, seeds: &[u64], messages: usize) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(facts).map_err(|e| format!("{}: {e}", facts.display()))?;
    let sessions: Vec<SessionFacts> =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", facts.display()))?;
    let mut cases: Vec<Case> = sessions
        .into_iter()
        .map(|s| Case {
            name: s.name,
            source: Source::Session(s.session),
            facts: s.facts,
        })
        .collect();
    for &seed in seeds {
        let facts = generate::session(seed, messages).facts;
        cases.push(Case {
            name: format!("generated-{messages}-seed{seed}"),
            source: Source::Generated { seed, messages },
            facts,
        });
    }
    Ok(cases)
}

/// Loads `case` into `service` and returns its conversation (for a session file that holds
/// sub-agent runs too, the main conversation).
pub async fn store(
    root: &Path,
    service: &ConversationService,
    case: &Case,
) -> Result<ConversationId, String> {
    match &case.source {
        Source::Session(file) => {
            let path = root.join("testdata/sessions").join(file);
            let summary = service
                .import_file(&path, &ImportOptions::default(), Arc::new(NoProgress))
                .await
                .map_err(|e| format!("{}: {e}", path.display()))?;
            summary
                .conversations
                .iter()
                .find(|c| !c.sidechain)
                .map(|c| c.conversation_id)
                .ok_or_else(|| format!("{file}: no main conversation imported"))
        }
        Source::Generated { seed, messages } => {
            let generated = generate::session(*seed, *messages);
            let conv = service
                .create_conversation("/work/acme", &case.name)
                .await
                .map_err(|e| e.to_string())?
                .id;
            for (role, content) in generated.messages {
                service
                    .append(conv, role, content)
                    .await
                    .map_err(|e| e.to_string())?;
            }
            Ok(conv)
        }
    }
}
