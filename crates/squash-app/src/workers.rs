//! How many threads a long computation (a fit's summaries and trims) may use.

/// The environment variable that caps the threads, e.g. `1` on a machine shared with others.
pub const WORKERS_ENV: &str = "SQUASH_WORKERS";

/// The threads to use: [`WORKERS_ENV`] when it holds a positive number, else as many as the
/// machine runs at once (1 when it cannot say).
pub fn workers() -> usize {
    std::env::var(WORKERS_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
