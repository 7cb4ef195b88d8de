//! `squash`: the command-line interface over the Squash services.

mod allocator;
mod cli;
mod commands;
mod input;
mod output;
mod remedy;

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::Parser;
use squash_app::ConversationService;
use squash_core::redact::redact_url;

use crate::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.worker_threads(2).enable_all();
    if matches!(cli.command, Command::Import(_)) {
        allocator::share_one_arena();
        builder.on_thread_start(allocator::share_one_arena);
    }
    let runtime = match builder.build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of our stdout went away (`squash … | head`): nothing more to say to
        // anyone. The status a shell reports for a process a broken pipe stopped (128 + SIGPIPE);
        // SIGPIPE itself stays ignored, as Rust sets it, so that a child or a socket that goes
        // away is an error to handle rather than the end of the process.
        Err(e) if output::stdout_closed(&e) => ExitCode::from(141),
        Err(e) => {
            // One line: the chain of causes, outermost first.
            let msg = e
                .chain()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(": ");
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// The database a run uses: `--db`/`SQUASH_DB`, else `DATABASE_URL`, else the default file.
fn database_location(cli: &Cli) -> anyhow::Result<String> {
    if let Some(db) = &cli.db {
        return Ok(db.clone());
    }
    if let Ok(url) = std::env::var("DATABASE_URL") {
        if !url.trim().is_empty() {
            return Ok(url);
        }
    }
    let dirs = directories::ProjectDirs::from("dev", "squash", "squash")
        .context("cannot find the user's data directory; pass --db PATH")?;
    Ok(dirs
        .data_dir()
        .join("squash.db")
        .to_string_lossy()
        .into_owned())
}

/// Where Squash keeps files of its own besides the database (an agent's recall settings).
fn state_dir() -> std::path::PathBuf {
    directories::ProjectDirs::from("dev", "squash", "squash")
        .map(|d| d.data_dir().to_path_buf())
        .unwrap_or_else(|| std::env::temp_dir().join("squash"))
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    // These need no database.
    match cli.command {
        Command::Doctor(args) => {
            return commands::doctor::run(&output::Output::new(cli.json), &args).await
        }
        Command::Model(cmd) => {
            return commands::model::run(&output::Output::new(cli.json), cmd).await
        }
        command => run_with_database(Cli { command, ..cli }).await,
    }
}

async fn run_with_database(cli: Cli) -> anyhow::Result<()> {
    let location = database_location(&cli)?;
    let store = squash_store::open(&location)
        .await
        .with_context(|| format!("cannot open the database {}", redact_url(&location)))?;
    let actor = std::env::var("USER").ok().filter(|u| !u.is_empty());
    let service = ConversationService::new(Arc::from(store)).with_actor(actor);
    let out = output::Output::new(cli.json);
    match cli.command {
        Command::Conversation(cmd) => commands::conversation::run(&service, &out, cmd).await,
        Command::Message(cmd) => commands::message::run(&service, &out, cmd).await,
        Command::Manual(args) => commands::squash::manual(&service, &out, args).await,
        Command::Undo(arg) => commands::thread::undo(&service, &out, &arg.conversation).await,
        Command::Redo(arg) => commands::thread::redo(&service, &out, &arg.conversation).await,
        Command::Thread(cmd) => commands::thread::run(&service, &out, cmd).await,
        Command::Provenance(args) => commands::provenance::run(&service, &out, args).await,
        Command::Ai(args) => commands::ai::ai(&service, &out, args).await,
        Command::Rerun(args) => commands::ai::rerun(&service, &out, args).await,
        Command::Fit(args) => commands::fit::run(&service, &out, args).await,
        Command::Resume(args) => commands::resume::run(&service, &out, args, &location).await,
        Command::Chat(args) => commands::chat::run(&service, &out, args).await,
        Command::Doctor(_) | Command::Model(_) => Ok(()),
        Command::Demo(args) => commands::demo::run(&service, &out, args).await,
        Command::Serve(args) => commands::serve::run(&service, args, &location).await,
        Command::Import(args) => commands::import::run(&service, &out, args).await,
        Command::Export(args) => commands::export::run(&service, &out, args).await,
        Command::Search(args) => commands::search::run(&service, &out, args).await,
        Command::Recall(args) => commands::recall::run(&service, &out, args).await,
        Command::Mcp(args) => commands::mcp::run(&service, args).await,
    }
}
