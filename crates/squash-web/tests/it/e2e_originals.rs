//! Nothing hidden in the web, in real headless Chromium against the real server: a Claude Code
//! session imported with its sub-agents shows each run under the Task call that started it
//! (folded, with its size) and opens it in one click; after a fit, "Show the original" under
//! an extract opens its source messages in place (one click, no reload, by keyboard too), a
//! source that is itself a squash opens its own, and a long list comes a page at a time.
//!
//! Screenshots go to `artifacts/screenshots/` at desktop and phone width.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use squash_app::ConversationService;
use squash_store::sqlite::SqliteStore;
use squash_testkit::fixtures::squash_into;
use squash_testkit::long_session::stored;
use squash_web::AppState;

use crate::browser::{browser_missing, drive, start_app, Browser};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_opens_a_sub_agent_run_and_the_original_behind_an_extract() {
    if browser_missing() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("sqlite");
    let service = ConversationService::new(Arc::new(store));
    let state = AppState::new(service.clone()).with_default_project("/work/e2e");
    let app = start_app(state).await;
    drive("originals", Duration::from_secs(240), move |b| async move {
        story(&b, &app, &service).await
    })
    .await;
}

impl Browser {
    async fn get(&self, url: &str) -> Value {
        self.js(&format!(
            "return fetch({}).then(r => r.json());",
            json!(url)
        ))
        .await
    }

    /// A screenshot at desktop and one at phone width, `css` at the top of the window, just
    /// below the sticky toolbar (which takes four rows on a phone).
    async fn shots_at(&self, name: &str, css: &str) {
        let show = format!(
            "const e = document.querySelector({}); e.scrollIntoView({{ block: 'start' }}); \
             const bar = document.querySelector('#toolbar').getBoundingClientRect().bottom; \
             window.scrollBy(0, e.getBoundingClientRect().top - bar - 8); return true;",
            json!(css)
        );
        self.screenshots_after(name, &show).await;
    }

    async fn ids_in(&self, css: &str) -> Vec<String> {
        let ids = self
            .js(&format!(
                "return Array.from(document.querySelectorAll({})).map(li => li.dataset.id);",
                json!(css)
            ))
            .await;
        serde_json::from_value(ids).expect("ids")
    }
}

