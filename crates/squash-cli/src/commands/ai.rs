//! `squash ai` (an AI squash, or its preview) and `squash rerun` (an AI squash again).

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use clap::{Args, ValueEnum};
use squash_app::providers::{self, ProviderChoice, Reason};
use squash_app::{
    ConversationService, OperationOutcome, PartnerPolicy, Progress, SquashEngine, SquashOptions,
    SquashResult, SquashStage, StageListener,
};
use squash_core::prompt::SquashStyle;
use squash_core::Role;
use squash_llm::{CancellationToken, ChatModel, ProviderKind};

use crate::output::{ids, outcome_json, outcome_text, usage_text, Output};
use crate::remedy::failure;

#[derive(Args, Debug)]
pub struct AiArgs {
    /// Conversation id, unique id prefix, or exact name.
    pub conversation: String,
    /// Two or more messages, in any order; non-contiguous is fine.
    #[arg(required = true, num_args = 1..)]
    pub messages: Vec<String>,
    /// Your own instructions for the model ("keep the code", "only the decisions").
    #[arg(long, short)]
    pub instructions: Option<String>,
    /// Print the result and its quality report without applying it.
    #[arg(long)]
    pub preview: bool,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Refuse instead of bringing in a selected tool call's result (or a result's call).
    #[arg(long)]
    pub strict: bool,
    /// prose: one concise message; structured: sections (goal, what was done, files,
    /// commands and results, errors and fixes, decisions, open items); extract: the fact
    /// ledger itself, no model call (instant, exact, offline).
    #[arg(long, value_enum, default_value_t = StyleArg::Prose)]
    pub style: StyleArg,
    /// The result's role (default: assistant for a run of the agent's messages and tool
    /// results, user when the selection holds text the user typed).
    #[arg(long, value_enum)]
    pub role: Option<RoleArg>,
}

/// `--style`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StyleArg {
    Prose,
    Structured,
    Extract,
}

impl From<StyleArg> for SquashStyle {
    fn from(s: StyleArg) -> SquashStyle {
        match s {
            StyleArg::Prose => SquashStyle::Prose,
            StyleArg::Structured => SquashStyle::Structured,
            StyleArg::Extract => SquashStyle::Extract,
        }
    }
}

/// `--role`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RoleArg {
    User,
    Assistant,
}

impl From<RoleArg> for Role {
    fn from(r: RoleArg) -> Role {
        match r {
            RoleArg::User => Role::User,
            RoleArg::Assistant => Role::Assistant,
        }
    }
}

#[derive(Args, Debug)]
pub struct RerunArgs {
    /// The AI squash operation to repeat (id or unique id prefix).
    pub operation: String,
    #[command(flatten)]
    pub model: ModelArgs,
}

#[derive(Args, Debug, Clone)]
pub struct ModelArgs {
    /// anthropic, openai, claude-cli or local; default: auto-detected (the configuration file,
    /// then API keys, `claude` on PATH, a local server, else the embedded local model; `squash
    /// doctor` shows the choice and why).
    #[arg(long, value_name = "PROVIDER", value_enum, ignore_case = true)]
    pub provider: Option<ProviderKind>,
    /// A model id instead of the provider's configured one (for local: a catalog name from
    /// `squash model list` or a .gguf path).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,
    /// The context window to check the input against, in tokens (default: the model's, or
    /// SQUASH_CONTEXT_WINDOW for models Squash does not know).
    #[arg(long, value_name = "TOKENS")]
    pub context_window: Option<u32>,
}

impl ModelArgs {
    /// The model these arguments name, else the one the environment selects.
    pub async fn model(&self) -> anyhow::Result<Arc<dyn ChatModel>> {
        providers::model_from_env(self.provider, self.model.as_deref())
            .await
            .map_err(failure)
    }

