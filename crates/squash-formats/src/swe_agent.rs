//! What an SWE-agent trajectory says about itself: its task and the repository it worked on.
//! The history opens with the system prompt and, often, a demonstration (a whole solved task of
//! another issue, `is_demo`), so neither the first user message nor the importer's working
//! directory describes the trajectory.

use serde_json::{Map, Value};

/// The trajectory's run configuration; SWE-agent writes it as an object or as a JSON string.
fn replay_config(top: &Map<String, Value>) -> Option<Value> {
    match top.get("replay_config")? {
        Value::String(text) => serde_json::from_str(text).ok(),
        other => Some(other.clone()),
    }
}

/// The problem statement the agent was given, if the trajectory records it.
pub(crate) fn problem_statement(top: &Map<String, Value>) -> Option<String> {
    let config = replay_config(top)?;
    let statement = config.get("problem_statement")?;
    statement
        .get("text")
        .or(Some(statement))
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// Whether a history entry is part of a demonstration rather than the task.
pub(crate) fn is_demonstration(entry: &Value) -> bool {
    entry.get("is_demo").and_then(Value::as_bool) == Some(true)
        || entry.get("message_type").and_then(Value::as_str) == Some("demonstration")
}

/// The task statement inside SWE-agent's first user message, under its preamble.
pub(crate) fn task_text(text: &str) -> &str {
    text.split_once("ISSUE:\n")
        .map(|(_, issue)| issue)
        .unwrap_or(text)
}

/// The repository the trajectory worked on: its GitHub URL (as `owner/name`), its local path,
/// or the repository a SWE-bench instance id names (`owner__name-1234`).
pub(crate) fn repository(top: &Map<String, Value>) -> Option<String> {
    let config = replay_config(top)?;
    let repo = config.get("env").and_then(|env| env.get("repo"));
    let field = |key: &str| {
        repo.and_then(|r| r.get(key))
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    if let Some(url) = field("github_url") {
        let path = url
            .trim_end_matches('/')
            .trim_end_matches(".git")
            .rsplitn(3, '/')
            .take(2)
            .collect::<Vec<_>>();
        if let [name, owner] = path.as_slice() {
            return Some(format!("{owner}/{name}"));
        }
    }
    if let Some(path) = field("path") {
        return Some(path.to_owned());
    }
    config
        .get("problem_statement")
        .and_then(|p| p.get("id"))
        .and_then(Value::as_str)
        .and_then(swe_bench_repository)
}

/// `owner__name-1234` → `owner/name`.
fn swe_bench_repository(instance: &str) -> Option<String> {
    let (owner, rest) = instance.split_once("__")?;
    let (name, number) = rest.rsplit_once('-')?;
    let valid = !owner.is_empty()
        && !name.is_empty()
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit());
    valid.then(|| format!("{owner}/{name}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn repositories_from_url_path_or_instance() {
        let top = |repo: Value, id: &str| {
            let config = json!({"env": {"repo": repo}, "problem_statement": {"id": id}});
            let mut top = Map::new();
            top.insert("replay_config".into(), Value::String(config.to_string()));
            top
        };
        let github =
            json!({"github_url": "https://github.com/pallets/flask.git", "type": "github"});
        assert_eq!(repository(&top(github, "x")), Some("pallets/flask".into()));
        let local = json!({"path": "/src/app", "type": "local"});
        assert_eq!(repository(&top(local, "x")), Some("/src/app".into()));
        let pre = json!({"repo_name": "testbed", "type": "preexisting"});
        assert_eq!(
            repository(&top(pre.clone(), "marshmallow-code__marshmallow-1867")),
            Some("marshmallow-code/marshmallow".into())
        );
        assert_eq!(repository(&top(pre, "my task")), None);
        assert_eq!(repository(&Map::new()), None);
    }
}
