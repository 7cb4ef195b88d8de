//! What the tests and examples that start a process of their own share: a free port, waiting
//! until it listens, and an example's exit on error.

use std::process::Stdio;
use std::time::{Duration, Instant};

/// A port free on 127.0.0.1 a moment ago, for a process that must be told its port.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

/// Starts `command`, its output dropped and killed when dropped, and waits until it listens on
/// 127.0.0.1:`port`, trying every 50 ms; fails with "start `what`" when it cannot start and
/// "`what` did not start" once `limit` has passed.
pub async fn start_listening(
    mut command: tokio::process::Command,
    what: &str,
    port: u16,
    limit: Duration,
) -> tokio::process::Child {
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("start {what}: {e:?}"));
    let deadline = Instant::now() + limit;
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "{what} did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    child
}

/// The end of an example's `main`: an error is printed after `name: ` and exits with status 1.
pub fn exit_on_error(name: &str, outcome: Result<(), String>) {
    if let Err(e) = outcome {
        eprintln!("{name}: {e}");
        std::process::exit(1);
    }
}
