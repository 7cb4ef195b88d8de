//! The recall server over a real MCP session (the SDK's client, in process, over a pipe), on
//! every backend: a fit trims a session's long outputs and shortens its old steps; every result
//! carries a reference, and `recall` of it gives back, verbatim and paged, what the result
//! stands for; bad references and arguments are clear JSON-RPC errors; the scope holds.

use rmcp::model::{CallToolRequestParams, CallToolResult, ErrorCode};
use rmcp::service::{RoleClient, RunningService};
use rmcp::ServiceExt;
use serde_json::{json, Value};
use squash_app::fit::{FitService, FitStrategy};
use squash_app::{ConversationService, SquashEngine};
use squash_core::fit::FitRequest;
use squash_core::recall::refs_in;
use squash_core::render::message_text;
use squash_core::{ConversationId, RecallRef, Role};
use squash_mcp::{Scope, SquashMcp};
use squash_testkit::fixtures::{append_call, append_output, append_text, new_conversation};
use squash_testkit::{on_every_backend, Backend};

type Client = RunningService<RoleClient, ()>;

/// A request, then `steps` steps with a 400-line output each, fitted to a quarter of its size.
async fn fitted(service: &ConversationService, steps: usize) -> ConversationId {
    let conv = new_conversation(service, "/tmp/mcp", "recall").await.id;
    append_text(
        service,
        conv,
        Role::User,
        "Run the report generator and check it.",
    )
    .await;
    for t in 0..steps {
        let id = format!("toolu_{t}");
        let command = json!({"command": format!("gen {t}")});
        append_call(service, conv, &id, "Bash", command).await;
        let output: String = (1..=400)
            .map(|n| format!("report {t} line {n}\n"))
            .collect();
        append_output(service, conv, &id, "Bash", &output, false).await;
    }
    let fitter = FitService::new(SquashEngine::offline(service.clone()));
    let before = service.current_thread(conv).await.expect("thread").tokens;
    let request = FitRequest::new(before / 4, FitStrategy::Extract);
    let planned = fitter.plan(conv, request).await.expect("plan");
    let quiet = |_: squash_app::fit::FitProgress<'_>| {};
    fitter
        .apply(planned, false, &quiet)
        .await
        .expect("the fit applies");
    conv
}

async fn connect(service: &ConversationService, scope: Vec<ConversationId>) -> Client {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = SquashMcp::new(service.clone(), Scope::new(scope).expect("a scope"));
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_end).await.expect("the handshake")
}

async fn call(
    client: &Client,
    tool: &'static str,
    args: Value,
) -> Result<CallToolResult, rmcp::ErrorData> {
    let params = CallToolRequestParams::new(tool)
        .with_arguments(args.as_object().expect("arguments are an object").clone());
    match client.call_tool(params).await {
        Ok(r) => Ok(r),
        Err(rmcp::service::ServiceError::McpError(e)) => Err(e),
        Err(e) => panic!("the session failed: {e}"),
    }
}

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect()
}