    /// [`model`](Self::model) when one is `needed`; none otherwise (nothing is checked then).
    pub async fn model_if(&self, needed: bool) -> anyhow::Result<Option<Arc<dyn ChatModel>>> {
        Ok(if needed {
            Some(self.model().await?)
        } else {
            None
        })
    }
}

pub async fn ai(service: &ConversationService, out: &Output, args: AiArgs) -> anyhow::Result<()> {
    let conv = service.resolve_conversation(&args.conversation).await?;
    let selection = service.resolve_messages(conv, &args.messages).await?;
    let style = SquashStyle::from(args.style);
    // The extract needs no model: it works with none configured.
    let model = args.model.model_if(style.needs_model()).await?;
    let mut options = SquashOptions::from_env().map_err(failure)?;
    if let Some(window) = args.model.context_window {
        options.context_window = Some(window);
    }
    options.style = style;
    options.role = args.role.map(Role::from);
    options.partner_policy = PartnerPolicy::strict(args.strict);
    let engine = engine(service, model, options, out.is_json());
    let result = engine
        .squash_messages(conv, &selection, args.instructions.as_deref())
        .await;
    end_progress(out.is_json());
    let result = result.map_err(failure)?;
    if args.preview {
        return out.emit(&result_json(&result, None), || {
            format!(
                "{}\n\nnot applied (preview); run again without --preview to apply it",
                result_text(&result)
            )
        });
    }
    let outcome = engine.apply(&result).await.map_err(failure)?;
    out.emit(&result_json(&result, Some(&outcome)), || {
        format!(
            "{}\n\n{}",
            result_text(&result),
            outcome_text("AI-squashed", &outcome)
        )
    })
}

pub async fn rerun(
    service: &ConversationService,
    out: &Output,
    args: RerunArgs,
) -> anyhow::Result<()> {
    let id = service.resolve_operation(&args.operation).await?;
    let op = service.operation(id).await?;
    let model = rerun_model(op.kind.provider(), &args.model).await?;
    let mut options = SquashOptions::from_env().map_err(failure)?;
    if let Some(window) = args.model.context_window {
        options.context_window = Some(window);
    }
    options.model = args.model.model.clone();
    let engine = engine(service, Some(model), options, out.is_json());
    let done = engine.rerun(id).await;
    end_progress(out.is_json());
    let done = done.map_err(failure)?;
    out.emit(&result_json(&done.result, Some(&done.outcome)), || {
        format!(
            "{}\n\n{}\nthe earlier result stays on thread {}",
            result_text(&done.result),
            outcome_text(&format!("re-ran {id}: AI-squashed"), &done.outcome),
            op.result_thread_id
                .map(|t| t.to_string())
                .unwrap_or_else(|| "(unknown)".into())
        )
    })
}

/// The recorded provider when it can be used, else the one configured; `--provider` wins.
async fn rerun_model(
    recorded: Option<ProviderKind>,
    args: &ModelArgs,
) -> anyhow::Result<Arc<dyn ChatModel>> {
    if args.provider.is_none() {
        if let Some(kind) = recorded {
            if let Ok(model) = providers::build_model(kind, args.model.as_deref()).await {
                return Ok(model);
            }
        }
    }
    providers::model_from_env(args.provider, args.model.as_deref())
        .await
        .map_err(failure)
}

pub(crate) fn engine(
    service: &ConversationService,
    model: Option<Arc<dyn ChatModel>>,
    options: SquashOptions,
    json: bool,
) -> SquashEngine {
    let engine = match model {
        Some(model) => SquashEngine::new(service.clone(), model),
        None => SquashEngine::offline(service.clone()),
    };
    let mut engine = engine.with_options(options).with_cancel(cancel_on_ctrl_c());
    if let Some(progress) = progress(json) {
        engine = engine.with_progress(progress);
    }
    if !json {
        engine = engine.with_stages(stages());
    }
    engine
}

