//! `squash serve` from the built binary: a usable page with the embedded defaults and no
//! model configured, and no listening beyond loopback without a token.

use squash_testkit::cli::{unconfigured, Served};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};

/// The binary with a fresh database and no model provider in its environment.
fn squash(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_squash"));
    c.env("SQUASH_DB", dir.join("squash.db"))
        .env_remove("SQUASH_TOKEN")
        .env_remove("DATABASE_URL");
    // No `claude` on this PATH, and no provider keys: the server runs without a model.
    unconfigured(&mut c, dir);
    c
}

fn start(cmd: &mut Command) -> Served {
    Served::start(cmd.stderr(Stdio::null()))
}

/// One HTTP/1.1 request over a plain socket: (status line, body).
fn request(addr: &str, method: &str, path: &str, headers: &[&str], body: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for h in headers {
        req.push_str(h);
        req.push_str("\r\n");
    }
    req.push_str("\r\n");
    req.push_str(body);
    stream.write_all(req.as_bytes()).expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    let status = response.lines().next().unwrap_or_default().to_owned();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

fn host_port(url: &str) -> String {
    let rest = url.trim_start_matches("http://");
    rest.split(['/', '?']).next().unwrap_or(rest).to_owned()
}

#[test]
fn serves_a_usable_page_without_a_model() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = start(squash(dir.path()).args(["serve", "--addr", "127.0.0.1:0"]));
    let addr = host_port(&server.url);

    let (status, page) = request(&addr, "GET", "/", &[], "");
    assert!(status.contains("200"), "{status}");
    assert!(page.contains("New conversation"), "{page}");
    assert!(page.contains("no model configured"), "{page}");
    let (status, script) = request(&addr, "GET", "/static/app.js", &[], "");
    assert!(
        status.contains("200") && script.contains("X-Squash-Csrf"),
        "{status}"
    );

    // Create a conversation the way the page does, and open it.
    let (status, created) = request(
        &addr,
        "POST",
        "/api/conversations",
        &["Content-Type: application/json", "X-Squash-Csrf: 1"],
        r#"{"name":"From the test"}"#,
    );
    assert!(status.contains("201"), "{status} {created}");
    let id = created
        .split("\"id\":\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("id")
        .to_owned();
    let (status, page) = request(&addr, "GET", &format!("/c/{id}"), &[], "");
    assert!(status.contains("200"), "{status}");
    assert!(page.contains("Squash ▾"), "{page}");

    // AI actions explain that no model is configured.
    let (status, body) = request(&addr, "GET", "/api/model", &[], "");
    assert!(
        status.contains("200") && body.contains("\"configured\":false"),
        "{body}"
    );
}

#[test]
fn other_addresses_need_a_token() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = squash(dir.path())
        .args(["serve", "--addr", "0.0.0.0:0"])
        .output()
        .expect("run squash serve");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("token"), "{stderr}");

    let server = start(
        squash(dir.path())
            .args(["serve", "--addr", "0.0.0.0:0"])
            .env("SQUASH_TOKEN", "t0ken"),
    );
    assert!(server.url.ends_with("/?token=t0ken"), "{}", server.url);
    let port = host_port(&server.url)
        .rsplit(':')
        .next()
        .expect("port")
        .to_owned();
    let addr = format!("127.0.0.1:{port}");
    let (status, _) = request(&addr, "GET", "/api/model", &[], "");
    assert!(status.contains("401"), "{status}");
    let (status, _) = request(
        &addr,
        "GET",
        "/api/model",
        &["Authorization: Bearer t0ken"],
        "",
    );
    assert!(status.contains("200"), "{status}");
}
