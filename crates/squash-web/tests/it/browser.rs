//! The headless Chromium every browser test drives (through chromedriver), and the checks
//! around it: skip with a note where there is no browser, unless one is required.
//!
//! Shared by the Chromium tests (`e2e`, `e2e_sidebar`) and the web benchmark, which uses a part.

#![allow(dead_code)]

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use squash_testkit::process::{free_port, start_listening};
use squash_testkit::Need;

pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const PHONE: (u32, u32) = (390, 844);
pub const DESKTOP: (u32, u32) = (1280, 960);

pub struct Browser {
    pub client: Client,
    _driver: tokio::process::Child,
    _profile: tempfile::TempDir,
    pub shots: PathBuf,
}

pub async fn start_browser() -> Browser {
    start_browser_with(&[]).await
}

/// A browser started with more command-line switches (`--force-dark-mode`).
pub async fn start_browser_with(extra: &[&str]) -> Browser {
    let port = free_port();
    let mut command = tokio::process::Command::new(CHROMEDRIVER);
    command.arg(format!("--port={port}"));
    let driver = start_listening(command, "chromedriver", port, Duration::from_secs(20)).await;
    let profile = tempfile::tempdir().expect("profile dir");
    let mut args = vec![
        "--headless".to_owned(),
        "--no-sandbox".to_owned(),
        "--disable-gpu".to_owned(),
        "--disable-background-networking".to_owned(),
        "--disable-component-update".to_owned(),
        "--no-first-run".to_owned(),
        "--disable-dev-shm-usage".to_owned(),
        "--window-size=1280,960".to_owned(),
        format!("--user-data-dir={}", profile.path().display()),
    ];
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": args,
        }),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("WebDriver session");
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../artifacts/screenshots");
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    Browser {
        client,
        _driver: driver,
        _profile: profile,
        shots,
    }
}

impl Browser {
    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Polls `condition` (a JS expression) until it is true.
    pub async fn wait(&self, condition: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if self.js(&format!("return !!({condition});")).await == json!(true) {
                return;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn click(&self, css: &str) {
        // In the middle of the window, clear of the sticky toolbar (WebDriver scrolls only when
        // the element is out of view, and one under the toolbar is "in view").
        self.js(&format!(
            "const e = document.querySelector({}); if (e) e.scrollIntoView({{ block: 'center' }}); return true;",
            json!(css)
        ))
        .await;
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
    }

    pub async fn type_into(&self, css: &str, text: &str) {
        let el = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        el.clear().await.expect("clear");
        el.send_keys(text).await.expect("type");
    }

    pub async fn text(&self, css: &str) -> String {
        self.js(&format!(
            "const e = document.querySelector({}); return e ? e.textContent : '';",
            json!(css)
        ))
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }

    pub async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.expect("screenshot");
        std::fs::write(self.shots.join(name), png).expect("write screenshot");
    }

    /// `fetch` from the page, with the CSRF header; returns the answer's JSON.
    pub async fn post_json(&self, url: &str, body: &Value) -> Value {
        self.js(&format!(
            "return fetch({}, {{ method: 'POST', headers: {{ 'Content-Type': 'application/json', \
             'X-Squash-Csrf': '1' }}, body: JSON.stringify({body}) }}).then(r => r.json());",
            json!(url)
        ))
        .await
    }

    /// The shared session file `name` uploaded as a person imports it; the import's answer.
    pub async fn upload_session(&self, name: &str) -> Value {
        let path = squash_testkit::fixtures::session_data(name);
        let text = std::fs::read_to_string(&path).expect("the sample session");
        self.js(&format!(
            "return fetch('/api/import?name={name}', {{ method: 'POST', headers: \
             {{ 'Content-Type': 'application/octet-stream', 'X-Squash-Csrf': '1' }}, \
             body: {} }}).then(r => r.json());",
            json!(text)
        ))
        .await
    }

    pub async fn resize(&self, (width, height): (u32, u32)) {
        self.client
            .set_window_size(width, height)
            .await
            .expect("resize the window");
    }

    /// A screenshot at desktop size and one at phone size, with `css` scrolled into view.
    pub async fn screenshots(&self, name: &str, css: &str) {
        let show = format!(
            "document.querySelector({}).scrollIntoView({{ block: 'nearest' }}); return true;",
            json!(css)
        );
        self.screenshots_after(name, &show).await;
    }

    /// [`Self::screenshots`], each taken after the script `show` ran.
    pub async fn screenshots_after(&self, name: &str, show: &str) {
        self.js(show).await;
        self.screenshot(&format!("{name}.png")).await;
        self.resize(PHONE).await;
        self.js(show).await;
        self.screenshot(&format!("{name}-phone.png")).await;
        self.resize(DESKTOP).await;
    }
}

/// Whether the browser is missing (noted as a skip; a failure when the run requires it) or left
/// to the full tier.
pub fn browser_missing() -> bool {
    if Need::Browser.left_to_full_tier() {
        return true;
    }
    if Path::new(CHROMEDRIVER).exists() && Path::new(CHROMIUM).exists() {
        return false;
    }
    Need::Browser.missing(&format!(
        "{CHROMEDRIVER} or {CHROMIUM} is missing (apt-get install chromium chromium-driver)"
    ));
    true
}

/// Starts a browser, runs `story` with it in a task and closes the browser whatever happened:
/// a failed assertion in the story fails the test (with its own message), and a story that
/// takes longer than `limit` fails it too.
pub async fn drive<F>(what: &str, limit: Duration, story: impl FnOnce(Arc<Browser>) -> F)
where
    F: Future<Output = ()> + Send + 'static,
{
    let b = Arc::new(start_browser().await);
    let run = tokio::spawn(story(b.clone()));
    let outcome = tokio::time::timeout(limit, run).await;
    let _ = b.client.clone().close().await;
    match outcome {
        Ok(Ok(())) => {}
        Ok(Err(e)) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Ok(Err(e)) => panic!("the {what} story task failed: {e}"),
        Err(_) => panic!("the {what} story took too long"),
    }
}

/// Serves `state` on a free loopback port for the rest of the test; returns its address.
pub async fn start_app(state: squash_web::AppState) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind app");
    let app = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(squash_web::serve(listener, state, std::future::pending()));
    app
}
