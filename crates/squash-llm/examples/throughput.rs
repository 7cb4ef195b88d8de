//! The local provider's prompt and generation speed, in the shape llama.cpp's `llama-bench`
//! reports it, so the two can be compared: a prompt of `--prompt-tokens` tokens (a real squash
//! prompt, cut to size, through the chat template) then `--gen-tokens` generated tokens past
//! the end of turn, with `--threads` threads; one warm-up run, then `--reps` measured runs.
//!
//! ```text
//! cargo run --release -p squash-llm --features local --example throughput -- \
//!     --model /path/model.gguf [--threads 2] [--prompt-tokens 512] [--gen-tokens 128] [--reps 3]
//! ```
//!
//! Compare with `llama-bench -m MODEL -t 2 -p 512 -n 0` (prompt) and
//! `llama-bench -m MODEL -t 2 -p 0 -n 128 -d 512` (generation after a 512-token prompt).

use std::path::PathBuf;

use squash_llm::{CancellationToken, ChatMessage, ChatRequest, LocalConfig, LocalModel};

struct Args {
    model: PathBuf,
    threads: u32,
    prompt_tokens: usize,
    gen_tokens: u32,
    reps: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut model = None;
    let mut args = Args {
        model: PathBuf::new(),
        threads: 2,
        prompt_tokens: 512,
        gen_tokens: 128,
        reps: 3,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let int = |v: &str| v.parse::<usize>().map_err(|e| format!("{v}: {e}"));
        match flag.as_str() {
            "--model" => model = Some(PathBuf::from(value)),
            "--threads" => args.threads = int(&value)? as u32,
            "--prompt-tokens" => args.prompt_tokens = int(&value)?,
            "--gen-tokens" => args.gen_tokens = int(&value)? as u32,
            "--reps" => args.reps = int(&value)?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    args.model = model.ok_or("--model PATH is required")?;
    Ok(args)
}

/// Text in the shape of a squash prompt: tool output, paths, prose.
fn filler() -> String {
    let mut text = String::from(
        "Compress the messages below into one short message. Keep decisions, results, file \
         paths, names, numbers and error messages.\n\n",
    );
    for i in 0..200 {
        text.push_str(&format!(
            "Message {i} (tool):\nsrc/components/Widget{i:02}.ts(14,9): error TS2345: Argument \
             of type 'string' is not assignable to parameter of type 'number'. The handler \
             route{i:02} in src/api/routes.ts forwards to /v1/r{i:02} after loadConfig() reads \
             APP_ENV.\n\n"
        ));
    }
    text
}

/// The request whose rendered prompt has `target` tokens (or the closest below it).
fn request_of(model: &LocalModel, target: usize, gen_tokens: u32) -> Result<ChatRequest, String> {
    let filler = filler();
    let words: Vec<&str> = filler.split_inclusive(' ').collect();
    let make = |n: usize| ChatRequest {
        system: None,
        temperature: Some(0.3),
        max_output_tokens: gen_tokens,
        ..ChatRequest::new(vec![ChatMessage::user(words[..n].concat())])
    };
    let count = |n: usize| {
        model
            .count_prompt_tokens(&make(n))
            .map_err(|e| e.to_string())
    };
    // Largest word count whose prompt fits in `target` tokens.
    let (mut lo, mut hi) = (1, words.len());
    if count(hi)? < target {
        return Err(format!("the filler text is shorter than {target} tokens"));
    }
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if count(mid)? <= target {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(make(lo))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    squash_testkit::process::exit_on_error("error", run().await);
}

async fn run() -> Result<(), String> {
    let args = parse_args()?;
    let mut config = LocalConfig {
        threads: args.threads,
        context_tokens: 4096,
        ..LocalConfig::default()
    };
    // Exactly `gen_tokens` tokens, like llama-bench, whatever the model would say.
    config.sampling.ignore_eos = true;
    let model = LocalModel::load(&args.model, config).map_err(|e| e.to_string())?;
    let request = request_of(&model, args.prompt_tokens, args.gen_tokens)?;
    let mut pp = Vec::new();
    let mut tg = Vec::new();
    for rep in 0..=args.reps {
        let (_, stats) = model
            .generate(&request, &CancellationToken::new(), &|_| {})
            .await
            .map_err(|e| e.to_string())?;
        eprintln!(
            "{} prompt {} tok in {:.2}s = {:.1} t/s, generation {} tok in {:.2}s = {:.2} t/s",
            if rep == 0 { "warm-up" } else { "run" },
            stats.prompt_tokens,
            stats.prompt_seconds,
            stats.prompt_tokens_per_second(),
            stats.output_tokens,
            stats.generation_seconds,
            stats.generation_tokens_per_second()
        );
        if rep > 0 {
            pp.push(stats.prompt_tokens_per_second());
            tg.push(stats.generation_tokens_per_second());
        }
    }
    let (pp_mean, pp_sd) = mean_sd(&pp);
    let (tg_mean, tg_sd) = mean_sd(&tg);
    let name = args
        .model
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    println!("| model | threads | test | t/s |");
    println!("|---|---|---|---|");
    println!(
        "| {name} | {} | pp{} | {pp_mean:.2} ± {pp_sd:.2} |",
        args.threads, args.prompt_tokens
    );
    println!(
        "| {name} | {} | tg{} @ d{} | {tg_mean:.2} ± {tg_sd:.2} |",
        args.threads, args.gen_tokens, args.prompt_tokens
    );
    Ok(())
}

fn mean_sd(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    (mean, var.sqrt())
}
