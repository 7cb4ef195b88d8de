//! "Show the original" and sub-agent runs over HTTP, through the router (no sockets): the JSON
//! endpoints and the fragments the page loads, paged (an operation standing for 3,000 messages
//! is read whole, page after page), nested originals, clear refusals of unknown ids and bad
//! paging, and the page itself (the control under an operated message, the run under its call).

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use serde_json::Value;
use squash_app::{ConversationService, NoProgress};
use squash_core::{ConversationId, MessageId, SquashOperationId};
use squash_store::sqlite::SqliteStore;
use squash_testkit::fixtures::{import_options, session_data, squash_into};
use squash_testkit::long_session::stored;
use squash_web::AppState;
use tower::ServiceExt;

struct App {
    router: Router,
    service: ConversationService,
    _dir: tempfile::TempDir,
}

fn app() -> App {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("squash.db")).expect("open sqlite");
    let service = ConversationService::new(Arc::new(store));
    let state = AppState::new(service.clone()).with_default_project("/work/originals");
    App {
        router: squash_web::router(state),
        service,
        _dir: dir,
    }
}

impl App {
    async fn get(&self, uri: &str) -> (StatusCode, String) {
        let req = Request::get(uri).body(Body::empty()).expect("request");
        let response = self.router.clone().oneshot(req).await.expect("infallible");
        let status = response.status();
        let body = crate::body_bytes(response).await;
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    async fn json(&self, uri: &str) -> Value {
        let (status, text) = self.get(uri).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {text}");
        serde_json::from_str(&text).expect("JSON")
    }

    /// The refusal of `uri`: its status and the error's message.
    async fn refused(&self, uri: &str, status: StatusCode, code: &str) -> String {
        let (got, text) = self.get(uri).await;
        assert_eq!(got, status, "{uri}: {text}");
        let body: Value = serde_json::from_str(&text).expect("an error in JSON");
        assert_eq!(body["error"]["code"], code, "{text}");
        body["error"]["message"]
            .as_str()
            .expect("message")
            .to_owned()
    }

    /// The message of the 400 `invalid_input` error a GET of `uri` is refused with.
    async fn invalid_input(&self, uri: &str) -> String {
        self.refused(uri, StatusCode::BAD_REQUEST, "invalid_input")
            .await
    }

    /// A manual squash of `ids` into `text`: its result and its operation.
    async fn squash(
        &self,
        conv: ConversationId,
        ids: &[MessageId],
        text: &str,
    ) -> (MessageId, SquashOperationId) {
        let op = squash_into(&self.service, conv, ids, text).await;
        (op.result_message_id, op.id)
    }
}

/// The values of `attr` in `html`, in order (the server writes attributes as `attr="value"`).
fn attrs(html: &str, attr: &str) -> Vec<String> {
    let key = format!(" {attr}=\"");
    html.match_indices(&key)
        .filter_map(|(at, _)| {
            let rest = &html[at + key.len()..];
            rest.find('"').map(|end| rest[..end].replace("&amp;", "&"))
        })
        .collect()
}

#[tokio::test]
async fn an_operation_of_3000_sources_reads_whole_a_page_at_a_time() {
    let app = app();
    let (conv, ids) = stored(app.service.store().as_ref(), 3_000).await;
    let (_, op) = app.squash(conv, &ids, "the whole session, digested").await;

    // JSON: the first page by default, any page by offset, in conversation order.
    let first = app.json(&format!("/api/operations/{op}/sources")).await;
    assert_eq!(first["total"], 3_000);
    assert_eq!(first["offset"], 0);
    assert_eq!(first["operation"]["id"], op.to_string());
    let got: Vec<&str> = crate::strings_of(&first["messages"], "id");
    let want: Vec<String> = ids[..50].iter().map(ToString::to_string).collect();
    assert_eq!(got, want);
    assert_eq!(first["message_tokens"].as_array().unwrap().len(), 50);
    let end = app
        .json(&format!(
            "/api/operations/{op}/sources?offset=2990&limit=20"
        ))
        .await;
    let got: Vec<&str> = crate::strings_of(&end["messages"], "id");
    let want: Vec<String> = ids[2990..].iter().map(ToString::to_string).collect();
    assert_eq!(got, want);

    // The fragment: each page ends with the address of the next, until all 3,000 are shown.
    let mut url = format!("/ui/operations/{op}/sources?limit=700");
    let mut shown = Vec::new();
    let mut pages = 0;
    loop {
        let (status, html) = app.get(&url).await;
        assert_eq!(status, StatusCode::OK, "{html}");
        if pages == 0 {
            assert!(html.contains("The 3,000 messages it stands for"), "{html}");
        }
        pages += 1;
        shown.extend(attrs(&html, "data-id"));
        match attrs(&html, "data-src")
            .into_iter()
            .find(|s| s.contains("offset="))
        {
            Some(next) => url = next,
            None => break,
        }
    }
    assert_eq!(pages, 5);
    let want: Vec<String> = ids.iter().map(ToString::to_string).collect();
    assert_eq!(shown, want, "every source once, in order");
}

#[tokio::test]
async fn unknown_ids_and_bad_paging_are_refused_clearly() {
    let app = app();
    let (conv, ids) = stored(app.service.store().as_ref(), 6).await;
    let (_, op) = app.squash(conv, &ids[..4], "four").await;
    let unknown_op = SquashOperationId::new();
    let unknown_conv = ConversationId::new();
    for uri in [
        format!("/api/operations/{unknown_op}/sources"),
        format!("/ui/operations/{unknown_op}/sources"),
    ] {
        let message = app.refused(&uri, StatusCode::NOT_FOUND, "not_found").await;
        assert!(
            message.contains("operation") && message.contains(&unknown_op.to_string()),
            "{message}"
        );
    }
    for uri in [
        format!("/api/conversations/{unknown_conv}/subagents"),
        format!("/ui/conversations/{unknown_conv}/run"),
    ] {
        let message = app.refused(&uri, StatusCode::NOT_FOUND, "not_found").await;
        assert!(message.contains("conversation"), "{message}");
    }
    let message = app.invalid_input("/api/operations/nope/sources").await;
    assert!(
        message.contains("`nope` is not a operation id"),
        "{message}"
    );
    let message = app
        .invalid_input(&format!("/api/operations/{op}/sources?offset=5"))
        .await;
    assert!(message.contains("there are 4 sources"), "{message}");
    let message = app
        .invalid_input(&format!("/ui/operations/{op}/sources?limit=2001"))
        .await;
    assert!(message.contains("at most 2000"), "{message}");
    app.invalid_input(&format!("/api/operations/{op}/sources?page=2"))
        .await;
    app.invalid_input(&format!("/ui/conversations/{conv}/run?offset=99"))
        .await;
}

#[tokio::test]
async fn originals_nest_and_the_page_offers_them_under_each_operated_message() {
    let app = app();
    let (conv, ids) = stored(app.service.store().as_ref(), 6).await;
    let (inner_msg, inner) = app.squash(conv, &ids[..4], "the first turn").await;
    let (_, outer) = app
        .squash(conv, &[inner_msg, ids[4], ids[5]], "the whole")
        .await;

    // The page: the result carries the control, pointing at its operation's sources.
    let (status, page) = app.get(&format!("/c/{conv}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains(&format!("data-src=\"/ui/operations/{outer}/sources\"")),
        "{page}"
    );
    assert!(page.contains("Show the original (3 messages)"), "{page}");
    assert!(page.contains("class=\"originals\" hidden"), "{page}");
    // Its sources: the inner result first, with a control of its own.
    let (_, html) = app.get(&format!("/ui/operations/{outer}/sources")).await;
    let shown = attrs(&html, "data-id");
    assert_eq!(
        shown,
        vec![
            inner_msg.to_string(),
            ids[4].to_string(),
            ids[5].to_string()
        ]
    );
    assert!(
        html.contains(&format!("data-src=\"/ui/operations/{inner}/sources\"")),
        "{html}"
    );
    assert!(html.contains("Show the original (4 messages)"), "{html}");
    assert!(!html.contains("originals-more"), "one page holds them all");
    // And the inner one's: the four originals, with the tool cards of the thread.
    let (_, html) = app.get(&format!("/ui/operations/{inner}/sources")).await;
    let shown = attrs(&html, "data-id");
    let want: Vec<String> = ids[..4].iter().map(ToString::to_string).collect();
    assert_eq!(shown, want);
    assert!(html.contains("tool-card"), "{html}");
}

