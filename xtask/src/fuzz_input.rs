//! `cargo xtask fuzz-input`: a robustness campaign that runs the `polyalloc` command the
//! way a user does, on hostile and malformed input.
//!
//! `cargo xtask fuzz` ([`crate::fuzz`], `polyalloc::fuzz`) generates *valid* conflict sets
//! and programs and checks the mappings by brute force: it is about correct answers. This
//! campaign is about the other half of the contract of a command-line tool: whatever file
//! it is given, `polyalloc` must answer with one of its documented exit codes (0 ok, 1
//! invalid input, 2 solver failure or time budget, 3 verification failure, 130
//! interrupted), within bounded memory and bounded time. It never panics, aborts, dies of
//! a signal or runs past its own time budget by much.
//!
//! Every case is one input file, generated deterministically from the seed and the case
//! index ([`generate`]), in one of five families ([`Family`]):
//!
//! 1. mangled SMO tool inputs (`*.smo.input` of `../shared/corpus/smo-tool/examples`):
//!    statement and polyhedron counts set to 0, -1, 2^32 + 1, 2^63, 10^8, lines
//!    deleted, duplicated or swapped, characters flipped, huge integers, truncation;
//! 2. mangled bench-suite files (`bench-suite/*.json`): fields deleted, null, of the
//!    wrong type or empty, duplicate parameters, instances outside the context, huge
//!    parameter values, random characters in isl strings, truncated text;
//! 3. generated programs (bench-suite section 4) with one or two defects: wrong
//!    subscript counts, writes to undeclared arrays, cells written twice, accesses
//!    outside the array space, schedules of different arities, duplicate statement
//!    names, names that differ from their tuples, huge domains;
//! 4. pathological isl strings as the conflicts, the space, the context or a domain:
//!    `mod` chains, deep parentheses, very long sums, juxtaposition (`2N`), non-ASCII
//!    identifiers, disjunctions whose normal form explodes, many pieces;
//! 5. random bytes, empty files, and (at most one case in 200) a 70 MB file of one
//!    repeated character, written lazily.
//!
//! Each case runs as a subprocess ([`run_case`]): `polyalloc allocate FILE --method all
//! --time-limit T` (sometimes with `--json`, sometimes `polyalloc check FILE
//! --hyperplanes .. --moduli ..`), standard input closed, standard output and error
//! captured (the first 64 kB of each), under an address-space limit (`prlimit --as`, or
//! `ulimit -v` through `sh` without util-linux), killed with its process group after
//! `6 T + 30` seconds. The peak RSS is the child's `ru_maxrss` as GNU time reports it
//! (`time -f %M`, when installed). Any exit code but 0, 1, 2, 3 and 130, any signal, any
//! kill at the wall-clock limit and any `panicked` on standard error is a **crash**;
//! every crashing input is written to the output directory with the command that
//! reproduces it, next to `report.md` ([`Report::to_markdown`]).

// The errors are the facade's `polyalloc::Error`, as everywhere in xtask; its size is
// the facade's business (clippy's `result_large_err` fires on every xtask function that
// returns it).
#![allow(clippy::result_large_err)]

use crate::results::write_atomic;
use polyalloc::Error;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Bytes kept of each of the child's standard output and error.
pub const CAPTURE_BYTES: usize = 64 * 1024;

/// Size of the file of one repeated character (family 5).
pub const HUGE_FILE_BYTES: u64 = 70 * 1024 * 1024;

/// One case in this many is the huge file (the last of every block).
pub const HUGE_FILE_EVERY: usize = 200;

/// The exit codes of `polyalloc` that are answers, not crashes.
pub const FINE_EXIT_CODES: [i32; 5] = [0, 1, 2, 3, 130];

/// The options of a campaign.
#[derive(Clone, Debug)]
pub struct Options {
    /// Number of cases.
    pub cases: usize,
    /// Seed of the generator: the same seed and index give the same case.
    pub seed: u64,
    /// `--time-limit` given to `polyalloc` (seconds; 0: none).
    pub time_limit: f64,
    /// Address-space limit of the child, in MiB.
    pub mem_mb: u64,
    /// Where crashing inputs and `report.md` are written.
    pub out: PathBuf,
    /// The `polyalloc` binary.
    pub bin: PathBuf,
    /// Cases run at the same time.
    pub threads: usize,
    /// The SMO tool's examples (family 1; skipped when absent).
    pub smo_corpus: PathBuf,
    /// The bench-suite directory (family 2).
    pub suite: PathBuf,
}

impl Options {
    /// The defaults of `cargo xtask fuzz-input`: 5 s per run, 4096 MiB, 2 threads,
    /// `results/local/fuzz-input`, the corpora of the workspace.
    pub fn new(cases: usize, seed: u64, bin: PathBuf) -> Options {
        Options {
            cases,
            seed,
            time_limit: 5.0,
            mem_mb: 4096,
            out: default_out(),
            bin,
            threads: 2,
            smo_corpus: default_smo_corpus(),
            suite: crate::suite_dir(),
        }
    }

    /// The wall-clock time after which a case is killed: `6 T + 30` seconds.
    pub fn kill_after(&self) -> Duration {
        Duration::from_secs_f64(self.time_limit.max(0.0) * 6.0 + 30.0)
    }
}

/// `results/local/fuzz-input` (untracked).
pub fn default_out() -> PathBuf {
    crate::local_dir().join("fuzz-input")
}

/// `../shared/corpus/smo-tool/examples` next to the workspace.
pub fn default_smo_corpus() -> PathBuf {
    crate::workspace_root().join("../shared/corpus/smo-tool/examples")
}

/// The `polyalloc` binary of this build: next to the running executable (`target/debug/`
/// for `cargo xtask`, its parent for a test), else `target/debug` of the workspace. When
/// none exists, builds it with `cargo build -p polyalloc-cli` and looks again.
pub fn default_bin() -> Result<PathBuf, Error> {
    if let Some(p) = find_bin() {
        return Ok(p);
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("xtask: fuzz-input: no polyalloc binary next to xtask; running `cargo build -p polyalloc-cli`");
    let status =
        Command::new(&cargo).args(["build", "--quiet", "-p", "polyalloc-cli"]).current_dir(crate::workspace_root()).status().map_err(|e| {
            Error::Input(format!("cannot run `cargo build -p polyalloc-cli` to build the polyalloc binary: {e}; build it or give --bin"))
        })?;
    if !status.success() {
        return Err(Error::Input(format!("`cargo build -p polyalloc-cli` failed ({status}); build the polyalloc binary or give --bin")));
    }
    find_bin().ok_or_else(|| {
        Error::Input("`cargo build -p polyalloc-cli` succeeded but no polyalloc binary was found next to xtask or in target/debug; give --bin".into())
    })
}

fn find_bin() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        if let Some(dir) = exe.parent() {
            candidates.push(dir.join("polyalloc"));
            if let Some(up) = dir.parent() {
                candidates.push(up.join("polyalloc"));
            }
        }
    }
    candidates.push(crate::workspace_root().join("target/debug/polyalloc"));
    candidates.into_iter().find(|p| p.is_file())
}

// ---------------------------------------------------------------------------------------
// The generator.

/// The generator: the fuzzing harness's (`polyalloc::fuzz::gen::Rng`, SplitMix64), one
/// stream per case.
pub use polyalloc::fuzz::gen::Rng;

/// The family of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Mangled SMO tool inputs.
    SmoInput,
    /// Mangled bench-suite JSON files.
    SuiteJson,
    /// Generated programs with defects.
    Program,
    /// Pathological isl strings.
    IslString,
    /// Random bytes, empty files, the huge file.
    Bytes,
}

impl Family {
    /// Every family, in report order.
    pub const ALL: [Family; 5] = [Family::SmoInput, Family::SuiteJson, Family::Program, Family::IslString, Family::Bytes];

    /// The family's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Family::SmoInput => "smo-input",
            Family::SuiteJson => "suite-json",
            Family::Program => "program",
            Family::IslString => "isl-string",
            Family::Bytes => "bytes",
        }
    }
}

/// The content of a case's file.
#[derive(Clone, Debug)]
pub enum Content {
    /// The bytes themselves.
    Bytes(Vec<u8>),
    /// `len` copies of `byte`, written in chunks (never held in memory).
    Repeated { byte: u8, len: u64 },
}

impl Content {
    /// The size in bytes.
    pub fn len(&self) -> u64 {
        match self {
            Content::Bytes(b) => b.len() as u64,
            Content::Repeated { len, .. } => *len,
        }
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn write_to(&self, path: &Path) -> Result<(), Error> {
        match self {
            Content::Bytes(b) => std::fs::write(path, b).map_err(|e| Error::io(path, e)),
            Content::Repeated { byte, len } => {
                let f = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
                let mut w = std::io::BufWriter::new(f);
                let chunk = vec![*byte; 1 << 20];
                let mut left = *len;
                while left > 0 {
                    let n = left.min(chunk.len() as u64) as usize;
                    w.write_all(&chunk[..n]).map_err(|e| Error::io(path, e))?;
                    left -= n as u64;
                }
                w.flush().map_err(|e| Error::io(path, e))
            }
        }
    }
}

/// What a case asks of `polyalloc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `allocate FILE --method all --time-limit T`.
    Allocate,
    /// The same with `--json`.
    AllocateJson,
    /// `check FILE --hyperplanes H --moduli M --time-limit T`.
    Check { hyperplanes: String, moduli: String },
}

impl Mode {
    /// The arguments after the binary.
    pub fn args(&self, file: &str, time_limit: f64) -> Vec<String> {
        let t = format!("{time_limit}");
        let mut a: Vec<String> = Vec::new();
        match self {
            Mode::Allocate | Mode::AllocateJson => {
                a.extend(["allocate".into(), file.into(), "--method".into(), "all".into(), "--time-limit".into(), t]);
                if *self == Mode::AllocateJson {
                    a.push("--json".into());
                }
            }
            Mode::Check { hyperplanes, moduli } => {
                a.extend(["check".into(), file.into(), "--hyperplanes".into(), hyperplanes.clone()]);
                a.extend(["--moduli".into(), moduli.clone(), "--time-limit".into(), t]);
            }
        }
        a
    }
}

/// The name of case `index` (`case-000123`): its directory and its row in the report.
pub fn case_id(index: usize) -> String {
    format!("case-{index:06}")
}

