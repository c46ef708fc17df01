//! The report of `polyalloc fold`: per SCoP and array what was folded and how, or why
//! not; the two programs' peak memory and time; whether their outputs are identical.

use crate::measure::Measurement;
use polyalloc_suite::jscop::Storage;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// What became of the program.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// At least one array folded, the folded program computed the same output.
    Folded,
    /// No array folds (each has its reason).
    NothingToFold,
    /// A folding was refused (nothing of it is kept): at which stage, why.
    Refused { stage: String, why: String },
}

/// How an array lives, for folding.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// Local to the function and used only in the SCoP: nothing lives after it.
    Scratch,
    /// The caller reads only the cells of a narrowed live-out set afterwards.
    Narrowed,
    /// Live after the SCoP as a whole.
    LiveOut,
    /// Only read in the SCoP.
    ReadOnly,
}

/// A folded array.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Folded {
    /// The verified mapping (`A[i0 mod 2, i1]`).
    pub mapping: String,
    /// The method that found it (for `best`, the winner).
    pub method: String,
    /// How the facade's checker verified it at the program's sizes (`proven`,
    /// `instances`).
    pub verification: String,
    /// Where the cells go (`new array bx_folded[3][768]`, `in place at offset [1, 0]`).
    pub placement: String,
    /// Cells the folded program uses for the array.
    pub cells: u64,
    /// Their bytes.
    pub bytes: u64,
    /// The run check's summary.
    pub check: String,
}

/// One array of a SCoP.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ArrayReport {
    /// The C name.
    pub array: String,
    /// Polly's name.
    pub memref: String,
    pub storage: Storage,
    pub role: Role,
    /// Why it has that role.
    pub why: String,
    pub element_bytes: u64,
    /// Cells the array declares (the accessed extent for an unknown size).
    pub original_cells: u64,
    pub original_bytes: u64,
    /// Values live at once at the instance (the least any mapping needs).
    pub max_live: Option<usize>,
    /// The folding, when it folds.
    pub folded: Option<Folded>,
    /// Why it does not fold.
    pub nothing_to_fold: Option<String>,
}

/// One SCoP.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ScopReport {
    pub function: String,
    /// Polly's region name.
    pub region: String,
    /// The JSCoP file's name.
    pub jscop: String,
    pub arrays: Vec<ArrayReport>,
    /// Why the SCoP as a whole was not folded, if it was not read.
    pub note: Option<String>,
}

/// The two programs side by side.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunComparison {
    pub original: Measurement,
    pub folded: Measurement,
    /// True when every run of both printed the same bytes.
    pub identical: bool,
    /// The first lines of the original's output.
    pub output: String,
    /// The parameter values the folded program is specialised to (empty: fixed sizes).
    pub specialised_to: BTreeMap<String, i64>,
}

/// The report of one `polyalloc fold`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FoldReport {
    pub source: PathBuf,
    pub method: String,
    pub backend: String,
    pub params: BTreeMap<String, i64>,
    pub scops: Vec<ScopReport>,
    pub run: Option<RunComparison>,
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Where the files were kept (`--emit`).
    pub emitted: Option<PathBuf>,
}

fn kb(bytes: u64) -> String {
    if bytes >= 10 * 1024 * 1024 {
        format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
    } else if bytes >= 10 * 1024 {
        format!("{:.1} kB", bytes as f64 / 1024.0)
    } else {
        format!("{bytes} B")
    }
}

impl FoldReport {
    /// Arrays folded.
    pub fn folded_arrays(&self) -> impl Iterator<Item = (&ScopReport, &ArrayReport, &Folded)> {
        self.scops.iter().flat_map(|s| s.arrays.iter().filter_map(move |a| a.folded.as_ref().map(|f| (s, a, f))))
    }

    /// Bytes of the folded arrays before and after.
    pub fn bytes(&self) -> (u64, u64) {
        self.folded_arrays().fold((0, 0), |(b, a), (_, ar, f)| (b + ar.original_bytes, a + f.bytes))
    }

    /// The text a user reads: one line per array that folds or could, the two runs, the
    /// verdict.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{} (method {}, backend {})", self.source.display(), self.method, self.backend);
        for sc in &self.scops {
            let interesting: Vec<&ArrayReport> = sc.arrays.iter().filter(|a| a.role != Role::ReadOnly).collect();
            if interesting.is_empty() && sc.note.is_none() {
                continue;
            }
            let _ = writeln!(s, "  {} (SCoP {})", sc.function, sc.region);
            if let Some(n) = &sc.note {
                let _ = writeln!(s, "    {n}");
            }
            for a in interesting {
                match &a.folded {
                    Some(f) => {
                        let _ = writeln!(
                            s,
                            "    {:<10} {} -> {} ({}), {} -> {} ({:.1}x smaller){}; by {}, verified {}",
                            a.array,
                            a.array,
                            f.mapping,
                            f.placement,
                            kb(a.original_bytes),
                            kb(f.bytes),
                            a.original_bytes as f64 / f.bytes.max(1) as f64,
                            a.max_live.map(|m| format!(", max-live {m} cells")).unwrap_or_default(),
                            f.method,
                            f.verification
                        );
                    }
                    None => {
                        let _ = writeln!(s, "    {:<10} not folded: {}", a.array, a.nothing_to_fold.as_deref().unwrap_or("?"));
                    }
                }
            }
        }
        if let Some(r) = &self.run {
            let _ = writeln!(
                s,
                "  run ({} runs each, medians): peak memory {} kB -> {} kB ({:.2}x), time {:.1} ms -> {:.1} ms ({:.2}x), outputs {}",
                r.folded.runs,
                r.original.peak_rss_kb,
                r.folded.peak_rss_kb,
                r.folded.peak_rss_kb as f64 / r.original.peak_rss_kb.max(1) as f64,
                r.original.wall_ms,
                r.folded.wall_ms,
                r.folded.wall_ms / r.original.wall_ms.max(1e-9),
                if r.identical { "identical" } else { "DIFFERENT" }
            );
            if !r.specialised_to.is_empty() {
                let p: Vec<String> = r.specialised_to.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                let _ = writeln!(s, "  the folded program is specialised to {}", p.join(", "));
            }
        }
        let (before, after) = self.bytes();
        let _ = match &self.verdict {
            Verdict::Folded => {
                let n = self.folded_arrays().count();
                writeln!(s, "folded: {n} array{}, {} -> {}", if n == 1 { "" } else { "s" }, kb(before), kb(after))
            }
            Verdict::NothingToFold => writeln!(s, "nothing to fold"),
            Verdict::Refused { stage, why } => writeln!(s, "REFUSED ({stage}): {why}"),
        };
        if let Some(d) = &self.emitted {
            let _ = writeln!(s, "files in {}", d.display());
        }
        s
    }
}