/// Says on stderr what a long squash is doing (parts of a large selection, a repair request,
/// the fallback to the extract).
fn stages() -> StageListener {
    Arc::new(|stage: SquashStage| {
        let line = match stage {
            SquashStage::Part { index, of } => {
                format!("the selection does not fit the model's context window: part {index} of {of}…")
            }
            SquashStage::Combining => "combining the parts…".to_owned(),
            SquashStage::Repairing => {
                "asking the model to correct its answer (facts left out, terms invented, or an unusable answer)…"
                    .to_owned()
            }
            SquashStage::FallingBack => {
                "no usable answer: using the extractive squash instead".to_owned()
            }
        };
        eprintln!("\n{line}");
    })
}

/// A token cancelled by Ctrl-C: the model call stops and nothing is stored. A second Ctrl-C
/// exits at once.
pub fn cancel_on_ctrl_c() -> CancellationToken {
    let cancel = CancellationToken::new();
    let on_signal = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_signal.cancel();
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        }
    });
    cancel
}

/// Streams the answer to stderr while it arrives, when a person is watching.
fn progress(json: bool) -> Option<Progress> {
    if json || !std::io::stderr().is_terminal() {
        return None;
    }
    eprintln!("asking the model…");
    Some(Arc::new(|delta: &str| {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(delta.as_bytes());
        let _ = err.flush();
    }))
}

pub(crate) fn end_progress(json: bool) {
    if !json && std::io::stderr().is_terminal() {
        eprintln!("\n");
    }
}

pub(crate) fn result_text(r: &SquashResult) -> String {
    let mut s = format!("{}\n\nquality: {}", r.text, r.report.render());
    if let Some(facts) = &r.report.facts {
        for (label, entries) in [("restored", &facts.restored), ("missing", &facts.missing)] {
            for f in entries {
                s.push_str(&format!(
                    "\n  {label} ({}, from {}): {}",
                    f.kind.as_str(),
                    f.source,
                    f.text
                ));
            }
        }
    }
    match (&r.model, r.provider) {
        (Some(model), Some(provider)) => s.push_str(&format!(
            "\nstyle: {} · model: {} ({}) · {} · {:.1} s",
            r.style,
            model,
            provider,
            usage_text(r.usage),
            r.duration.as_secs_f64()
        )),
        _ => s.push_str(&format!("\nstyle: {} · no model call", r.style)),
    }
    s.push_str(&format!("\nsources: {}", ids(&r.sources)));
    for p in &r.added_partners {
        s.push_str(&format!(
            "\nalso included {} (the tool {} of `{}`), so the call and its result stay together",
            p.message, p.side, p.tool_use_id
        ));
    }
    if r.truncated {
        s.push_str(
            "\nwarning: the answer hit the output limit and may be cut off; check it, or \
             select fewer messages",
        );
    }
    s
}

pub(crate) fn result_json(
    r: &SquashResult,
    outcome: Option<&OperationOutcome>,
) -> serde_json::Value {
    let mut v = serde_json::json!({
        "applied": outcome.is_some(),
        "result": r,
        "report": r.report,
        "added_partners": r.added_partners.iter().map(|p| serde_json::json!({
            "message": p.message, "partner_of": p.partner_of,
            "tool_use_id": p.tool_use_id, "side": p.side,
        })).collect::<Vec<_>>(),
    });
    if let Some(o) = outcome {
        let applied = outcome_json(o);
        v["operation"] = applied["operation"].clone();
        v["thread"] = applied["thread"].clone();
        v["message"] = applied["message"].clone();
        v["reapplied"] = applied["reapplied"].clone();
        // `result` and `outcome` as the API's apply answers them; the keys above stay for
        // scripts written before.
        v["outcome"] = applied;
    }
    v
}

/// Why the provider was chosen, in the CLI's words: a provider named on the command line was
/// named by `--provider`.
pub fn provider_reason(choice: &ProviderChoice) -> String {
    match choice.reason {
        Reason::Named => format!("--provider {}", choice.provider),
        _ => choice.why(),
    }
}
