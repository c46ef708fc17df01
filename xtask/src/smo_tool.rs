//! The SMO tool's own inputs as a second corpus (`cargo xtask reproduce --corpus
//! smo-tool`).
//!
//! The public SMO tool's `examples/` folder (11 intra-array and 7 inter-array
//! `*.smo.input` files, MIT licence) lives outside this repository: in
//! `<workspace root>/../shared/corpus/smo-tool`, or where `POLYALLOC_SMO_CORPUS` points.
//! [`load`] reads every input with the bench-suite reader (`polyalloc_suite::smo_input`),
//! names it `smo-tool-intra-<stem>` or `smo-tool-inter-<stem>`, and attaches what is
//! known of its answer from `bench-suite/smo-tool/expected.json` ([`Expectations`]): Bhaskaracharya et al. 2016's
//! Table I SMO row, for the inputs that are the same example as a Table I row, as a
//! paper entry of the example, so that the harness compares it like any paper result
//! (the checker's verdict on the paper's mapping for the tool's conflict set, polyalloc's
//! mapping and size, match / same size / smaller / larger).
//!
//! [`markdown`] prints one table per input: every method's mapping and size on every
//! backend, side by side with the Table I answer where known; for the inter-array inputs
//! the shared storage (`smo-inter`), its size and the size of the arrays stored alone.
//!
//! The tool's own printed answers, their sizes and its whole-process times are in the
//! corpus's `answers.json` ([`Answers`]): `cargo xtask bench --corpus smo-tool` runs the
//! `polyalloc` command on every input beside them (`crate::bench::bench_process`), and
//! [`answers_markdown`] puts the answers side by side.

use crate::md::code;
use crate::results::{PaperRow, ProcessRecord, ResultsFile, ToolAnswer};
use crate::XtaskError;
use polyalloc::{Record, Status};
use polyalloc_suite::{Example, PaperResult};
use serde::Deserialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The environment variable naming the corpus directory.
pub const ENV: &str = "POLYALLOC_SMO_CORPUS";

/// The corpus's name on the command line and in `source.paper` of its examples.
pub const NAME: &str = "smo-tool";

/// The id prefix of the corpus's examples.
pub const PREFIX: &str = "smo-tool-";

/// The two folders of the corpus and the short names used in ids.
pub const KINDS: [(&str, &str); 2] = [("intra-array", "intra"), ("inter-array", "inter")];

/// Where the corpus is: `$POLYALLOC_SMO_CORPUS`, else `<workspace root>/../shared/corpus/smo-tool`.
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os(ENV) {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => crate::workspace_root().join("../shared/corpus/smo-tool"),
    }
}

/// The expectations file.
pub fn expected_path() -> PathBuf {
    crate::suite_dir().join("smo-tool/expected.json")
}

/// What is known of the answer to one input (`bench-suite/smo-tool/expected.json`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// The input, relative to the corpus (`intra-array/tile.smo.input`).
    pub file: String,
    /// The bench-suite file of the Table I row.
    #[serde(default)]
    pub bench_suite: Option<String>,
    /// How the input's dimensions and parameter map onto the paper's.
    #[serde(default)]
    pub correspondence: Option<String>,
    /// The Table I row as a paper entry over the input's dimensions and parameter;
    /// `None`: no known answer.
    #[serde(default)]
    pub paper: Option<PaperResult>,
    /// Why there is no known answer.
    #[serde(default)]
    pub why: Option<String>,
    /// The tool's own time on the input, as in the bench-suite files, for `cargo xtask
    /// bench --corpus smo-tool`.
    #[serde(default)]
    pub reference_times: Vec<crate::results::ReferenceTime>,
}

/// `bench-suite/smo-tool/expected.json`.
#[derive(Clone, Debug, Deserialize)]
pub struct Expectations {
    pub corpus: String,
    pub about: String,
    pub source: polyalloc_suite::Source,
    pub inputs: Vec<Expected>,
}