async fn story(b: &Browser, app: &str, service: &ConversationService) {
    b.client.goto(app).await.expect("open home");
    let imported = b
        .upload_session("claude-code-subagents-5c0375b4.jsonl")
        .await;
    let convs = imported["summary"]["conversations"]
        .as_array()
        .expect("imported")
        .clone();
    let main = convs
        .iter()
        .find(|c| c["sidechain"] == false)
        .expect("the session");
    let main = main["conversation_id"].as_str().unwrap().to_owned();
    let runs = b.get(&format!("/api/conversations/{main}/subagents")).await;
    let runs = runs["runs"].as_array().expect("runs").clone();
    assert_eq!(runs.len(), 2, "{runs:?}");

    // ---- a sub-agent's run under its call: folded, with its size; one click opens it ----
    b.client
        .goto(&format!("{app}/c/{main}"))
        .await
        .expect("open the session");
    b.wait(
        "document.querySelectorAll('#thread li.msg').length > 20",
        "the session",
    )
    .await;
    b.js("window.notReloaded = true; return true;").await;
    let first = &runs[0];
    let call = first["call_id"].as_str().unwrap();
    let count = first["run"]["message_count"].as_u64().unwrap();
    let fold = format!("#call-{call} details.subagent-run");
    assert_eq!(
        b.js(&format!(
            "return document.querySelector({}).open;",
            json!(fold)
        ))
        .await,
        json!(false),
        "folded"
    );
    let size = b.text(&format!("{fold} .run-size")).await;
    assert!(
        size.starts_with(&format!("{count} messages · ")) && size.ends_with(" tokens"),
        "{size}"
    );
    b.click(&format!("{fold} > summary")).await;
    let opened = format!(
        "document.querySelectorAll({}).length",
        json!(format!("{fold} .run-body li.orig-msg"))
    );
    b.wait(
        &format!("{opened} === {}", count.min(20)),
        "the run, opened in one click",
    )
    .await;
    let run_view = service
        .current_thread(first["run"]["id"].as_str().unwrap().parse().unwrap())
        .await
        .unwrap();
    let want: Vec<String> = run_view
        .messages
        .iter()
        .take(20)
        .map(|m| m.id.to_string())
        .collect();
    assert_eq!(
        b.ids_in(&format!("{fold} .run-body li.orig-msg")).await,
        want
    );
    b.shots_at("30-subagent-run", &format!("#call-{call}"))
        .await;
    // The other run by keyboard: its summary focused, Enter opens it.
    let other = format!(
        "#call-{} details.subagent-run",
        runs[1]["call_id"].as_str().unwrap()
    );
    b.js(&format!(
        "document.querySelector({}).focus(); return true;",
        json!(format!("{other} > summary"))
    ))
    .await;
    b.press("\u{E007}").await;
    b.wait(
        &format!(
            "document.querySelectorAll({}).length > 0",
            json!(format!("{other} .run-body li.orig-msg"))
        ),
        "the other run, opened by keyboard",
    )
    .await;

    // ---- a fit: the original behind an extract, in one click, in place ----
    let tokens = b.get(&format!("/api/conversations/{main}/thread")).await["tokens"]
        .as_u64()
        .unwrap();
    let fitted = b
        .post_json(
            &format!("/api/conversations/{main}/fit"),
            &json!({ "budget": tokens / 2, "strategy": "extract", "keep_recent": 0, "keep_last": 0, "best_effort": true }),
        )
        .await;
    assert!(fitted["thread"]["id"].is_string(), "fitted: {fitted}");
    let operations = b
        .get(&format!("/api/conversations/{main}/operations"))
        .await;
    let extract = operations["operations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|op| op["kind"] == "extract")
        .max_by_key(|op| op["source_message_ids"].as_array().unwrap().len())
        .expect("the fit extracted a step")
        .clone();
    let sources: Vec<String> =
        serde_json::from_value(extract["source_message_ids"].clone()).unwrap();
    assert!(sources.len() >= 2, "{extract}");
    let result = extract["result_message_id"].as_str().unwrap();
    b.client
        .goto(&format!("{app}/c/{main}"))
        .await
        .expect("reload the fitted session");
    let item = format!("#m-{result}");
    b.wait(
        &format!("document.querySelector({})", json!(item)),
        "the extract",
    )
    .await;
    assert!(b
        .text(&format!("{item} .prov-badge"))
        .await
        .contains("extract"));
    b.js("window.notReloaded = true; return true;").await;
    let button = format!("{item} > .msg-head .show-original");
    assert_eq!(
        b.text(&button).await,
        format!("Show the original ({} messages)", sources.len())
    );
    b.click(&button).await;
    let listed = format!("{item} > .originals > ol > li.orig-msg");
    b.wait(
        &format!(
            "document.querySelectorAll({}).length === {}",
            json!(listed),
            sources.len().min(20)
        ),
        "the original, opened in one click",
    )
    .await;
    assert_eq!(
        b.ids_in(&listed).await,
        sources.iter().take(20).cloned().collect::<Vec<_>>(),
        "in conversation order"
    );
    assert_eq!(
        b.js("return window.notReloaded === true;").await,
        json!(true),
        "no reload"
    );
    assert_eq!(
        b.js(&format!(
            "return document.querySelector({}).getAttribute('aria-expanded');",
            json!(button)
        ))
        .await,
        json!("true")
    );
    assert_eq!(
        b.text(&button).await,
        format!("Hide the original ({} messages)", sources.len())
    );
    // A Task call among the sources still shows the run it started.
    let page = b
        .get(&format!(
            "/api/operations/{}/sources",
            extract["id"].as_str().unwrap()
        ))
        .await;
    let runs_shown = b
        .js(&format!(
            "return document.querySelectorAll({}).length;",
            json!(format!("{item} > .originals details.subagent-run"))
        ))
        .await;
    assert_eq!(runs_shown, json!(page["runs"].as_array().unwrap().len()));
    assert!(runs_shown.as_u64().unwrap() > 0, "{page}");
    b.shots_at("30-original-under-extract", &item).await;
    // By keyboard: Enter on the focused control folds it and opens it again.
    b.js(&format!(
        "document.querySelector({}).focus(); return true;",
        json!(button)
    ))
    .await;
    b.press("\u{E007}").await;
    b.wait(
        &format!(
            "document.querySelector({}).hidden",
            json!(format!("{item} > .originals"))
        ),
        "folded by keyboard",
    )
    .await;
    b.press("\u{E007}").await;
    b.wait(
        &format!(
            "!document.querySelector({}).hidden",
            json!(format!("{item} > .originals"))
        ),
        "open again",
    )
    .await;

    // ---- originals nest, and a long list comes a page at a time ----
    let (conv, ids) = stored(service.store().as_ref(), 46).await;
    let inner = squash_into(service, conv, &ids[..4], "the first turn").await;
    let mut rest = vec![inner.result_message_id];
    rest.extend(&ids[4..]);
    squash_into(service, conv, &rest, "the whole session").await;
    b.client
        .goto(&format!("{app}/c/{conv}"))
        .await
        .expect("open the squashed session");
    b.wait(
        "document.querySelector('#thread .show-original')",
        "the squash",
    )
    .await;
    b.click("#thread .show-original").await;
    let top = "#thread > li.msg > .originals > ol > li.orig-msg";
    b.wait(
        &format!("document.querySelectorAll({}).length === 20", json!(top)),
        "the first page",
    )
    .await;
    let more = "#thread > li.msg > .originals > button.originals-more";
    assert_eq!(b.text(more).await, "Show 20 more (23 of 43 not shown)");
    b.click(more).await;
    b.wait(
        &format!("document.querySelectorAll({}).length === 40", json!(top)),
        "the second page",
    )
    .await;
    b.click(more).await;
    b.wait(
        &format!("document.querySelectorAll({}).length === 43", json!(top)),
        "the last page",
    )
    .await;
    assert_eq!(
        b.js(&format!(
            "return !!document.querySelector({});",
            json!(more)
        ))
        .await,
        json!(false)
    );
    let mut want = vec![inner.result_message_id.to_string()];
    want.extend(ids[4..].iter().map(ToString::to_string));
    assert_eq!(b.ids_in(top).await, want);
    let nested = format!(
        "{top}[data-id='{}'] > .msg-head .show-original",
        inner.result_message_id
    );
    b.click(&nested).await;
    let inner_list = format!(
        "{top}[data-id='{}'] > .originals li.orig-msg",
        inner.result_message_id
    );
    b.wait(
        &format!(
            "document.querySelectorAll({}).length === 4",
            json!(inner_list)
        ),
        "the nested original",
    )
    .await;
    let want: Vec<String> = ids[..4].iter().map(ToString::to_string).collect();
    assert_eq!(b.ids_in(&inner_list).await, want);
}