async fn recall_story(b: &Backend) {
    let service = &b.service;
    let conv = fitted(service, 12).await;
    let other = new_conversation(service, "/tmp/mcp", "elsewhere").await.id;
    let client = connect(service, vec![conv]).await;

    let info = client.peer_info().expect("the server's info");
    let server = info
        .server_info
        .as_ref()
        .expect("the server says who it is");
    assert_eq!(server.name, "squash");
    assert!(info
        .instructions
        .as_deref()
        .unwrap_or("")
        .contains("[ref 12]"));
    let tools = client.list_all_tools().await.expect("tools");
    let recall = tools.iter().find(|t| t.name == "recall").expect("recall");
    assert_eq!(
        recall.annotations.as_ref().and_then(|a| a.read_only_hint),
        Some(true)
    );

    // Every result of the fit names a reference; recall of it gives back its sources whole.
    let view = service.current_thread(conv).await.expect("thread");
    let marked: Vec<_> = view
        .messages
        .iter()
        .filter(|m| m.squash_operation_id.is_some())
        .collect();
    assert!(marked.len() >= 2, "the fit shortened several steps");
    for m in &marked {
        let op = service
            .operation(m.squash_operation_id.unwrap())
            .await
            .expect("op");
        let recall = op.recall_ref.expect("a fit's result carries a reference");
        assert!(
            refs_in(&message_text(m)).contains(&recall),
            "{}",
            message_text(m)
        );
        let answer = call(
            &client,
            "recall",
            json!({"ref": format!("[{recall}]"), "limit": 2000}),
        )
        .await
        .expect("recall answers");
        let text = text_of(&answer);
        let sources = service
            .messages(&op.source_message_ids)
            .await
            .expect("sources");
        for source in &sources {
            for line in message_text(source).lines().filter(|l| !l.is_empty()) {
                assert!(text.contains(line), "{recall}: {line} missing");
            }
        }
    }

    // A page from the middle of a long original, and where the next one starts.
    let first = RecallRef::FIRST.get();
    let page = text_of(
        &call(
            &client,
            "recall",
            json!({"ref": first, "offset": 100, "limit": 10}),
        )
        .await
        .expect("a page"),
    );
    assert!(page.contains("lines 101–110 of"), "{page}");
    assert!(
        page.contains("more lines: recall with ref \"1\" and offset 110"),
        "{page}"
    );
    assert_eq!(page.lines().count(), 12, "{page}");

    // Search finds what the fit cut out of the thread, and says which reference holds it.
    let tools: Vec<_> = tools.iter().map(|t| t.name.to_string()).collect();
    assert!(tools.contains(&"search".to_owned()), "{tools:?}");
    let found = text_of(
        &call(
            &client,
            "search",
            json!({"query": "\"report 3 line 250\"", "limit": 3}),
        )
        .await
        .expect("search answers"),
    );
    assert!(found.starts_with("hits 1–1 of 1 for"), "{found}");
    assert!(found.contains("«250»"), "{found}");
    assert!(
        found.contains("recall ref"),
        "the hit names the reference that holds it: {found}"
    );
    assert!(
        found.contains("the call:") && found.contains(r#"{"command":"gen 3"}"#),
        "the output's hit shows the command that printed it: {found}"
    );
    let nothing = text_of(
        &call(&client, "search", json!({"query": "zebra"}))
            .await
            .expect("search answers"),
    );
    assert!(
        nothing.contains("nothing in the history holds"),
        "{nothing}"
    );
    let empty = call(&client, "search", json!({"query": "  "}))
        .await
        .expect_err("no words");
    assert_eq!(empty.code, ErrorCode::INVALID_PARAMS);
    let many = call(&client, "search", json!({"query": "report", "limit": 500}))
        .await
        .expect_err("too many");
    assert_eq!(many.code, ErrorCode::INVALID_PARAMS);

    // Clear errors, nothing else changes.
    let unknown = call(&client, "recall", json!({"ref": 999}))
        .await
        .expect_err("unknown");
    assert_eq!(unknown.code, ErrorCode::RESOURCE_NOT_FOUND);
    assert!(unknown.message.contains("no [ref 999]") && unknown.message.contains("from 1 to"));
    let bad = call(&client, "recall", json!({"ref": "twelve"}))
        .await
        .expect_err("bad ref");
    assert_eq!(bad.code, ErrorCode::INVALID_PARAMS);
    let past = call(
        &client,
        "recall",
        json!({"ref": first, "offset": 1_000_000}),
    )
    .await
    .expect_err("past the end");
    assert_eq!(past.code, ErrorCode::INVALID_PARAMS);
    assert!(
        past.message.contains("a page starts at 0 to"),
        "{}",
        past.message
    );
    let zero = call(&client, "recall", json!({"ref": first, "limit": 0}))
        .await
        .expect_err("an empty page");
    assert_eq!(zero.code, ErrorCode::INVALID_PARAMS);
    let outside = call(
        &client,
        "recall",
        json!({"ref": first, "conversation": other.to_string()}),
    )
    .await
    .expect_err("outside the scope");
    assert_eq!(outside.code, ErrorCode::INVALID_PARAMS);
    assert!(outside
        .message
        .contains("not one this server answers about"));
    let missing = call(&client, "recall", json!({}))
        .await
        .expect_err("no ref");
    assert_eq!(missing.code, ErrorCode::INVALID_PARAMS);
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn recall_gives_back_what_a_fit_shortened_on_every_backend() {
    on_every_backend!(recall_story);
}

/// A server with several conversations in scope finds a reference where it is, and asks which
/// one is meant when several hold it.
async fn scope_story(b: &Backend) {
    let service = &b.service;
    let (one, two) = (fitted(service, 6).await, fitted(service, 6).await);
    let client = connect(service, vec![one, two]).await;
    let ambiguous = call(&client, "recall", json!({"ref": 1}))
        .await
        .expect_err("two hold it");
    assert_eq!(ambiguous.code, ErrorCode::INVALID_PARAMS);
    assert!(ambiguous.message.contains("name one with `conversation`"));
    let chosen = call(
        &client,
        "recall",
        json!({"ref": 1, "conversation": two.to_string()}),
    )
    .await
    .expect("the one named");
    assert!(text_of(&chosen).starts_with("[ref 1] stands for"));
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn a_reference_is_looked_up_in_the_conversations_of_the_scope_on_every_backend() {
    on_every_backend!(scope_story);
}
