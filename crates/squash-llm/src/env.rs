//! Reading the environment: the one helper every crate uses for settings.

/// An environment variable's value, unless it is unset or blank: a variable exported empty
/// (`OPENAI_API_KEY=`) configures nothing.
pub fn non_empty(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// Whether [`non_empty`] finds a value.
pub fn is_set(name: &str) -> bool {
    non_empty(name).is_some()
}
