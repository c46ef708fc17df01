//! # polyalloc-suite: the bench-suite reader
//!
//! Every paper example lives in `bench-suite/<id>.json` (format documented in
//! `bench-suite/README.md`). This crate reads those files into typed records
//! ([`Example`]) and reports malformed input as a [`SuiteError`] naming the file and the
//! line and column (JSON syntax) or the field (missing or ill-typed values). The isl
//! strings inside are kept as text here; `polyalloc-formulation` parses them, and
//! Every parse error names the field it comes from (`arrays.A.conflicts`, ...) so that it can say where it is.
//!
//! The CLI, the `cargo xtask` harness and the integration tests all read the suite
//! through this crate. It also reads the input format of the public SMO tool
//! (`*.smo.input`, [`smo_input`]) into the same model, and the `inter_array` section of
//! examples whose arrays may share one storage ([`inter`], [`InterProblem`]).

mod build;
pub mod inter;
pub mod jscop;
mod problem;
pub mod smo_input;
mod validate;

pub use inter::InterProblem;
pub use problem::Problem;

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A bench-suite read error: which file, where, what was expected.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SuiteError {
    #[error("{file}: cannot read: {message}")]
    Io { file: PathBuf, message: String },
    #[error("{file}:{line}:{column}: {message}")]
    Json { file: PathBuf, line: usize, column: usize, message: String },
    #[error("{file}: field `{field}`: {message}")]
    Field { file: PathBuf, field: String, message: String },
    /// A line-oriented text file (`*.smo.input`) is malformed at this line and column.
    #[error("{file}:{line}:{column}: {message}")]
    Text { file: PathBuf, line: usize, column: usize, message: String },
    /// Building an object of the file (a conflict set from the program, ...) was
    /// stopped: the run's time budget ran out or the process was interrupted. Not an
    /// error of the file.
    #[error("{file}: field `{field}`: stopped: {source}")]
    Stopped { file: PathBuf, field: String, source: Box<polyalloc_ilp::SolveError> },
}

impl SuiteError {
    /// The reason to stop, for [`SuiteError::Stopped`].
    pub fn stop(&self) -> Option<&polyalloc_ilp::SolveError> {
        match self {
            SuiteError::Stopped { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

/// Where an example comes from.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Source {
    /// The paper's file name (`004_88cf68a96cc0018b.txt`), or `smo-tool`, `polly-jscop`.
    pub paper: String,
    #[serde(rename = "where")]
    pub location: String,
}

impl Source {
    /// The paper this example comes from, when it is one of the five.
    pub fn citation(&self) -> Option<&'static Citation> {
        Citation::of(&self.paper)
    }
}

/// One of the five papers polyalloc implements, as users read it cited: authors and
/// year, title and venue. Bench-suite files name a paper by its file name; everything a
/// user reads names it by this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Citation {
    /// The file name's three-digit prefix (`000` to `004`).
    pub key: &'static str,
    pub authors: &'static str,
    pub year: u16,
    pub title: &'static str,
    pub venue: &'static str,
    /// What polyalloc takes from it, in a few words.
    pub topic: &'static str,
}

impl Citation {
    /// The five papers, in file-name order.
    pub const ALL: [Citation; 5] = [
        Citation {
            key: "000",
            authors: "Thies, Vivien, Amarasinghe",
            year: 2007,
            title: "A Step Towards Unifying Schedule and Storage Optimization",
            venue: "ACM TOPLAS 29(6)",
            topic: "occupancy vectors",
        },
        Citation {
            key: "001",
            authors: "Darte, Isoard, Yuki",
            year: 2015,
            title: "Extended Lattice-Based Memory Allocation",
            venue: "Inria research report RR-8840",
            topic: "lattice-based allocation",
        },
        Citation {
            key: "002",
            authors: "Pugh",
            year: 1991,
            title: "Uniform Techniques for Loop Optimization",
            venue: "ACM ICS",
            topic: "dependence relations and affine schedules",
        },
        Citation {
            key: "003",
            authors: "Song, Wang, Li",
            year: 2005,
            title: "A Polynomial-Time Algorithm for Memory Space Reduction",
            venue: "Int. J. Parallel Programming 33(1)",
            topic: "shifting, fusion and contraction as network flow",
        },
        Citation {
            key: "004",
            authors: "Bhaskaracharya, Bondhugula, Cohen",
            year: 2016,
            title: "Automatic Storage Optimization for Arrays",
            venue: "ACM TOPLAS 38(3)",
            topic: "SMO storage hyperplanes",
        },
    ];

