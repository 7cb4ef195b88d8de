//! Before anything is written: read the session in memory, plan its fit, and refuse a budget
//! it cannot meet. The same plan is made again on the stored thread after the import.

use std::collections::HashMap;

use chrono::Utc;
use serde_json::Value;
use squash_core::fit::{plan_fit, FitPlan, FitRequest};
use squash_core::{Message, MessageId};
use squash_formats::read;
use squash_llm::context_window_for;

use super::{Agent, ResumeError, SessionFile};
use crate::fit::FitError;

/// What the check found.
#[derive(Clone, Debug)]
pub struct Precheck {
    pub plan: FitPlan,
    /// The model the session last used, when it says.
    pub model: Option<String>,
    /// The context window the default budget is half of.
    pub window: u32,
}

/// Reads `session`, plans the fit of its current thread with `request` (whose budget, when
/// `None`, is half the model's window) and refuses a plan that cannot reach its budget unless
/// `best_effort`. Writes nothing.
pub fn precheck(
    session: &SessionFile,
    target: Agent,
    budget: Option<u64>,
    request: impl FnOnce(u64) -> FitRequest,
    best_effort: bool,
) -> Result<Precheck, ResumeError> {
    let path = &session.path;
    let unreadable = |reason: String| ResumeError::Unreadable {
        path: path.clone(),
        reason,
    };
    // The model the session used tells the window when the same agent goes on with it; another
    // agent brings its own model.
    let model = if session.session_id.is_none() && target == session.agent {
        let text = std::fs::read_to_string(path).map_err(|e| unreadable(e.to_string()))?;
        last_model(&text)
    } else {
        None
    };
    let window = model
        .as_deref()
        .and_then(context_window_for)
        .unwrap_or_else(|| target.default_window());
    let parsed = read::read_file(
        path,
        &path.display().to_string(),
        session.agent.format(),
        Utc::now(),
        &mut |_| {},
    )
    .map_err(|e| unreadable(e.to_string()))?;
    let key = session.source_key();
    let main = parsed
        .conversations
        .iter()
        .filter(|c| !c.sidechain)
        .filter(|c| key.as_ref().is_none_or(|k| *k == c.source_key))
        .max_by_key(|c| c.messages.len())
        .filter(|c| !c.messages.is_empty())
        .ok_or_else(|| unreadable("the session holds no messages".into()))?;
    let by_id: HashMap<MessageId, &Message> = main.messages.iter().map(|m| (m.id, m)).collect();
    let thread: Vec<&Message> = main
        .threads
        .iter()
        .find(|t| t.id == main.current_thread_id)
        .map(|t| {
            t.links
                .iter()
                .filter_map(|id| by_id.get(id).copied())
                .collect()
        })
        .unwrap_or_default();
    let request = request(budget.unwrap_or(u64::from(window) / 2));
    let plan = plan_fit(&thread, request);
    if !plan.fits() && !best_effort {
        return Err(FitError::out_of_reach(&plan).into());
    }
    Ok(Precheck {
        plan,
        model,
        window,
    })
}

/// The model named last: `message.model` on Claude Code's assistant lines, `payload.model` on
/// Codex's turn contexts, `model` on Gemini CLI's model turns.
fn last_model(text: &str) -> Option<String> {
    text.lines()
        .rev()
        .filter(|l| l.contains("\"model\""))
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| {
            v.pointer("/message/model")
                .or_else(|| v.pointer("/payload/model"))
                .or_else(|| v.get("model"))
                .and_then(Value::as_str)
                .filter(|m| !m.is_empty() && *m != "<synthetic>")
                .map(str::to_owned)
        })
}