#[tokio::test]
async fn a_sub_agent_run_sits_under_the_call_that_started_it() {
    let app = app();
    let summary = app
        .service
        .import_path(
            &session_data("claude-code-subagents-5c0375b4.jsonl"),
            &import_options("/work/originals"),
            Arc::new(NoProgress),
        )
        .await
        .expect("import");
    let main = summary
        .conversations
        .iter()
        .find(|c| !c.sidechain)
        .unwrap()
        .conversation_id;
    let runs = app
        .json(&format!("/api/conversations/{main}/subagents"))
        .await;
    let runs = runs["runs"].as_array().expect("runs").clone();
    assert_eq!(runs.len(), 2);
    let (status, page) = app.get(&format!("/c/{main}")).await;
    assert_eq!(status, StatusCode::OK);
    for run in &runs {
        let call = run["call_id"].as_str().unwrap();
        let id = run["run"]["id"].as_str().unwrap();
        let count = run["run"]["message_count"].as_u64().unwrap();
        assert!(count > 2, "{run}");
        // In the card of its call, folded, with its size.
        let card = page
            .find(&format!("id=\"call-{call}\""))
            .expect("the call's card");
        let fold = page[card..]
            .find("subagent-run")
            .expect("a fold after the card")
            + card;
        let next_card = page[card + 1..]
            .find("class=\"tool-card")
            .map_or(page.len(), |i| i + card + 1);
        assert!(fold < next_card, "the fold is in its call's card");
        assert!(
            page[fold..].starts_with(&format!(
                "subagent-run\" data-src=\"/ui/conversations/{id}/run\""
            )),
            "{}",
            &page[fold..fold + 200]
        );
        assert!(page[fold..next_card].contains(&format!("{count} messages")));
        // Opened: its first page, then the rest.
        let (status, html) = app
            .get(&format!("/ui/conversations/{id}/run?limit=2"))
            .await;
        assert_eq!(status, StatusCode::OK, "{html}");
        assert_eq!(attrs(&html, "data-id").len(), 2);
        assert!(
            html.contains(&format!("/ui/conversations/{id}/run?offset=2&amp;limit=2")),
            "{html}"
        );
        // A run has none of its own.
        let own = app
            .json(&format!("/api/conversations/{id}/subagents"))
            .await;
        assert_eq!(own["runs"], Value::Array(Vec::new()));
    }
}
