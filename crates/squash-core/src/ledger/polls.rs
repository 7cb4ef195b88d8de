//! Commands that outlive their call: Codex returns from a long command with "Process running
//! with session ID 7" (unified exec) or "Script running with cell ID 4" (code mode), and the
//! agent then polls it (`write_stdin {session_id: 7}`, `wait {cell_id: "4"}`) until it ends.
//! What a poll prints, and how the command ended, is the command's.

use serde_json::Value;

use crate::message::ToolResultData;
use crate::text::patterns;

patterns! {
    /// The id of a command a tool's output says is still running.
    RUNNING = r"(?:Process running with session ID|Script running with cell ID) ([A-Za-z0-9_-]+)";
}

/// The id of the command a result says is still running, if it says so.
pub(crate) fn still_running(result: &[ToolResultData]) -> Option<String> {
    result.iter().find_map(|part| match part {
        ToolResultData::Text { text } => RUNNING
            .captures(text)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().to_owned()),
        _ => None,
    })
}

/// The id of the running command a call polls: `write_stdin`'s `session_id`, `wait`'s
/// `cell_id` (a number or a string).
pub(crate) fn polled(name: &str, input: &Value) -> Option<String> {
    let field = match name {
        "write_stdin" => "session_id",
        "wait" => "cell_id",
        _ => return None,
    };
    match input.get(field)? {
        Value::String(id) => Some(id.clone()),
        Value::Number(id) => Some(id.to_string()),
        _ => None,
    }
}

/// Whether a command's output says it is still running (its status is not known yet).
pub(crate) fn says_running(output: &str) -> bool {
    RUNNING.is_match(output)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_running_command_is_known_by_the_id_its_polls_name() {
        let text = |t: &str| vec![ToolResultData::Text { text: t.into() }];
        assert_eq!(
            still_running(&text("Chunk ID: 1\nWall time: 10.0 seconds\nProcess running with session ID 7\nOutput:\n")),
            Some("7".into())
        );
        assert_eq!(
            still_running(&text(
                "Script running with cell ID cell-17\nWall time 1.0 seconds\nOutput:\n"
            )),
            Some("cell-17".into())
        );
        assert_eq!(
            still_running(&text("Process exited with code 0\nOutput:\nok")),
            None
        );
        assert_eq!(
            polled("write_stdin", &json!({"session_id": 7, "chars": ""})),
            Some("7".into())
        );
        assert_eq!(
            polled("wait", &json!({"cell_id": "cell-17"})),
            Some("cell-17".into())
        );
        assert_eq!(polled("exec_command", &json!({"session_id": 7})), None);
    }
}
