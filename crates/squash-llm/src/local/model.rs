//! A GGUF model run in this process (see the module's documentation for how).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use squash_core::ProviderKind;

use super::engine::{GenerateParams, Weights};
use super::settings::{LocalConfig, LocalSampling};
use crate::error::LlmError;
use crate::model::{
    ChatCall, ChatModel, ChatRequest, ChatResponse, ChatRole, ModelInfo, StopReason, Usage,
};
use crate::transcript::message_text;

/// Measurements of one local generation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LocalStats {
    pub prompt_tokens: u32,
    pub output_tokens: u32,
    /// Waiting for earlier requests on the same model.
    pub queue_seconds: f64,
    /// Evaluating the prompt (up to the first sampled token).
    pub prompt_seconds: f64,
    /// Sampling and evaluating the answer's tokens.
    pub generation_seconds: f64,
}

impl LocalStats {
    /// Prompt tokens evaluated per second.
    pub fn prompt_tokens_per_second(&self) -> f64 {
        per_second(self.prompt_tokens, self.prompt_seconds)
    }

    /// Answer tokens generated per second.
    pub fn generation_tokens_per_second(&self) -> f64 {
        per_second(self.output_tokens, self.generation_seconds)
    }
}

fn per_second(tokens: u32, seconds: f64) -> f64 {
    if seconds > 0.0 {
        f64::from(tokens) / seconds
    } else {
        0.0
    }
}

/// Loaded weights by canonical path. Entries are never evicted: the weights are the expensive
/// part (hundreds of MB read and mapped), a process uses one or two models, and a server that
/// builds a model per request must not reload it each time.
static CACHE: OnceLock<Mutex<HashMap<PathBuf, Arc<Weights>>>> = OnceLock::new();

/// A GGUF model running in this process.
pub struct LocalModel {
    weights: Arc<Weights>,
    config: LocalConfig,
}

impl std::fmt::Debug for LocalModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalModel")
            .field("path", &self.weights.path())
            .field("config", &self.config)
            .finish()
    }
}

impl LocalModel {
    /// Loads the GGUF file at `path`, or reuses the weights already loaded from it in this
    /// process (whatever `config` says: the configuration only shapes requests). Blocks for as
    /// long as reading the file takes — about a second for the catalog's small models — so
    /// call it from a blocking context or `spawn_blocking` in async code.
    ///
    /// Errors: [`LlmError::NotConfigured`] when the file is missing or is not a model llama.cpp
    /// can load.
    pub fn load(path: impl AsRef<Path>, config: LocalConfig) -> Result<Arc<LocalModel>, LlmError> {
        let path = path.as_ref();
        let canonical = path.canonicalize().map_err(|e| {
            LlmError::NotConfigured(format!(
                "no local model file at {}: {e} (install one with `squash model install` or \
                 point SQUASH_LOCAL_MODEL at a .gguf file)",
                path.display()
            ))
        })?;
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        // Held while loading, so that two callers asking for the same file at once load it once.
        let mut cache = cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let weights = match cache.get(&canonical) {
            Some(weights) => Arc::clone(weights),
            None => {
                let weights = Arc::new(Weights::load(&canonical)?);
                cache.insert(canonical, Arc::clone(&weights));
                weights
            }
        };
        Ok(Arc::new(LocalModel { weights, config }))
    }

    /// Whether the weights of `path` are already loaded in this process.
    pub fn is_loaded(path: impl AsRef<Path>) -> bool {
        let Ok(canonical) = path.as_ref().canonicalize() else {
            return false;
        };
        CACHE.get().is_some_and(|cache| {
            cache
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .contains_key(&canonical)
        })
    }

    /// The model file.
    pub fn path(&self) -> &Path {
        self.weights.path()
    }

    /// The configuration requests run with.
    pub fn config(&self) -> &LocalConfig {
        &self.config
    }

    /// The context requests get: the configured bound, capped at the model's training length.
    pub fn context_tokens(&self) -> u32 {
        self.config
            .context_tokens
            .min(self.weights.n_ctx_train())
            .max(1)
    }

