//! How a squash is asked for.

use squash_core::prompt::{PromptStyle, SquashStyle};
use squash_core::thread_ops::PartnerPolicy;
use squash_core::Role;
use squash_llm::{context_window_for, prompt_needs, ModelInfo, ProviderKind};

use super::SquashError;
use crate::error::ServiceError;

/// The sampling temperature of a squash call: low, for a faithful summary.
pub const SQUASH_TEMPERATURE: f32 = 0.3;
/// The most tokens a squash answer may have.
pub const SQUASH_MAX_OUTPUT_TOKENS: u32 = 4096;
/// The most tokens the small-model prompt's answer may have: it asks for a few sentences.
pub const BRIEF_MAX_OUTPUT_TOKENS: u32 = 160;
/// The environment variable holding the context window assumed for models the table does not
/// know.
pub const CONTEXT_WINDOW_ENV: &str = "SQUASH_CONTEXT_WINDOW";
/// The environment variable that sets the context window for every model and provider (a
/// self-hosted server often runs a model with a smaller window than the model's maximum).
pub const CONTEXT_TOKENS_ENV: &str = "SQUASH_CONTEXT_TOKENS";

#[derive(Clone, Debug, PartialEq)]
pub struct SquashOptions {
    /// What the result should look like.
    pub style: SquashStyle,
    /// The prompt to send; `None`: the one suited to the style and the model's provider (see
    /// [`prompt_style_for`]).
    pub prompt_style: Option<PromptStyle>,
    pub temperature: f32,
    pub max_output_tokens: u32,
    /// A model id to use instead of the provider's configured one (and, for a re-run, instead
    /// of the recorded one).
    pub model: Option<String>,
    /// The context window of models the per-model table does not know; the provider's own
    /// figure when unset.
    pub default_context_window: Option<u32>,
    /// The context window to check against whatever the model, overriding table and provider.
    pub context_window: Option<u32>,
    /// What to do when the selection holds one side of a tool call only.
    pub partner_policy: PartnerPolicy,
    /// The result message's role; `None`: from its sources (see [`result_role`]).
    pub role: Option<Role>,
    /// Repair requests after the first answer when it leaves facts out or invents terms;
    /// `None`: one for hosted models, none for the embedded one (its prompt already carries the
    /// facts, and a second pass costs it as much as the first).
    pub repair_rounds: Option<u32>,
}

impl Default for SquashOptions {
    fn default() -> Self {
        SquashOptions {
            style: SquashStyle::Prose,
            prompt_style: None,
            temperature: SQUASH_TEMPERATURE,
            max_output_tokens: SQUASH_MAX_OUTPUT_TOKENS,
            model: None,
            default_context_window: None,
            context_window: None,
            partner_policy: PartnerPolicy::Include,
            role: None,
            repair_rounds: None,
        }
    }
}

impl SquashOptions {
    /// The defaults, with the context windows read from `SQUASH_CONTEXT_WINDOW` (models the
    /// table does not know) and `SQUASH_CONTEXT_TOKENS`, else `context_tokens` in the
    /// configuration file (every model).
    pub fn from_env() -> Result<SquashOptions, SquashError> {
        let configured = crate::config::load_config()
            .map_err(|e| ServiceError::Invalid(e.to_string()))?
            .config
            .model
            .context_tokens;
        Ok(SquashOptions {
            default_context_window: window_from_env(CONTEXT_WINDOW_ENV)?,
            context_window: window_from_env(CONTEXT_TOKENS_ENV)?.or(configured),
            ..SquashOptions::default()
        })
    }

    /// The context window a prompt for `model_id` is checked against: an explicit
    /// [`context_window`](SquashOptions::context_window) wins; a model the table knows gets the
    /// table's window, capped by what the provider says it serves (a local server may run a
    /// model with a smaller window than it was trained for); any other model gets
    /// [`default_context_window`](SquashOptions::default_context_window), else the provider's
    /// figure.
    pub fn context_window_for(&self, model_id: &str, info: &ModelInfo) -> u32 {
        if let Some(window) = self.context_window {
            return window;
        }
        match context_window_for(model_id) {
            Some(known) => known.min(info.context_window_tokens),
            None => self
                .default_context_window
                .unwrap_or(info.context_window_tokens),
        }
    }

