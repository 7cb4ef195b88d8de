//! What resuming an agent's session needs to know of its file besides its messages: the id the
//! agent resumes it by, the working directory it ran in, the model it used last, and where the
//! agent's own configuration puts things. Each agent keeps these its own way; they are read here
//! so that no caller slices file names or parses an agent's JSON.

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;
use squash_core::SourceFormat;

/// Lines read from the top of a session for its working directory.
const CWD_SCAN_LINES: usize = 64;

/// The id the agent resumes the session in the file at `path` by (`text` is the file's text,
/// when it was read): Claude Code's and opencode's file name; the `sessionId` a Gemini CLI
/// recording names (else its file name, which holds only the first eight characters); the UUID
/// at the end of a Codex rollout's name (`rollout-<time>-<uuid>.jsonl`).
pub fn resume_id(format: SourceFormat, path: &Path, text: Option<&str>) -> Option<String> {
    let stem = path.file_stem().and_then(|s| s.to_str())?;
    Some(match format {
        SourceFormat::Gemini => text
            .and_then(gemini_session_id)
            .unwrap_or_else(|| stem.to_owned()),
        SourceFormat::Codex => {
            // A UUID is the last five dash-separated groups.
            let parts: Vec<&str> = stem.split('-').collect();
            parts[parts.len().saturating_sub(5)..].join("-")
        }
        _ => stem.to_owned(),
    })
}

/// The `sessionId` on a Gemini CLI recording's first line (or its whole older document).
pub fn gemini_session_id(text: &str) -> Option<String> {
    let first = text.lines().next()?;
    let header: Value = serde_json::from_str(first)
        .or_else(|_| serde_json::from_str(text))
        .ok()?;
    header.get("sessionId")?.as_str().map(str::to_owned)
}

/// The model named last: `message.model` on Claude Code's assistant lines, `payload.model` on
/// Codex's turn contexts, `model` on Gemini CLI's model turns.
pub fn last_model(text: &str) -> Option<String> {
    text.lines()
        .rev()
        .filter(|l| l.contains("\"model\""))
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| {
            v.pointer("/message/model")
                .or_else(|| v.pointer("/payload/model"))
                .or_else(|| v.get("model"))
                .and_then(Value::as_str)
                .filter(|m| !m.is_empty() && *m != "<synthetic>")
                .map(str::to_owned)
        })
}

/// Bytes read at a time from the end of a session for the model it used last.
const TAIL_BLOCK: u64 = 1 << 20;

/// [`last_model`] of the session file at `path`, read from its end a block at a time: the model
/// named last is near the end, and a session may be larger than memory should hold.
pub fn last_model_in_file(path: &Path) -> std::io::Result<Option<String>> {
    let mut file = std::fs::File::open(path)?;
    let mut end = file.metadata()?.len();
    // The start of the block after, up to its first line break: the end of a line that
    // begins in this block.
    let mut carried: Vec<u8> = Vec::new();
    while end > 0 {
        let start = end.saturating_sub(TAIL_BLOCK);
        let mut block = vec![0; usize::try_from(end - start).unwrap_or(0)];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut block)?;
        block.append(&mut carried);
        let whole_from = match start {
            0 => 0,
            _ => block
                .iter()
                .position(|&b| b == b'\n')
                .map_or(block.len(), |i| i + 1),
        };
        if let Some(model) = last_model(&String::from_utf8_lossy(&block[whole_from..])) {
            return Ok(Some(model));
        }
        block.truncate(whole_from);
        carried = block;
        end = start;
    }
    Ok(None)
}

/// The working directory a session names on one of its first lines (`cwd` on Claude Code
/// lines, `payload.cwd` on Codex's session_meta; Gemini's recordings name `directories` on
/// sub-agent headers only; opencode keeps it in its store).
pub fn session_cwd(path: &Path, format: SourceFormat) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    BufReader::new(file)
        .lines()
        .take(CWD_SCAN_LINES)
        .map_while(Result::ok)
        .filter_map(|line| serde_json::from_str::<Value>(&line).ok())
        .find_map(|v| {
            let cwd = match format {
                SourceFormat::ClaudeCode => v.get("cwd"),
                SourceFormat::Codex => v.get("payload").and_then(|p| p.get("cwd")),
                SourceFormat::Gemini => v.get("directories").and_then(|d| d.get(0)),
                _ => None,
            };
            cwd.and_then(Value::as_str).map(str::to_owned)
        })
}