impl Expectations {
    /// Reads the file; every entry with a Table I row must give its size, hyperplanes and
    /// moduli, and every other one why there is none.
    pub fn load(path: &Path) -> Result<Expectations, XtaskError> {
        let text = std::fs::read_to_string(path).map_err(|e| XtaskError::Input(format!("{}: {e}", path.display())))?;
        let e: Expectations =
            serde_json::from_str(&text).map_err(|e| XtaskError::Input(format!("{}:{}:{}: {e}", path.display(), e.line(), e.column())))?;
        for x in &e.inputs {
            let complete = x.paper.as_ref().is_some_and(|p| p.size.is_some() && p.hyperplanes.is_some() && p.moduli.is_some());
            if x.paper.is_some() != complete || (x.paper.is_none() && x.why.is_none()) {
                return Err(XtaskError::Input(format!(
                    "{}: entry `{}`: a paper entry needs `size`, `hyperplanes` and `moduli`; an entry without one needs `why`",
                    path.display(),
                    x.file
                )));
            }
        }
        Ok(e)
    }

    /// The entry of an input.
    pub fn get(&self, file: &str) -> Option<&Expected> {
        self.inputs.iter().find(|x| x.file == file)
    }
}

/// `answers.json` of the corpus: the public tool's own printed answers, their sizes and
/// its whole-process times on every input, measured on another machine (`about`).
#[derive(Clone, Debug, Deserialize)]
pub struct Answers {
    pub about: String,
    /// The parameter value of every answer and time.
    #[serde(rename = "N0")]
    pub n0: i64,
    pub inputs: Vec<ToolAnswer>,
}

#[allow(clippy::result_large_err)] // the facade's error, as everywhere in xtask
impl Answers {
    /// The file in the corpus `dir`.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join("answers.json")
    }

    /// Parses the text of the file `name`; every entry must name an input of the corpus's
    /// two folders (`intra-array/x.smo.input`), once.
    pub fn parse(text: &str, name: &str) -> Result<Answers, XtaskError> {
        let a: Answers = serde_json::from_str(text).map_err(|e| XtaskError::Input(format!("{name}:{}:{}: {e}", e.line(), e.column())))?;
        for (i, x) in a.inputs.iter().enumerate() {
            if id_of(&x.file).is_none() {
                return Err(XtaskError::Input(format!("{name}: inputs[{i}]: `{}` is not an input of intra-array/ or inter-array/", x.file)));
            }
            if a.inputs[..i].iter().any(|y| y.file == x.file) {
                return Err(XtaskError::Input(format!("{name}: inputs[{i}]: `{}` appears twice", x.file)));
            }
        }
        Ok(a)
    }

    /// Reads the file.
    pub fn load(path: &Path) -> Result<Answers, XtaskError> {
        let text = std::fs::read_to_string(path).map_err(|e| XtaskError::Cli(polyalloc::Error::io(path, e)))?;
        Answers::parse(&text, &path.display().to_string())
    }

    /// The entry of an input.
    pub fn get(&self, file: &str) -> Option<&ToolAnswer> {
        self.inputs.iter().find(|x| x.file == file)
    }
}

/// One input of the corpus: its path relative to the corpus, and the example read from it.
#[derive(Clone, Debug)]
pub struct Input {
    pub file: String,
    pub example: Example,
}

/// The id of an input (`intra-array/tile.smo.input` -> `smo-tool-intra-tile`).
pub fn id_of(file: &str) -> Option<String> {
    let (kind, name) = file.split_once('/')?;
    let short = KINDS.iter().find(|(k, _)| *k == kind)?.1;
    Some(format!("{PREFIX}{short}-{}", name.strip_suffix(polyalloc_suite::smo_input::EXTENSION)?))
}

