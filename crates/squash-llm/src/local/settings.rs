//! What the embedded local model reads: which GGUF file (`SQUASH_LOCAL_MODEL`, else
//! `local_model` in the configuration file, else the first installed catalog model; see
//! [`crate::models::resolve`]), and how to run it (`threads` and `context_tokens` in the
//! file, the measured sampling defaults).

use std::path::PathBuf;
use std::time::Duration;

use squash_core::ProviderKind;

use crate::models::{self, ModelError, LOCAL_MODEL_ENV};
use crate::settings::{
    ConfiguredBy, EnvVar, FileSettings, PromptNeeds, ProviderSettings, Setting, SettingsReport,
    SetupError,
};

const MODEL_FILE: EnvVar = EnvVar::plain(LOCAL_MODEL_ENV);

/// The sampling temperature when neither the request nor the configuration sets one (the
/// spec's squash temperature).
pub const LOCAL_DEFAULT_TEMPERATURE: f32 = 0.3;
/// Tokens of prompt plus answer a local model holds unless configured otherwise. Bounded well
/// below what the models were trained on (32k for Qwen2.5): on two CPU cores a prompt is read at
/// roughly 150 tokens/s, so 8k tokens already take about a minute.
pub const LOCAL_DEFAULT_CONTEXT_TOKENS: u32 = 8_192;
/// Generous: a 4,096-token answer at ~20 tokens/s takes over three minutes, plus the prompt.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(900);

/// How tokens are picked. The defaults are the measured best for squashing with the small
/// models in the catalog (see the "Local model measurement" section of BENCHMARKS.md).
#[derive(Clone, Debug, PartialEq)]
pub struct LocalSampling {
    /// Used when the request sets no temperature; 0 means greedy decoding.
    pub temperature: f32,
    /// Keep only the `top_k` most likely tokens (0 = off).
    pub top_k: u32,
    /// Nucleus sampling (1.0 = off).
    pub top_p: f32,
    /// Drop tokens less likely than `min_p` times the most likely one (0 = off).
    pub min_p: f32,
    /// Penalty for repeating one of the last `repeat_last_n` generated tokens (1.0 = off). Only
    /// the answer's own tokens count, never the prompt's: a squash must be free to copy paths
    /// and identifiers from the messages, and small models loop on their own output.
    pub repeat_penalty: f32,
    pub repeat_last_n: u32,
    /// The sampler's seed, so that the same prompt gives the same answer.
    pub seed: u32,
    /// Keep generating past the end-of-turn token until `max_output_tokens` (benchmarks only).
    pub ignore_eos: bool,
}

impl Default for LocalSampling {
    fn default() -> LocalSampling {
        LocalSampling {
            temperature: LOCAL_DEFAULT_TEMPERATURE,
            top_k: 40,
            top_p: 0.95,
            min_p: 0.05,
            repeat_penalty: 1.1,
            repeat_last_n: 64,
            seed: 42,
            ignore_eos: false,
        }
    }
}

/// How to run a local model.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalConfig {
    /// CPU threads for prompt processing and generation; the number of available cores by
    /// default (more threads than cores slows llama.cpp down).
    pub threads: u32,
    /// The largest context (prompt plus answer) in tokens; capped at what the model was
    /// trained on.
    pub context_tokens: u32,
    /// Prompt tokens evaluated per step. Cancellation is checked between steps, so this also
    /// bounds how long a cancel takes (512 tokens ≈ 3.5 s for a 0.5B model on two cores).
    pub batch_tokens: u32,
    pub sampling: LocalSampling,
    /// For one request, from entering the queue to the last token.
    pub timeout: Duration,
}

impl Default for LocalConfig {
    fn default() -> LocalConfig {
        LocalConfig {
            threads: default_threads(),
            context_tokens: LOCAL_DEFAULT_CONTEXT_TOKENS,
            batch_tokens: 512,
            sampling: LocalSampling::default(),
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

fn default_threads() -> u32 {
    std::thread::available_parallelism()
        .map(|n| u32::try_from(n.get()).unwrap_or(4))
        .unwrap_or(4)
}

/// Which model file runs, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalSettings {
    pub path: PathBuf,
    pub config: LocalConfig,
}

impl LocalConfig {
    /// The defaults, with the threads and the context the configuration file sets.
    pub fn from_file(file: &FileSettings) -> LocalConfig {
        let mut config = LocalConfig::default();
        if let Some(threads) = file.threads.filter(|t| *t > 0) {
            config.threads = threads;
        }
        if let Some(tokens) = file.context_tokens.filter(|t| *t > 0) {
            config.context_tokens = tokens;
        }
        config
    }
}

/// The GGUF file to run: `model` (a catalog name or a path) if given, else
/// `SQUASH_LOCAL_MODEL`, else `local_model` from the configuration, else the first installed
/// catalog model.
pub fn resolve_path(model: Option<&str>, file: &FileSettings) -> Result<PathBuf, ModelError> {
    let data_dir = models::default_data_dir().ok_or(ModelError::NoModel)?;
    match model {
        Some(m) => models::resolve_named(&data_dir, m),
        None => models::resolve(&data_dir, file.local_model.as_deref()),
    }
}

impl ProviderSettings for LocalSettings {
    const KIND: ProviderKind = ProviderKind::Local;
    /// Its prompt already carries the facts, and a second pass costs it as much as the first.
    const PROMPT_NEEDS: PromptNeeds = PromptNeeds {
        brief_prompt: true,
        repair_rounds: 0,
    };

    fn configured(file: &FileSettings) -> Option<ConfiguredBy> {
        resolve_path(None, file).ok().map(ConfiguredBy::ModelFile)
    }

    /// Not configured, the endpoint says why: which file is missing, how to install one.
    fn report(file: &FileSettings) -> SettingsReport {
        let settings = vec![
            MODEL_FILE.state(),
            Setting::found(
                "local_model (config)",
                file.local_model.clone(),
                "not set (the first installed model)",
            ),
        ];
        match resolve_path(None, file) {
            Ok(path) => SettingsReport::new(
                settings,
                Some(ConfiguredBy::ModelFile(path.clone())),
                path.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                path.display().to_string(),
            ),
            Err(e) => SettingsReport {
                endpoint: Some(e.to_string()),
                ..SettingsReport::new(settings, None, String::new(), String::new())
            },
        }
    }

    /// A build without the embedded model says so before looking for a file.
    fn from_env(file: &FileSettings, model: Option<&str>) -> Result<Self, SetupError> {
        if cfg!(not(feature = "local")) {
            return Err(SetupError::NoLocalSupport);
        }
        Ok(LocalSettings {
            path: resolve_path(model, file)?,
            config: LocalConfig::from_file(file),
        })
    }

    /// A local model answers or fails at once: nothing to shorten.
    fn for_verify(self, _timeout: Duration) -> Self {
        self
    }
}
