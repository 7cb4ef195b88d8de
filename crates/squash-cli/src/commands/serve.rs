//! `squash serve`: the HTTP API and the web UI, from this binary.

use std::net::SocketAddr;

use anyhow::Context;
use clap::Args;
use squash_app::providers::select_model;
use squash_app::{ChatOptions, ConversationService, SquashOptions};
use squash_llm::ProviderKind;
use squash_web::AppState;
use tracing_subscriber::filter::LevelFilter;

use crate::commands::ai::provider_reason;

/// The address served unless told otherwise: this machine only.
const DEFAULT_ADDR: &str = "127.0.0.1:7878";

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on. Anything but loopback needs a token.
    #[arg(long, default_value = DEFAULT_ADDR, value_name = "IP:PORT")]
    pub addr: SocketAddr,
    /// Port to listen on, keeping the address's IP.
    #[arg(long)]
    pub port: Option<u16>,
    /// Access token required on every request (Bearer header, or once as ?token= in the
    /// browser, which sets a cookie). Required to listen beyond loopback.
    #[arg(long, env = "SQUASH_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Open the web UI in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Model provider for AI squash and chat (anthropic, openai, claude-cli, local); detected from
    /// the environment when absent. Without one, everything but AI squash and chat works.
    #[arg(long, value_enum, ignore_case = true)]
    pub provider: Option<ProviderKind>,
    /// Model id instead of the provider's default.
    #[arg(long)]
    pub model: Option<String>,
}

pub async fn run(
    service: &ConversationService,
    args: ServeArgs,
    database: &str,
) -> anyhow::Result<()> {
    init_logging();
    let mut addr = args.addr;
    if let Some(port) = args.port {
        addr.set_port(port);
    }
    let token = args.token.filter(|t| !t.trim().is_empty());
    squash_web::check_bind(&addr, token.as_deref()).map_err(anyhow::Error::msg)?;

    let squash_options = SquashOptions::from_env()?;
    let chat_options = ChatOptions {
        default_context_window: squash_options.default_context_window,
        ..ChatOptions::default()
    };
    let mut state = AppState::new(service.clone())
        .with_token(token.clone())
        .with_squash_options(squash_options)
        .with_chat_options(chat_options)
        .with_recall_server(super::resume::recall_server(database)?);
    match select_model(args.provider, args.model.as_deref()).await {
        Ok((model, selection)) => {
            let info = model.info();
            eprintln!(
                "model: {} ({}), because {}",
                info.model,
                info.provider,
                provider_reason(&selection)
            );
            state = state.with_model(model);
        }
        // Asked for by name: failing to build it is an error, not a silent downgrade.
        Err(e) if args.provider.is_some() => return Err(e.into()),
        Err(e) => {
            let reason = format!("the selected model cannot be used: {e}");
            eprintln!("no model: AI squash and chat are off; everything else works ({reason})");
            state = state.without_model(reason);
        }
    }

    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener.local_addr()?;
    let url = match &token {
        Some(t) => format!("http://{local}/?token={t}"),
        None => format!("http://{local}/"),
    };
    crate::output::print_line(&format!("Squash is serving on {url}  (Ctrl+C stops it)"))?;
    if args.open {
        open_browser(&url);
    }
    squash_web::serve(listener, state, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
    .context("the server stopped with an error")
}

/// Server-side problems (storage failures, model errors) are logged to stderr, never sent to
/// clients; `SQUASH_LOG` (error, warn, info, debug, trace, off) sets how much.
fn init_logging() {
    let level = std::env::var("SQUASH_LOG")
        .ok()
        .and_then(|v| v.trim().parse::<LevelFilter>().ok())
        .unwrap_or(LevelFilter::WARN);
    // Already set (e.g. by a test harness): keep that one.
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Best effort: the URL is printed anyway.
fn open_browser(url: &str) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    if let Err(e) = command
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("cannot open a browser ({e}); open {url} yourself");
    }
}