    /// The paper a bench-suite `source.paper` names (its file name, or the bare prefix).
    pub fn of(paper: &str) -> Option<&'static Citation> {
        let key = paper.get(..3)?;
        if paper.len() > 3 && paper.as_bytes()[3] != b'_' {
            return None;
        }
        Citation::ALL.iter().find(|c| c.key == key)
    }

    /// `Thies, Vivien, Amarasinghe 2007`.
    pub fn short(&self) -> String {
        format!("{} {}", self.authors, self.year)
    }

    /// `Thies, Vivien, Amarasinghe, "A Step ...", ACM TOPLAS 29(6), 2007`.
    pub fn full(&self) -> String {
        format!("{}, \"{}\", {}, {}", self.authors, self.title, self.venue, self.year)
    }
}

/// One array of an example.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ArraySpec {
    /// The array's data space, e.g. `[N] -> { A[t, i] : 1 <= t <= N and 1 <= i <= N }`.
    pub space: String,
    /// The conflict relation, when given explicitly.
    #[serde(default)]
    pub conflicts: Option<String>,
    /// `half` (each unordered pair once) or `symmetric`, as written; read it through
    /// [`ArraySpec::form`].
    #[serde(default)]
    pub conflicts_form: Option<String>,
    /// Everything else (notes, provenance).
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl Example {
    /// True for a file marked `"status": "metadata-only"`: what a paper reports, with
    /// no checkable input (no conflict set, no program). Other statuses
    /// (`reconstructed`: the input was rebuilt from the paper's description) are notes.
    pub fn is_metadata_only(&self) -> bool {
        self.extra.get("status").and_then(|s| s.as_str()) == Some("metadata-only")
    }
}

impl ArraySpec {
    /// The form of the conflict relation: half (the default) or symmetric; `Err` with
    /// the text written when it is neither.
    pub fn form(&self) -> Result<polyalloc_formulation::ConflictForm, &str> {
        match self.conflicts_form.as_deref() {
            None | Some("half") => Ok(polyalloc_formulation::ConflictForm::Half),
            Some("symmetric") => Ok(polyalloc_formulation::ConflictForm::Symmetric),
            Some(other) => Err(other),
        }
    }
}

/// One statement of a program.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct StatementSpec {
    pub name: String,
    pub domain: String,
    pub schedule: String,
    /// Written cells: one isl relation (a union, possibly over several arrays) or a list
    /// of relations.
    #[serde(default)]
    pub writes: Relations,
    /// Read cells, as `writes`.
    #[serde(default)]
    pub reads: Relations,
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// Access relations of a statement: one isl relation (`"{ S[i] -> A[i]; S[i] -> B[i] }"`)
/// or a list of them (`["{ S[i] -> A[i] }", "{ S[i] -> B[i] }"]`); absent: none.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct Relations(pub Vec<String>);

impl Relations {
    /// The relations as text.
    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.0.iter()
    }
}

impl<'de> Deserialize<'de> for Relations {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged, expecting = "an isl relation or a list of isl relations")]
        enum OneOrMany {
            One(String),
            Many(Vec<String>),
        }
        Ok(match Option::<OneOrMany>::deserialize(d)? {
            None => Relations(vec![]),
            Some(OneOrMany::One(s)) => Relations(vec![s]),
            Some(OneOrMany::Many(v)) => Relations(v),
        })
    }
}