/// One generated case.
#[derive(Clone, Debug)]
pub struct Case {
    /// The index in the campaign.
    pub index: usize,
    pub family: Family,
    /// What was done to the input (the mutations, the defect, the pathology).
    pub what: String,
    /// The file name (its stem is the id a bench-suite file must carry).
    pub file_name: String,
    pub content: Content,
    pub mode: Mode,
}

impl Case {
    /// `case-000123`.
    pub fn id(&self) -> String {
        case_id(self.index)
    }
}

/// The real inputs the mutating families start from.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    /// (file name, text) of every `*.smo.input` found.
    pub smo: Vec<(String, String)>,
    /// (id, parsed JSON) of every bench-suite file.
    pub suite: Vec<(String, Value)>,
    /// Why a family has no sources, for the report.
    pub notes: Vec<String>,
}

impl Sources {
    /// Reads the SMO tool's examples (recursively; none when the directory is absent)
    /// and the bench-suite files.
    pub fn load(smo_corpus: &Path, suite: &Path) -> Result<Sources, Error> {
        let mut s = Sources::default();
        let mut smo_files = Vec::new();
        collect_files(smo_corpus, &mut |p| polyalloc_suite::smo_input::is_smo_input(p), &mut smo_files);
        collect_files(&suite.join("smo-tool"), &mut |p| polyalloc_suite::smo_input::is_smo_input(p), &mut smo_files);
        smo_files.sort();
        for p in smo_files {
            let text = std::fs::read_to_string(&p).map_err(|e| Error::io(&p, e))?;
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            s.smo.push((name, text));
        }
        if !smo_corpus.is_dir() {
            s.notes.push(format!(
                "the SMO tool corpus {} is absent: family smo-input starts from bench-suite/smo-tool only{}",
                smo_corpus.display(),
                if s.smo.is_empty() { " (none there either: its cases are suite-json cases)" } else { "" }
            ));
        }
        let rd = std::fs::read_dir(suite).map_err(|e| Error::io(suite, e))?;
        let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).map_err(|e| Error::io(&p, e))?;
            let v: Value = serde_json::from_str(&text).map_err(|e| Error::io(&p, e))?;
            let id = p.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            s.suite.push((id, v));
        }
        if s.suite.is_empty() {
            return Err(Error::Input(format!("{}: no bench-suite files to mutate", suite.display())));
        }
        Ok(s)
    }
}

fn collect_files(dir: &Path, keep: &mut dyn FnMut(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.filter_map(|e| e.ok()) {
        let p = e.path();
        if p.is_dir() {
            collect_files(&p, keep, out);
        } else if keep(&p) {
            out.push(p);
        }
    }
}

/// The family of case `index`: two of each of the first four for every random-bytes
/// case, and the huge file as the last case of every block of [`HUGE_FILE_EVERY`].
pub fn family_of(index: usize, sources: &Sources) -> Family {
    const SLOTS: [Family; 9] = [
        Family::SmoInput,
        Family::SuiteJson,
        Family::Program,
        Family::IslString,
        Family::Bytes,
        Family::SmoInput,
        Family::SuiteJson,
        Family::Program,
        Family::IslString,
    ];
    if index % HUGE_FILE_EVERY == HUGE_FILE_EVERY - 1 {
        return Family::Bytes;
    }
    match SLOTS[index % SLOTS.len()] {
        Family::SmoInput if sources.smo.is_empty() => Family::SuiteJson,
        f => f,
    }
}

/// Case `index` of the campaign `seed`: the same arguments always give the same case.
pub fn generate(seed: u64, index: usize, sources: &Sources) -> Case {
    let mut rng = Rng::for_case(seed, index as u64);
    let family = family_of(index, sources);
    let (file_name, content, what) = match family {
        Family::SmoInput => gen_smo(&mut rng, &sources.smo),
        Family::SuiteJson => gen_suite(&mut rng, &sources.suite),
        Family::Program => gen_program(&mut rng),
        Family::IslString => gen_isl(&mut rng),
        Family::Bytes if index % HUGE_FILE_EVERY == HUGE_FILE_EVERY - 1 => {
            let byte = rng.pick(b"a{[ 1\"");
            let name = rng.pick(&["huge.json", "huge.smo.input", "huge"]);
            (name.to_string(), Content::Repeated { byte, len: HUGE_FILE_BYTES }, format!("{HUGE_FILE_BYTES} bytes of {:?}", byte as char))
        }
        Family::Bytes => gen_bytes(&mut rng),
    };
    let mode = match rng.below(20) {
        0..=13 => Mode::Allocate,
        14..=16 => Mode::AllocateJson,
        _ => {
            const CHECKS: [(&str, &str); 10] = [
                ("[[1]]", "1"),
                ("[[1]]", "1"),
                ("[[1]]", "N"),
                ("[[1,0],[0,1]]", "N, N"),
                ("[[1,0]]", "2*N - 1"),
                ("[[1,1,1]]", "1"),
                ("[]", ""),
                ("[[9223372036854775807]]", "99999999999999999999"),
                ("[[1]]", "-1"),
                ("[[1.5]]", "0"),
            ];
            let (h, m) = rng.pick(&CHECKS);
            Mode::Check { hyperplanes: h.into(), moduli: m.into() }
        }
    };
    Case { index, family, what, file_name, content, mode }
}

/// Counts and integers that have broken parsers before: 0, -1, 2^32 + 1, 2^63, 10^8,
/// the i64 and u64 limits and beyond.
const HOSTILE_COUNTS: [&str; 12] = [
    "0",
    "-1",
    "99",
    "4294967297",
    "9223372036854775808",
    "100000000",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "10000",
    "1e9",
];

/// Integers that parse (they fit in 64 bits) but overflow arithmetic done carelessly:
/// 10^6, 2^31, 2^40, 2^62, 2^63 - 1.
const BIG_VALID: [&str; 5] = ["1000000", "2147483648", "1099511627776", "4611686018427387904", "9223372036854775807"];

/// Characters inserted into text: syntax, digits, whitespace and control characters,
/// non-ASCII letters, a zero-width space, a byte order mark.
const HOSTILE_CHARS: [char; 32] = [
    '{', '}', '[', ']', '(', ')', ':', ';', '-', '>', '<', '=', '#', '\n', ' ', '0', '9', 'N', 'x', 'é', '∀', '\u{0}', '\u{200b}', '\t', '"', '\\',
    '*', '/', '%', '\u{feff}', ',', '\r',
];

fn replace_digit_run(rng: &mut Rng, text: &str, with: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut runs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let s = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((s, i));
        } else {
            i += 1;
        }
    }
    if runs.is_empty() {
        return None;
    }
    let (s, e) = runs[rng.below(runs.len())];
    Some(format!("{}{}{}", &text[..s], with, &text[e..]))
}

fn flip_chars(rng: &mut Rng, text: &str, k: usize) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..k {
        if chars.is_empty() {
            chars.push(rng.pick(&HOSTILE_CHARS));
            continue;
        }
        let at = rng.below(chars.len());
        let c = rng.pick(&HOSTILE_CHARS);
        match rng.below(3) {
            0 => chars[at] = c,
            1 => chars.insert(at, c),
            _ => {
                chars.remove(at);
            }
        }
    }
    chars.into_iter().collect()
}

/// Cuts `bytes` at a random byte (possibly inside a UTF-8 sequence).
fn truncate(rng: &mut Rng, bytes: &mut Vec<u8>) -> String {
    let at = rng.below(bytes.len().max(1));
    bytes.truncate(at);
    format!("truncated at byte {at}")
}

fn gen_smo(rng: &mut Rng, files: &[(String, String)]) -> (String, Content, String) {
    let (name, text) = files[rng.below(files.len())].clone();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let content = |lines: &[String]| -> Vec<usize> {
        lines.iter().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#')).map(|(i, _)| i).collect()
    };
    let mut what = vec![format!("from {name}")];
    let mut cut = false;
    let mut crlf = false;
    for _ in 0..1 + rng.below(3) {
        let c = content(&lines);
        match rng.below(16) {
            14 | 15 if c.len() > 5 => {
                // A constant or coefficient of a polyhedron (or of the space) made huge
                // but still a 64-bit integer.
                let rows: Vec<usize> = c.iter().take(2).chain(c.iter().skip(6).step_by(2)).copied().collect();
                let i = rows[rng.below(rows.len())];
                let v = rng.pick(&BIG_VALID);
                if let Some(l) = replace_digit_run(rng, &lines[i], v) {
                    lines[i] = l;
                    what.push(format!("constant {v} on line {}", i + 1));
                }
            }
            0 | 1 => {
                if let Some(&i) = c.get(3) {
                    let v = rng.pick(&HOSTILE_COUNTS);
                    lines[i] = v.to_string();
                    what.push(format!("statement count {v}"));
                }
            }
            2 | 3 => {
                if let Some(&i) = c.get(4) {
                    let v = rng.pick(&HOSTILE_COUNTS);
                    lines[i] = v.to_string();
                    what.push(format!("polyhedron count {v}"));
                }
            }
            4 => {
                let pairs: Vec<usize> = c.iter().skip(5).step_by(2).copied().collect();
                if !pairs.is_empty() {
                    let i = pairs[rng.below(pairs.len())];
                    let v = rng.pick(&HOSTILE_COUNTS);
                    lines[i] = if rng.chance(50) { format!("{v} 0") } else { format!("0 {v}") };
                    what.push(format!("statement indices `{}` (line {})", lines[i], i + 1));
                }
            }
            5 if !lines.is_empty() => {
                let i = rng.below(lines.len());
                lines.remove(i);
                what.push(format!("line {} deleted", i + 1));
            }
            6 if !lines.is_empty() => {
                let i = rng.below(lines.len());
                let l = lines[i].clone();
                lines.insert(i, l);
                what.push(format!("line {} duplicated", i + 1));
            }
            7 if lines.len() > 1 => {
                let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
                lines.swap(i, j);
                what.push(format!("lines {} and {} swapped", i + 1, j + 1));
            }
            8 if !c.is_empty() => {
                let i = c[rng.below(c.len())];
                let v = rng.pick(&HOSTILE_COUNTS);
                if let Some(l) = replace_digit_run(rng, &lines[i], v) {
                    lines[i] = l;
                    what.push(format!("integer {v} on line {}", i + 1));
                }
            }
            9 if c.len() >= 7 => {
                // The last polyhedron block repeated k times, the count adjusted or not.
                let k = rng.log_range(2, 20_000);
                let block = [lines[c[c.len() - 2]].clone(), lines[c[c.len() - 1]].clone()];
                for _ in 0..k {
                    lines.extend(block.iter().cloned());
                }
                if rng.chance(50) {
                    if let Ok(n) = lines[c[4]].trim().parse::<usize>() {
                        lines[c[4]] = (n + k).to_string();
                    }
                }
                what.push(format!("last polyhedron repeated {k} times"));
            }
            10 => {
                if let Some(&i) = c.get(2) {
                    let v = rng.pick(&["y0", "x0 x1", "y0 y0 y0", "y0 y1 y2 y3 y4 y5 y6 y7 y8", "N0 N0", "é ü", "", "0 1", "[y0]"]);
                    lines[i] = v.to_string();
                    what.push(format!("output names `{v}`"));
                }
            }
            11 => {
                let k = 1 + rng.below(5);
                let joined = lines.join("\n");
                lines = flip_chars(rng, &joined, k).lines().map(str::to_string).collect();
                what.push(format!("{k} character(s) flipped"));
            }
            12 => {
                cut = true;
            }
            _ => {
                if !c.is_empty() {
                    let i = c[rng.below(c.len())];
                    let (from, to) =
                        rng.pick(&[("N0", "N1"), ("[N0] -> ", ""), ("->", "-> ->"), (":", ""), ("and", "or"), ("{", "{{"), ("N0", "N0, N0")]);
                    lines[i] = lines[i].replacen(from, to, 1);
                    what.push(format!("`{from}` -> `{to}` on line {}", i + 1));
                } else {
                    crlf = true;
                }
            }
        }
    }
    let mut bytes = lines.join(if crlf { "\r\n" } else { "\n" }).into_bytes();
    bytes.push(b'\n');
    if crlf {
        what.push("CRLF line ends".into());
    }
    if cut {
        what.push(truncate(rng, &mut bytes));
    }
    (name, Content::Bytes(bytes), what.join("; "))
}

