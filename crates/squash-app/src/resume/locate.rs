//! Which session to resume: a file, a session id, or the latest session of a directory.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use squash_formats::claude_code::project_dir;
use squash_formats::detect::{inspect_path, Found};
use squash_formats::{opencode, session_facts};

use super::{Agent, AgentHomes, ResumeError, SessionFile};

/// The session to resume: `session` (a file path or a session id, of any agent) or, without
/// one, the most recent session of `cwd` among `agents` (all of them when empty).
pub fn locate(
    homes: &AgentHomes,
    agents: &[Agent],
    session: Option<&str>,
    cwd: &str,
) -> Result<SessionFile, ResumeError> {
    let agents: Vec<Agent> = if agents.is_empty() {
        Agent::ALL.to_vec()
    } else {
        agents.to_vec()
    };
    match session {
        Some(s) if Path::new(s).is_file() => from_path(Path::new(s), None),
        // An id names one session whichever agent wrote it.
        Some(id) => by_id(homes, &Agent::ALL, id, cwd),
        None => latest(homes, &agents, cwd),
    }
}

fn from_path(path: &Path, session_id: Option<String>) -> Result<SessionFile, ResumeError> {
    let unreadable = |e: std::io::Error| ResumeError::Unreadable {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let found = inspect_path(path).map_err(unreadable)?;
    let agent = match found {
        Found::Format(f) => Agent::of_format(f),
        _ => None,
    };
    let Some(agent) = agent else {
        return Err(ResumeError::NotASession {
            path: path.to_path_buf(),
            found: describe(found),
        });
    };
    if agent == Agent::Opencode {
        // A store: its latest session, unless one is named.
        let (id, cwd, _) = opencode::find_session(path, None, session_id.as_deref())
            .or_else(|| latest_opencode_in(path))
            .ok_or_else(|| ResumeError::Unreadable {
                path: path.to_path_buf(),
                reason: "the opencode store holds no session".into(),
            })?;
        return Ok(SessionFile {
            agent,
            path: path.to_path_buf(),
            cwd: Some(cwd),
            session_id: Some(id),
        });
    }
    let cwd = session_facts::session_cwd(path, agent.format()).or_else(|| {
        (agent == Agent::Gemini)
            .then(|| session_facts::gemini_project_root(path))
            .flatten()
    });
    Ok(SessionFile {
        agent,
        path: path.to_path_buf(),
        cwd,
        session_id: None,
    })
}

/// The most recently updated main session of a store, wherever it ran.
fn latest_opencode_in(path: &Path) -> Option<(String, String, i64)> {
    let parsed = squash_formats::opencode::read_database(path, "opencode.db", chrono::Utc::now());
    let conv = parsed
        .ok()?
        .conversations
        .into_iter()
        .filter(|c| !c.sidechain)
        .max_by_key(|c| c.updated_at)?;
    let id = conv.source_key.strip_prefix("opencode:")?.to_owned();
    Some((id, conv.project_path.unwrap_or_default(), 0))
}

fn describe(found: Found) -> String {
    match found {
        Found::Format(f) => squash_formats::detect::described(f).to_owned(),
        Found::UnknownJson => "JSON of no known format".into(),
        Found::NoJson => "not JSON".into(),
        Found::Empty => "empty".into(),
    }
}

/// Where `agent` keeps sessions, for the message that says where Squash looked.
fn looked_in(homes: &AgentHomes, agent: Agent, cwd: &str) -> PathBuf {
    match agent {
        Agent::Claude => project_dir(&homes.claude_config, cwd),
        Agent::Codex => homes.codex_sessions(),
        Agent::Gemini => homes.gemini_home.join("tmp"),
        Agent::Opencode => homes.opencode_db(),
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
        looked.push(looked_in(homes, agent, cwd));
        let found = match agent {
            Agent::Claude => {
                let projects = homes.claude_config.join("projects");
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
                let suffix = format!("-{id}.jsonl");
                rollouts(&homes.codex_sessions())
                    .into_iter()
                    .map(|(p, _)| p)
                    .find(|p| file_name(p).ends_with(&suffix))
            }
            Agent::Gemini => gemini_sessions(homes, None)
                .into_iter()
                .map(|(p, _)| p)
                .find(|p| gemini_session_id(p).as_deref() == Some(id)),
            Agent::Opencode => {
                let db = homes.opencode_db();
                if db.is_file() && opencode::find_session(&db, None, Some(id)).is_some() {
                    return from_path(&db, Some(id.to_owned()));
                }
                None
            }
        };
        if let Some(path) = found {
            return from_path(&path, None);
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
            Agent::Gemini => latest_gemini(homes, cwd),
            Agent::Opencode => latest_opencode(homes, cwd),
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
            looked: looked_in(homes, agent, cwd),
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
                session_id: None,
            };
            (t, file)
        })
}

fn latest_codex(homes: &AgentHomes, cwd: &str) -> Option<(SystemTime, SessionFile)> {
    let mut all = rollouts(&homes.codex_sessions());
    all.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
    all.into_iter().find_map(|(path, t)| {
        let session_cwd = session_facts::session_cwd(&path, Agent::Codex.format())?;
        (session_cwd == cwd).then(|| {
            let file = SessionFile {
                agent: Agent::Codex,
                path,
                cwd: Some(session_cwd),
                session_id: None,
            };
            (t, file)
        })
    })
}

fn latest_gemini(homes: &AgentHomes, cwd: &str) -> Option<(SystemTime, SessionFile)> {
    gemini_sessions(homes, Some(cwd))
        .into_iter()
        .max_by_key(|(_, t)| *t)
        .map(|(path, t)| {
            let file = SessionFile {
                agent: Agent::Gemini,
                path,
                cwd: Some(cwd.to_owned()),
                session_id: None,
            };
            (t, file)
        })
}

fn latest_opencode(homes: &AgentHomes, cwd: &str) -> Option<(SystemTime, SessionFile)> {
    let db = homes.opencode_db();
    let (id, directory, updated) = opencode::find_session(&db, Some(cwd), None)?;
    let t = SystemTime::UNIX_EPOCH + Duration::from_millis(u64::try_from(updated).ok()?);
    let file = SessionFile {
        agent: Agent::Opencode,
        path: db,
        cwd: Some(directory),
        session_id: Some(id),
    };
    Some((t, file))
}

/// Gemini CLI's main sessions (`chats/session-*.json[l]`) of `cwd`'s project folders, or of
/// every project.
fn gemini_sessions(homes: &AgentHomes, cwd: Option<&str>) -> Vec<(PathBuf, SystemTime)> {
    let dirs = match cwd {
        Some(cwd) => homes.gemini_project_dirs(cwd),
        None => subdirs(&homes.gemini_home.join("tmp")),
    };
    dirs.iter()
        .flat_map(|d| std::fs::read_dir(d.join("chats")).into_iter().flatten())
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = file_name(p);
            name.starts_with("session-") && (name.ends_with(".jsonl") || name.ends_with(".json"))
        })
        .filter_map(|p| Some((p.clone(), modified_nonempty(&p)?)))
        .collect()
}

/// The `sessionId` a recording's header names.
fn gemini_session_id(path: &Path) -> Option<String> {
    session_facts::gemini_session_id(&std::fs::read_to_string(path).ok()?)
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