/// A program: statements with domains, schedules and accesses, and a live-out set.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ProgramSpec {
    pub statements: Vec<StatementSpec>,
    #[serde(default)]
    pub live_out: Option<String>,
    /// Arrays the statements access that are neither contracted nor modelled: inputs
    /// and outputs the program passes through (`in`, `out`). Every array a statement
    /// names is in `arrays` or here.
    #[serde(default)]
    pub ignored_arrays: Vec<String>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// A result a paper reports for a method.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct PaperResult {
    pub method: String,
    #[serde(default)]
    pub array: Option<String>,
    #[serde(default)]
    pub mapping: Option<String>,
    #[serde(default)]
    pub size: Option<String>,
    #[serde(default)]
    pub hyperplanes: Option<Vec<Vec<i64>>>,
    #[serde(default)]
    pub moduli: Option<Vec<String>>,
    /// `valid` or `invalid` (the checker's expected verdict on the paper's mapping).
    #[serde(default)]
    pub expect: Option<String>,
    #[serde(default, rename = "where")]
    pub location: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// One bench-suite example.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Example {
    /// The example's name in records; default: the file name without its extension.
    #[serde(default)]
    pub id: String,
    /// Default: empty.
    #[serde(default)]
    pub title: String,
    /// Where the example comes from (a paper's section); default: nowhere in particular
    /// (a user's own file).
    #[serde(default)]
    pub source: Source,
    #[serde(default)]
    pub params: Vec<String>,
    #[serde(default)]
    pub context: Option<String>,
    #[serde(default)]
    pub arrays: BTreeMap<String, ArraySpec>,
    #[serde(default)]
    pub program: Option<ProgramSpec>,
    #[serde(default)]
    pub instances: Vec<BTreeMap<String, i64>>,
    #[serde(default)]
    pub paper: Vec<PaperResult>,
    #[serde(default)]
    pub note: Option<String>,
    /// Method-specific sections and anything else (see bench-suite/README.md).
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
    /// The file it was read from.
    #[serde(skip)]
    pub file: PathBuf,
}

/// The largest input file polyalloc reads (64 MiB): the largest of the bench-suite
/// is 0.1 MiB and a Polly export of a large SCoP a few MiB; past this size a file is
/// refused before it is read whole (a device such as `/dev/zero` never ends).
pub const MAX_INPUT_BYTES: usize = 64 << 20;

/// Reads the text of an input (a file, standard input) of at most [`MAX_INPUT_BYTES`]
/// bytes of UTF-8; `name` is the file named in errors.
pub fn read_text(reader: impl std::io::Read, name: &Path) -> Result<String, SuiteError> {
    use std::io::Read as _;
    let io = |message: String| SuiteError::Io { file: name.to_path_buf(), message };
    let mut bytes = Vec::new();
    reader.take(MAX_INPUT_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(|e| io(e.to_string()))?;
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(io(format!("larger than {} MiB, the most polyalloc reads", MAX_INPUT_BYTES >> 20)));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = at - before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
        io(format!("not UTF-8 text: line {line}, column {column} (byte {at}) starts no UTF-8 character"))
    })
}

/// [`read_text`] of a file.
pub fn read_file(path: &Path) -> Result<String, SuiteError> {
    let f = std::fs::File::open(path).map_err(|e| SuiteError::Io { file: path.to_path_buf(), message: e.to_string() })?;
    if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(SuiteError::Io { file: path.to_path_buf(), message: "a directory, not a file".into() });
    }
    read_text(f, path)
}

