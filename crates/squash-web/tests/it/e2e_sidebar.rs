//! The sidebar end to end, as a person uses it, in real headless Chromium (chromedriver)
//! against the real server on a loopback port: conversations grouped by project with their
//! size, search across conversations and in one (snippets with marked matches, a hit that
//! opens the message's place, "Select hits"), an import by file upload with progress, an
//! export link per format, rename and delete, and the collapsed sidebar at phone width.
//!
//! Screenshots go to `artifacts/screenshots/` (desktop and phone size). Without chromedriver
//! the test passes with a note, unless `SQUASH_REQUIRE_BROWSER` or `CI` is set.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use fantoccini::Locator;
use serde_json::json;
use squash_app::ConversationService;
use squash_store::sqlite::SqliteStore;
use squash_web::AppState;

use crate::browser::{browser_missing, drive, start_app, Browser, DESKTOP, PHONE};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_searches_imports_and_manages_conversations_in_the_sidebar() {
    if browser_missing() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("sqlite");
    let state =
        AppState::new(ConversationService::new(Arc::new(store))).with_default_project("/work/e2e");
    let app = start_app(state).await;

    let dir_path = dir.path().to_owned();
    drive("sidebar", Duration::from_secs(180), move |b| async move {
        sidebar_story(&b, &app, &dir_path).await
    })
    .await;
}

async fn conversation(
    b: &Browser,
    name: &str,
    project: &str,
    texts: &[(&str, &str)],
) -> (String, Vec<String>) {
    let created = b
        .post_json(
            "/api/conversations",
            &json!({ "name": name, "project": project }),
        )
        .await;
    let conv = created["id"].as_str().expect("conversation id").to_owned();
    let mut ids = Vec::new();
    for (role, text) in texts {
        let out = b
            .post_json(
                &format!("/api/conversations/{conv}/messages"),
                &json!({ "role": role, "text": text }),
            )
            .await;
        ids.push(
            out["message"]["id"]
                .as_str()
                .expect("message id")
                .to_owned(),
        );
    }
    (conv, ids)
}

