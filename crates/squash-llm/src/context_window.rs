//! The context windows of well-known models: the one table every provider and the squash
//! engine consult.

/// The context window (input + output tokens) of a known model family, matched on substrings
/// of the model name, case-insensitively, so that provider prefixes, dates and quantisation
/// suffixes (`anthropic/claude-sonnet-4-5-20250929`, `qwen2.5:7b-instruct-q4_K_M`,
/// `meta-llama/Llama-3.1-8B-Instruct`) all resolve.
///
/// `None` for an unknown model: the caller decides (a configurable default), because guessing
/// wrong in either direction is worse than saying "unknown".
///
/// These are the windows the models were trained for. A local server may run a model with a
/// smaller one (Ollama's default `num_ctx` is a few thousand tokens whatever the model); a
/// caller that knows the served size should use that instead.
pub fn context_window_for(model: &str) -> Option<u32> {
    let lower = model.to_lowercase();
    // The last path segment: `openai/o3-mini` → `o3-mini`, `models/gemini-2.0` → `gemini-2.0`.
    let base = lower.rsplit('/').next().unwrap_or(&lower);
    // Separators vary between registries (`llama3.1`, `llama-3.1`, `Llama_3.1`); drop them.
    let squeezed: String = base
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .collect();

    // OpenAI's reasoning models are named by a bare `o<digit>` prefix, which as a substring
    // would also match inside unrelated names, so they are matched as a prefix of the name.
    for (prefix, window) in [
        ("o1-mini", 128_000),
        ("o1", 200_000),
        ("o3", 200_000),
        ("o4", 200_000),
    ] {
        if let Some(rest) = base.strip_prefix(prefix) {
            if rest.is_empty() || rest.starts_with(['-', ':', '.']) {
                return Some(window);
            }
        }
    }

    // Several keys can match one name (`gpt4` and `gpt4.1`, `llama3` and `llama3.1`,
    // `claude` and `sonnet`); the longest, most specific key wins.
    const TABLE: &[(&str, u32)] = &[
        ("claude", 200_000),
        ("sonnet", 200_000),
        ("opus", 200_000),
        ("haiku", 200_000),
        ("gpt4.1", 1_047_576),
        ("gpt5", 400_000),
        ("gpt4o", 128_000),
        ("gpt4turbo", 128_000),
        ("gpt432k", 32_768),
        ("gpt4", 8_192),
        ("gpt3.5turbo", 16_385),
        ("gptoss", 131_072),
        ("gemini", 1_048_576),
        ("qwen2.5", 32_768),
        ("qwen3", 32_768),
        ("qwen2", 32_768),
        ("llama3.1", 131_072),
        ("llama3.2", 131_072),
        ("llama3.3", 131_072),
        ("llama4", 131_072),
        ("llama3", 8_192),
        ("llama2", 4_096),
        ("codellama", 16_384),
        ("tinyllama", 2_048),
        ("mixtral", 32_768),
        ("mistral", 32_768),
        ("gemma3", 131_072),
        ("gemma2", 8_192),
        ("gemma", 8_192),
        ("phi4", 16_384),
        ("smollm", 8_192),
        ("deepseek", 131_072),
    ];
    TABLE
        .iter()
        .filter(|(key, _)| squeezed.contains(key))
        .max_by_key(|(key, _)| key.len())
        .map(|&(_, window)| window)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_models_resolve() {
        let cases = [
            ("claude-sonnet-4-5-20250929", Some(200_000)),
            ("claude-3-5-haiku-latest", Some(200_000)),
            ("opus", Some(200_000)),
            ("anthropic/Claude-Opus-4.1", Some(200_000)),
            ("gpt-4o", Some(128_000)),
            ("gpt-4o-mini-2024-07-18", Some(128_000)),
            ("gpt-4.1-mini", Some(1_047_576)),
            ("gpt-4", Some(8_192)),
            ("gpt-4-turbo", Some(128_000)),
            ("gpt-3.5-turbo", Some(16_385)),
            ("gpt-5", Some(400_000)),
            ("o1-mini", Some(128_000)),
            ("o3-mini", Some(200_000)),
            ("openai/o4-mini", Some(200_000)),
            ("o3", Some(200_000)),
            ("qwen2.5:7b-instruct-q4_K_M", Some(32_768)),
            ("Qwen/Qwen2.5-0.5B-Instruct-GGUF", Some(32_768)),
            ("qwen2.5-coder:1.5b", Some(32_768)),
            ("llama3:8b", Some(8_192)),
            ("meta-llama/Llama-3.1-8B-Instruct", Some(131_072)),
            ("llama3.2:3b", Some(131_072)),
            ("codellama:7b", Some(16_384)),
            ("tinyllama", Some(2_048)),
            ("mistral-7b-instruct", Some(32_768)),
            ("gemini-2.0-flash", Some(1_048_576)),
            ("my-own-finetune", None),
            ("", None),
            // `o1`/`o3` only count as a name prefix, not anywhere inside a name.
            ("foo3", None),
            ("solo3-model", None),
        ];
        for (model, expected) in cases {
            assert_eq!(context_window_for(model), expected, "{model}");
        }
    }
}