/// The corpus file of an id (`smo-tool-intra-tile` -> `intra-array/tile.smo.input`).
pub fn file_of(id: &str) -> Option<String> {
    let rest = id.strip_prefix(PREFIX)?;
    let (short, stem) = rest.split_once('-')?;
    let kind = KINDS.iter().find(|(_, s)| *s == short)?.0;
    Some(format!("{kind}/{stem}{}", polyalloc_suite::smo_input::EXTENSION))
}

/// The inputs of the corpus in `dir`, relative to its `examples/` (`intra-array/tile.smo.input`):
/// intra-array then inter-array, by file name. A missing folder is an error.
#[allow(clippy::result_large_err)] // the facade's error, as everywhere in xtask
pub fn files(dir: &Path) -> Result<Vec<String>, XtaskError> {
    let mut out = Vec::new();
    for (kind, _) in KINDS {
        let folder = dir.join("examples").join(kind);
        let rd = std::fs::read_dir(&folder).map_err(|e| XtaskError::Input(format!("{}: {e}", folder.display())))?;
        let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| polyalloc_suite::smo_input::is_smo_input(p)).collect();
        paths.sort();
        out.extend(paths.iter().filter_map(|p| p.file_name().and_then(|n| n.to_str())).map(|name| format!("{kind}/{name}")));
    }
    Ok(out)
}

/// Every input of the corpus in `dir` (intra-array then inter-array, by file name), with
/// the expectations of `expectations` attached as paper entries of Bhaskaracharya et al. 2016, Table I. A
/// missing corpus, an unreadable input and an input without an entry in the
/// expectations are errors.
pub fn load(dir: &Path, expectations: &Expectations) -> Result<Vec<Input>, XtaskError> {
    if !dir.is_dir() {
        return Err(XtaskError::Input(format!(
            "the SMO tool's corpus is not at {} (set {ENV} to its directory, the one holding examples/)",
            dir.display()
        )));
    }
    let mut out = Vec::new();
    for file in files(dir)? {
        let path = dir.join("examples").join(&file);
        let mut ex = Example::load(&path).map_err(polyalloc::Error::from)?;
        let expected = expectations.get(&file).ok_or_else(|| {
            XtaskError::Input(format!("{}: no entry for `{file}` (every input of the corpus needs one)", expected_path().display()))
        })?;
        ex.id = id_of(&file).unwrap_or_else(|| ex.id.clone());
        ex.source.paper = NAME.into();
        if !expected.reference_times.is_empty() {
            let t = serde_json::to_value(&expected.reference_times).map_err(|e| XtaskError::Input(format!("{file}: {e}")))?;
            ex.extra.insert("reference_times".into(), t);
        }
        if let (Some(paper), Some(array)) = (&expected.paper, ex.arrays.keys().next().cloned()) {
            ex.paper.push(PaperResult {
                array: Some(array),
                location: paper.location.as_ref().map(|w| format!("Bhaskaracharya et al. 2016, {w}")),
                note: match (&expected.correspondence, &paper.note) {
                    (Some(c), Some(n)) => Some(format!("{c}; {n}")),
                    (c, n) => c.clone().or_else(|| n.clone()),
                },
                ..paper.clone()
            });
        }
        out.push(Input { file, example: ex });
    }
    Ok(out)
}

