//! Where each agent keeps its sessions, as the agents themselves work it out.

use std::path::{Path, PathBuf};

use squash_formats::gemini::project_hash;
use squash_formats::session_facts;

/// The agents' home directories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentHomes {
    /// `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub claude_config: PathBuf,
    /// `$CODEX_HOME`, else `~/.codex`.
    pub codex_home: PathBuf,
    /// `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`.
    pub gemini_home: PathBuf,
    /// `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`.
    pub opencode_data: PathBuf,
    /// `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`.
    pub opencode_config: PathBuf,
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
            gemini_home: var("GEMINI_CLI_HOME")
                .unwrap_or_else(|| home.clone())
                .join(".gemini"),
            opencode_data: var("XDG_DATA_HOME")
                .unwrap_or_else(|| home.join(".local/share"))
                .join("opencode"),
            opencode_config: var("XDG_CONFIG_HOME")
                .unwrap_or_else(|| home.join(".config"))
                .join("opencode"),
        }
    }

    pub fn codex_sessions(&self) -> PathBuf {
        self.codex_home.join("sessions")
    }

    /// opencode's store.
    pub fn opencode_db(&self) -> PathBuf {
        self.opencode_data.join("opencode.db")
    }

    /// The `provider/model` opencode runs in `cwd`: the `model` of the project's `opencode.json`
    /// (or `.jsonc`), else of the global one.
    pub fn opencode_model(&self, cwd: &str) -> Option<String> {
        let candidates = [
            Path::new(cwd).join("opencode.json"),
            Path::new(cwd).join("opencode.jsonc"),
            self.opencode_config.join("opencode.json"),
            self.opencode_config.join("opencode.jsonc"),
        ];
        candidates.iter().find_map(|path| {
            session_facts::opencode_config_model(&std::fs::read_to_string(path).ok()?)
        })
    }

    /// The folders Gemini CLI may keep `cwd`'s sessions in: the slug `projects.json` names, any
    /// slug whose `.project_root` marker names `cwd`, and the older SHA-256 folder.
    pub fn gemini_project_dirs(&self, cwd: &str) -> Vec<PathBuf> {
        let tmp = self.gemini_home.join("tmp");
        let mut dirs = Vec::new();
        if let Some(slug) = self.gemini_registered(cwd) {
            dirs.push(tmp.join(slug));
        }
        if let Some(marked) = marked_slug(&tmp, cwd) {
            dirs.push(marked);
        }
        dirs.push(tmp.join(project_hash(cwd)));
        dirs.dedup();
        dirs
    }

    fn gemini_registered(&self, cwd: &str) -> Option<String> {
        let text = std::fs::read_to_string(self.gemini_home.join("projects.json")).ok()?;
        session_facts::gemini_registered_slug(&text, cwd)
    }

    /// The folder a new Gemini CLI session of `cwd` goes to, made (with the `.project_root`
    /// marker the CLI looks for) when there is none yet.
    pub fn gemini_project_dir_for_new(&self, cwd: &str) -> std::io::Result<PathBuf> {
        let tmp = self.gemini_home.join("tmp");
        if let Some(dir) = self
            .gemini_registered(cwd)
            .map(|slug| tmp.join(slug))
            .or_else(|| marked_slug(&tmp, cwd))
        {
            return Ok(dir);
        }
        // As the CLI names one: the folder's base name, lower-case, non-alphanumerics as '-',
        // with a counter when another project holds it.
        let base = Path::new(cwd)
            .file_name()
            .map(|n| slugify(&n.to_string_lossy()))
            .unwrap_or_else(|| "project".to_owned());
        for n in 0.. {
            let slug = if n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            let dir = tmp.join(&slug);
            if !dir.join(".project_root").exists() && !dir.exists() {
                std::fs::create_dir_all(&dir)?;
                std::fs::write(dir.join(".project_root"), cwd)?;
                return Ok(dir);
            }
        }
        unreachable!("an unbounded range ends only by returning")
    }
}

fn slugify(text: &str) -> String {
    let mut out = String::new();
    for c in text.to_lowercase().chars() {
        let c = if c.is_ascii_alphanumeric() { c } else { '-' };
        if !(c == '-' && out.ends_with('-')) {
            out.push(c);
        }
    }
    let out = out.trim_matches('-').to_owned();
    if out.is_empty() {
        "project".to_owned()
    } else {
        out
    }
}

/// The folder under `tmp` whose `.project_root` names `cwd`.
fn marked_slug(tmp: &Path, cwd: &str) -> Option<PathBuf> {
    std::fs::read_dir(tmp)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|dir| {
            std::fs::read_to_string(dir.join(".project_root")).is_ok_and(|o| o.trim() == cwd)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemini_slugs_are_made_as_the_cli_makes_them() {
        assert_eq!(slugify("My Project_2"), "my-project-2");
        assert_eq!(slugify("..."), "project");
        let dir = tempfile::tempdir().unwrap();
        let homes = AgentHomes {
            claude_config: dir.path().join(".claude"),
            codex_home: dir.path().join(".codex"),
            gemini_home: dir.path().join(".gemini"),
            opencode_data: dir.path().join("opencode"),
            opencode_config: dir.path().join("opencode-config"),
        };
        let first = homes.gemini_project_dir_for_new("/work/app").unwrap();
        assert!(first.ends_with("tmp/app"));
        // Found again by its marker; another project of the same name gets a counter.
        assert_eq!(
            homes.gemini_project_dir_for_new("/work/app").unwrap(),
            first
        );
        assert!(homes.gemini_project_dirs("/work/app").contains(&first));
        let other = homes.gemini_project_dir_for_new("/other/app").unwrap();
        assert!(other.ends_with("tmp/app-1"));
    }
}