/// The working directory of a Gemini CLI recording: the `.project_root` marker of the project
/// folder it is in (`<project>/chats/<file>`).
pub fn gemini_project_root(path: &Path) -> Option<String> {
    let project = path.parent()?.parent()?;
    let root = std::fs::read_to_string(project.join(".project_root")).ok()?;
    Some(root.trim().to_owned()).filter(|r| !r.is_empty())
}

/// The `provider/model` an opencode configuration (`opencode.json`, or `.jsonc`) names.
pub fn opencode_config_model(text: &str) -> Option<String> {
    // JSONC: whole-line comments are all the configs written by hand tend to hold.
    let json: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let doc: Value = serde_json::from_str(&json).ok()?;
    doc.get("model")?.as_str().map(str::to_owned)
}

/// The project folder Gemini CLI's `projects.json` registers for `cwd`.
pub fn gemini_registered_slug(projects_json: &str, cwd: &str) -> Option<String> {
    let doc: Value = serde_json::from_str(projects_json).ok()?;
    doc.get("projects")?.get(cwd)?.as_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resume_ids_are_taken_as_each_agent_names_them() {
        let codex = Path::new(
            "/s/2025/01/01/rollout-2025-01-01T00-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl",
        );
        assert_eq!(
            resume_id(SourceFormat::Codex, codex, None).as_deref(),
            Some("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b")
        );
        let gemini = Path::new("/g/chats/session-2025-01-01T00-00-0199a1b2.jsonl");
        let header = "{\"sessionId\":\"0199a1b2-full\",\"projectHash\":\"x\"}\n{}";
        assert_eq!(
            resume_id(SourceFormat::Gemini, gemini, Some(header)).as_deref(),
            Some("0199a1b2-full")
        );
        assert_eq!(
            resume_id(SourceFormat::Gemini, gemini, None).as_deref(),
            Some("session-2025-01-01T00-00-0199a1b2")
        );
        let claude = Path::new("/c/projects/-work/abc.jsonl");
        assert_eq!(
            resume_id(SourceFormat::ClaudeCode, claude, None).as_deref(),
            Some("abc")
        );
    }

    #[test]
    fn the_last_model_named_wins_and_synthetic_is_none() {
        let text = "{\"message\":{\"model\":\"claude-a\"}}\n{\"payload\":{\"model\":\"gpt-5\"}}\n{\"message\":{\"model\":\"<synthetic>\"}}\n";
        assert_eq!(last_model(text).as_deref(), Some("gpt-5"));
        assert_eq!(last_model("{}"), None);
    }

    #[test]
    fn the_last_model_of_a_file_is_read_from_its_end_across_blocks() {
        let filler = format!("{{\"message\":{{\"text\":\"{}\"}}}}\n", "x".repeat(1000));
        let long_line = format!(
            "{{\"message\":{{\"model\":\"claude-long\",\"text\":\"{}\"}}}}\n",
            "y".repeat(3 << 20)
        );
        let first = "{\"message\":{\"model\":\"claude-first\"}}\n";
        let cases = [
            // Named on the first line only, then several blocks without a model.
            format!("{first}{}", filler.repeat(3000)),
            // Named on a line longer than a block, straddling blocks.
            format!(
                "{first}{}{long_line}{}",
                filler.repeat(500),
                filler.repeat(700)
            ),
            // Named nowhere.
            filler.repeat(2500),
            // Named last, on a line without its line break.
            format!("{}{}", filler.repeat(2000), first.trim_end()),
        ];
        let dir = tempfile::tempdir().expect("a temporary directory");
        for (k, text) in cases.iter().enumerate() {
            let path = dir.path().join(format!("s{k}.jsonl"));
            std::fs::write(&path, text).expect("written");
            let read = last_model_in_file(&path).expect("read");
            assert_eq!(read, last_model(text), "case {k}");
        }
        assert_eq!(
            last_model_in_file(&dir.path().join("s1.jsonl"))
                .expect("read")
                .as_deref(),
            Some("claude-long")
        );
    }
}