    /// The prompt for this style on `provider`'s models.
    pub fn prompt_style_on(&self, provider: ProviderKind) -> PromptStyle {
        self.prompt_style
            .unwrap_or_else(|| prompt_style_for(self.style, provider))
    }

    /// Repair requests allowed on `provider`: as its models need, unless set.
    pub fn repair_rounds_on(&self, provider: ProviderKind) -> u32 {
        self.repair_rounds
            .unwrap_or(prompt_needs(provider).repair_rounds)
    }
}

fn window_from_env(name: &str) -> Result<Option<u32>, SquashError> {
    match std::env::var(name) {
        Ok(v) if !v.trim().is_empty() => Ok(Some(parse_window(&v).ok_or_else(|| {
            ServiceError::Invalid(format!("{name} is not a positive number of tokens: {v}"))
        })?)),
        _ => Ok(None),
    }
}

pub(crate) fn parse_window(v: &str) -> Option<u32> {
    v.trim()
        .replace(['_', ','], "")
        .parse::<u32>()
        .ok()
        .filter(|w| *w > 0)
}

/// The prompt for a style on a provider's models: the brief prompt where the provider's models
/// need it (the small embedded ones; see [`squash_llm::PromptNeeds`]), else the spec's prompt
/// for the style.
pub fn prompt_style_for(style: SquashStyle, provider: ProviderKind) -> PromptStyle {
    if prompt_needs(provider).brief_prompt {
        return PromptStyle::Brief;
    }
    match style {
        SquashStyle::Structured => PromptStyle::Structured,
        SquashStyle::Prose | SquashStyle::Extract => PromptStyle::Spec,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(window: u32) -> ModelInfo {
        ModelInfo::new(ProviderKind::Fake, "m", window)
    }

    #[test]
    fn context_window_resolution() {
        let opts = SquashOptions::default();
        // Known model: the table's window, capped by the provider's.
        assert_eq!(opts.context_window_for("gpt-4o", &info(1_000_000)), 128_000);
        assert_eq!(opts.context_window_for("gpt-4o", &info(8_192)), 8_192);
        // Unknown model: the configured default, else the provider's figure.
        assert_eq!(opts.context_window_for("mystery", &info(5_000)), 5_000);
        let with_default = SquashOptions {
            default_context_window: Some(32_000),
            ..SquashOptions::default()
        };
        assert_eq!(
            with_default.context_window_for("mystery", &info(5_000)),
            32_000
        );
        let forced = SquashOptions {
            context_window: Some(1_000),
            ..SquashOptions::default()
        };
        assert_eq!(forced.context_window_for("claude-x", &info(200_000)), 1_000);
    }

    #[test]
    fn window_values_parse() {
        assert_eq!(parse_window(" 32_768 "), Some(32_768));
        assert_eq!(parse_window("128,000"), Some(128_000));
        assert_eq!(parse_window("0"), None);
        assert_eq!(parse_window("lots"), None);
    }

    #[test]
    fn the_small_model_gets_the_brief_prompt() {
        let o = SquashOptions::default();
        assert_eq!(o.prompt_style_on(ProviderKind::Local), PromptStyle::Brief);
        assert_eq!(
            o.prompt_style_on(ProviderKind::Anthropic),
            PromptStyle::Spec
        );
        let s = SquashOptions {
            style: SquashStyle::Structured,
            ..SquashOptions::default()
        };
        assert_eq!(
            s.prompt_style_on(ProviderKind::OpenAi),
            PromptStyle::Structured
        );
        assert_eq!(o.repair_rounds_on(ProviderKind::Local), 0);
        assert_eq!(o.repair_rounds_on(ProviderKind::ClaudeCli), 1);
    }
}
