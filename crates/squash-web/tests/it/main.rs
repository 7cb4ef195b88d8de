//! The HTTP API and the web UI: in-process requests, a real HTTP server, headless Chromium.
//!
//! One test binary for the whole crate (each module was a binary of its own): the stack is
//! compiled and linked once. Shared support comes from `squash-testkit`.

mod api;
mod browser;
mod e2e;
mod e2e_originals;
mod e2e_sidebar;
mod http;
mod originals;
mod shared_answers;

/// A response's whole body.
async fn body_bytes<B>(response: axum::http::Response<B>) -> axum::body::Bytes
where
    B: axum::body::HttpBody,
    B::Error: std::fmt::Debug,
{
    use http_body_util::BodyExt;
    response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
}

/// Serves the OpenAI-compatible `completions` handler (with `state`) on a loopback port; the
/// base URL a provider is given (`…/v1`).
async fn serve_completions<H, T, S>(completions: H, state: S) -> String
where
    H: axum::handler::Handler<T, S>,
    T: 'static,
    S: Clone + Send + Sync + 'static,
{
    let app = axum::Router::new()
        .route("/v1/chat/completions", axum::routing::post(completions))
        .with_state(state);
    format!(
        "http://{}/v1",
        squash_testkit::model_server::serve(app).await
    )
}

/// The `key` string of every item of the JSON array `list`.
fn strings_of<'a>(list: &'a serde_json::Value, key: &str) -> Vec<&'a str> {
    let items = list
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"));
    items
        .iter()
        .map(|item| {
            item[key]
                .as_str()
                .unwrap_or_else(|| panic!("no string {key} in {item}"))
        })
        .collect()
}

/// Every file under `dir`, in its subfolders too.
fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// One server-sent event's name (`message` unless it says) and data (empty for a comment).
fn parse_event(raw: &str) -> (String, String) {
    let mut name = "message".to_owned();
    let mut data = String::new();
    for line in raw.lines() {
        if let Some(v) = line.strip_prefix("event:") {
            name = v.trim().to_owned();
        } else if let Some(v) = line.strip_prefix("data:") {
            data.push_str(v.strip_prefix(' ').unwrap_or(v));
        }
    }
    (name, data)
}
