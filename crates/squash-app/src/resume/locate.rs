//! Where agents keep their sessions, and which one to resume.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::Value;
use squash_formats::claude_code::project_dir;
use squash_formats::detect::{inspect_reader, Found};
use squash_formats::SourceFormat;

use super::{Agent, ResumeError, SessionFile};

/// Lines read from the top of a session for its working directory.
const CWD_SCAN_LINES: usize = 64;

/// The agents' home directories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentHomes {
    /// `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub claude_config: PathBuf,
    /// `$CODEX_HOME`, else `~/.codex`.
    pub codex_home: PathBuf,
}

impl AgentHomes {
    /// From the environment, as the agents themselves read it.
    pub fn from_env() -> AgentHomes {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default();
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        AgentHomes {
            claude_config: var("CLAUDE_CONFIG_DIR").unwrap_or_else(|| home.join(".claude")),
            codex_home: var("CODEX_HOME").unwrap_or_else(|| home.join(".codex")),
        }
    }

    pub fn codex_sessions(&self) -> PathBuf {
        self.codex_home.join("sessions")
    }
}

/// The session to resume: `session` (a file path or a session id) or, without one, the most
/// recent session of `cwd` (of `agent`, or of either agent).
pub fn locate(
    homes: &AgentHomes,
    agent: Option<Agent>,
    session: Option<&str>,
    cwd: &str,
) -> Result<SessionFile, ResumeError> {
    let agents: Vec<Agent> = agent.map_or(Agent::ALL.to_vec(), |a| vec![a]);
    match session {
        Some(s) if Path::new(s).is_file() => from_path(Path::new(s), agent),
        Some(id) => by_id(homes, &agents, id, cwd),
        None => latest(homes, &agents, cwd),
    }
}

fn from_path(path: &Path, wanted: Option<Agent>) -> Result<SessionFile, ResumeError> {
    let unreadable = |e: std::io::Error| ResumeError::Unreadable {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let found = std::fs::File::open(path)
        .and_then(inspect_reader)
        .map_err(unreadable)?;
    let agent = match found {
        Found::Format(SourceFormat::ClaudeCode) => Agent::Claude,
        Found::Format(SourceFormat::Codex) => Agent::Codex,
        other => {
            return Err(ResumeError::NotASession {
                path: path.to_path_buf(),
                found: describe(other),
            })
        }
    };
    if let Some(w) = wanted.filter(|w| *w != agent) {
        return Err(ResumeError::NotASession {
            path: path.to_path_buf(),
            found: format!("a {agent} session, not a {w} one"),
        });
    }
    Ok(SessionFile {
        agent,
        path: path.to_path_buf(),
        cwd: session_cwd(path, agent),
    })
}

fn describe(found: Found) -> String {
    match found {
        Found::Format(f) => squash_formats::detect::described(f).to_owned(),
        Found::UnknownJson => "JSON of no known format".into(),
        Found::NoJson => "not JSON".into(),
        Found::Empty => "empty".into(),
    }
}

fn by_id(
    homes: &AgentHomes,
    agents: &[Agent],
    id: &str,
    cwd: &str,
) -> Result<SessionFile, ResumeError> {
    let mut looked = Vec::new();
    for &agent in agents {
        let found = match agent {
            Agent::Claude => {
                let projects = homes.claude_config.join("projects");
                looked.push(projects.clone());
                let here = project_dir(&homes.claude_config, cwd).join(format!("{id}.jsonl"));
                if here.is_file() {
                    Some(here)
                } else {
                    subdirs(&projects)
                        .into_iter()
                        .map(|d| d.join(format!("{id}.jsonl")))
                        .find(|p| p.is_file())
                }
            }
            Agent::Codex => {
                looked.push(homes.codex_sessions());
                let suffix = format!("-{id}.jsonl");
                rollouts(&homes.codex_sessions())
                    .into_iter()
                    .map(|(p, _)| p)
                    .find(|p| file_name(p).ends_with(&suffix))
            }
        };
        if let Some(path) = found {
            return from_path(&path, Some(agent));
        }
    }
    Err(ResumeError::UnknownSession {
        id: id.to_owned(),
        looked,
    })
}

fn latest(homes: &AgentHomes, agents: &[Agent], cwd: &str) -> Result<SessionFile, ResumeError> {
    let mut best: Option<(SystemTime, SessionFile)> = None;
    for &agent in agents {
        let candidate = match agent {
            Agent::Claude => latest_claude(homes, cwd),
            Agent::Codex => latest_codex(homes, cwd),
        };
        if let Some((time, file)) = candidate {
            if best.as_ref().is_none_or(|(t, _)| time > *t) {
                best = Some((time, file));
            }
        }
    }
    best.map(|(_, f)| f).ok_or_else(|| {
        let agent = agents.first().copied().unwrap_or(Agent::Claude);
        ResumeError::NoSession {
            agent,
            cwd: cwd.to_owned(),
            looked: match agent {
                Agent::Claude => project_dir(&homes.claude_config, cwd),
                Agent::Codex => homes.codex_sessions(),
            },
        }
    })
}

fn latest_claude(homes: &AgentHomes, cwd: &str) -> Option<(SystemTime, SessionFile)> {
    let dir = project_dir(&homes.claude_config, cwd);
    let entries = std::fs::read_dir(&dir).ok()?;
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .filter_map(|p| Some((modified_nonempty(&p)?, p)))
        .max_by_key(|(t, _)| *t)
        .map(|(t, path)| {
            let file = SessionFile {
                agent: Agent::Claude,
                cwd: Some(cwd.to_owned()),
                path,
            };
            (t, file)
        })
}

fn latest_codex(homes: &AgentHomes, cwd: &str) -> Option<(SystemTime, SessionFile)> {
    let mut all = rollouts(&homes.codex_sessions());
    all.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
    all.into_iter().find_map(|(path, t)| {
        let session_cwd = session_cwd(&path, Agent::Codex)?;
        (session_cwd == cwd).then(|| {
            let file = SessionFile {
                agent: Agent::Codex,
                path,
                cwd: Some(session_cwd),
            };
            (t, file)
        })
    })
}

/// Every `rollout-*.jsonl` under `dir` (the agent nests them by date), with its modification
/// time.
fn rollouts(dir: &Path) -> Vec<(PathBuf, SystemTime)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                stack.push(path);
            } else if file_name(&path).starts_with("rollout-")
                && path.extension().is_some_and(|e| e == "jsonl")
            {
                if let Some(t) = modified_nonempty(&path) {
                    out.push((path, t));
                }
            }
        }
    }
    out
}

fn subdirs(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default()
}

fn file_name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

fn modified_nonempty(path: &Path) -> Option<SystemTime> {
    let meta = std::fs::metadata(path).ok()?;
    (meta.len() > 0).then(|| meta.modified().ok()).flatten()
}

/// The working directory a session names on one of its first lines (`cwd` on Claude Code
/// lines, `payload.cwd` on Codex's session_meta).
pub(crate) fn session_cwd(path: &Path, agent: Agent) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    BufReader::new(file)
        .lines()
        .take(CWD_SCAN_LINES)
        .map_while(Result::ok)
        .filter_map(|line| serde_json::from_str::<Value>(&line).ok())
        .find_map(|v| {
            let cwd = match agent {
                Agent::Claude => v.get("cwd"),
                Agent::Codex => v.get("payload").and_then(|p| p.get("cwd")),
            };
            cwd.and_then(Value::as_str).map(str::to_owned)
        })
}