// ---------------------------------------------------------------------------------------
// Family 2: bench-suite JSON.

#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

fn all_paths(v: &Value, prefix: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                prefix.push(Seg::Key(k.clone()));
                all_paths(c, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                prefix.push(Seg::Index(i));
                all_paths(c, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn node_mut<'a>(v: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
    let mut cur = v;
    for s in path {
        cur = match (s, cur) {
            (Seg::Key(k), Value::Object(m)) => m.get_mut(k)?,
            (Seg::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn path_text(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                s.push('/');
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("/{i}")),
        }
    }
    if s.is_empty() {
        s.push('/');
    }
    s
}

/// A path into the input a method reads (not `paper`, `note`, `text` or `title`).
fn used_field(path: &[Seg]) -> bool {
    const USED: [&str; 10] = ["id", "params", "context", "arrays", "program", "instances", "inter_array", "ov", "pugh", "flow"];
    matches!(path.first(), Some(Seg::Key(k)) if USED.contains(&k.as_str()))
        && !path.iter().any(|s| matches!(s, Seg::Key(k) if ["note", "text", "title"].contains(&k.as_str())))
}

fn hostile_value(rng: &mut Rng) -> Value {
    match rng.below(16) {
        0 => Value::Null,
        1 => json!(0),
        2 => json!(-1),
        3 => json!(true),
        4 => json!(""),
        5 => json!([]),
        6 => json!({}),
        7 => json!(1.5),
        8 => json!("{ }"),
        9 => json!([null]),
        10 => json!(u64::MAX),
        11 => json!({"": ""}),
        12 => json!("{ : 1 = 0 }"),
        13 => json!("[N] -> { A[i, j, k] : 0 <= i, j, k < N }"),
        14 => json!("[N] -> { }"),
        _ => json!("{ S[i] -> A[i] }"),
    }
}

fn huge_param(rng: &mut Rng) -> Value {
    match rng.below(10) {
        0 => json!(1_000_000_000i64),
        1 => json!(1i64 << 62),
        2 => json!(i64::MIN),
        3 => json!(i64::MAX),
        4 => json!(u64::MAX),
        5 => json!(1e300),
        6 => json!(-1_000_000_000i64),
        7 => json!(4_294_967_297i64),
        8 => json!(100_000i64),
        _ => json!(1_000_000i64),
    }
}

/// A string value that looks like an isl object (contains `{`), by path.
fn isl_strings(v: &Value) -> Vec<Vec<Seg>> {
    let mut paths = Vec::new();
    all_paths(v, &mut Vec::new(), &mut paths);
    paths.into_iter().filter(|p| matches!(lookup(v, p), Some(Value::String(s)) if s.contains('{'))).collect()
}

fn lookup<'a>(v: &'a Value, path: &[Seg]) -> Option<&'a Value> {
    let mut cur = v;
    for s in path {
        cur = match (s, cur) {
            (Seg::Key(k), Value::Object(m)) => m.get(k)?,
            (Seg::Index(i), Value::Array(a)) => a.get(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn mutate_suite_value(rng: &mut Rng, v: &mut Value, what: &mut Vec<String>) {
    let params: Vec<String> =
        v.get("params").and_then(Value::as_array).map(|a| a.iter().filter_map(|p| p.as_str().map(str::to_string)).collect()).unwrap_or_default();
    match rng.below(15) {
        0..=2 => {
            // A random node: deleted, null, the wrong type, empty.
            let mut paths = Vec::new();
            all_paths(v, &mut Vec::new(), &mut paths);
            // Mostly the fields the loader and the methods use, not the paper's notes.
            let used: Vec<&Vec<Seg>> = paths.iter().filter(|p| used_field(p)).collect();
            let path = if !used.is_empty() && rng.chance(80) { used[rng.below(used.len())].clone() } else { paths[rng.below(paths.len())].clone() };
            if path.is_empty() {
                *v = hostile_value(rng);
                what.push(format!("the whole file replaced by {v}"));
                return;
            }
            let (last, parent_path) = path.split_last().map(|(l, p)| (l.clone(), p.to_vec())).unwrap_or((Seg::Index(0), Vec::new()));
            if rng.chance(40) {
                if let Some(parent) = node_mut(v, &parent_path) {
                    match (parent, &last) {
                        (Value::Object(m), Seg::Key(k)) => {
                            m.remove(k);
                        }
                        (Value::Array(a), Seg::Index(i)) if *i < a.len() => {
                            a.remove(*i);
                        }
                        _ => {}
                    }
                    what.push(format!("{} deleted", path_text(&path)));
                }
            } else {
                let h = hostile_value(rng);
                if let Some(n) = node_mut(v, &path) {
                    what.push(format!("{} = {h}", path_text(&path)));
                    *n = h;
                }
            }
        }
        3 => {
            if let Some(Value::Array(ps)) = v.get_mut("params") {
                let dup = ps.first().cloned().unwrap_or(json!("N"));
                ps.push(dup.clone());
                what.push(format!("parameter {dup} duplicated"));
            }
        }
        4 | 5 => {
            // Instances outside the context or with huge values.
            let huge = rng.chance(60);
            let value = if huge { huge_param(rng) } else { json!(rng.pick(&[0i64, -1, -100, 1, 2])) };
            if let (Some(Value::Array(insts)), Some(p)) = (v.get_mut("instances"), params.first()) {
                let n = insts.len();
                if n > 0 {
                    let k = rng.below(n);
                    if let Some(Value::Object(m)) = insts.get_mut(k) {
                        m.insert(p.clone(), value.clone());
                        what.push(format!("instance {k}: {p} = {value}"));
                    }
                }
            }
        }
        6 => {
            if let Some(Value::Array(insts)) = v.get_mut("instances") {
                let extra = rng.pick(&[json!({}), json!({"Q": 3}), json!([]), json!(null), json!({"N": "9"})]);
                insts.push(extra.clone());
                what.push(format!("instance {extra} appended"));
            }
        }
        7 | 8 => {
            // Random characters in an isl string.
            let paths = isl_strings(v);
            if !paths.is_empty() {
                let path = paths[rng.below(paths.len())].clone();
                let k = 1 + rng.below(4);
                if let Some(Value::String(s)) = node_mut(v, &path) {
                    *s = flip_chars(rng, s, k);
                    what.push(format!("{k} character(s) flipped in {}", path_text(&path)));
                }
            }
        }
        13 | 14 => {
            // A constant of an isl string made huge, still a 64-bit integer.
            let paths = isl_strings(v);
            if !paths.is_empty() {
                let path = paths[rng.below(paths.len())].clone();
                let big = rng.pick(&BIG_VALID);
                if let Some(Value::String(s)) = node_mut(v, &path) {
                    if let Some(t) = replace_digit_run(rng, s, big) {
                        *s = t;
                        what.push(format!("constant {big} in {}", path_text(&path)));
                    }
                }
            }
        }
        9 => {
            // An isl string moved to another isl field.
            let paths = isl_strings(v);
            if paths.len() > 1 {
                let (a, b) = (paths[rng.below(paths.len())].clone(), paths[rng.below(paths.len())].clone());
                if let Some(src) = lookup(v, &a).cloned() {
                    if let Some(n) = node_mut(v, &b) {
                        *n = src;
                        what.push(format!("{} copied to {}", path_text(&a), path_text(&b)));
                    }
                }
            }
        }
        10 => {
            let to = rng.pick(&[json!(["M"]), json!([]), json!(["N", "N"]), json!(["é"]), json!(["N", "M", "K", "L"])]);
            if let Some(ps) = v.get_mut("params") {
                what.push(format!("params = {to}"));
                *ps = to;
            }
        }
        _ => {
            // Many instances.
            if let (Some(Value::Array(insts)), Some(p)) = (v.get_mut("instances"), params.first()) {
                let n = rng.log_range(100, 20_000);
                for k in 0..n {
                    let mut m = Map::new();
                    m.insert(p.clone(), json!(k as i64 + 2));
                    insts.push(Value::Object(m));
                }
                what.push(format!("{n} instances appended"));
            }
        }
    }
}

fn gen_suite(rng: &mut Rng, files: &[(String, Value)]) -> (String, Content, String) {
    let (id, mut v) = files[rng.below(files.len())].clone();
    let mut what = vec![format!("from {id}.json")];
    for _ in 0..1 + rng.below(3) {
        mutate_suite_value(rng, &mut v, &mut what);
    }
    // Serialising a `Value` cannot fail (its keys are strings).
    let mut text = serde_json::to_string_pretty(&v).unwrap_or_default();
    match rng.below(8) {
        0 => {
            let v = rng.pick(&HOSTILE_COUNTS[3..]);
            if let Some(t) = replace_digit_run(rng, &text, v) {
                text = t;
                what.push(format!("an integer of the text replaced by {v}"));
            }
        }
        1 => {
            text = text.replacen('{', "{\"id\": \"dup\", \"params\": [\"N\", \"N\"], ", 1);
            what.push("duplicate keys `id`, `params` inserted".into());
        }
        _ => {}
    }
    let mut bytes = text.into_bytes();
    if rng.chance(12) {
        what.push(truncate(rng, &mut bytes));
    }
    // The id must be the file stem: keep the file's own id when it is a usable name.
    let stem = match v.get("id").and_then(Value::as_str) {
        Some(s) if !s.is_empty() && s.len() <= 100 && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') => s.to_string(),
        _ => id,
    };
    (format!("{stem}.json"), Content::Bytes(bytes), what.join("; "))
}

// ---------------------------------------------------------------------------------------
// Family 3: generated programs with defects.

#[derive(Clone, Debug)]
struct Stmt {
    name: String,
    tuple: String,
    iters: String,
    cons: String,
    schedule: String,
    writes: Vec<String>,
    reads: Vec<String>,
}

#[derive(Clone, Debug)]
struct Prog {
    params: Vec<String>,
    context: String,
    arrays: Vec<(String, String)>,
    stmts: Vec<Stmt>,
    live_out: Option<String>,
    instances: Vec<Value>,
}

impl Prog {
    fn prefix(&self) -> String {
        format!("[{}] -> ", self.params.join(", "))
    }

    fn to_json(&self, id: &str) -> Value {
        let pre = self.prefix();
        let rel = |s: &Stmt, items: &[String]| -> String {
            let pieces: Vec<String> = items.iter().map(|t| format!("{}[{}] -> {t}", s.tuple, s.iters)).collect();
            format!("{pre}{{ {} }}", pieces.join("; "))
        };
        let statements: Vec<Value> = self
            .stmts
            .iter()
            .map(|s| {
                let mut m = Map::new();
                m.insert("name".into(), json!(s.name));
                m.insert("domain".into(), json!(format!("{pre}{{ {}[{}] : {} }}", s.tuple, s.iters, s.cons)));
                m.insert("schedule".into(), json!(format!("{pre}{{ {}[{}] -> [{}] }}", s.tuple, s.iters, s.schedule)));
                m.insert("writes".into(), json!(rel(s, &s.writes)));
                if !s.reads.is_empty() {
                    m.insert("reads".into(), json!(rel(s, &s.reads)));
                }
                Value::Object(m)
            })
            .collect();
        let mut program = Map::new();
        program.insert("statements".into(), Value::Array(statements));
        if let Some(l) = &self.live_out {
            program.insert("live_out".into(), json!(format!("{pre}{{ {l} }}")));
        }
        let arrays: Map<String, Value> = self.arrays.iter().map(|(n, sp)| (n.clone(), json!({ "space": format!("{pre}{{ {sp} }}") }))).collect();
        json!({
            "id": id,
            "title": "fuzz-input generated program",
            "source": {"paper": "none", "where": "cargo xtask fuzz-input"},
            "params": self.params,
            "context": format!("{pre}{{ : {} }}", self.context),
            "arrays": arrays,
            "program": program,
            "instances": self.instances,
            "paper": [],
        })
    }
}

fn base_program(two_d: bool) -> Prog {
    let (iters, cons, read, last) = if two_d {
        ("t, i", "0 <= t < N and 0 <= i < N", "A[t - 1, i] : t >= 1", "0 <= i < N and t = N - 1")
    } else {
        ("i", "0 <= i < N", "A[i - 1] : i >= 1", "i = N - 1")
    };
    Prog {
        params: vec!["N".into()],
        context: "N >= 2".into(),
        arrays: vec![("A".into(), format!("A[{iters}] : {cons}"))],
        stmts: vec![Stmt {
            name: "S".into(),
            tuple: "S".into(),
            iters: iters.into(),
            cons: cons.into(),
            schedule: iters.into(),
            writes: vec![format!("A[{iters}]")],
            reads: vec![read.into()],
        }],
        live_out: Some(format!("A[{iters}] : {last}")),
        instances: vec![json!({"N": 3}), json!({"N": 6})],
    }
}

const DEFECTS: [&str; 17] = [
    "wrong subscript count",
    "write to an undeclared array",
    "cell written by two statements",
    "cell written at every t",
    "access outside the array space",
    "schedules of different arities",
    "duplicate statement names",
    "statement name different from its tuple",
    "huge domain",
    "undeclared parameter",
    "constant schedule",
    "huge schedule coefficient",
    "schedule with a fresh identifier",
    "no statements",
    "bad live-out",
    "many statements",
    "empty array space",
];

fn apply_defect(rng: &mut Rng, p: &mut Prog, d: usize) -> String {
    let two_d = p.stmts.first().is_some_and(|s| s.iters.contains(','));
    let it = p.stmts.first().map(|s| s.iters.clone()).unwrap_or_else(|| "i".into());
    let mut detail = String::new();
    match d {
        0 => {
            let (w, r) = if two_d { ("A[t]", "A[t, i, 0]") } else { ("A[i, i]", "A[]") };
            if let Some(s) = p.stmts.first_mut() {
                if rng.chance(50) {
                    s.writes[0] = w.into();
                    detail = format!("writes {w}");
                } else {
                    s.reads.push(r.into());
                    detail = format!("reads {r}");
                }
            }
        }
        1 => {
            if let Some(s) = p.stmts.first_mut() {
                if rng.chance(50) {
                    s.writes = vec![format!("B[{it}]")];
                } else {
                    s.writes.push(format!("B[{it}]"));
                }
                s.reads.push(format!("B[{it}]"));
            }
        }
        2 => {
            if let Some(s) = p.stmts.first().cloned() {
                p.stmts.push(Stmt { name: "T".into(), tuple: "T".into(), ..s });
            }
        }
        3 => {
            p.arrays = vec![("A".into(), "A[i] : 0 <= i < N".into())];
            p.stmts = vec![Stmt {
                name: "S".into(),
                tuple: "S".into(),
                iters: "t, i".into(),
                cons: "0 <= t < N and 0 <= i < N".into(),
                schedule: "t, i".into(),
                writes: vec!["A[i]".into()],
                reads: vec!["A[i - 1] : i >= 1".into(), "A[i]".into()],
            }];
            p.live_out = Some("A[i]".into());
        }
        4 => {
            let w = if two_d {
                rng.pick(&[
                    "A[t + 1000000, i]",
                    "A[t, i - N]",
                    "A[1000000000*t, i]",
                    "A[9223372036854775807 + t, i]",
                    "A[-t - 1, i]",
                    "A[4611686018427387904*t, -9223372036854775807*i]",
                ])
            } else {
                rng.pick(&["A[i + 1000000]", "A[i - N]", "A[1000000000*i]", "A[9223372036854775807 + i]", "A[-i - 1]", "A[-9223372036854775807*i]"])
            };
            if let Some(s) = p.stmts.first_mut() {
                if rng.chance(50) {
                    s.writes[0] = w.into();
                    detail = format!("writes {w}");
                } else {
                    s.reads.push(w.into());
                    detail = format!("reads {w}");
                }
            }
        }
        5 => {
            if let Some(s) = p.stmts.first().cloned() {
                let sched = rng.pick(&["", "0", "t, i, 0, 0, 0", "i, i, i, i, i, i, i, i, i, i, i, i"]);
                let sched = if !two_d { sched.replace('t', "i") } else { sched.to_string() };
                detail = format!("T -> [{sched}]");
                p.stmts.push(Stmt { name: "T".into(), tuple: "T".into(), schedule: sched, writes: vec![format!("C[{it}]")], ..s });
            }
        }
        6 => {
            if let Some(s) = p.stmts.first().cloned() {
                p.stmts.push(Stmt { reads: Vec::new(), ..s });
            }
        }
        7 => {
            if let Some(s) = p.stmts.first_mut() {
                s.tuple = rng.pick(&["T", "s", "", "S2"]).into();
                detail = format!("name S, tuple `{}`", s.tuple);
            }
        }
        8 => {
            let n = huge_param(rng);
            detail = format!("N = {n}");
            p.instances = if rng.chance(50) { vec![json!({"N": 3}), json!({"N": n})] } else { vec![json!({"N": n})] };
        }
        9 => {
            if let Some(s) = p.stmts.first_mut() {
                s.cons.push_str(" and i < M");
            }
        }
        10 => {
            for s in &mut p.stmts {
                s.schedule = "0".into();
            }
        }
        11 => {
            let c = rng.pick(&["1000000000000", "4611686018427387904", "9223372036854775807", "99999999999999999999"]);
            for s in &mut p.stmts {
                s.schedule = format!("{c}*{}", s.iters.replace(", ", " + "));
            }
            detail = format!("coefficient {c}");
        }
        12 => {
            for s in &mut p.stmts {
                s.schedule = rng.pick(&["t2", "i, j", "N*i", "i mod 2", "floor(i / 2)", "i / 2"]).into();
            }
        }
        13 => {
            p.stmts.clear();
        }
        14 => {
            let l = rng.pick(&["B[i]", "A[i, i, i]", "A[i] : i = 99999999999999999999", "A[t, i] : t = N - 1", "[i]", "A"]);
            detail = format!("live_out {l}");
            p.live_out = Some(l.into());
        }
        15 => {
            let n = rng.log_range(50, 2000);
            detail = format!("{n} statements");
            p.arrays = vec![("A".into(), "A[i] : 0 <= i < N".into())];
            p.stmts = (0..n)
                .map(|k| Stmt {
                    name: format!("S{k}"),
                    tuple: format!("S{k}"),
                    iters: "i".into(),
                    cons: format!("0 <= i < N and i = {}", k % 4),
                    schedule: format!("{k}"),
                    writes: vec!["A[i]".into()],
                    reads: if k > 0 { vec!["A[i]".into()] } else { Vec::new() },
                })
                .collect();
            p.live_out = None;
        }
        _ => {
            if let Some(a) = p.arrays.first_mut() {
                a.1 = format!("A[{it}] : 1 = 0");
            }
        }
    }
    if detail.is_empty() {
        DEFECTS[d].to_string()
    } else {
        format!("{} ({detail})", DEFECTS[d])
    }
}

fn gen_program(rng: &mut Rng) -> (String, Content, String) {
    let mut p = base_program(rng.chance(60));
    let n = if rng.chance(70) { 1 } else { 2 };
    let mut what = Vec::new();
    for _ in 0..n {
        let d = rng.below(DEFECTS.len());
        what.push(apply_defect(rng, &mut p, d));
    }
    let id = "fuzz-program";
    let text = serde_json::to_string_pretty(&p.to_json(id)).unwrap_or_default();
    (format!("{id}.json"), Content::Bytes(text.into_bytes()), what.join("; "))
}

// ---------------------------------------------------------------------------------------
// Family 4: pathological isl strings.

fn repeat_join(item: impl Fn(usize) -> String, n: usize, sep: &str) -> String {
    (0..n).map(item).collect::<Vec<_>>().join(sep)
}

/// A pathological constraint over `x`, `y` and `N`, and its description.
fn pathology(rng: &mut Rng, x: &str, y: &str) -> (String, String) {
    match rng.below(13) {
        0 | 1 => {
            let n = rng.log_range(10, 10_000);
            let m = rng.pick(&["2", "3", "1", "7"]);
            (format!("{x} {} >= 0", repeat_join(|_| format!("mod {m}"), n, " ")), format!("mod chain of {n} links (mod {m})"))
        }
        2 => {
            let n = rng.log_range(10, 100_000);
            (format!("{}{x}{} >= 0", "(".repeat(n), ")".repeat(n)), format!("{n} nested parentheses around an expression"))
        }
        3 => {
            let n = rng.log_range(10, 100_000);
            (format!("{}{x} >= 0{}", "(".repeat(n), ")".repeat(n)), format!("{n} nested parentheses around a constraint"))
        }
        4 => {
            let n = rng.log_range(10, 100_000);
            if rng.chance(50) {
                (format!("{} >= 0", repeat_join(|_| x.to_string(), n, " + ")), format!("sum of {n} terms `{x}`"))
            } else {
                (format!("{} >= {x}", repeat_join(|_| "1".into(), n, " + ")), format!("sum of {n} ones"))
            }
        }
        5 => {
            let j =
                rng.pick(&["2N > X", "2 (X + 1) > Y", "1 N >= X", "2X >= 0", "N N > 0", "X Y > 0", "2 2 > 0", "(X)(Y) > 0", "3(X) > 0", "X2N >= 0"]);
            let s = j.replace('X', x).replace('Y', y);
            (s.clone(), format!("juxtaposition `{s}`"))
        }
        6 => {
            let n = rng.log_range(10, 10_000);
            (format!("({})", repeat_join(|k| format!("{x} = {k}"), n, " or ")), format!("disjunction of {n} equalities"))
        }
        7 => {
            let k = rng.log_range(5, 40);
            (
                repeat_join(|k| format!("({x} = {k} or {y} = {k} or {x} + {y} = {k})"), k, " and "),
                format!("conjunction of {k} three-way disjunctions (3^{k} in normal form)"),
            )
        }
        8 => {
            let n = rng.log_range(10, 1000);
            let vars = repeat_join(|k| format!("e{k}"), n, ", ");
            let body = repeat_join(|k| if k == 0 { format!("e0 = {x}") } else { format!("e{k} = e{}", k - 1) }, n, " and ");
            (format!("exists {vars} : ({body})"), format!("exists with {n} variables"))
        }
        9 => {
            let n = rng.log_range(10, 10_000);
            (format!("{}{x}{} >= 0", "floor(".repeat(n), " / 2)".repeat(n)), format!("{n} nested floors"))
        }
        10 => {
            let h = rng.pick(&[
                "99999999999999999999*X >= 0",
                "9223372036854775807*X + 9223372036854775807*Y >= 0",
                "X mod 9223372036854775807 >= 0",
                "floor(X / 0) >= 0",
                "X mod 0 = 0",
                "X mod -3 = 0",
                "-9223372036854775808*X <= 0",
                "4611686018427387904*X - 4611686018427387904*Y = 1",
                "X >= 170141183460469231731687303715884105728",
                "X * Y >= 0",
                "X mod N >= 0",
                "2147483648*X >= Y",
                "X <= 4611686018427387904",
                "1099511627776*X - Y >= 0",
                "4611686018427387904*X + 4611686018427387904*Y >= 0",
                "Y - X <= 9223372036854775807",
            ]);
            let s = h.replace('X', x).replace('Y', y);
            (s.clone(), format!("`{s}`"))
        }
        11 => {
            let n = rng.log_range(10, 100_000);
            (format!("{}{x} <= 0", "- ".repeat(n)), format!("{n} unary minuses"))
        }
        _ => {
            let n = rng.log_range(10, 10_000);
            (format!("0 <= {} <= N", repeat_join(|_| x.to_string(), n, " <= ")), format!("comparison chain of {n}"))
        }
    }
}

fn isl_example(space: &str, conflicts: Option<&str>, context: &str, program: Option<Value>) -> Value {
    let mut array = Map::new();
    array.insert("space".into(), json!(space));
    if let Some(c) = conflicts {
        array.insert("conflicts".into(), json!(c));
        array.insert("conflicts_form".into(), json!("half"));
        array.insert("conflicts_source".into(), json!("derived"));
    }
    let mut v = json!({
        "id": "fuzz-isl",
        "title": "fuzz-input pathological isl string",
        "source": {"paper": "none", "where": "cargo xtask fuzz-input"},
        "params": ["N"],
        "context": context,
        "arrays": {"A": Value::Object(array)},
        "instances": [{"N": 4}, {"N": 9}],
        "paper": [],
    });
    if let (Some(p), Value::Object(m)) = (program, &mut v) {
        m.insert("program".into(), p);
    }
    v
}

fn gen_isl(rng: &mut Rng) -> (String, Content, String) {
    const SPACE: &str = "[N] -> { A[i] : 0 <= i < N }";
    const CONTEXT: &str = "[N] -> { : N >= 2 }";
    let base_conf = "0 <= i < N and 0 <= i2 < N and i2 >= i + 1 and i2 <= i + 2";
    let v = match rng.below(12) {
        // Whole-structure pathologies: non-ASCII names, many pieces.
        0 => {
            let (a, x, y, n) = rng.pick(&[
                ("A", "é", "ü", "N"),
                ("Ä", "i", "i2", "N"),
                ("A", "日本", "本日", "N"),
                ("A", "i\u{200b}", "i2", "N"),
                ("A", "𝑖", "𝑗", "N"),
                ("A", "i", "i2", "Ñ"),
                ("A", "ı", "i2", "N"),
                ("A", "e\u{301}", "i2", "N"),
            ]);
            let space = format!("[{n}] -> {{ {a}[{x}] : 0 <= {x} < {n} }}");
            let conf = format!("[{n}] -> {{ {a}[{x}] -> {a}[{y}] : 0 <= {x} < {n} and 0 <= {y} < {n} and {y} = {x} + 1 }}");
            let mut v = isl_example(&space, Some(&conf), &format!("[{n}] -> {{ : {n} >= 2 }}"), None);
            if n != "N" {
                v["params"] = json!([n]);
                v["instances"] = json!([{ n: 4 }]);
            }
            if a != "A" {
                if let Some(Value::Object(arrays)) = v.get_mut("arrays") {
                    if let Some(x) = arrays.remove("A") {
                        arrays.insert(a.to_string(), x);
                    }
                }
            }
            return finish_isl(v, format!("non-ASCII names: array `{a}`, variables `{x}`, `{y}`, parameter `{n}`"));
        }
        1 => {
            let n = rng.log_range(10, 10_000);
            let pieces = repeat_join(|k| format!("A[i] -> A[i2] : 0 <= i < N and i2 = i + {}", k + 1), n, "; ");
            let conf = format!("[N] -> {{ {pieces} }}");
            return finish_isl(isl_example(SPACE, Some(&conf), CONTEXT, None), format!("conflicts of {n} pieces"));
        }
        // The pathology as the space.
        2 => {
            let (p, d) = pathology(rng, "i", "i");
            let space = format!("[N] -> {{ A[i] : 0 <= i < N and ({p}) }}");
            (isl_example(&space, Some(&format!("[N] -> {{ A[i] -> A[i2] : {base_conf} }}")), CONTEXT, None), format!("space: {d}"))
        }
        // As the context.
        3 => {
            let (p, d) = pathology(rng, "N", "N");
            let context = format!("[N] -> {{ : N >= 2 and ({p}) }}");
            (isl_example(SPACE, Some(&format!("[N] -> {{ A[i] -> A[i2] : {base_conf} }}")), &context, None), format!("context: {d}"))
        }
        // As a statement's domain.
        4 => {
            let (p, d) = pathology(rng, "i", "i");
            let program = json!({
                "statements": [{
                    "name": "S",
                    "domain": format!("[N] -> {{ S[i] : 0 <= i < N and ({p}) }}"),
                    "schedule": "[N] -> { S[i] -> [i] }",
                    "writes": "[N] -> { S[i] -> A[i] }",
                    "reads": "[N] -> { S[i] -> A[i - 1] : i >= 1 }",
                }],
                "live_out": "[N] -> { A[i] : i = N - 1 }",
            });
            (isl_example(SPACE, None, CONTEXT, Some(program)), format!("domain: {d}"))
        }
        // As the conflicts (most often).
        _ => {
            let (p, d) = pathology(rng, "i", "i2");
            let conf = format!("[N] -> {{ A[i] -> A[i2] : {base_conf} and ({p}) }}");
            (isl_example(SPACE, Some(&conf), CONTEXT, None), format!("conflicts: {d}"))
        }
    };
    finish_isl(v.0, v.1)
}

fn finish_isl(v: Value, what: String) -> (String, Content, String) {
    let text = serde_json::to_string_pretty(&v).unwrap_or_default();
    ("fuzz-isl.json".into(), Content::Bytes(text.into_bytes()), what)
}

// ---------------------------------------------------------------------------------------
// Family 5: bytes.

fn gen_bytes(rng: &mut Rng) -> (String, Content, String) {
    let name = rng.pick(&["bytes.json", "bytes.smo.input", "bytes.jscop", "bytes"]);
    let (bytes, what): (Vec<u8>, String) = match rng.below(10) {
        0 => (Vec::new(), "empty file".into()),
        1 | 2 => {
            let n = rng.log_range(1, 65_536);
            ((0..n).map(|_| rng.next_u64() as u8).collect(), format!("{n} random bytes"))
        }
        3 | 4 => {
            let n = rng.log_range(1, 65_536);
            let alphabet = b"{}[]\":,0123456789-abcdefghijklmnopqrstuvwxyzN ->;#\n";
            ((0..n).map(|_| alphabet[rng.below(alphabet.len())]).collect(), format!("{n} random JSON and isl characters"))
        }
        5 => {
            let n = rng.log_range(10, 1_000_000);
            let (open, close) = rng.pick(&[("[", "]"), ("{\"a\":", "}"), ("{\"id\":", "}")]);
            (format!("{}{}", open.repeat(n), close.repeat(n)).into_bytes(), format!("JSON nested {n} deep (`{open}`)"))
        }
        6 => {
            let s =
                rng.pick(&["null", "true", "0", "\"x\"", "[]", "{}", "1e999999", "-0", "99999999999999999999999", "\"", "{\"id\":", "\u{feff}{}"]);
            (s.as_bytes().to_vec(), format!("the JSON text `{s}`"))
        }
        7 => {
            let n = rng.log_range(1000, 5_000_000);
            (format!("{}{{}}", " ".repeat(n)).into_bytes(), format!("{n} spaces then `{{}}`"))
        }
        8 => {
            // A valid example in UTF-16 or behind a byte order mark.
            let text = serde_json::to_string(&isl_example(
                "[N] -> { A[i] : 0 <= i < N }",
                Some("[N] -> { A[i] -> A[i2] : i2 = i + 1 }"),
                "[N] -> { : N >= 2 }",
                None,
            ))
            .unwrap_or_default();
            if rng.chance(50) {
                let mut b = vec![0xFF, 0xFE];
                b.extend(text.encode_utf16().flat_map(|u| u.to_le_bytes()));
                (b, "a valid example in UTF-16LE".into())
            } else {
                let mut b = vec![0xEF, 0xBB, 0xBF];
                b.extend(text.as_bytes());
                (b, "a valid example behind a UTF-8 byte order mark".into())
            }
        }
        _ => {
            let n = rng.log_range(1, 100_000);
            let c = rng.pick(b"\n#0\0\r");
            (vec![c; n], format!("{n} bytes {:?}", c as char))
        }
    };
    (name.to_string(), Content::Bytes(bytes), what)
}

// ---------------------------------------------------------------------------------------
// The runner.

/// How the children are limited and measured on this machine.
#[derive(Clone, Debug)]
pub struct Harness {
    /// `/usr/bin/time` (GNU time) for the peak RSS, when installed.
    pub time_tool: Option<PathBuf>,
    /// `prlimit` (util-linux) for the address-space limit; `sh -c 'ulimit -v'` without.
    pub prlimit: Option<PathBuf>,
}

impl Harness {
    /// Looks the tools up in `PATH`.
    pub fn detect() -> Harness {
        Harness { time_tool: find_in_path("time"), prlimit: find_in_path("prlimit") }
    }

    /// How the peak RSS is measured, for the report.
    pub fn rss_method(&self) -> String {
        match &self.time_tool {
            Some(t) => format!("`{} -f %M` (GNU time: the child's ru_maxrss, from wait4)", t.display()),
            None => "not measured (GNU time is not installed: `apt-get install time`)".into(),
        }
    }

    /// How the address space is limited, for the report.
    pub fn limit_method(&self, bytes: u64) -> String {
        match &self.prlimit {
            Some(p) => format!("`{} --as={bytes}`", p.display()),
            None => format!("`sh -c 'ulimit -v {}'`", bytes / 1024),
        }
    }

    /// The command line that runs `bin args` under the limit (and the measurement when
    /// `rss_file` is given).
    fn argv(&self, bin: &Path, args: &[String], mem_bytes: u64, rss_file: Option<&Path>) -> Vec<String> {
        let mut argv = Vec::new();
        if let (Some(t), Some(f)) = (&self.time_tool, rss_file) {
            argv.extend([t.display().to_string(), "-o".into(), f.display().to_string(), "-f".into(), "fuzz-input rss_kb=%M exit=%x".into()]);
        }
        match &self.prlimit {
            Some(p) => argv.extend([p.display().to_string(), format!("--as={mem_bytes}"), "--".into(), bin.display().to_string()]),
            None => argv.extend([
                "sh".into(),
                "-c".into(),
                format!("ulimit -v {} || exit 125; exec \"$0\" \"$@\"", mem_bytes / 1024),
                bin.display().to_string(),
            ]),
        }
        argv.extend(args.iter().cloned());
        argv
    }

    /// The shell command that reproduces a case (the limit, no measurement).
    pub fn reproduce(&self, bin: &Path, args: &[String], mem_bytes: u64) -> String {
        self.argv(bin, args, mem_bytes, None).iter().map(|a| shell_quote(a)).collect::<Vec<_>>().join(" ")
    }
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// Quotes for `sh` when needed.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=,+:@%".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// How a child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// An exit code.
    Code(i32),
    /// Killed by a signal.
    Signal(i32),
    /// Killed by the campaign at the wall-clock limit.
    Timeout,
}

impl Exit {
    /// `0`, `101`, `SIGSEGV`, `timeout`.
    pub fn label(self) -> String {
        match self {
            Exit::Code(c) => c.to_string(),
            Exit::Signal(s) => signal_name(s),
            Exit::Timeout => "timeout".into(),
        }
    }
}

fn signal_name(s: i32) -> String {
    match s {
        4 => "SIGILL".into(),
        6 => "SIGABRT".into(),
        7 => "SIGBUS".into(),
        8 => "SIGFPE".into(),
        9 => "SIGKILL".into(),
        11 => "SIGSEGV".into(),
        13 => "SIGPIPE".into(),
        15 => "SIGTERM".into(),
        _ => format!("signal {s}"),
    }
}

/// What one case did.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub index: usize,
    pub family: Family,
    pub what: String,
    pub file_name: String,
    pub file_bytes: u64,
    /// The arguments after the binary (the file as written to the output directory
    /// for a crash, else as it was run).
    pub args: Vec<String>,
    pub exit: Exit,
    pub wall: Duration,
    /// Peak resident set size of the child in KiB, when measured.
    pub peak_rss_kb: Option<u64>,
    /// The first [`CAPTURE_BYTES`] of standard output and error, and their full sizes.
    pub stdout: String,
    pub stdout_bytes: u64,
    pub stderr: String,
    pub stderr_bytes: u64,
    /// Why this is a crash, when it is one.
    pub crash: Option<String>,
    /// Where the crashing input was written.
    pub saved: Option<PathBuf>,
    /// The shell command that reproduces a crash.
    pub reproduce: Option<String>,
}

impl Outcome {
    /// `case-000123`.
    pub fn id(&self) -> String {
        case_id(self.index)
    }

    /// The first `n` lines of standard error (from the first that is not blank).
    pub fn stderr_head(&self, n: usize) -> String {
        self.stderr.lines().skip_while(|l| l.trim().is_empty()).take(n).collect::<Vec<_>>().join("\n")
    }

    /// A short signature grouping crashes of one cause: the exit and the panic message
    /// (or the last line of standard error), digits blurred.
    pub fn signature(&self) -> String {
        let line = self
            .stderr
            .lines()
            .position(|l| l.contains("panicked"))
            .map(|i| self.stderr.lines().skip(i).take(2).collect::<Vec<_>>().join(" "))
            .or_else(|| self.stderr.lines().rfind(|l| !l.trim().is_empty()).map(str::to_string))
            .unwrap_or_default();
        // Every run of digits (thread ids, line numbers) as one `#`.
        let mut blurred = String::new();
        for c in line.chars() {
            if !c.is_ascii_digit() {
                blurred.push(c);
            } else if !blurred.ends_with('#') {
                blurred.push('#');
            }
        }
        let short: String = blurred.chars().take(200).collect();
        format!("{} | {}", self.exit.label(), short)
    }
}

/// Why an ending is a crash: an exit code outside [`FINE_EXIT_CODES`], a signal, the
/// wall-clock kill, or `panicked` on standard error.
pub fn classify(exit: Exit, stderr: &str, kill_after: Duration) -> Option<String> {
    let mut why = Vec::new();
    match exit {
        Exit::Code(c) if FINE_EXIT_CODES.contains(&c) => {}
        Exit::Code(101) => why.push("exit 101 (Rust panic)".to_string()),
        Exit::Code(134) => why.push("exit 134 (abort)".to_string()),
        Exit::Code(c) => why.push(format!("exit {c}")),
        Exit::Signal(s) => why.push(format!("killed by {}", signal_name(s))),
        Exit::Timeout => why.push(format!("still running after {:.0} s: killed (wall-clock limit)", kill_after.as_secs_f64())),
    }
    if stderr.contains("panicked") {
        why.push("`panicked` on standard error".into());
    }
    (!why.is_empty()).then(|| why.join(", "))
}

fn capture<R: Read + Send + 'static>(r: Option<R>) -> std::thread::JoinHandle<(Vec<u8>, u64)> {
    std::thread::spawn(move || {
        let mut head = Vec::new();
        let mut total = 0u64;
        if let Some(mut r) = r {
            let mut buf = [0u8; 16 * 1024];
            loop {
                match r.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        total += n as u64;
                        let keep = n.min(CAPTURE_BYTES.saturating_sub(head.len()));
                        head.extend_from_slice(&buf[..keep]);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
        }
        (head, total)
    })
}

/// The result of running one command line under the harness.
struct Run {
    exit: Exit,
    wall: Duration,
    peak_rss_kb: Option<u64>,
    stdout: (Vec<u8>, u64),
    stderr: (Vec<u8>, u64),
}

/// Runs `bin args` in `dir` under the harness, killing its process group after
/// `kill_after`.
fn run_limited(h: &Harness, bin: &Path, args: &[String], mem_bytes: u64, kill_after: Duration, dir: &Path) -> Result<Run, Error> {
    let rss_file = dir.join("rusage.txt");
    let argv = h.argv(bin, args, mem_bytes, Some(&rss_file));
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("RUST_BACKTRACE", "1")
        .process_group(0);
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|e| Error::io(&argv[0], e))?;
    let out = capture(child.stdout.take());
    let err = capture(child.stderr.take());
    let mut timed_out = false;
    let status = loop {
        match child.try_wait().map_err(|e| Error::io(bin, e))? {
            Some(s) => break s,
            None if start.elapsed() >= kill_after => {
                timed_out = true;
                // The whole group: the measuring and limiting wrappers and polyalloc.
                let _ = Command::new("kill").args(["-s", "KILL", "--", &format!("-{}", child.id())]).stderr(Stdio::null()).status();
                let _ = child.kill();
                break child.wait().map_err(|e| Error::io(bin, e))?;
            }
            None => std::thread::sleep(Duration::from_millis(10)),
        }
    };
    let wall = start.elapsed();
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let mut exit = match (status.code(), status.signal()) {
        (Some(c), _) => Exit::Code(c),
        (None, Some(s)) => Exit::Signal(s),
        (None, None) => Exit::Code(-1),
    };
    let mut peak_rss_kb = None;
    if let Ok(text) = std::fs::read_to_string(&rss_file) {
        for line in text.lines() {
            if let Some(s) = line.strip_prefix("Command terminated by signal ") {
                if let Ok(s) = s.trim().parse() {
                    exit = Exit::Signal(s);
                }
            } else if let Some(rest) = line.strip_prefix("fuzz-input ") {
                for kv in rest.split_whitespace() {
                    match kv.split_once('=') {
                        Some(("rss_kb", v)) => peak_rss_kb = v.parse().ok(),
                        Some(("exit", v)) if !matches!(exit, Exit::Signal(_)) => {
                            if let Ok(c) = v.parse() {
                                exit = Exit::Code(c);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    if timed_out {
        exit = Exit::Timeout;
    }
    Ok(Run { exit, wall, peak_rss_kb, stdout, stderr })
}

/// Everything a worker needs.
struct Env<'a> {
    opts: &'a Options,
    harness: &'a Harness,
    /// The copy of the binary the cases run (a rebuild during the campaign changes
    /// nothing).
    bin: PathBuf,
    work: PathBuf,
}

/// Writes the case to a fresh directory, runs it, classifies it and, for a crash,
/// writes the input and `crash.md` to `<out>/<case>/`.
pub fn run_case(case: &Case, opts: &Options, harness: &Harness, bin: &Path, work: &Path) -> Result<Outcome, Error> {
    let dir = work.join(case.id());
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let file = dir.join(&case.file_name);
    case.content.write_to(&file)?;
    let mem_bytes = opts.mem_mb.saturating_mul(1024 * 1024);
    let args = case.mode.args(&case.file_name, opts.time_limit);
    let run = run_limited(harness, bin, &args, mem_bytes, opts.kill_after(), &dir);
    let _ = std::fs::remove_file(&file);
    let run = run?;
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&run.stderr.0).into_owned();
    let crash = classify(run.exit, &stderr, opts.kill_after());
    let mut o = Outcome {
        index: case.index,
        family: case.family,
        what: case.what.clone(),
        file_name: case.file_name.clone(),
        file_bytes: case.content.len(),
        args,
        exit: run.exit,
        wall: run.wall,
        peak_rss_kb: run.peak_rss_kb,
        stdout: String::from_utf8_lossy(&run.stdout.0).into_owned(),
        stdout_bytes: run.stdout.1,
        stderr,
        stderr_bytes: run.stderr.1,
        crash,
        saved: None,
        reproduce: None,
    };
    if o.crash.is_some() {
        save_crash(case, &mut o, opts, harness)?;
    }
    Ok(o)
}

fn save_crash(case: &Case, o: &mut Outcome, opts: &Options, harness: &Harness) -> Result<(), Error> {
    let dir = opts.out.join(case.id());
    let saved = dir.join(&case.file_name);
    let regenerate = match &case.content {
        Content::Bytes(b) => {
            write_atomic(&saved, b)?;
            None
        }
        Content::Repeated { byte, len } => {
            // Too large to keep: the command that writes it again.
            let cmd = format!("head -c {len} /dev/zero | tr '\\0' '\\{:03o}' > {}", byte, shell_quote(&saved.display().to_string()));
            write_atomic(&dir.join("regenerate.sh"), format!("#!/bin/sh\n{cmd}\n").as_bytes())?;
            Some(cmd)
        }
    };
    let saved_text = saved.display().to_string();
    o.args = case.mode.args(&saved_text, opts.time_limit);
    o.saved = Some(saved);
    let mut md = format!("# {} ({})\n\n", case.id(), case.family.name());
    md.push_str(&format!("Input: {} ({} bytes)\n\n", case.what, case.content.len()));
    md.push_str(&format!("Crash: {}\n\n", o.crash.as_deref().unwrap_or_default()));
    let run = harness.reproduce(&opts.bin, &o.args, opts.mem_mb.saturating_mul(1024 * 1024));
    let reproduce = match regenerate {
        Some(r) => format!("{r}; {run}"),
        None => run,
    };
    md.push_str(&format!("Reproduce:\n\n```sh\n{reproduce}\n```\n\n"));
    o.reproduce = Some(reproduce);
    md.push_str(&format!("Standard error ({} bytes, the first {} kept):\n\n```text\n{}\n```\n", o.stderr_bytes, o.stderr.len(), o.stderr));
    write_atomic(&dir.join("crash.md"), md.as_bytes())
}

/// The result of a campaign.
#[derive(Clone, Debug)]
pub struct Report {
    pub seed: u64,
    pub cases: usize,
    pub time_limit: f64,
    pub mem_mb: u64,
    pub kill_after: Duration,
    pub threads: usize,
    pub bin: PathBuf,
    /// The binary's modification time (RFC 3339), so that a stale binary shows.
    pub bin_modified: Option<String>,
    pub rss_method: String,
    pub limit_method: String,
    pub notes: Vec<String>,
    /// Every case, in index order.
    pub outcomes: Vec<Outcome>,
    pub elapsed: Duration,
}

impl Report {
    /// The crashing cases.
    pub fn crashes(&self) -> Vec<&Outcome> {
        self.outcomes.iter().filter(|o| o.crash.is_some()).collect()
    }

    /// No crash.
    pub fn clean(&self) -> bool {
        self.outcomes.iter().all(|o| o.crash.is_none())
    }

    /// The report: the summary, every crash with its reproducing command, then one line
    /// per case (exit, time, memory, the first line of standard error).
    pub fn to_markdown(&self) -> String {
        let mut s = self.summary_markdown();
        let crashes = self.crashes();
        if !crashes.is_empty() {
            s.push_str("\n## Every crash\n\n");
        }
        for o in crashes {
            s.push_str(&format!("### {} ({})\n\n", o.id(), o.family.name()));
            s.push_str(&format!(
                "* input: {} ({} bytes){}\n",
                o.what,
                o.file_bytes,
                o.saved.as_ref().map(|p| format!(", saved as `{}`", p.display())).unwrap_or_default()
            ));
            s.push_str(&format!(
                "* crash: {}; {:.2} s{}\n",
                o.crash.as_deref().unwrap_or_default(),
                o.wall.as_secs_f64(),
                rss_text(o.peak_rss_kb, ", peak RSS ")
            ));
            s.push_str(&format!("* reproduce: `{}`\n\n", o.reproduce.as_deref().unwrap_or_default()));
            s.push_str(&format!("```text\n{}\n```\n\n", o.stderr_head(12)));
        }
        s.push_str("\n## Every case\n\n| case | family | input | command | exit | wall (s) | peak RSS | standard error, first line |\n|---|---|---|---|---|---:|---:|---|\n");
        for o in &self.outcomes {
            let command = o.args.first().map(String::as_str).unwrap_or_default();
            let command = if o.args.iter().any(|a| a == "--json") { "allocate --json" } else { command };
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {:.2} | {} | {} |\n",
                o.id(),
                o.family.name(),
                cell(&o.what),
                command,
                o.exit.label(),
                o.wall.as_secs_f64(),
                rss_text(o.peak_rss_kb, ""),
                cell(&o.stderr_head(1))
            ));
        }
        s
    }

    /// The summary tables, the distinct crashes and the slowest and largest cases.
    pub fn summary_markdown(&self) -> String {
        let mut s = String::from("# cargo xtask fuzz-input\n\n");
        s.push_str(&format!(
            "{} cases, seed {}, `--time-limit {}` per run, address space {} MiB ({}), killed after {:.0} s, {} at a time, {:.0} s in all.\n\n",
            self.cases,
            self.seed,
            self.time_limit,
            self.mem_mb,
            self.limit_method,
            self.kill_after.as_secs_f64(),
            self.threads,
            self.elapsed.as_secs_f64()
        ));
        s.push_str(&format!(
            "Binary: `{}`{}; peak RSS: {}.\n\n",
            self.bin.display(),
            self.bin_modified.as_ref().map(|t| format!(" (modified {t})")).unwrap_or_default(),
            self.rss_method
        ));
        for n in &self.notes {
            s.push_str(&format!("Note: {n}\n\n"));
        }
        // Per family: cases, exits, crashes, max wall time, max RSS.
        let labels: BTreeSet<Exit> = self.outcomes.iter().map(|o| o.exit).collect();
        s.push_str("| family | cases |");
        for l in &labels {
            s.push_str(&format!(" exit {} |", l.label()));
        }
        s.push_str(" crashes | max wall (s) | max peak RSS (MB) |\n|---|---:|");
        for _ in &labels {
            s.push_str("---:|");
        }
        s.push_str("---:|---:|---:|\n");
        let mut rows: Vec<(String, Vec<&Outcome>)> =
            Family::ALL.iter().map(|f| (f.name().to_string(), self.outcomes.iter().filter(|o| o.family == *f).collect())).collect();
        rows.push(("**all**".into(), self.outcomes.iter().collect()));
        for (name, os) in rows {
            if os.is_empty() {
                continue;
            }
            s.push_str(&format!("| {name} | {} |", os.len()));
            for l in &labels {
                s.push_str(&format!(" {} |", os.iter().filter(|o| o.exit == *l).count()));
            }
            let crashes = os.iter().filter(|o| o.crash.is_some()).count();
            let wall = os.iter().map(|o| o.wall.as_secs_f64()).fold(0.0, f64::max);
            let rss = os.iter().filter_map(|o| o.peak_rss_kb).max();
            s.push_str(&format!(" {crashes} | {wall:.2} | {} |\n", rss.map(|k| format!("{:.1}", k as f64 / 1024.0)).unwrap_or_else(|| "-".into())));
        }
        if let Some(o) = self.outcomes.iter().max_by(|a, b| a.wall.cmp(&b.wall)) {
            s.push_str(&format!("\nMax wall time: {:.2} s, {} ({}: {}).\n", o.wall.as_secs_f64(), o.id(), o.family.name(), o.what));
        }
        if let Some(o) = self.outcomes.iter().filter(|o| o.peak_rss_kb.is_some()).max_by_key(|o| o.peak_rss_kb) {
            s.push_str(&format!("Max peak RSS: {}, {} ({}: {}).\n", rss_text(o.peak_rss_kb, ""), o.id(), o.family.name(), o.what));
        }
        s.push_str("\n## Slowest 5 cases\n\n| case | family | input | exit | wall (s) | peak RSS |\n|---|---|---|---|---:|---:|\n");
        let mut by_wall: Vec<&Outcome> = self.outcomes.iter().collect();
        by_wall.sort_by_key(|o| std::cmp::Reverse(o.wall));
        for o in by_wall.iter().take(5) {
            s.push_str(&format!(
                "| {} | {} | {} | {} | {:.2} | {} |\n",
                o.id(),
                o.family.name(),
                cell(&o.what),
                o.exit.label(),
                o.wall.as_secs_f64(),
                rss_text(o.peak_rss_kb, "")
            ));
        }
        s.push_str("\n## Largest 5 peak RSS\n\n| case | family | input | exit | wall (s) | peak RSS |\n|---|---|---|---|---:|---:|\n");
        let mut by_rss: Vec<&Outcome> = self.outcomes.iter().filter(|o| o.peak_rss_kb.is_some()).collect();
        by_rss.sort_by_key(|o| std::cmp::Reverse(o.peak_rss_kb));
        for o in by_rss.iter().take(5) {
            s.push_str(&format!(
                "| {} | {} | {} | {} | {:.2} | {} |\n",
                o.id(),
                o.family.name(),
                cell(&o.what),
                o.exit.label(),
                o.wall.as_secs_f64(),
                rss_text(o.peak_rss_kb, "")
            ));
        }
        let crashes = self.crashes();
        s.push_str(&format!("\n## Crashes: {}\n\n", crashes.len()));
        if crashes.is_empty() {
            s.push_str("None: every case ended with exit 0, 1, 2, 3 or 130, within the limits.\n");
            return s;
        }
        let mut groups: BTreeMap<String, Vec<&Outcome>> = BTreeMap::new();
        for o in &crashes {
            groups.entry(o.signature()).or_default().push(o);
        }
        s.push_str(&format!(
            "{} distinct (by exit and panic message):\n\n| signature | cases | families | first |\n|---|---:|---|---|\n",
            groups.len()
        ));
        for (sig, os) in &groups {
            let fams: BTreeSet<&str> = os.iter().map(|o| o.family.name()).collect();
            s.push_str(&format!("| {} | {} | {} | {} |\n", cell(sig), os.len(), fams.into_iter().collect::<Vec<_>>().join(", "), os[0].id()));
        }
        s
    }
}

fn cell(s: &str) -> String {
    let one: String = s.replace('|', "\\|").replace('\n', " ").chars().take(160).collect();
    one
}

fn rss_text(kb: Option<u64>, prefix: &str) -> String {
    kb.map(|k| format!("{prefix}{:.1} MB", k as f64 / 1024.0)).unwrap_or_default()
}

/// Runs the campaign: `opts.cases` cases on `opts.threads` threads, `progress` called
/// with the number of cases done. Writes every crashing input (`<out>/case-NNNNNN/`,
/// after removing those of an earlier run) and `<out>/report.md`. An error is a
/// campaign that could not run (the binary does not start, a file cannot be written),
/// never a crash of `polyalloc`.
pub fn campaign(opts: &Options, progress: &(dyn Fn(usize) + Sync)) -> Result<Report, Error> {
    if !opts.bin.is_file() {
        return Err(Error::Input(format!(
            "{}: no such polyalloc binary (build it: `cargo build -p polyalloc-cli`, or give --bin)",
            opts.bin.display()
        )));
    }
    let sources = Sources::load(&opts.smo_corpus, &opts.suite)?;
    let harness = Harness::detect();
    std::fs::create_dir_all(&opts.out).map_err(|e| Error::io(&opts.out, e))?;
    // An absolute output directory: the reproducing commands work from anywhere.
    let out = opts.out.canonicalize().map_err(|e| Error::io(&opts.out, e))?;
    let opts = &Options { out, ..opts.clone() };
    if let Ok(rd) = std::fs::read_dir(&opts.out) {
        for e in rd.filter_map(|e| e.ok()) {
            if e.file_name().to_string_lossy().starts_with("case-") && e.path().is_dir() {
                std::fs::remove_dir_all(e.path()).map_err(|err| Error::io(e.path(), err))?;
            }
        }
    }
    let work = std::env::temp_dir().join(format!("polyalloc-fuzz-input-{}-{}", std::process::id(), opts.seed));
    std::fs::create_dir_all(&work).map_err(|e| Error::io(&work, e))?;
    let result = campaign_in(opts, &sources, &harness, &work, progress);
    let _ = std::fs::remove_dir_all(&work);
    let report = result?;
    write_atomic(&opts.out.join("report.md"), report.to_markdown().as_bytes())?;
    Ok(report)
}

fn campaign_in(opts: &Options, sources: &Sources, harness: &Harness, work: &Path, progress: &(dyn Fn(usize) + Sync)) -> Result<Report, Error> {
    let start = Instant::now();
    // A private copy of the binary: the other builds of the workspace may replace it.
    let bin = work.join("polyalloc");
    std::fs::copy(&opts.bin, &bin).map_err(|e| Error::io(&opts.bin, e))?;
    // The harness itself must work: `polyalloc --version` under it exits 0.
    let probe = work.join("probe");
    std::fs::create_dir_all(&probe).map_err(|e| Error::io(&probe, e))?;
    let run = run_limited(harness, &bin, &["--version".into()], opts.mem_mb.saturating_mul(1024 * 1024), opts.kill_after(), &probe)?;
    if run.exit != Exit::Code(0) {
        return Err(Error::Input(format!(
            "`{} --version` under the harness ended with {}: {}",
            opts.bin.display(),
            run.exit.label(),
            String::from_utf8_lossy(&run.stderr.0).trim()
        )));
    }
    let env = Env { opts, harness, bin, work: work.to_path_buf() };
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let outcomes: Mutex<Vec<Outcome>> = Mutex::new(Vec::new());
    let first_error: Mutex<Option<Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= opts.cases || failed.load(Ordering::SeqCst) {
                    break;
                }
                let case = generate(opts.seed, i, sources);
                match run_case(&case, env.opts, env.harness, &env.bin, &env.work) {
                    Ok(o) => {
                        outcomes.lock().unwrap_or_else(|p| p.into_inner()).push(o);
                        progress(done.fetch_add(1, Ordering::SeqCst) + 1);
                    }
                    Err(e) => {
                        failed.store(true, Ordering::SeqCst);
                        first_error.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
                        break;
                    }
                }
            });
        }
    });
    if let Some(e) = first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let mut outcomes = outcomes.into_inner().unwrap_or_else(|p| p.into_inner());
    outcomes.sort_by_key(|o| o.index);
    let bin_modified = std::fs::metadata(&opts.bin)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| crate::results::format_timestamp(d.as_secs() as i64));
    Ok(Report {
        seed: opts.seed,
        cases: opts.cases,
        time_limit: opts.time_limit,
        mem_mb: opts.mem_mb,
        kill_after: opts.kill_after(),
        threads: opts.threads.max(1),
        bin: opts.bin.clone(),
        bin_modified,
        rss_method: harness.rss_method(),
        limit_method: harness.limit_method(opts.mem_mb.saturating_mul(1024 * 1024)),
        notes: sources.notes.clone(),
        outcomes,
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources() -> Sources {
        Sources {
            smo: vec![(
                "x.smo.input".into(),
                "[N0] -> { [x0] : 0 <= x0 < N0 }\n[N0] -> { [y0] : 0 <= y0 < N0 }\ny0\n1\n1\n0 0\n[N0] -> { [x0] -> [y0] : y0 = x0 + 1 }\n".into(),
            )],
            suite: vec![("a".into(), json!({"id": "a", "params": ["N"], "instances": [{"N": 3}], "arrays": {"A": {"space": "[N] -> { A[i] }"}}}))],
            notes: Vec::new(),
        }
    }

    #[test]
    fn deterministic_and_every_family() {
        let s = sources();
        let mut fams = BTreeSet::new();
        for i in 0..400 {
            let (a, b) = (generate(7, i, &s), generate(7, i, &s));
            assert_eq!((a.file_name.clone(), a.what.clone(), a.mode.clone()), (b.file_name, b.what, b.mode));
            if let (Content::Bytes(x), Content::Bytes(y)) = (&a.content, &b.content) {
                assert_eq!(x, y);
            }
            fams.insert(a.family);
        }
        assert_eq!(fams.len(), 5);
        assert!(matches!(generate(7, 199, &s).content, Content::Repeated { .. }));
    }

    #[test]
    fn classification() {
        let k = Duration::from_secs(60);
        for c in FINE_EXIT_CODES {
            assert_eq!(classify(Exit::Code(c), "error: x", k), None);
        }
        assert!(classify(Exit::Code(101), "", k).is_some());
        assert!(classify(Exit::Signal(11), "", k).is_some());
        assert!(classify(Exit::Timeout, "", k).is_some());
        assert!(classify(Exit::Code(1), "thread 'main' panicked at x.rs", k).is_some());
    }

    #[test]
    fn one_signature_per_panic_message() {
        let o = |stderr: &str| Outcome {
            index: 0,
            family: Family::Bytes,
            what: String::new(),
            file_name: String::new(),
            file_bytes: 0,
            args: Vec::new(),
            exit: Exit::Code(101),
            wall: Duration::ZERO,
            peak_rss_kb: None,
            stdout: String::new(),
            stdout_bytes: 0,
            stderr: stderr.into(),
            stderr_bytes: 0,
            crash: None,
            saved: None,
            reproduce: None,
        };
        let a = o("\nthread 'main' (123) panicked at a.rs:10:5:\nattempt to negate with overflow\n");
        let b = o("\nthread 'main' (98765) panicked at a.rs:10:5:\nattempt to negate with overflow\n");
        assert_eq!(a.signature(), b.signature());
        assert_eq!(a.stderr_head(1), "thread 'main' (123) panicked at a.rs:10:5:");
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("a/b.json"), "a/b.json");
        assert_eq!(shell_quote("[[1]]"), "'[[1]]'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }
}
