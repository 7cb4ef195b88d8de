//! One case with one method: load it into a fresh SQLite store, fit it to a share of its size
//! (or summarize it into one message), then read the current thread back and score that.
//! Nothing of the product's report decides a score: the facts are matched in the text read
//! back, the tokens counted by the scorer's own rule. The product's sizes are reported beside.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;
use squash_app::fit::{message_cost, FitService, FitStrategy, StepAction};
use squash_app::{ConversationService, SquashEngine, SquashOptions};
use squash_core::fit::turns::is_request;
use squash_core::fit::FitRequest;
use squash_core::render::{item_text, message_text};
use squash_core::tokens::estimate_tokens;
use squash_core::{ContentItem, ConversationId, Message};
use squash_llm::ChatModel;
use squash_store::sqlite::SqliteStore;

use super::cases::{self, Case};
use super::loopback::INVENTED_PATH;
use super::score::tokens;

/// What is done to a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// `squash fit --strategy S --best-effort` to the budget.
    Fit(FitStrategy),
    /// What an agent's built-in compaction does: one squash of everything after the first
    /// request.
    Summary,
}

impl Method {
    pub fn parse(s: &str) -> Option<Method> {
        match s {
            "summary" => Some(Method::Summary),
            other => FitStrategy::parse(other).map(Method::Fit),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Method::Fit(s) => s.as_str(),
            Method::Summary => "summary",
        }
    }
}

/// The settings every case of a run shares.
pub struct Setup<'a> {
    pub root: &'a Path,
    pub model: Option<Arc<dyn ChatModel>>,
    pub model_label: &'a str,
    pub share: f64,
    /// Where to write each fitted thread's text, for reading by hand.
    pub dump: Option<&'a Path>,
}

/// One case × method outcome, as written to fit_results.jsonl.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub case: String,
    pub origin: &'static str,
    pub method: String,
    pub model: String,
    pub keep_last: usize,
    pub messages_before: usize,
    /// User turns (requests) of the session, as the planner counts them; fits only.
    pub turns: Option<usize>,
    pub messages_after: usize,
    /// The scorer's count (score.rs `tokens`), of the rendered thread before and after.
    pub tokens_before: u64,
    pub tokens_after: u64,
    /// The product's count (`message_cost` of every message read back), before and after.
    pub product_before: u64,
    pub product_after: u64,
    /// The share of the product's count before that is tool output.
    pub tool_share: f64,
    /// What the product reported (fit outcome's `tokens_after`); `None` for the summary.
    pub product_reported_after: Option<u64>,
    pub budget: u64,
    /// The product's count of the thread read back is within the budget.
    pub reached: bool,
    /// Tokens no fit step may touch, and the best the plan said it could reach.
    pub protected: Option<u64>,
    pub best_reachable: Option<u64>,
    pub steps: usize,
    /// Steps by action: trims, lines, extracts, AI squashes.
    pub masks: usize,
    pub lines: usize,
    pub extracts: usize,
    pub ai_squashes: usize,
    pub facts_total: usize,
    pub facts_kept: usize,
    pub missing: Vec<String>,
    /// The loopback model's invented path is in the thread read back.
    pub invented_applied: bool,
    pub seconds: f64,
    pub error: Option<String>,
}

pub async fn run(setup: &Setup<'_>, case: &Case, method: Method, keep_last: usize) -> Row {
    let mut row = Row {
        case: case.name.clone(),
        origin: case.origin(),
        method: method.label().to_owned(),
        model: setup.model_label.to_owned(),
        keep_last,
        facts_total: case.facts.len(),
        ..Row::default()
    };
    if let Err(e) = measure(setup, case, method, &mut row).await {
        row.error = Some(e);
    }
    row
}

