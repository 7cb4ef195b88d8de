//! The fit evaluation (QUALITY.md, "Fitting a session into a budget"): every case, fitted to
//! 25% of its tokens by each strategy with `--best-effort`, and summarized into one message as
//! an agent's built-in compaction would; scored from the thread read back. With
//! `--compaction`, the comparison with the agent's own compaction on real sessions that hold
//! one (no model involved; the held-out sets' missing facts are listed only with
//! `--show-held-out`); with `--qa`, the answers of chat exports after an extract.
//!
//! ```sh
//! cargo run -p squash-app --example fit_eval -- --compaction
//! cargo run -p squash-app --example fit_eval -- --qa
//! cargo run -p squash-app --example fit_eval -- --model loopback
//! cargo run -p squash-app --features local --example fit_eval -- \
//!     --model local:qwen2.5-coder-0.5b --only session
//! ```
//!
//! With `--compaction --hybrid`, each case is also fitted at the agent's summary's size by
//! the hybrid strategy with `--model` (its digests headed by the model's gist).
//!
//! `--model`: `loopback` (with `--window`, default 128,000 tokens) (the OpenAI-compatible server of the squash eval, whose model drops
//! facts and invents a path until asked to repair), `extract` (no model: the summary and the
//! AI steps become the fact ledger), `local:NAME` (the embedded model; `--features local`).

#[allow(dead_code)]
#[path = "../eval/loopback.rs"]
mod loopback;
#[allow(dead_code)]
#[path = "../eval/score.rs"]
mod score;

mod cases;
mod compaction;
mod compaction_cut;
mod generate;
mod names;
mod outputs;
mod qa;
mod recall;
mod run;
mod specifics;
mod table;

use std::path::PathBuf;
use std::sync::Arc;

use squash_app::providers::build_model;
use squash_llm::{ChatModel, OpenAiConfig, OpenAiModel, ProviderKind};

use run::{Method, Setup};

