//! Finding a local OpenAI-compatible server (Ollama, llama.cpp's server) that answers: the
//! part of provider detection that speaks HTTP.

use std::time::Duration;

use serde::Serialize;

use super::settings::{local_servers, OpenAiConfig};
use super::wire::ModelList;
use crate::error::{redact, LlmError};
use crate::http::client;

/// A server on loopback answers at once or is not there.
const PROBE_TIMEOUT: Duration = Duration::from_millis(500);

/// A local server that answers, and the model it serves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LocalServer {
    /// With its version path, e.g. `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    pub model: String,
}

impl LocalServer {
    /// The settings that reach it, asking for `model` instead of the one it listed.
    pub fn config(&self, model: Option<&str>) -> OpenAiConfig {
        let config = OpenAiConfig::new(&self.base_url, &self.model);
        match model {
            Some(model) => config.with_model(model),
            None => config,
        }
    }
}

/// The first of [`local_servers`] that lists a model.
pub async fn find_local_server() -> Option<LocalServer> {
    for base_url in local_servers() {
        if let Ok(models) = list_models(&base_url, PROBE_TIMEOUT).await {
            if let Some(model) = models.into_iter().next() {
                return Some(LocalServer { base_url, model });
            }
        }
    }
    None
}

/// Asks an OpenAI-compatible server at `base_url` (with its version path, e.g.
/// `http://127.0.0.1:11434/v1`) which models it serves, giving up after `timeout`.
pub async fn list_models(base_url: &str, timeout: Duration) -> Result<Vec<String>, LlmError> {
    let client = client::client(timeout)?;
    let url = format!("{}/models", base_url.trim_end_matches('/'));
    let response = client
        .get(&url)
        .send()
        .await
        .map_err(|e| LlmError::Network(redact(&e.to_string(), None)))?;
    let status = response.status();
    if !status.is_success() {
        return Err(LlmError::Network(format!(
            "{} answered {status}",
            redact(&url, None)
        )));
    }
    let list: ModelList = response
        .json()
        .await
        .map_err(|e| LlmError::MalformedResponse(redact(&e.to_string(), None)))?;
    Ok(list.data.into_iter().map(|m| m.id).collect())
}
