//! The method's typed input sections of a bench-suite file (see `bench-suite/README.md`):
//! the `ov` section ([`OvSection`]) and the paper entries the method answers for
//! ([`PaperEntries`]: the schedule of each `ov` entry, the occupancy vectors of each
//! `schedule` entry with `given_ov`, the schedules of each `schedule` entry whose
//! legality the paper states). Read with serde, never as raw JSON by the method.

use crate::OvError;
use polyalloc_suite::Example;
use serde::Deserialize;
use std::collections::BTreeMap;

/// A schedule given statement by statement as isl relations
/// (`{"S": "[m, n] -> { S[i, j] -> [2*i + j] }"}`).
pub type ScheduleText = BTreeMap<String, String>;

/// The `ov` section of a bench-suite file (Thies et al. 2007).
#[derive(Clone, Debug, Deserialize)]
pub struct OvSection {
    /// Statement -> the array it writes (the location is the iteration vector, Sec. 4.1).
    pub statement_arrays: BTreeMap<String, String>,
    /// The dependences as the paper prints them (Eq. 2); read with
    /// [`crate::DependenceSource::File`].
    #[serde(default)]
    pub dependences: Option<Vec<PrintedDependence>>,
    /// The linearised schedule constraints (14) as the paper prints them
    /// (`a + 2*b - 1 >= 0`).
    #[serde(default)]
    pub schedule_constraints: Option<Vec<String>>,
    /// Legal schedules the file lists (the affine occupancy vector is verified under
    /// each, and they refute candidates quickly).
    #[serde(default)]
    pub legal_schedules: Vec<ScheduleText>,
}

/// One dependence `P_j` as printed: `consumer[x] -> producer[h(x)] : domain`.
#[derive(Clone, Debug, Deserialize)]
pub struct PrintedDependence {
    pub name: String,
    pub consumer: String,
    pub producer: String,
    /// The relation `[m, n] -> { S[i, j] -> S[i - 1, j - 2] : 2 <= i <= m and 3 <= j <= n }`.
    pub h: String,
}

impl OvSection {
    /// The example's `ov` section; `None` when it has none (not an occupancy-vector
    /// example).
    pub fn of(ex: &Example) -> Result<Option<OvSection>, OvError> {
        let Some(v) = ex.extra.get("ov") else { return Ok(None) };
        serde_json::from_value(v.clone()).map(Some).map_err(|e| OvError::Input(format!("{}: field `ov`: {e}", ex.file.display())))
    }

    /// The arrays written by the statements, in name order (the method's targets).
    pub fn arrays(&self) -> Vec<String> {
        let mut out: Vec<String> = self.statement_arrays.values().cloned().collect();
        out.sort();
        out.dedup();
        out
    }
}

/// A `schedule` entry of the paper that gives occupancy vectors (Problem 2.2, Sec.
/// 4.6.2): the schedules valid for them, as the paper prints their constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenOv {
    /// Array -> occupancy vector.
    pub given_ov: BTreeMap<String, Vec<i64>>,
    /// The printed constraints on the schedule coefficients.
    pub schedule_constraints: Vec<String>,
}

/// The paper entries of an example that the occupancy-vector methods answer for.
#[derive(Clone, Debug, Default)]
pub struct PaperEntries {
    /// Array -> the schedule of its first `ov` entry that gives one (Problem 2.1 is
    /// solved for it).
    pub ov_schedules: BTreeMap<String, ScheduleText>,
    /// The `schedule` entries with `given_ov`.
    pub given_ov: Vec<GivenOv>,
    /// The schedules of the `schedule` entries that give one (whose legality the paper
    /// states).
    pub schedules: Vec<ScheduleText>,
}

fn field<T: serde::de::DeserializeOwned>(ex: &Example, k: usize, name: &str, v: &serde_json::Value) -> Result<T, OvError> {
    serde_json::from_value(v.clone()).map_err(|e| OvError::Input(format!("{}: paper[{k}].{name}: {e}", ex.file.display())))
}

impl PaperEntries {
    /// Reads the `ov` and `schedule` entries of `ex.paper`.
    pub fn of(ex: &Example) -> Result<PaperEntries, OvError> {
        let mut out = PaperEntries::default();
        for (k, e) in ex.paper.iter().enumerate() {
            match e.method.as_str() {
                "ov" => {
                    if let (Some(a), Some(s)) = (&e.array, e.extra.get("schedule")) {
                        let s: ScheduleText = field(ex, k, "schedule", s)?;
                        out.ov_schedules.entry(a.clone()).or_insert(s);
                    }
                }
                "schedule" => {
                    if let Some(g) = e.extra.get("given_ov") {
                        let given_ov = field(ex, k, "given_ov", g)?;
                        let schedule_constraints = match e.extra.get("schedule_constraints") {
                            Some(c) => field(ex, k, "schedule_constraints", c)?,
                            None => Vec::new(),
                        };
                        out.given_ov.push(GivenOv { given_ov, schedule_constraints });
                    }
                    if let Some(s) = e.extra.get("schedule") {
                        out.schedules.push(field(ex, k, "schedule", s)?);
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }
}