async fn sidebar_story(b: &Browser, app: &str, dir: &Path) {
    b.client.goto(app).await.expect("open home");
    let (build, build_ids) = conversation(
        b,
        "Fix the build",
        "/work/api",
        &[
            ("user", "The build fails with error E0308 in src/main.rs."),
            (
                "assistant",
                "The config loader returns the wrong type; fixing load_config.",
            ),
            ("user", "Also the lexer panics on empty input."),
            (
                "assistant",
                "Added a guard to the lexer; the tests pass now.",
            ),
        ],
    )
    .await;
    let (notes, _) = conversation(
        b,
        "Release notes",
        "/work/docs",
        &[(
            "user",
            "Draft the release notes: the lexer fix and the faster build.",
        )],
    )
    .await;

    // Grouped by project, newest first, each with its size.
    b.client.goto(app).await.expect("reload home");
    b.wait(
        "document.querySelector('#sidebar .sidebar-project')",
        "the sidebar",
    )
    .await;
    let groups = b
        .js("return Array.from(document.querySelectorAll('.sidebar-project h3')).map(h => h.textContent);")
        .await;
    assert_eq!(groups, json!(["/work/docs", "/work/api"]));
    let size = b
        .text(&format!("li[data-id='{build}'] .sidebar-size"))
        .await;
    assert!(size.ends_with(" tok") && size.len() > 4, "{size}");

    // Search across conversations: snippets with the match marked, as text.
    b.type_into("#search-input", "lexer").await;
    b.click("#search-form button[type=submit]").await;
    b.wait(
        "document.querySelectorAll('#search-results li').length === 3",
        "three hits",
    )
    .await;
    let marks = b
        .js("return Array.from(document.querySelectorAll('#search-results mark')).map(m => m.textContent);")
        .await;
    assert_eq!(marks, json!(["lexer", "lexer", "lexer"]));
    assert!(b
        .text("#search-status")
        .await
        .contains("3 matching messages"));
    b.screenshot("23-search-results.png").await;

    // A hit opens its conversation at the message.
    b.type_into("#search-input", "\"config loader\"").await;
    b.click("#search-form button[type=submit]").await;
    b.wait(
        "document.querySelectorAll('#search-results li').length === 1",
        "one hit",
    )
    .await;
    let href = b
        .js("return document.querySelector('.search-hit-link').getAttribute('href');")
        .await;
    let expected = format!("/c/{build}?at={0}#m-{0}", build_ids[1]);
    assert_eq!(href, json!(expected));
    b.click(".search-hit-link").await;
    b.wait(
        &format!("location.pathname === '/c/{build}' && document.querySelector('#conversation')"),
        "the conversation page",
    )
    .await;
    assert_eq!(
        b.js("return location.search + location.hash;").await,
        json!(format!("?at={0}#m-{0}", build_ids[1]))
    );

    // In the conversation, search is scoped to it, and "Select hits" hands the ids to the page.
    b.js("window.__selected = null; document.getElementById('conversation').addEventListener('squash:select', e => { window.__selected = e.detail.ids; }); return true;").await;
    b.type_into("#search-input", "lexer").await;
    b.click("#search-form button[type=submit]").await;
    b.wait(
        "document.querySelectorAll('#search-results li').length === 2",
        "two scoped hits",
    )
    .await;
    b.wait(
        "!document.querySelector('#search-select').hidden",
        "the Select hits button",
    )
    .await;
    b.click("#search-select").await;
    b.wait(
        "window.__selected && window.__selected.length === 2",
        "the squash:select event",
    )
    .await;
    let mut selected: Vec<String> =
        serde_json::from_value(b.js("return window.__selected;").await).expect("ids");
    selected.sort();
    let mut lexer_ids = vec![build_ids[2].clone(), build_ids[3].clone()];
    lexer_ids.sort();
    assert_eq!(selected, lexer_ids);
    b.screenshot("24-search-in-conversation.png").await;

    // Export: a download link per format.
    let formats = b
        .js(&format!("return Array.from(document.querySelectorAll(\"li[data-id='{build}'] .sidebar-export a\")).map(a => a.getAttribute('href'));"))
        .await;
    assert_eq!(
        formats,
        json!(["markdown", "json", "claude-code", "codex"]
            .iter()
            .map(|f| format!("/api/conversations/{build}/export?format={f}"))
            .collect::<Vec<_>>())
    );
    let exported = b
        .js(&format!(
            "return fetch('/api/conversations/{build}/export?format=json').then(r => r.text());"
        ))
        .await;
    let exported = exported.as_str().expect("export text").to_owned();
    assert!(exported.contains("load_config"));

    // Import: an OpenAI-style chat file through the file picker, with progress, then its page;
    // its messages are searchable at once.
    let file = dir.join("zeppelin-chat.json");
    let chat = json!({ "messages": [
        { "role": "user", "content": "Plan the zeppelin route over the harbour." },
        { "role": "assistant", "content": "Route planned: north over the harbour at dawn." },
    ]});
    std::fs::write(&file, chat.to_string()).expect("write file");
    // The page leaves for the imported conversation at once: what the progress showed is
    // kept in sessionStorage by an observer.
    b.js("sessionStorage.clear(); new MutationObserver(() => { \
          const p = document.querySelector('#import-progress'); \
          if (!p.hidden) sessionStorage.setItem('progress', document.querySelector('#import-status').textContent); \
          }).observe(document.querySelector('#sidebar'), { subtree: true, attributes: true, childList: true, characterData: true }); return true;").await;
    b.client
        .find(Locator::Css("#import-file"))
        .await
        .expect("file input")
        .send_keys(&file.display().to_string())
        .await
        .expect("choose file");
    b.wait(
        &format!("location.pathname.startsWith('/c/') && location.pathname !== '/c/{build}'"),
        "the imported conversation",
    )
    .await;
    b.wait("document.querySelector('#sidebar')", "the page")
        .await;
    let listed = b
        .js("return document.querySelectorAll('.sidebar-conversation').length;")
        .await;
    assert_eq!(listed, json!(3));
    let found = b
        .js("return fetch('/api/search?q=zeppelin').then(r => r.json()).then(d => d.total);")
        .await;
    assert_eq!(found, json!(1));

    // Rename and delete from the sidebar.
    b.client
        .goto(&format!("{app}/c/{build}"))
        .await
        .expect("open build");
    b.wait("document.querySelector('#sidebar')", "the page")
        .await;
    let row = format!("li[data-id='{notes}']");
    b.js(&format!(
        "document.querySelector(\"{row} .sidebar-rename\").click(); return true;"
    ))
    .await;
    b.type_into(
        &format!("{row} .sidebar-rename-form input"),
        "Notes for 1.0",
    )
    .await;
    b.js(&format!("document.querySelector(\"{row} .sidebar-rename-form button[type=submit]\").click(); return true;")).await;
    b.wait(
        &format!("document.querySelector(\"{row} .sidebar-link\").textContent === 'Notes for 1.0'"),
        "the new name",
    )
    .await;
    b.js("window.confirm = () => true; return true;").await;
    b.js(&format!(
        "document.querySelector(\"{row} .sidebar-delete\").click(); return true;"
    ))
    .await;
    b.wait(
        &format!("!document.querySelector(\"{row}\")"),
        "the row gone",
    )
    .await;
    let gone = b
        .js(&format!(
            "return fetch('/api/conversations/{notes}').then(r => r.status);"
        ))
        .await;
    assert_eq!(gone, json!(404));
    b.screenshot("25-sidebar.png").await;

    // At phone width the sidebar is behind its button.
    b.resize(PHONE).await;
    b.wait(
        "getComputedStyle(document.querySelector('#sidebar')).display === 'none'",
        "the collapsed sidebar",
    )
    .await;
    b.screenshot("25-sidebar-phone-closed.png").await;
    b.click("#sidebar-toggle").await;
    b.wait(
        "getComputedStyle(document.querySelector('#sidebar')).display !== 'none'",
        "the open sidebar",
    )
    .await;
    b.type_into("#search-input", "lexer").await;
    b.click("#search-form button[type=submit]").await;
    b.wait(
        "document.querySelectorAll('#search-results li').length === 2",
        "hits on a phone",
    )
    .await;
    b.screenshot("23-search-results-phone.png").await;
    b.resize(DESKTOP).await;
}
