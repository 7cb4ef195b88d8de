//! The squash quality evaluation (QUALITY.md): every case, every model, every style; scored
//! by `score.rs` from the applied text and the hand-written facts alone.
//!
//! ```sh
//! cargo run --release -p squash-app --features local --example eval -- \
//!     --models extract,loopback,local:qwen2.5-coder-0.5b --styles prose,structured
//! ```
//!
//! Models: `extract` (no model), `loopback` (a local OpenAI-compatible server whose model
//! drops facts and invents a path, and obeys repair requests), `stubborn` (the same, ignoring
//! repair requests), `local:NAME` (the embedded model: a catalog name or a .gguf path; needs
//! `--features local`), `openai`/`anthropic`/`claude-cli` (configured from the environment).

mod cases;
mod loopback;
mod score;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use squash_app::import::{ImportOptions, NoProgress};
use squash_app::providers::build_model;
use squash_app::{ConversationService, SquashEngine, SquashOptions};
use squash_core::prompt::SquashStyle;
use squash_core::render::message_text;
use squash_core::{ContentItem, ConversationId, MessageId};
use squash_llm::{ChatModel, ProviderKind};
use squash_llm::{OpenAiConfig, OpenAiModel};
use squash_store::sqlite::SqliteStore;

use cases::Case;
use score::{score, Score};