    /// The exact text the model reads for `req`: the request laid out with the GGUF's chat
    /// template, ending where the assistant's answer starts.
    pub fn render_prompt(&self, req: &ChatRequest) -> Result<String, LlmError> {
        let mut turns: Vec<(&'static str, String)> = Vec::with_capacity(req.messages.len() + 1);
        if let Some(system) = req.system.as_deref().filter(|s| !s.trim().is_empty()) {
            turns.push(("system", system.to_owned()));
        }
        for message in &req.messages {
            let role = match message.role {
                ChatRole::User => "user",
                ChatRole::Assistant => "assistant",
            };
            turns.push((role, message_text(message)));
        }
        if turns.iter().all(|(role, _)| *role == "system") {
            return Err(LlmError::BadRequest(
                "the request has no user or assistant turn".into(),
            ));
        }
        self.weights.apply_template(&turns)
    }

    /// Tokens of `text` in this model's tokenizer (no special tokens added).
    pub fn count_tokens(&self, text: &str) -> usize {
        self.weights.count_tokens(text)
    }

    /// The exact number of tokens the model reads for `req` (its rendered prompt), for a
    /// precise fit check before a long squash; [`ChatModel::info`]'s window is the bound.
    pub fn count_prompt_tokens(&self, req: &ChatRequest) -> Result<usize, LlmError> {
        Ok(self.weights.count_prompt_tokens(&self.render_prompt(req)?))
    }

    /// Runs `req`, reporting text as it is generated, and returns the answer with timings.
    /// The trait's [`ChatModel::complete`] and [`ChatModel::stream`] are this without the
    /// timings.
    pub async fn generate(
        &self,
        req: &ChatRequest,
        cancel: &CancellationToken,
        on_delta: &(dyn for<'d> Fn(&'d str) + Send + Sync),
    ) -> Result<(ChatResponse, LocalStats), LlmError> {
        if cancel.is_cancelled() {
            return Err(LlmError::Cancelled);
        }
        let deadline = tokio::time::sleep(self.config.timeout);
        tokio::pin!(deadline);
        let prompt = self.render_prompt(req)?;
        let params = GenerateParams {
            threads: self.config.threads.max(1),
            context_limit: self.context_tokens(),
            batch_tokens: self.config.batch_tokens.max(1),
            max_output_tokens: req.max_output_tokens.max(1),
            sampling: LocalSampling {
                temperature: req.temperature.unwrap_or(self.config.sampling.temperature),
                ..self.config.sampling.clone()
            },
        };

        let queued_at = Instant::now();
        let queue = Arc::clone(self.weights.queue());
        let turn = tokio::select! {
            biased;
            _ = cancel.cancelled() => return Err(LlmError::Cancelled),
            _ = &mut deadline => return Err(LlmError::Timeout { after: self.config.timeout }),
            turn = queue.lock_owned() => turn,
        };
        let queue_seconds = queued_at.elapsed().as_secs_f64();

        let stop = Arc::new(AtomicBool::new(false));
        // Whatever ends this future early (cancel, timeout, the caller dropping it) must stop
        // the worker, which otherwise keeps the CPU and the queue until its answer is done.
        let _stop_on_exit = StopOnDrop(Arc::clone(&stop));
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
        let weights = Arc::clone(&self.weights);
        let worker_stop = Arc::clone(&stop);
        let worker = tokio::task::spawn_blocking(move || {
            // The queue turn lasts as long as the worker, even after the caller gave up.
            let _turn = turn;
            weights.generate(&prompt, &params, &worker_stop, &mut |piece| {
                // A closed receiver means the caller is gone; the stop flag ends the work.
                let _ = tx.send(piece.to_owned());
            })
        });

        let mut text = String::new();
        loop {
            tokio::select! {
                biased;
                _ = cancel.cancelled() => return Err(LlmError::Cancelled),
                _ = &mut deadline => return Err(LlmError::Timeout { after: self.config.timeout }),
                piece = rx.recv() => match piece {
                    Some(piece) => {
                        on_delta(&piece);
                        text.push_str(&piece);
                    }
                    // The worker dropped its sender: the generation is over.
                    None => break,
                },
            }
        }
        let output = worker.await.map_err(|e| LlmError::Provider {
            status: None,
            message: format!("the local model's worker thread failed: {e}"),
        })??;
        debug_assert_eq!(output.text, text);
        let stats = LocalStats {
            prompt_tokens: output.prompt_tokens,
            output_tokens: output.output_tokens,
            queue_seconds,
            prompt_seconds: output.prompt_seconds,
            generation_seconds: output.generation_seconds,
        };
        tracing::debug!(
            model = %self.weights.name(),
            prompt_tokens = stats.prompt_tokens,
            output_tokens = stats.output_tokens,
            prompt_tps = stats.prompt_tokens_per_second(),
            generation_tps = stats.generation_tokens_per_second(),
            "local generation finished"
        );
        let response = ChatResponse {
            text: output.text,
            model: self.weights.name().to_owned(),
            usage: Some(Usage {
                input_tokens: u64::from(output.prompt_tokens),
                output_tokens: u64::from(output.output_tokens),
            }),
            stop_reason: Some(match output.stop_reason {
                "length" => StopReason::MaxTokens,
                _ => StopReason::EndTurn,
            }),
        };
        Ok((response, stats))
    }
}

/// Sets the worker's stop flag when dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[async_trait]
impl ChatModel for LocalModel {
    fn info(&self) -> ModelInfo {
        ModelInfo::new(
            ProviderKind::Local,
            self.weights.name().to_owned(),
            self.context_tokens(),
        )
    }

    fn count_tokens(&self, text: &str) -> Option<u64> {
        Some(LocalModel::count_tokens(self, text) as u64)
    }

    /// `req.model` is ignored: a local model is one file.
    async fn answer(&self, call: ChatCall<'_>) -> Result<ChatResponse, LlmError> {
        let on_delta = call.on_delta.unwrap_or(&|_| {});
        self.generate(call.request, call.cancel, on_delta)
            .await
            .map(|(response, _)| response)
    }
}
