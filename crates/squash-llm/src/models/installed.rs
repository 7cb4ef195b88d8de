//! The models installed under the data directory, and which file runs.

use std::fs;
use std::path::{Path, PathBuf};

#[cfg(test)]
use super::catalog::default_model;
use super::catalog::{find, CatalogModel, CATALOG, LOCAL_MODEL_ENV};
use super::error::ModelError;

/// Squash's data directory (the one that holds the database), if the platform has one.
pub fn default_data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("dev", "squash", "squash").map(|d| d.data_dir().to_path_buf())
}

/// Where installed models live: `<data_dir>/models`.
pub fn models_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("models")
}

/// An installed model file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstalledModel {
    /// The catalog entry, for a file the catalog names.
    pub catalog: Option<&'static CatalogModel>,
    pub path: PathBuf,
    pub size_bytes: u64,
}

impl InstalledModel {
    /// The catalog name, or the file name for a GGUF put there by hand.
    pub fn name(&self) -> String {
        match self.catalog {
            Some(model) => model.name.to_owned(),
            None => self
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        }
    }
}

/// The GGUF files in `<data_dir>/models`, catalog models first in catalog order. A catalog
/// file whose size is wrong (a copy cut short) is left out; its content is checked at install
/// time, not here, since hashing a gigabyte takes seconds.
pub fn installed(data_dir: &Path) -> Vec<InstalledModel> {
    let dir = models_dir(data_dir);
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut found: Vec<InstalledModel> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "gguf"))
        .filter_map(|e| {
            let size_bytes = e.metadata().ok().filter(|m| m.is_file())?.len();
            let path = e.path();
            let catalog = CATALOG
                .iter()
                .find(|m| path.file_name().is_some_and(|n| n == m.file_name));
            if catalog.is_some_and(|m| m.size_bytes != size_bytes) {
                return None;
            }
            Some(InstalledModel {
                catalog,
                path,
                size_bytes,
            })
        })
        .collect();
    let rank = |m: &InstalledModel| {
        m.catalog
            .and_then(|c| CATALOG.iter().position(|x| x.name == c.name))
            .unwrap_or(CATALOG.len())
    };
    found.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| a.path.cmp(&b.path)));
    found
}

/// The model file to run: `SQUASH_LOCAL_MODEL` if set, else `configured` (from the
/// configuration file), each either a catalog name or a path to a GGUF file; else the first
/// installed catalog model (the default first); else [`ModelError::NoModel`].
pub fn resolve(data_dir: &Path, configured: Option<&str>) -> Result<PathBuf, ModelError> {
    let from_env = std::env::var(LOCAL_MODEL_ENV).ok();
    let chosen = from_env
        .as_deref()
        .or(configured)
        .map(str::trim)
        .filter(|s| !s.is_empty());
    match chosen {
        Some(value) => resolve_value(data_dir, value),
        None => installed(data_dir)
            .into_iter()
            .find(|m| m.catalog.is_some())
            .map(|m| m.path)
            .ok_or(ModelError::NoModel),
    }
}

/// The model file `value` names: a catalog name (installed under `data_dir`) or a GGUF path.
pub fn resolve_named(data_dir: &Path, value: &str) -> Result<PathBuf, ModelError> {
    resolve_value(data_dir, value.trim())
}

fn resolve_value(data_dir: &Path, value: &str) -> Result<PathBuf, ModelError> {
    if let Some(model) = find(value) {
        let path = models_dir(data_dir).join(model.file_name);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(ModelError::NotInstalled {
                name: model.name.to_owned(),
            })
        };
    }
    let path = PathBuf::from(value);
    if path.is_file() {
        Ok(path)
    } else {
        Err(ModelError::NotFound { path })
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn installed_lists_catalog_files_first_and_skips_short_copies() {
        let dir = tempfile::tempdir().unwrap();
        let models = models_dir(dir.path());
        fs::create_dir_all(&models).unwrap();
        fs::write(models.join("zzz-custom.gguf"), b"GGUF").unwrap();
        fs::write(models.join("notes.txt"), b"not a model").unwrap();
        // A truncated catalog file (wrong size) is not reported as installed.
        fs::write(models.join(default_model().file_name), b"GGUF").unwrap();
        let found = installed(dir.path());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].name(), "zzz-custom.gguf");
        assert!(found[0].catalog.is_none());
    }

    #[test]
    fn resolve_takes_names_and_paths() {
        let dir = tempfile::tempdir().unwrap();
        let custom = dir.path().join("custom.gguf");
        fs::write(&custom, b"GGUF").unwrap();
        let value = custom.to_string_lossy().into_owned();
        assert_eq!(resolve_value(dir.path(), &value).unwrap(), custom);
        assert!(matches!(
            resolve_value(dir.path(), "smollm2-135m"),
            Err(ModelError::NotInstalled { .. })
        ));
        assert!(matches!(
            resolve_value(dir.path(), "/nonexistent/model.gguf"),
            Err(ModelError::NotFound { .. })
        ));
    }
}
