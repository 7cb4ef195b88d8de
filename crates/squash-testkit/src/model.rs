//! The test model for the real local-inference tests: the smallest GGUF (SmolLM2-135M-Instruct
//! Q4_1, 98 MB) that `scripts/fetch-test-model.sh` fetches.

use std::path::PathBuf;

use crate::skip::Need;

const MODEL_ENV: &str = "SQUASH_TEST_GGUF";

/// The test model's path (`$SQUASH_TEST_GGUF`, else `target/models/…`), or `None` after noting
/// why the test does not run: no model (a failure under CI), or the quick tier.
pub fn test_model() -> Option<PathBuf> {
    if Need::Model.left_to_full_tier() {
        return None;
    }
    let path = std::env::var_os(MODEL_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../target/models/smollm2-135m-instruct-q4_1.gguf")
        });
    if path.is_file() {
        return Some(path);
    }
    Need::Model.missing(&format!(
        "no test model at {} (set {MODEL_ENV} or run scripts/fetch-test-model.sh)",
        path.display()
    ));
    None
}
