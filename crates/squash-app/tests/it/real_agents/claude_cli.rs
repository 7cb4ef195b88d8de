//! The `claude-cli` provider with the real `claude` binary: an AI squash through the engine
//! runs the CLI exactly as the provider invokes it (`-p --output-format json --tools ""`, the
//! system prompt as an argument, the squash prompt on standard input); the CLI calls the
//! loopback Anthropic server, and the server's answer comes back as the squash.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;
use squash_app::SquashEngine;
use squash_core::ledger::build_ledger;
use squash_core::{ContentItem, Message, Role};
use squash_llm::{ClaudeCliConfig, ClaudeCliModel};

use super::{backends, block_text};
use squash_testkit::agents::anthropic::AnthropicServer;
use squash_testkit::agents::{Agent, AgentKind, Sandbox};
use squash_testkit::Backend;

/// The provider runs the program it is configured with in the environment Squash has; this
/// stand-in only isolates that environment (the sandbox's home and config, the loopback server)
/// and runs the real binary with the provider's arguments and standard input untouched.
fn isolating_wrapper(claude: &Agent, sandbox: &Sandbox, base_url: &str) -> PathBuf {
    let quote = |p: &Path| format!("'{}'", p.to_string_lossy().replace('\'', "'\\''"));
    let script = format!(
        "#!/bin/sh\nexec env -i PATH=\"$PATH\" LANG=C.UTF-8 HOME={home} CLAUDE_CONFIG_DIR={config} \
         ANTHROPIC_BASE_URL={base_url} ANTHROPIC_API_KEY=test DISABLE_AUTOUPDATER=1 \
         DISABLE_TELEMETRY=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 {bin} \"$@\"\n",
        home = quote(&sandbox.home),
        config = quote(&sandbox.claude_config()),
        bin = quote(&claude.bin),
    );
    let path = sandbox.home.join("claude-isolated");
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A request, a command and its output, an answer.
async fn session(b: &Backend, cwd: &str) -> (squash_core::ConversationId, Vec<Message>) {
    let s = &b.service;
    let conv = s.create_conversation(cwd, "probe").await.unwrap().id;
    let turns = [
        (
            Role::User,
            vec![ContentItem::text_for(
                Role::User,
                "Check that the probe file exists.",
            )],
        ),
        (
            Role::Assistant,
            vec![ContentItem::tool_call(
                "toolu_cli_1",
                "Bash",
                json!({"command": "cat out.txt"}),
            )],
        ),
        (
            Role::User,
            vec![ContentItem::tool_result(
                "toolu_cli_1",
                "Bash",
                "squash-probe-42",
                false,
            )],
        ),
        (
            Role::Assistant,
            vec![ContentItem::text_for(
                Role::Assistant,
                "out.txt holds squash-probe-42.",
            )],
        ),
    ];
    let mut messages = Vec::new();
    for (role, content) in turns {
        messages.push(s.append(conv, role, content).await.unwrap().0);
    }
    (conv, messages)
}

async fn squash_through_the_cli(b: &Backend, claude: &Agent) {
    let sandbox = Sandbox::new();
    let (conv, messages) = session(b, &sandbox.cwd.to_string_lossy()).await;
    let run: Vec<&Message> = messages[1..].iter().collect();
    // Every fact of the run, so the answer needs no repair and comes back as it is.
    let facts: Vec<String> = build_ledger(&run)
        .facts
        .into_iter()
        .map(|f| f.text)
        .collect();
    let answer = format!("Ran `cat out.txt`: {}", facts.join("; "));
    let server = AnthropicServer::with_side_answer(Vec::new(), &answer).await;
    let mut config = ClaudeCliConfig::new(isolating_wrapper(claude, &sandbox, &server.base_url()));
    config.working_dir = Some(sandbox.cwd.clone());
    let ids: Vec<_> = run.iter().map(|m| m.id).collect();
    let done = SquashEngine::new(b.service.clone(), Arc::new(ClaudeCliModel::new(config)))
        .squash_and_apply(conv, &ids, None)
        .await
        .expect("the squash through the real CLI");

    let sent = server.message_requests();
    assert_eq!(sent.len(), 1, "{sent:#?}");
    let body = &sent[0];
    // No tools offered: the provider's `--tools ""` holds with the real binary.
    assert!(
        body["tools"].as_array().is_none_or(Vec::is_empty),
        "{}",
        body["tools"]
    );
    let prompt = done.result.prompt.as_ref().expect("the prompt");
    let system: Vec<String> = body["system"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b["text"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    // The CLI's own agent prompt (tens of kB) is replaced: left are its billing header and
    // identity line, and the squash's system prompt when the style has one.
    let own: usize = system
        .iter()
        .map(String::len)
        .sum::<usize>()
        .saturating_sub(prompt.system.as_deref().map_or(0, str::len));
    assert!(
        own < 1000,
        "the CLI's agent prompt is still sent: {system:?}"
    );
    if let Some(wanted) = prompt.system.as_deref() {
        assert!(
            system.iter().any(|t| t.trim() == wanted.trim()),
            "{system:?}"
        );
    }
    let user: String = body["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| block_text(&m["content"]))
        .collect();
    assert!(
        user.contains(prompt.user.trim()),
        "the squash prompt: {user}"
    );
    assert!(user.contains("<messages_to_squash>") && user.contains("cat out.txt"));

    assert_eq!(done.result.text.trim(), answer);
    assert_eq!(done.result.report.repairs, 0);
    let op = done.outcome.operation.expect("the operation");
    assert_eq!(op.kind.provider().map(|p| p.as_str()), Some("claude-cli"));
    let stored = done.outcome.message.expect("the squash message");
    // Stored with the reference recall finds the sources by.
    assert_eq!(
        squash_core::render::message_text(&stored).trim(),
        format!("{answer} [ref 1]")
    );
}

#[tokio::test]
async fn the_claude_cli_provider_squashes_with_the_real_binary() {
    let Some(claude) = Agent::find(AgentKind::Claude) else {
        return;
    };
    for b in backends().await {
        squash_through_the_cli(&b, &claude).await;
        eprintln!("{}: ok", b.name);
        b.cleanup().await;
    }
}
