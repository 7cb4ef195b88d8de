//! The CLI's words for what the services say would help ([`Remedy`]), and for their failures:
//! the one place a remedy becomes a flag to pass and an app error becomes the line `squash`
//! prints.

use squash_app::remedy::either;
use squash_app::{AppError, ErrorCode, ImportFormat, Remedy};

/// A remedy as a phrase naming the CLI's flags and commands.
pub fn words(remedy: &Remedy) -> String {
    match remedy {
        Remedy::ChooseProvider => "override with --provider".into(),
        Remedy::Probe { starts_agent: true } => {
            "a CLI call starts a whole agent; use --probe-cli".into()
        }
        Remedy::Probe {
            starts_agent: false,
        } => "use --probe to send a tiny request".into(),
        Remedy::RaiseBudget { to } => {
            format!("raise the budget (--budget {})", budget_arg(*to))
        }
        Remedy::KeepLess => "keep less (--keep-recent, --keep-last)".into(),
        Remedy::BestEffort => "apply that with --best-effort".into(),
        Remedy::UseExtract => "use --style extract (no model needed)".into(),
        Remedy::ConfigureModel => "configure a model: `squash doctor` says how".into(),
        Remedy::FixProvider { advice } => advice.trim_end_matches('.').into(),
        Remedy::NameFormat { known } => format!("--format takes {}", ImportFormat::list(known)),
        Remedy::SteerModel => {
            "try again, add --instructions to steer the model, or use another model".into()
        }
        Remedy::SelectFewer => "select fewer messages, or set SQUASH_CONTEXT_TOKENS if the \
                                model's window is larger than Squash assumes"
            .into(),
        Remedy::SelectMore => "select more messages; these few are as short as a note of them \
                               gets (`squash squash` joins them as they are)"
            .into(),
        Remedy::MakeRoom => {
            "squash older messages (`squash ai`) to make room, then try again".into()
        }
        Remedy::Reload => "run it again on the conversation as it is now".into(),
        Remedy::SwitchBack => "switch back to the thread it was applied to (`squash undo` or \
                               `squash thread switch`) first"
            .into(),
        Remedy::WriteOnly => "install it or pass --dry-run".into(),
        Remedy::ImportAgain => "delete it (`squash conversation delete`, which drops what was \
                                done to it) and resume the session file again"
            .into(),
        Remedy::FitCurrent => "leave out --whole-history to fit the thread the agent goes on \
                               from"
            .into(),
    }
}

/// A token count as `--budget` reads it back: `12k` when that is exact.
fn budget_arg(tokens: u64) -> String {
    if tokens >= 1_000 && tokens.is_multiple_of(1_000) {
        format!("{}k", tokens / 1_000)
    } else {
        tokens.to_string()
    }
}

/// An app error as the CLI prints it, on one line: what went wrong, the class of a model or
/// output failure, then what would help.
pub fn failure(e: impl AppError) -> anyhow::Error {
    anyhow::anyhow!(line(&e))
}

fn line(e: &dyn AppError) -> String {
    let said = match (e.code(), e.class()) {
        (ErrorCode::ModelError | ErrorCode::BadModelOutput, Some(class)) => {
            format!("{e} [{class}]")
        }
        _ => e.to_string(),
    };
    helped(said, &e.remedies())
}

/// `said`, then what would help, on the same line.
pub fn helped(said: String, remedies: &[Remedy]) -> String {
    let phrases: Vec<String> = remedies.iter().map(words).collect();
    match either(&phrases) {
        Some(help) => format!("{said}; {help}"),
        None => said,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use squash_app::fit::FitError;
    use squash_app::import::ImportError;

    #[test]
    fn an_out_of_reach_fit_names_the_flags() {
        let e = FitError::OutOfReach {
            budget: 40,
            best_reachable: 12_000,
            protected: 100,
            keep_recent: 10_000,
            keep_last: 0,
            folded: 0,
            strategy: squash_core::fit::FitStrategy::Extract,
        };
        let text = line(&e);
        assert!(text.starts_with("cannot fit into 40 tokens"), "{text}");
        assert!(
            text.ends_with(
                "; raise the budget (--budget 12k), keep less (--keep-recent, --keep-last), or \
                 apply that with --best-effort"
            ),
            "{text}"
        );
    }

    #[test]
    fn an_undetected_import_lists_the_formats() {
        let e = ImportError::Undetected {
            source_name: "x.json".into(),
            found: squash_app::import::Found::UnknownJson,
        };
        let text = line(&e);
        assert!(text.ends_with("; --format takes auto, claude-code, codex, gemini, opencode, openai, anthropic, gromozeka, chatgpt, claude-ai, squash"), "{text}");
        assert!(!text.contains('\n'));
    }
}