struct Args {
    models: Vec<String>,
    styles: Vec<SquashStyle>,
    cases: PathBuf,
    only: Option<String>,
    out: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        models: vec!["extract".into(), "loopback".into()],
        styles: vec![SquashStyle::Prose, SquashStyle::Structured],
        cases: PathBuf::from("testdata/eval/cases.json"),
        only: None,
        out: PathBuf::from("target/eval/results.jsonl"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--models" => args.models = value()?.split(',').map(str::to_owned).collect(),
            "--styles" => {
                args.styles = value()?
                    .split(',')
                    .map(|s| SquashStyle::parse(s).ok_or_else(|| format!("unknown style {s}")))
                    .collect::<Result<_, _>>()?
            }
            "--cases" => args.cases = PathBuf::from(value()?),
            "--only" => args.only = Some(value()?),
            "--out" => args.out = PathBuf::from(value()?),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(args)
}

#[tokio::main]
async fn main() {
    squash_testkit::process::exit_on_error("eval", run().await);
}

/// One (model, style, case) outcome.
struct Row {
    model: String,
    style: SquashStyle,
    case: String,
    origin: String,
    tool_heavy: bool,
    score: Option<Score>,
    /// The applied text, for reading by hand.
    text: Option<String>,
    error: Option<String>,
    fallback: bool,
    repairs: u32,
    seconds: f64,
    /// The prompts' tokens as the squash estimated them (0 without a model): what the model
    /// had to read, the larger part of its time.
    prompt_tokens: u64,
}

async fn run() -> Result<(), String> {
    let args = parse_args()?;
    let root = std::env::current_dir().map_err(|e| e.to_string())?;
    let mut cases = cases::load(&args.cases)?;
    if let Some(only) = &args.only {
        cases.retain(|c| c.name.contains(only.as_str()));
    }
    if let Some(dir) = args.out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    let mut rows = Vec::new();
    for spec in &args.models {
        let model = model_for(spec).await?;
        let styles: Vec<SquashStyle> = if model.is_none() {
            vec![SquashStyle::Extract]
        } else {
            args.styles.clone()
        };
        for style in styles {
            for case in &cases {
                let row = run_case(&root, spec, model.clone(), style, case).await;
                eprintln!(
                    "{spec:>28} {style:<10} {:<26} {}",
                    case.name,
                    match (&row.score, &row.error) {
                        (Some(s), _) => format!(
                            "facts {}/{} invented {:?} forbidden {:?} meta {:?} tokens {}→{} {:.1}s{}{}",
                            s.facts_kept,
                            s.facts_total,
                            s.invented,
                            s.forbidden,
                            s.meta,
                            s.input_tokens,
                            s.output_tokens,
                            row.seconds,
                            if row.fallback { " FALLBACK" } else { "" },
                            if s.missing.is_empty() {
                                String::new()
                            } else {
                                format!(" missing {:?}", s.missing)
                            }
                        ),
                        (None, Some(e)) => format!("ERROR {e}"),
                        _ => String::new(),
                    }
                );
                rows.push(row);
            }
        }
    }
    write_rows(&args.out, &rows)?;
    println!("{}", table(&rows));
    println!("{}", table_by_origin(&rows));
    Ok(())
}

async fn model_for(spec: &str) -> Result<Option<Arc<dyn ChatModel>>, String> {
    let model: Arc<dyn ChatModel> = match spec {
        "extract" => return Ok(None),
        "loopback" | "stubborn" => {
            let url = loopback::start(spec == "stubborn")
                .await
                .map_err(|e| e.to_string())?;
            Arc::new(
                OpenAiModel::new(OpenAiConfig::new(url, "forgetful-1"))
                    .map_err(|e| e.to_string())?,
            )
        }
        other => {
            let (kind, name) = match other.split_once(':') {
                Some(("local", name)) => (ProviderKind::Local, Some(name)),
                _ => (
                    ProviderKind::parse(other).ok_or_else(|| format!("unknown model {other}"))?,
                    None,
                ),
            };
            build_model(kind, name).await.map_err(|e| e.to_string())?
        }
    };
    Ok(Some(model))
}

async fn run_case(
    root: &Path,
    spec: &str,
    model: Option<Arc<dyn ChatModel>>,
    style: SquashStyle,
    case: &Case,
) -> Row {
    let mut row = Row {
        model: spec.to_owned(),
        style,
        case: case.name.clone(),
        origin: case.origin.clone(),
        tool_heavy: false,
        score: None,
        text: None,
        error: None,
        fallback: false,
        repairs: 0,
        seconds: 0.0,
        prompt_tokens: 0,
    };
    match squash_case(root, model, style, case, &mut row).await {
        Ok(()) => {}
        Err(e) => row.error = Some(e),
    }
    row
}

async fn squash_case(
    root: &Path,
    model: Option<Arc<dyn ChatModel>>,
    style: SquashStyle,
    case: &Case,
    row: &mut Row,
) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let store = SqliteStore::open(dir.path().join("eval.db")).map_err(|e| e.to_string())?;
    let service = ConversationService::new(Arc::new(store));
    let (conv, selection) = load_case(root, &service, case).await?;
    let messages = service
        .messages(&selection)
        .await
        .map_err(|e| e.to_string())?;
    let input: String = messages
        .iter()
        .map(message_text)
        .collect::<Vec<_>>()
        .join("\n\n");
    let tool_chars: usize = messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter(|i| matches!(i, ContentItem::ToolResult { .. }))
        .map(|i| squash_core::render::item_text(i).len())
        .sum();
    row.tool_heavy = tool_chars * 2 >= input.len();
    let engine = match model {
        Some(m) => SquashEngine::new(service.clone(), m),
        None => SquashEngine::offline(service.clone()),
    }
    .with_options(SquashOptions {
        style,
        ..SquashOptions::default()
    });
    let started = Instant::now();
    let done = engine
        .squash_and_apply(conv, &selection, None)
        .await
        .map_err(|e| e.to_string())?;
    row.seconds = if done.result.model.is_some() {
        done.result.duration.as_secs_f64()
    } else {
        started.elapsed().as_secs_f64()
    };
    row.fallback = done.result.report.fallback.is_some();
    row.repairs = done.result.report.repairs;
    row.prompt_tokens = done.result.estimated_prompt_tokens;
    // Scored on what was stored, read back.
    let stored = service
        .message(
            done.outcome
                .message
                .map(|m| m.id)
                .ok_or("no result message")?,
        )
        .await
        .map_err(|e| e.to_string())?;
    let applied = message_text(&stored);
    row.score = Some(score(&input, &applied, &case.facts, &case.forbidden));
    row.text = Some(applied);
    Ok(())
}