struct Args {
    model: String,
    window: u32,
    methods: Vec<Method>,
    keep_last: Vec<usize>,
    seeds: Vec<u64>,
    messages: usize,
    share: f64,
    facts: PathBuf,
    only: Option<String>,
    out: PathBuf,
    dump: Option<PathBuf>,
    compaction: bool,
    hybrid: bool,
    compaction_facts: PathBuf,
    show_held_out: bool,
    qa: bool,
    qa_facts: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        model: "loopback".into(),
        window: 128_000,
        methods: ["mask", "extract", "hybrid", "summary"]
            .iter()
            .filter_map(|m| Method::parse(m))
            .collect(),
        keep_last: vec![squash_app::fit::DEFAULT_KEEP_LAST],
        seeds: vec![1, 2, 3],
        messages: 2000,
        share: 0.25,
        facts: PathBuf::from("testdata/eval/fit_facts.json"),
        only: None,
        out: PathBuf::from("target/eval/fit_results.jsonl"),
        dump: None,
        compaction: false,
        hybrid: false,
        compaction_facts: PathBuf::from("testdata/eval/compaction_facts.json"),
        show_held_out: false,
        qa: false,
        qa_facts: PathBuf::from("testdata/eval/qa_facts.json"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--model" => args.model = value()?,
            "--window" => args.window = value()?.parse().map_err(|_| "--window TOKENS")?,
            "--methods" => args.methods = list(&value()?, Method::parse)?,
            "--keep-last" => args.keep_last = list(&value()?, |s| s.parse().ok())?,
            "--seeds" => args.seeds = list(&value()?, |s| s.parse().ok())?,
            "--messages" => args.messages = value()?.parse().map_err(|_| "--messages N")?,
            "--share" => args.share = value()?.parse().map_err(|_| "--share 0.25")?,
            "--facts" => args.facts = PathBuf::from(value()?),
            "--only" => args.only = Some(value()?),
            "--out" => args.out = PathBuf::from(value()?),
            "--dump" => args.dump = Some(PathBuf::from(value()?)),
            "--compaction" => args.compaction = true,
            "--hybrid" => args.hybrid = true,
            "--show-held-out" => args.show_held_out = true,
            "--compaction-facts" => args.compaction_facts = PathBuf::from(value()?),
            "--qa" => args.qa = true,
            "--qa-facts" => args.qa_facts = PathBuf::from(value()?),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(args)
}

fn list<T>(s: &str, parse: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    s.split(',')
        .map(|p| parse(p.trim()).ok_or_else(|| format!("cannot read {p:?}")))
        .collect()
}

#[tokio::main]
async fn main() {
    squash_testkit::process::exit_on_error("fit_eval", run_all().await);
}

async fn run_all() -> Result<(), String> {
    let args = parse_args()?;
    let root = std::env::current_dir().map_err(|e| e.to_string())?;
    if args.compaction {
        return run_compaction(&root, &args).await;
    }
    if args.qa {
        return run_qa(&root, &args).await;
    }
    let mut cases = cases::load(&args.facts, &args.seeds, args.messages)?;
    if let Some(only) = &args.only {
        cases.retain(|c| c.name.contains(only.as_str()) || c.origin() == only);
    }
    for dir in args.out.parent().into_iter().chain(args.dump.as_deref()) {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    let setup = Setup {
        root: &root,
        model: model_for(&args.model, args.window).await?,
        model_label: &args.model,
        share: args.share,
        dump: args.dump.as_deref(),
    };
    let mut rows = Vec::new();
    for &keep_last in &args.keep_last {
        for case in &cases {
            for &method in &args.methods {
                let row = run::run(&setup, case, method, keep_last).await;
                eprintln!("{}", table::progress_line(&row));
                rows.push(row);
            }
        }
    }
    write_json_lines(&args.out, &rows)?;
    println!("{}", table::cases(&rows));
    println!("{}", table::aggregate(&rows));
    Ok(())
}

/// Writes `rows` to `out`, one JSON line each.
fn write_json_lines<T: serde::Serialize>(out: &std::path::Path, rows: &[T]) -> Result<(), String> {
    let lines: Vec<String> = rows
        .iter()
        .map(|r| serde_json::to_string(r).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    std::fs::write(out, lines.join("\n") + "\n").map_err(|e| e.to_string())
}

/// The comparison with the agent's own compaction: every case, its rows, the table.
async fn run_compaction(root: &std::path::Path, args: &Args) -> Result<(), String> {
    let mut cases = compaction::load(root, &args.compaction_facts)?;
    if let Some(only) = &args.only {
        cases.retain(|c| c.entry.name.contains(only.as_str()));
    }
    for case in &mut cases {
        case.entry.list_misses = case.entry.held_out == 0 || args.show_held_out;
    }
    let out = if args.out.ends_with("fit_results.jsonl") {
        args.out.with_file_name("fit_compaction.jsonl")
    } else {
        args.out.clone()
    };
    let tmp = root.join("target/eval/tmp");
    for dir in out
        .parent()
        .into_iter()
        .chain([tmp.as_path()])
        .chain(args.dump.as_deref())
    {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    // With --hybrid, each case is also fitted at the summary's size by the hybrid strategy
    // with --model.
    let hybrid = if args.hybrid {
        model_for(&args.model, args.window)
            .await?
            .map(|model| compaction::Hybrid {
                model,
                label: args.model.clone(),
            })
    } else {
        None
    };
    let mut rows = Vec::new();
    for case in &cases {
        for row in compaction::run(case, &tmp, args.dump.as_deref(), hybrid.as_ref()).await {
            eprintln!(
                "{}",
                compaction::progress_line(&row, case.entry.list_misses)
            );
            rows.push(row);
        }
    }
    write_json_lines(&out, &rows)?;
    println!("{}", compaction::table(&rows));
    println!("{}", compaction::recall_table(&rows));
    Ok(())
}

/// The answers of chat exports after an extract: every conversation, the table.
async fn run_qa(root: &std::path::Path, args: &Args) -> Result<(), String> {
    let tmp = root.join("target/eval/tmp");
    for dir in [tmp.as_path()].into_iter().chain(args.dump.as_deref()) {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    let mut rows = Vec::new();
    for entry in qa::load(&args.qa_facts)? {
        let row = qa::run(root, &entry, &tmp, args.dump.as_deref()).await;
        eprintln!("{}: {}/{} answers kept", row.case, row.kept, row.answers);
        rows.push(row);
    }
    println!("{}", qa::table(&rows));
    if rows.iter().any(|r| r.error.is_some()) {
        return Err("a case could not be scored".into());
    }
    Ok(())
}

/// The model for AI steps and the summary; the loopback's context window is `window` (a hosted
/// model's: OpenAI-compatible servers off api.openai.com otherwise get 8,192).
async fn model_for(spec: &str, window: u32) -> Result<Option<Arc<dyn ChatModel>>, String> {
    let model: Arc<dyn ChatModel> = match spec {
        "extract" => return Ok(None),
        "loopback" => {
            let url = loopback::start(false).await.map_err(|e| e.to_string())?;
            let mut config = OpenAiConfig::new(url, "forgetful-1");
            config.context_window_tokens = window;
            Arc::new(OpenAiModel::new(config).map_err(|e| e.to_string())?)
        }
        other => {
            let name = other
                .strip_prefix("local:")
                .ok_or_else(|| format!("unknown model {other}"))?;
            build_model(ProviderKind::Local, Some(name))
                .await
                .map_err(|e| e.to_string())?
        }
    };
    Ok(Some(model))
}