async fn measure(
    setup: &Setup<'_>,
    case: &Case,
    method: Method,
    row: &mut Row,
) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let store = SqliteStore::open(dir.path().join("fit.db")).map_err(|e| e.to_string())?;
    let service = ConversationService::new(Arc::new(store));
    let conv = cases::store(setup.root, &service, case).await?;
    let before = read_back(&service, conv).await?;
    let before_text = render(&before);
    let absent = missing(&before_text, &case.facts);
    if !absent.is_empty() {
        return Err(format!(
            "facts the session does not hold (fix the case): {absent:?}"
        ));
    }
    row.messages_before = before.len();
    row.tokens_before = tokens(&before_text);
    row.product_before = before.iter().map(message_cost).sum();
    row.tool_share = tool_tokens(&before) as f64 / row.product_before.max(1) as f64;
    row.budget = ((row.product_before as f64 * setup.share) as u64).max(1);
    let engine = match &setup.model {
        Some(model) => SquashEngine::new(service.clone(), model.clone()),
        None => SquashEngine::offline(service.clone()),
    }
    .with_options(SquashOptions::default());
    let started = Instant::now();
    match method {
        Method::Fit(strategy) => fit(engine, conv, strategy, row).await?,
        Method::Summary => summarize(engine, conv, &before).await?,
    }
    row.seconds = started.elapsed().as_secs_f64();
    let after = read_back(&service, conv).await?;
    let after_text = render(&after);
    row.messages_after = after.len();
    row.tokens_after = tokens(&after_text);
    row.product_after = after.iter().map(message_cost).sum();
    row.reached = row.product_after <= row.budget;
    row.missing = missing(&after_text, &case.facts);
    row.facts_kept = case.facts.len() - row.missing.len();
    row.invented_applied =
        after_text.contains(INVENTED_PATH) && !before_text.contains(INVENTED_PATH);
    if let Some(dir) = setup.dump {
        let name = format!("{}-k{}-{}.txt", case.name, row.keep_last, row.method);
        std::fs::write(dir.join(name), &after_text).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Plans and applies with `--best-effort`: the best reachable when the budget is out of reach.
async fn fit(
    engine: SquashEngine,
    conv: ConversationId,
    strategy: FitStrategy,
    row: &mut Row,
) -> Result<(), String> {
    let request = FitRequest {
        budget: row.budget,
        keep_recent: None,
        keep_last: row.keep_last,
        strategy,
    };
    let fitter = FitService::new(engine);
    let planned = fitter
        .plan(conv, request)
        .await
        .map_err(|e| e.to_string())?;
    row.turns = Some(planned.plan.turns);
    row.protected = Some(planned.plan.protected_tokens);
    row.best_reachable = Some(planned.plan.best_reachable);
    let outcome = fitter
        .apply(planned, true, &|_| {})
        .await
        .map_err(|e| e.to_string())?;
    row.product_reported_after = Some(outcome.tokens_after);
    row.steps = outcome.steps.len();
    let count = |a: StepAction| outcome.steps.iter().filter(|d| d.step.action == a).count();
    row.masks = count(StepAction::Trim);
    row.lines = count(StepAction::Line);
    row.extracts = count(StepAction::Extract);
    row.ai_squashes = count(StepAction::Ai);
    Ok(())
}

/// One squash of every message after the first request, applied.
async fn summarize(
    engine: SquashEngine,
    conv: ConversationId,
    thread: &[Message],
) -> Result<(), String> {
    let first = thread
        .iter()
        .position(is_request)
        .ok_or("no request in the thread")?;
    let selection: Vec<_> = thread[first + 1..].iter().map(|m| m.id).collect();
    if selection.len() < 2 {
        return Err("fewer than two messages after the first request".into());
    }
    engine
        .squash_and_apply(conv, &selection, None)
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}

async fn read_back(
    service: &ConversationService,
    conv: ConversationId,
) -> Result<Vec<Message>, String> {
    Ok(service
        .current_thread(conv)
        .await
        .map_err(|e| e.to_string())?
        .messages)
}

fn tool_tokens(messages: &[Message]) -> u64 {
    messages
        .iter()
        .flat_map(|m| &m.content)
        .filter(|i| matches!(i, ContentItem::ToolResult { .. }))
        .map(|i| estimate_tokens(&item_text(i)))
        .sum()
}

fn render(messages: &[Message]) -> String {
    messages
        .iter()
        .map(message_text)
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The facts none of whose spellings `text` holds (case-insensitive), each as "a | b".
fn missing(text: &str, facts: &[Vec<String>]) -> Vec<String> {
    let lower = text.to_lowercase();
    facts
        .iter()
        .filter(|spellings| !spellings.iter().any(|s| lower.contains(&s.to_lowercase())))
        .map(|spellings| spellings.join(" | "))
        .collect()
}