impl Example {
    /// Reads and validates one file: a bench-suite JSON file, or an input of the SMO tool
    /// when its name ends with `.smo.input` ([`smo_input`]).
    pub fn load(path: &Path) -> Result<Example, SuiteError> {
        let text = read_file(path)?;
        if jscop::is_jscop(path) {
            return jscop::read(&text, path, &jscop::JscopOptions::default());
        }
        if smo_input::is_smo_input(path) {
            // Valid by construction: its sets were parsed and checked while reading, its
            // instances counted ([`smo_input::read`]; a test holds every reading to
            // `validate`), so the strings are not parsed a second time here.
            return smo_input::read(&text, path);
        }
        Self::from_str(&text, path)
    }

    /// Parses one example from text; `path` is used in error messages.
    pub fn from_str(text: &str, path: &Path) -> Result<Example, SuiteError> {
        let mut ex: Example = serde_json::from_str(text).map_err(|e| SuiteError::Json {
            file: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string().split(" at line ").next().unwrap_or_default().to_string(),
        })?;
        ex.file = path.to_path_buf();
        if ex.id.is_empty() {
            ex.id = path.file_stem().and_then(|s| s.to_str()).filter(|s| !s.is_empty()).unwrap_or("input").to_string();
        }
        ex.validate()?;
        Ok(ex)
    }

    fn field_err(&self, field: impl Into<String>, message: impl Into<String>) -> SuiteError {
        SuiteError::Field { file: self.file.clone(), field: field.into(), message: message.into() }
    }

    /// Checks what the types alone cannot: instances give every parameter, paper
    /// entries name known arrays and give consistent mappings. (A user's file may be
    /// called anything: that a bench-suite file's `id` is its file name is a test of the
    /// bench-suite, `crates/suite/tests/load.rs`.)
    pub fn validate(&self) -> Result<(), SuiteError> {
        for (k, inst) in self.instances.iter().enumerate() {
            for p in &self.params {
                if !inst.contains_key(p) {
                    return Err(self.field_err(format!("instances[{k}]"), format!("missing a value for parameter `{p}`")));
                }
            }
            for name in inst.keys() {
                if !self.params.contains(name) {
                    return Err(self.field_err(format!("instances[{k}].{name}"), format!("`{name}` is not a parameter (params: {:?})", self.params)));
                }
            }
        }
        for (name, a) in &self.arrays {
            if let Err(form) = a.form() {
                return Err(self.field_err(format!("arrays.{name}.conflicts_form"), format!("expected `half` or `symmetric`, found `{form}`")));
            }
        }
        for (k, p) in self.paper.iter().enumerate() {
            if let Some(a) = &p.array {
                if !self.arrays.is_empty() && !self.arrays.contains_key(a) {
                    return Err(self.field_err(format!("paper[{k}].array"), format!("no array `{a}` in `arrays`")));
                }
            }
            if let (Some(h), Some(m)) = (&p.hyperplanes, &p.moduli) {
                if h.len() != m.len() {
                    return Err(self.field_err(format!("paper[{k}]"), format!("{} hyperplanes but {} moduli", h.len(), m.len())));
                }
            }
            if let Some(e) = &p.expect {
                if e != "valid" && e != "invalid" {
                    return Err(self.field_err(format!("paper[{k}].expect"), format!("expected `valid` or `invalid`, found `{e}`")));
                }
            }
        }
        self.inter_section()?;
        self.validate_isl()?;
        Ok(())
    }

    /// The parameter values of instance `k` in the order of [`Example::params`].
    pub fn instance_values(&self, k: usize) -> Option<Vec<i64>> {
        let inst = self.instances.get(k)?;
        self.params.iter().map(|p| inst.get(p).copied()).collect()
    }
}

/// Reads every `*.json` file of a directory, sorted by file name.
pub fn load_dir(dir: &Path) -> Result<Vec<Example>, SuiteError> {
    let rd = std::fs::read_dir(dir).map_err(|e| SuiteError::Io { file: dir.to_path_buf(), message: e.to_string() })?;
    let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    paths.sort();
    paths.iter().map(|p| Example::load(p)).collect()
}

/// The bench-suite directory of this workspace (for tests and the harness).
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench-suite")
}