fn at(r: &Record, v: Option<i128>) -> String {
    match (v, &r.size_params) {
        (Some(v), Some(p)) => format!("{v} at {}", p.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")),
        _ => "-".into(),
    }
}

fn verified(r: &Record) -> String {
    if r.status == Status::Ok {
        r.verification.map_or_else(|| "yes".into(), |c| c.label().to_string())
    } else {
        format!("{}: {}", r.status.label(), r.error.as_deref().unwrap_or("").replace('|', "\\|"))
    }
}

/// How a record compares with a paper row (`match`, `same size`, `smaller`, ...): the
/// harness's comparison (`crate::reproduce::classify`).
pub type Compare<'a> = &'a dyn Fn(&PaperRow, &Record) -> String;

/// One table per input of the corpus in `f`: every method and backend side by side with
/// the Table I answer (its mapping, size and the comparison of every method's size with
/// it by `compare`), or, for the inter-array inputs, the shared storage and the arrays
/// stored alone; then the list of results smaller than Table I's.
pub fn markdown(f: &ResultsFile, compare: Compare<'_>) -> String {
    let mut s = String::new();
    let mut ids: Vec<&str> = f.records.iter().map(|r| r.example.as_str()).filter(|id| id.starts_with(PREFIX)).collect();
    ids.dedup();
    if ids.is_empty() {
        return s;
    }
    let _ = writeln!(
        s,
        "### The SMO tool's inputs (`--corpus {NAME}`; Table I of Bhaskaracharya, Bondhugula, Cohen 2016 where an input is a Table I example)\n"
    );
    let mut smaller = Vec::new();
    for id in ids {
        let file = file_of(id).unwrap_or_else(|| id.to_string());
        let records: Vec<&Record> = f.records.iter().filter(|r| r.example == id).collect();
        let paper = f.paper.iter().find(|p| p.example == id);
        match paper {
            Some(p) => {
                let _ = writeln!(
                    s,
                    "#### `{file}`: {} `{}`, size `{}`\n",
                    p.location.as_deref().unwrap_or("Table I"),
                    p.paper_mapping.as_deref().unwrap_or("-"),
                    p.paper_size.as_deref().unwrap_or("-")
                );
            }
            None => {
                let _ = writeln!(s, "#### `{file}`: no known answer (the tool's output is not available)\n");
            }
        }
        let mut t = crate::md::Table::new(&[
            "array",
            "method",
            "backend",
            "mapping",
            "size",
            "size at the largest instance",
            "max-live",
            "verified",
            "vs Table I",
            "stored alone (sum)",
        ]);
        for r in records {
            let vs = match paper {
                Some(p) if r.status == Status::Ok => compare(p, r),
                _ => "-".into(),
            };
            if vs == "smaller" {
                smaller.push(format!(
                    "`{file}` {} {} on {}: `{}` < Table I `{}`",
                    r.array,
                    r.method,
                    r.backend,
                    r.size.as_deref().unwrap_or("-"),
                    paper.and_then(|p| p.paper_size.as_deref()).unwrap_or("-")
                ));
            }
            let alone = match &r.shared {
                Some(sh) => format!("{} ({})", code(sh.separate_size.as_deref()), at(r, sh.separate_size_at)),
                None => "-".into(),
            };
            t.row(vec![
                r.array.clone(),
                r.method.clone(),
                r.backend.clone(),
                code(r.mapping.as_deref()),
                code(r.size.as_deref()),
                at(r, r.size_at).to_string(),
                r.max_live.map_or_else(|| "-".to_string(), |m| m.to_string()),
                verified(r),
                vs.to_string(),
                alone,
            ]);
        }
        s.push_str(&t.render());
        s.push('\n');
    }
    if !smaller.is_empty() {
        s.push_str("Smaller than Table I:\n\n");
        for line in smaller {
            let _ = writeln!(s, "* {line}");
        }
        s.push('\n');
    }
    s
}

/// The tool's printed answer as table cell: one code span per mapping line (the
/// "Storage mapping(s) found" header and its rule left out).
fn printed_cell(printed: Option<&str>) -> String {
    let rows: Vec<String> = printed
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Storage mapping") && !l.chars().all(|c| c == '-'))
        .map(|l| code(Some(l)))
        .collect();
    if rows.is_empty() {
        "-".into()
    } else {
        rows.join("<br>")
    }
}

/// `` `expr` = value ``, or what there is of it.
fn size_cell(expr: Option<&str>, at: Option<i128>) -> String {
    match (expr, at) {
        (Some(e), Some(v)) => format!("{} = {v}", code(Some(e))),
        (None, Some(v)) => v.to_string(),
        (Some(e), None) => code(Some(e)),
        (None, None) => "-".into(),
    }
}

/// polyalloc's size against the tool's: `same`, `smaller (a < b)`, `larger (a > b)`.
fn versus(ours: Option<i128>, tool: Option<i128>) -> String {
    match (ours, tool) {
        (Some(a), Some(b)) if a == b => "same".into(),
        (Some(a), Some(b)) if a < b => format!("smaller ({a} < {b})"),
        (Some(a), Some(b)) => format!("larger ({a} > {b})"),
        _ => "-".into(),
    }
}

/// Every input of the whole-process runs (`cargo xtask bench --corpus smo-tool`): the
/// tool's printed answer and its size(s) from `answers.json` beside polyalloc's verified
/// answer and size(s) at the same parameter values. Inter-array inputs are read both
/// ways: one shared storage, and each array stored apart. Empty without records.
pub fn answers_markdown(records: &[ProcessRecord], params: &str) -> String {
    let mut s = String::new();
    if records.is_empty() {
        return s;
    }
    let _ = writeln!(
        s,
        "The tool prints mappings, never sizes (`answers.json`): an intra-array size is the product of its moduli; an inter-array answer \
is read as one shared storage (per row the largest modulus over the arrays) and as the arrays stored apart (the sum of each \
one's product), since the tool's last row gives each array its own constant. polyalloc: the verified answer its command printed \
in the runs above (`smo-inter`: the shared storage, and each array alone with its own `smo` mapping). Sizes at {params}.\n"
    );
    let mut table =
        crate::md::Table::new(&["input", "the tool's printed answer", "tool size", "polyalloc's answer", "polyalloc size", "polyalloc vs tool"]);
    for r in records {
        let t = r.tool.as_ref();
        let inter = r.method == "smo-inter" || t.is_some_and(|t| t.kind == "inter");
        let tool_size = if inter {
            format!(
                "shared {}<br>apart {}",
                size_cell(t.and_then(|t| t.tool_size_shared_expr.as_deref()), t.and_then(|t| t.tool_size_shared_at)),
                size_cell(t.and_then(|t| t.tool_size_apart_expr.as_deref()), t.and_then(|t| t.tool_size_apart_at))
            )
        } else {
            size_cell(t.and_then(|t| t.tool_size_expr.as_deref()), t.and_then(|t| t.tool_size_at))
        };
        let (ours, ours_size, vs) = match (&r.mapping, &r.error) {
            (None, e) => (
                format!("no verified answer{}", e.as_deref().map(|e| format!(": {}", crate::md::cell(e))).unwrap_or_default()),
                "-".into(),
                "-".into(),
            ),
            (Some(m), _) if inter => {
                let apart: Vec<String> =
                    r.apart_mapping.as_deref().unwrap_or_default().split("; ").filter(|x| !x.is_empty()).map(|x| code(Some(x))).collect();
                (
                    format!("shared {}<br>apart {}", code(Some(m)), if apart.is_empty() { "-".into() } else { apart.join(" ") }),
                    format!("shared {}<br>apart {}", size_cell(r.size.as_deref(), r.size_at), size_cell(r.apart_size.as_deref(), r.apart_size_at)),
                    format!(
                        "shared: {}<br>apart: {}",
                        versus(r.size_at, t.and_then(|t| t.tool_size_shared_at)),
                        versus(r.apart_size_at, t.and_then(|t| t.tool_size_apart_at))
                    ),
                )
            }
            (Some(m), _) => (code(Some(m)), size_cell(r.size.as_deref(), r.size_at), versus(r.size_at, t.and_then(|t| t.tool_size_at))),
        };
        let printed = match t {
            Some(t) => printed_cell(t.tool_printed.as_deref()),
            None => "(not in answers.json)".into(),
        };
        table.row(vec![format!("`{}`", r.file), printed, tool_size, ours, ours_size, vs]);
    }
    s.push_str(&table.render());
    s
}
