//! What the Claude CLI provider reads: a `claude` executable on `PATH` (logged in, it needs no
//! key here), and the configuration file's `model` when the file names a provider.

use std::path::{Path, PathBuf};
use std::time::Duration;

use squash_core::ProviderKind;

use crate::settings::{
    ConfiguredBy, FileSettings, PromptNeeds, ProviderSettings, Setting, SettingsReport, SetupError,
};

/// The model alias passed to `--model` unless configured otherwise.
pub const CLAUDE_CLI_DEFAULT_MODEL: &str = "sonnet";
/// The CLI starts a whole agent runtime before answering, so it gets longer than an API call.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);
/// The executable looked up on `PATH`.
const PROGRAM: &str = "claude";

/// How to run the `claude` executable.
#[derive(Clone, Debug)]
pub struct ClaudeCliConfig {
    /// The executable, a path or a name looked up on `PATH`.
    pub program: PathBuf,
    /// A model alias (`sonnet`, `opus`, `haiku`) or full model id.
    pub model: String,
    pub context_window_tokens: u32,
    /// For the whole run, start to exit.
    pub timeout: Duration,
    /// Where the CLI runs; the system temp directory when unset.
    pub working_dir: Option<PathBuf>,
}

impl ClaudeCliConfig {
    /// The defaults for the executable at `program`.
    pub fn new(program: impl Into<PathBuf>) -> ClaudeCliConfig {
        ClaudeCliConfig {
            program: program.into(),
            model: CLAUDE_CLI_DEFAULT_MODEL.to_string(),
            context_window_tokens: 200_000,
            timeout: DEFAULT_TIMEOUT,
            working_dir: None,
        }
    }
}

impl ProviderSettings for ClaudeCliConfig {
    const KIND: ProviderKind = ProviderKind::ClaudeCli;
    const PROMPT_NEEDS: PromptNeeds = PromptNeeds::HOSTED;

    fn configured(_file: &FileSettings) -> Option<ConfiguredBy> {
        find_on_path(PROGRAM).map(ConfiguredBy::Executable)
    }

    fn report(file: &FileSettings) -> SettingsReport {
        let path = find_on_path(PROGRAM).map(|p| p.display().to_string());
        let setting = Setting::found("claude on PATH", path.clone(), "not found");
        SettingsReport {
            // A check runs the CLI, which starts a whole agent.
            verify_starts_agent: true,
            ..SettingsReport::new(
                vec![setting],
                Self::configured(file),
                CLAUDE_CLI_DEFAULT_MODEL.to_owned(),
                path.unwrap_or_default(),
            )
        }
    }

    fn from_env(_file: &FileSettings, model: Option<&str>) -> Result<Self, SetupError> {
        let program = find_on_path(PROGRAM).ok_or_else(|| {
            SetupError::not_configured(Self::KIND, format!("no `{PROGRAM}` executable on PATH"))
        })?;
        let mut config = ClaudeCliConfig::new(program);
        if let Some(model) = model {
            config.model = model.to_owned();
        }
        Ok(config)
    }

    fn for_verify(self, timeout: Duration) -> Self {
        ClaudeCliConfig { timeout, ..self }
    }
}

/// The first executable file called `name` in the directories of `PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}
