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