async fn load_case(
    root: &Path,
    service: &ConversationService,
    case: &Case,
) -> Result<(ConversationId, Vec<MessageId>), String> {
    let (conv, ids) = match &case.session {
        Some(name) if name.ends_with("session.json") => {
            let text = std::fs::read_to_string(cases::session_path(root, name))
                .map_err(|e| e.to_string())?;
            let demo: DemoSession = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            append_all(service, &case.name, demo.messages).await?
        }
        Some(name) => {
            let summary = service
                .import_file(
                    &cases::session_path(root, name),
                    &ImportOptions::default(),
                    Arc::new(NoProgress),
                )
                .await
                .map_err(|e| e.to_string())?;
            let conv = summary
                .conversations
                .first()
                .ok_or("the session imported no conversation")?
                .conversation_id;
            let links = service
                .current_links(conv)
                .await
                .map_err(|e| e.to_string())?
                .links;
            (conv, links)
        }
        None => append_all(service, &case.name, case.messages.clone()).await?,
    };
    let selection = match (&case.select, case.session.is_some()) {
        (None, _) => ids,
        (Some(range), true) => {
            let (from, to) = (range[0], range[1]);
            ids.get(from - 1..to)
                .ok_or_else(|| format!("{}: positions {from}..{to} out of range", case.name))?
                .to_vec()
        }
        (Some(positions), false) => positions
            .iter()
            .map(|p| ids.get(p - 1).copied().ok_or(format!("no message @{p}")))
            .collect::<Result<_, _>>()?,
    };
    Ok((conv, selection))
}

#[derive(serde::Deserialize)]
struct DemoSession {
    messages: Vec<cases::CaseMessage>,
}

async fn append_all(
    service: &ConversationService,
    name: &str,
    messages: Vec<cases::CaseMessage>,
) -> Result<(ConversationId, Vec<MessageId>), String> {
    let conv = service
        .create_conversation("/tmp/eval", name)
        .await
        .map_err(|e| e.to_string())?
        .id;
    let mut ids = Vec::new();
    for m in messages {
        let (message, _) = service
            .append(conv, m.role, m.content)
            .await
            .map_err(|e| e.to_string())?;
        ids.push(message.id);
    }
    Ok((conv, ids))
}

fn write_rows(path: &Path, rows: &[Row]) -> Result<(), String> {
    let lines: Vec<String> = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "model": r.model, "style": r.style, "case": r.case, "origin": r.origin,
                "tool_heavy": r.tool_heavy,
                "error": r.error, "fallback": r.fallback, "repairs": r.repairs, "seconds": r.seconds,
                "prompt_tokens": r.prompt_tokens,
                "facts_kept": r.score.as_ref().map(|s| s.facts_kept),
                "facts_total": r.score.as_ref().map(|s| s.facts_total),
                "missing": r.score.as_ref().map(|s| s.missing.clone()),
                "invented": r.score.as_ref().map(|s| s.invented.clone()),
                "forbidden": r.score.as_ref().map(|s| s.forbidden.clone()),
                "meta": r.score.as_ref().map(|s| s.meta.clone()),
                "text": r.text,
                "input_tokens": r.score.as_ref().map(|s| s.input_tokens),
                "output_tokens": r.score.as_ref().map(|s| s.output_tokens),
            })
            .to_string()
        })
        .collect();
    std::fs::write(path, lines.join("\n") + "\n").map_err(|e| e.to_string())
}

/// The QUALITY.md table: one row per model and style.
fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| model | style | cases | key facts kept | invented terms applied | forbidden phrases | \
         meta phrases | nothing applied | fallbacks | repairs | longer than the selection | \
         size, ≥ 200 tokens (median / worst) | compression (tool-heavy) | compression (all) | \
         seconds / case |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (model, style) in groups(rows) {
        let group: Vec<&Row> = rows
            .iter()
            .filter(|r| r.model == model && r.style == style)
            .collect();
        out.push_str(&format!("| {model} | {style} | {} |\n", summary(&group)));
    }
    out
}

