//! The result JSON that `claude -p --output-format json` prints, and what its failures mean.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::{redact, LlmError};
use crate::model::{ChatResponse, StopReason, Usage};
use squash_core::ProviderKind;

#[derive(Debug, Deserialize)]
struct CliResult {
    #[serde(rename = "type")]
    kind: String,
    subtype: Option<String>,
    #[serde(default)]
    is_error: bool,
    result: Option<String>,
    usage: Option<CliUsage>,
    #[serde(default, rename = "modelUsage")]
    model_usage: BTreeMap<String, ModelUsage>,
    stop_reason: Option<String>,
    /// Newer versions list what went wrong in error results.
    #[serde(default)]
    errors: Vec<serde_json::Value>,
}

#[derive(Debug, Default, Deserialize)]
struct CliUsage {
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    #[serde(default)]
    cache_creation_input_tokens: u64,
    #[serde(default)]
    cache_read_input_tokens: u64,
}

impl CliUsage {
    /// Both counts, when the CLI reported them; prompt caching splits the prompt's tokens over
    /// three counters.
    fn usage(&self) -> Option<Usage> {
        Some(Usage {
            input_tokens: self.input_tokens?
                + self.cache_creation_input_tokens
                + self.cache_read_input_tokens,
            output_tokens: self.output_tokens?,
        })
    }
}

#[derive(Debug, Default, Deserialize)]
struct ModelUsage {
    #[serde(default, rename = "outputTokens")]
    output_tokens: u64,
}

/// Finds the result object in the CLI's standard output: the whole output, or else its last
/// line that is one (a wrapper script or an old version may print other lines first).
fn find_result(stdout: &str) -> Option<CliResult> {
    let is_result = |r: &CliResult| r.kind == "result";
    if let Ok(result) = serde_json::from_str::<CliResult>(stdout.trim()) {
        return is_result(&result).then_some(result);
    }
    stdout
        .lines()
        .rev()
        .filter(|l| l.trim_start().starts_with('{'))
        .filter_map(|l| serde_json::from_str::<CliResult>(l).ok())
        .find(is_result)
}

/// The answer in the CLI's output, or the error it reports. `exit` is the process's exit code,
/// `stderr` its error output, `fallback_model` the model asked for.
pub(super) fn parse(
    stdout: &str,
    stderr: &str,
    exit: Option<i32>,
    fallback_model: &str,
) -> Result<ChatResponse, LlmError> {
    let Some(result) = find_result(stdout) else {
        return Err(no_result(stdout, stderr, exit));
    };
    let subtype = result.subtype.as_deref().unwrap_or("success");
    if result.is_error || subtype != "success" {
        let mut message = result.result.clone().unwrap_or_default();
        for error in &result.errors {
            if !message.is_empty() {
                message.push_str("; ");
            }
            message.push_str(error.as_str().map_or(&error.to_string(), |s| s));
        }
        if message.trim().is_empty() {
            message = format!("the CLI reported `{subtype}`");
        }
        return Err(classify(&message));
    }
    let text = result.result.ok_or_else(|| {
        LlmError::MalformedResponse("the CLI's result has no `result` text".into())
    })?;
    // The CLI may consult a small model on the side; the answer comes from the one that wrote
    // the most.
    let model = result
        .model_usage
        .iter()
        .max_by_key(|(_, u)| u.output_tokens)
        .map(|(name, _)| name.clone())
        .unwrap_or_else(|| fallback_model.to_string());
    Ok(ChatResponse {
        text,
        model,
        usage: result.usage.as_ref().and_then(CliUsage::usage),
        stop_reason: result.stop_reason.as_deref().map(StopReason::parse),
    })
}

fn no_result(stdout: &str, stderr: &str, exit: Option<i32>) -> LlmError {
    match exit {
        Some(0) => LlmError::MalformedResponse(format!(
            "the CLI printed no result JSON: {}",
            redact(stdout, None)
        )),
        _ => {
            let said = if stderr.trim().is_empty() {
                stdout
            } else {
                stderr
            };
            let status = exit.map_or("a signal".to_string(), |c| format!("status {c}"));
            let error = classify(said);
            match error {
                LlmError::Provider { status: None, .. } => LlmError::Provider {
                    status: None,
                    message: format!("claude exited with {status}: {}", redact(said, None)),
                },
                other => other,
            }
        }
    }
}

/// Classifies the CLI's error text, which is the API error it met or its own complaint.
pub(super) fn classify(message: &str) -> LlmError {
    let lower = message.to_lowercase();
    let message = redact(message, None);
    let has = |needles: &[&str]| needles.iter().any(|n| lower.contains(n));
    if crate::http::status::is_context_error(&lower, "") {
        LlmError::ContextTooLong { message }
    } else if has(&[
        "api key",
        "/login",
        "not logged in",
        "authentication",
        "unauthorized",
        "oauth token",
    ]) {
        LlmError::Auth {
            provider: ProviderKind::ClaudeCli,
            message,
        }
    } else if has(&[
        "rate limit",
        "rate_limit",
        "usage limit",
        "too many requests",
    ]) {
        LlmError::RateLimited {
            retry_after: None,
            message,
        }
    } else {
        LlmError::Provider {
            status: None,
            message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUCCESS: &str = r#"{"type":"result","subtype":"success","is_error":false,"duration_ms":2300,"num_turns":1,"result":"short version","session_id":"s","total_cost_usd":0.01,"usage":{"input_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":5},"modelUsage":{"claude-haiku-4-5":{"inputTokens":50,"outputTokens":1},"claude-sonnet-4-5-20250929":{"inputTokens":1110,"outputTokens":5}}}"#;

    #[test]
    fn parses_the_documented_success_result() {
        let response = parse(SUCCESS, "", Some(0), "sonnet").unwrap();
        assert_eq!(response.text, "short version");
        assert_eq!(response.model, "claude-sonnet-4-5-20250929");
        let usage = response.usage.expect("reported");
        assert_eq!(usage.input_tokens, 1110);
        assert_eq!(usage.output_tokens, 5);
    }

    #[test]
    fn finds_the_result_after_other_lines() {
        let stdout = format!("warning: something\n{SUCCESS}\n");
        assert_eq!(
            parse(&stdout, "", Some(0), "sonnet").unwrap().text,
            "short version"
        );
    }

    #[test]
    fn error_results_are_classified() {
        let auth = r#"{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key · Please run /login"}"#;
        assert_eq!(
            parse(auth, "", Some(1), "sonnet").unwrap_err().class(),
            "auth"
        );
        let long = r#"{"type":"result","subtype":"success","is_error":true,"result":"Prompt is too long"}"#;
        assert_eq!(
            parse(long, "", Some(1), "sonnet").unwrap_err().class(),
            "context_too_long"
        );
        let turns = r#"{"type":"result","subtype":"error_max_turns","is_error":false}"#;
        let error = parse(turns, "", Some(0), "sonnet").unwrap_err();
        assert_eq!(error.class(), "provider");
        assert!(error.to_string().contains("error_max_turns"), "{error}");
    }

    #[test]
    fn missing_output_depends_on_the_exit_code() {
        assert_eq!(
            parse("hello", "", Some(0), "sonnet").unwrap_err().class(),
            "malformed_response"
        );
        let error = parse("", "boom", Some(2), "sonnet").unwrap_err();
        assert_eq!(error.class(), "provider");
        assert!(error.to_string().contains("status 2"), "{error}");
        assert!(error.to_string().contains("boom"), "{error}");
    }
}
