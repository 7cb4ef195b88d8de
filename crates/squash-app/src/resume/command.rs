//! The command line that starts the agent on the resumed session, as data: the interface runs
//! it (the CLI replaces itself with it) or shows it (the web).

use std::path::{Path, PathBuf};

use serde::Serialize;

/// A program, its arguments, and the folder it runs in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AgentCommand {
    /// The program as found on PATH (its full path), else its bare name.
    pub program: String,
    pub args: Vec<String>,
    /// Variables set for the program besides the environment it inherits (the recall server's
    /// database and registration); not serialized, as they may hold a database's password.
    #[serde(skip)]
    pub env: Vec<(String, String)>,
    /// The session's working directory, when it names one that exists here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<PathBuf>,
}

impl AgentCommand {
    /// The program and its arguments, in one list.
    pub fn argv(&self) -> Vec<String> {
        std::iter::once(self.program.clone())
            .chain(self.args.iter().cloned())
            .collect()
    }

    /// The command as a POSIX shell line: its variables (a database URL's password hidden),
    /// the program and its arguments, each word quoted when a shell would split it.
    pub fn shell_words(&self) -> String {
        self.env
            .iter()
            .map(|(k, v)| format!("{k}={}", quoted(&squash_core::redact::redact_url(v))))
            .chain(self.argv().iter().map(|w| quoted(w)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `[cd <folder> && ][<import> && ]<agent …>`: what a person runs to start the agent on a
/// written session themselves.
pub fn shell_line(launch: &AgentCommand, import: Option<&[String]>) -> String {
    let mut parts = Vec::new();
    if let Some(dir) = &launch.cwd {
        parts.push(format!("cd {}", quoted(&dir.to_string_lossy())));
    }
    if let Some(import) = import {
        parts.push(
            import
                .iter()
                .map(|w| quoted(w))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    parts.push(launch.shell_words());
    parts.join(" && ")
}

/// `word` as one word for a POSIX shell: as it is when no character of it is special.
pub fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `program` on PATH (or a path to it).
pub fn find_program(program: &str) -> Option<PathBuf> {
    let candidate = Path::new(program);
    if candidate.components().count() > 1 {
        return candidate.is_file().then(|| candidate.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_a_shell_would_split_them() {
        assert_eq!(quoted("--resume"), "--resume");
        assert_eq!(quoted("/tmp/a b"), "'/tmp/a b'");
        assert_eq!(quoted("it's"), "'it'\\''s'");
        assert_eq!(quoted(""), "''");
    }

    #[test]
    fn a_shell_line_sets_the_variables_and_hides_a_password() {
        let launch = AgentCommand {
            program: "claude".into(),
            args: vec!["--resume".into(), "a b".into()],
            env: vec![("SQUASH_DB".into(), "postgres://u:secret@h/db".into())],
            cwd: Some(PathBuf::from("/work dir")),
        };
        let line = shell_line(&launch, Some(&["opencode".into(), "import".into()]));
        assert!(
            line.starts_with("cd '/work dir' && opencode import && SQUASH_DB="),
            "{line}"
        );
        assert!(line.ends_with("claude --resume 'a b'"), "{line}");
        assert!(!line.contains("secret"), "{line}");
    }
}