/// The same figures per origin of the cases (hand-written agent runs, session cuts, generated
/// runs, chats, held-out chats), one row per model, style and origin.
fn table_by_origin(rows: &[Row]) -> String {
    let mut out = String::from(
        "| model | style | origin | cases | key facts kept | invented terms applied | \
         forbidden phrases | meta phrases | nothing applied | fallbacks | repairs | longer than \
         the selection | size, ≥ 200 tokens (median / worst) | compression (tool-heavy) | \
         compression (all) | seconds / case |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (model, style) in groups(rows) {
        let mut origins: Vec<&str> = Vec::new();
        for r in rows {
            if !origins.contains(&r.origin.as_str()) {
                origins.push(&r.origin);
            }
        }
        for origin in origins {
            let group: Vec<&Row> = rows
                .iter()
                .filter(|r| r.model == model && r.style == style && r.origin == origin)
                .collect();
            if !group.is_empty() {
                out.push_str(&format!(
                    "| {model} | {style} | {origin} | {} |\n",
                    summary(&group)
                ));
            }
        }
    }
    out
}

fn groups(rows: &[Row]) -> Vec<(String, SquashStyle)> {
    let mut keys: Vec<(String, SquashStyle)> = Vec::new();
    for r in rows {
        if !keys.contains(&(r.model.clone(), r.style)) {
            keys.push((r.model.clone(), r.style));
        }
    }
    keys
}

/// The cells after the group's names.
fn summary(group: &[&Row]) -> String {
    let scored: Vec<&Score> = group.iter().filter_map(|r| r.score.as_ref()).collect();
    let kept: usize = scored.iter().map(|s| s.facts_kept).sum();
    let total: usize = scored.iter().map(|s| s.facts_total).sum();
    let ratio = |rs: &[&Row]| {
        let (i, o) = rs
            .iter()
            .filter_map(|r| r.score.as_ref())
            .fold((0u64, 0u64), |(i, o), s| {
                (i + s.input_tokens, o + s.output_tokens)
            });
        if i == 0 {
            "–".to_owned()
        } else {
            format!("{:.0}%", o as f64 * 100.0 / i as f64)
        }
    };
    let heavy: Vec<&Row> = group.iter().copied().filter(|r| r.tool_heavy).collect();
    let seconds: f64 = group.iter().map(|r| r.seconds).sum::<f64>() / group.len().max(1) as f64;
    let longer = scored
        .iter()
        .filter(|s| s.output_tokens >= s.input_tokens)
        .count();
    let mut large: Vec<f64> = scored
        .iter()
        .filter(|s| s.input_tokens >= 200)
        .map(|s| s.output_tokens as f64 * 100.0 / s.input_tokens as f64)
        .collect();
    large.sort_by(f64::total_cmp);
    let size = match (large.get(large.len() / 2), large.last()) {
        (Some(median), Some(worst)) => format!("{median:.0}% / {worst:.0}%"),
        _ => "–".to_owned(),
    };
    format!(
        "{} | {kept}/{total} ({:.1}%) | {} | {} | {} | {} | {} | {} | {longer} | {size} | {} | {} | {seconds:.2}",
        group.len(),
        if total == 0 { 0.0 } else { kept as f64 * 100.0 / total as f64 },
        scored.iter().map(|s| s.invented.len()).sum::<usize>(),
        scored.iter().map(|s| s.forbidden.len()).sum::<usize>(),
        scored.iter().map(|s| s.meta.len()).sum::<usize>(),
        group.iter().filter(|r| r.error.is_some()).count(),
        group.iter().filter(|r| r.fallback).count(),
        group.iter().map(|r| r.repairs).sum::<u32>(),
        ratio(&heavy),
        ratio(group),
    )
}
