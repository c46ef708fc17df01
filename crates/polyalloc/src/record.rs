//! The JSON record of one (example, array, method, backend) result: what
//! `polyalloc allocate --json` prints (one object per line) and what the results files
//! of `cargo xtask` hold. The schema is documented in the README ("JSON schema") and is
//! kept stable: fields are only ever added, never renamed or removed.

use polyalloc_formulation::{AffExpr, ModularMapping, Polynomial, SharedMapping};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// What a verified mapping is claimed for, as a record stores it: the kind of a
/// [`crate::Verification`] without its reason (which is `verification_reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Claim {
    /// Proven for every parameter value of the context.
    Proven,
    /// Valid at the listed instances only.
    Instances,
}

impl Claim {
    /// `proven` or `instances`, as in the JSON.
    pub fn label(self) -> &'static str {
        match self {
            Claim::Proven => "proven",
            Claim::Instances => "instances",
        }
    }
}

impl From<&crate::Verification> for Claim {
    fn from(v: &crate::Verification) -> Claim {
        match v {
            crate::Verification::Proven => Claim::Proven,
            crate::Verification::Instances { .. } => Claim::Instances,
        }
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The outcome of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A mapping was found and verified.
    Ok,
    /// The method does not apply to this problem.
    NotApplicable,
    /// A solver failed (its kind in `error_kind`: `infeasible`, `time-budget`, ...).
    SolverError,
    /// The method's own logic could not proceed.
    MethodError,
    /// The exact checker refuted the method's mapping (never printed as a result).
    Invalid,
    /// Another failure (formulation, arithmetic overflow, ...).
    Error,
}

impl Status {
    /// The label used in tables.
    pub fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::NotApplicable => "not-applicable",
            Status::SolverError => "solver-error",
            Status::MethodError => "method-error",
            Status::Invalid => "invalid",
            Status::Error => "error",
        }
    }
}

/// Statistics of one ILP solved by a method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IlpStat {
    /// The model's name.
    pub model: String,
    pub num_vars: usize,
    pub num_integer_vars: usize,
    pub num_constraints: usize,
    /// Solve time in milliseconds (every phase below together).
    pub ms: f64,
    /// `optimal`, `time-limit-feasible`, `gap-limit-feasible`, or the error.
    pub outcome: String,
    /// Translating the model into the backend's representation (ms; absent when the
    /// backend does not tell its phases apart, or the solve failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_ms: Option<f64>,
    /// Creating, loading and configuring the backend's instance (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup_ms: Option<f64>,
    /// The backend's solve call(s) alone, without build and set-up (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_ms: Option<f64>,
    /// polyalloc's exact check of the answer (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_ms: Option<f64>,
    /// True when the model was kept from the previous solve and only changed (a
    /// lexicographic stage on a backend with the `Incremental` capability).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub kept: bool,
    /// True when the backend was given a start point (the previous optimum).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warm_start: bool,
}

impl IlpStat {
    /// The statistics of one recorded solve.
    pub fn of(s: &polyalloc_ilp::SolveRecord) -> IlpStat {
        let t = s.times;
        IlpStat {
            model: s.model.clone(),
            num_vars: s.num_vars,
            num_integer_vars: s.num_integer_vars,
            num_constraints: s.num_constraints,
            ms: ms(s.elapsed),
            outcome: s.outcome.clone(),
            build_ms: t.and_then(|t| t.build).map(ms),
            setup_ms: t.and_then(|t| t.setup).map(ms),
            solver_ms: t.map(|t| ms(t.solve)),
            check_ms: t.map(|t| ms(t.check)),
            kept: t.is_some_and(|t| t.incremental),
            warm_start: t.is_some_and(|t| t.warm_start),
        }
    }
}

/// One (example, array, method, backend) result. See the README for the schema.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The example's id (`smo-produce-consume`).
    pub example: String,
    /// The array.
    pub array: String,
    /// The method's registry name.
    pub method: String,
    /// The backend's registry name.
    pub backend: String,
    /// `ok`, `not-applicable`, `solver-error`, `invalid` or `error`.
    pub status: Status,
    /// The one-line error message when `status` is not `ok`.
    #[serde(default)]
    pub error: Option<String>,
    /// What kind of failure: the solver's (`infeasible`, `unbounded`, `time-limit`,
    /// `time-budget`, `solver`, ...), the checker's refutation (`conflict`,
    /// `non-positive-modulus`, `unproven`, `execution`), or the method's (`input`,
    /// `formulation`, `method`, `not-applicable`, `unverifiable`). Absent when `ok`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<String>,
    /// The array's dimension names (the columns of `hyperplanes`).
    #[serde(default)]
    pub dims: Vec<String>,
    /// The parameter names (the variables of `moduli` and `size`).
    #[serde(default)]
    pub params: Vec<String>,
    /// One integer row per storage dimension, over the array's dimensions.
    #[serde(default)]
    pub hyperplanes: Vec<Vec<i64>>,
    /// One modulus per row as a polynomial string (`"2*N - 1"`); `null` for an unfolded row.
    #[serde(default)]
    pub moduli: Vec<Option<String>>,
    /// The mapping as the papers print it: `A[(i - t) mod (2N - 1)]`.
    #[serde(default)]
    pub mapping: Option<String>,
    /// The size (product of the moduli) as a polynomial string; `null` when a row is
    /// unfolded or there is no mapping.
    #[serde(default)]
    pub size: Option<String>,
    /// The size at `size_params`.
    #[serde(default)]
    pub size_at: Option<i128>,
    /// The parameter values of `size_at` (`--params`, or the example's largest instance
    /// in `cargo xtask reproduce`).
    #[serde(default)]
    pub size_params: Option<BTreeMap<String, i64>>,
    /// Max-live of the array at `size_params` (or the example's largest instance): the
    /// largest number of values live at one time, a lower bound on `size_at` of every
    /// valid mapping (see `polyalloc::limit`); for a storage shared by several arrays,
    /// that of all of them together. Absent when the target is not an array
    /// or max-live is unknown (`max_live_source` then says why).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_live: Option<u64>,
    /// How `max_live` was computed (`simulation` of the program, `clique` of the conflict
    /// graph), or `unknown: <why>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_live_source: Option<String>,
    /// True when the exact checker accepted the mapping.
    pub verified: bool,
    /// `proven` (for every parameter value of the context) or `instances` (valid at the
    /// instances only: the symbolic proof did not conclude and every conflict pair was
    /// checked at the example's instances, or the method computed the mapping for one
    /// instance, `lattice-exact`; `verification_reason` says which); `null` when not
    /// verified.
    #[serde(default)]
    pub verification: Option<Claim>,
    /// For `instances`: why, and at which parameter values (in `params` order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verification_reason: Option<String>,
    /// The facade's runs of the program with the method's answer, when the method asked
    /// for any (schedules, transformed loops): what was run and that every value read
    /// and live-out was identical to the original program's. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<String>,
    /// Every ILP the method solved, in order.
    #[serde(default)]
    pub ilps: Vec<IlpStat>,
    /// Sum of the ILP solve times (ms).
    pub solve_ms: f64,
    /// Sum of the backends' solve calls alone (ms): `solve_ms` without model build,
    /// solver set-up and exact check, where the backend reports its phases. Absent when
    /// no ILP reported them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_ms: Option<f64>,
    /// Where the time of the run went, phase by phase (wall-clock ms): `read_ms`,
    /// `conflicts_ms`, `method_ms`, `verify_ms`, `max_live_ms`, `output_ms`.
    ///
    /// Reading the input (file, parsing, validation), once per file: every record of
    /// the file repeats it. 0 when the caller did not measure it.
    #[serde(default)]
    pub read_ms: f64,
    /// Building the conflict sets the run asked for first (later runs of the same
    /// input find them built and show about 0).
    #[serde(default)]
    pub conflicts_ms: f64,
    /// The method, ILPs included, conflict sets excluded.
    #[serde(default)]
    pub method_ms: f64,
    /// The exact verification (checker and executions), conflict sets excluded.
    #[serde(default)]
    pub verify_ms: f64,
    /// Max-live at the size point (once per array and instance: later records of the
    /// same input find it computed).
    #[serde(default)]
    pub max_live_ms: f64,
    /// Rendering this record (JSON or text) for output; 0 in the harness's results
    /// files, which are written once at the end.
    #[serde(default)]
    pub output_ms: f64,
    /// For a storage shared by several arrays (method `smo-inter`; `mapping`, `size`,
    /// `moduli` are then the shared storage's): each array's rows, and the comparison
    /// with storing each array alone. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared: Option<SharedRecord>,
    /// Method-specific results that are not a storage mapping (occupancy vectors,
    /// schedules, shifting vectors, run-time conditions, ...), keyed by name. Each method
    /// documents its keys in its crate; empty for the conflict-set allocators.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub details: BTreeMap<String, serde_json::Value>,
}

/// The per-array part of a shared storage in a [`Record`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedPartRecord {
    /// The array.
    pub array: String,
    /// Its dimension names (the columns of `hyperplanes`).
    pub dims: Vec<String>,
    /// One hyperplane per storage row.
    pub hyperplanes: Vec<Vec<i64>>,
    /// One offset per storage row.
    pub offsets: Vec<i64>,
}

/// One array of a shared storage stored alone, in a [`Record`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeparateRecord {
    pub array: String,
    /// Its intra-array mapping, verified against its own conflict set.
    pub mapping: String,
    pub size: Option<String>,
    pub size_at: Option<i128>,
    /// `proven` or `instances`.
    pub verification: Claim,
}

/// A storage shared by several arrays, in a [`Record`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedRecord {
    /// The storage's name in `mapping`.
    pub storage: String,
    /// Per array, in order.
    pub parts: Vec<SharedPartRecord>,
    /// Each array stored alone.
    pub separate: Vec<SeparateRecord>,
    /// The sum of the separate sizes: the storage the arrays need without sharing
    /// (`null` when a separate size is unknown).
    pub separate_size: Option<String>,
    /// That sum at `size_params`.
    pub separate_size_at: Option<i128>,
}

/// The sum of times in milliseconds, `0.0` when there are none (an empty `f64` `sum` is
/// `-0.0`, printed `-0.00 ms`).
pub fn sum_ms(ms: impl IntoIterator<Item = f64>) -> f64 {
    ms.into_iter().fold(0.0, |a, b| a + b)
}

/// Milliseconds of a duration.
pub fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A modulus (affine in the parameters) as a canonical polynomial string: `2*N - 1`.
pub fn modulus_string(e: &AffExpr, params: &[String]) -> String {
    aff_polynomial(e, params).map(|p| p.to_string()).unwrap_or_else(|_| format!("{:?}", e.coeffs))
}

/// A modulus as a polynomial.
pub fn aff_polynomial(e: &AffExpr, params: &[String]) -> Result<Polynomial, polyalloc_formulation::Error> {
    let mut p = Polynomial::constant(e.coeffs.first().copied().unwrap_or(0));
    for (i, name) in params.iter().enumerate() {
        let c = e.coeffs.get(1 + i).copied().unwrap_or(0);
        if c != 0 {
            p = p.checked_add(&Polynomial::var(name).checked_scale(c)?)?;
        }
    }
    Ok(p)
}

/// The values of `mapping.params` taken by name from `values`.
pub fn values_for(params: &[String], values: &BTreeMap<String, i64>) -> Option<Vec<i64>> {
    params.iter().map(|p| values.get(p).copied()).collect()
}

impl Record {
    /// A record with no mapping yet.
    pub fn empty(example: &str, array: &str, method: &str, backend: &str) -> Record {
        Record {
            example: example.to_string(),
            array: array.to_string(),
            method: method.to_string(),
            backend: backend.to_string(),
            status: Status::Error,
            error: None,
            error_kind: None,
            dims: Vec::new(),
            params: Vec::new(),
            hyperplanes: Vec::new(),
            moduli: Vec::new(),
            mapping: None,
            size: None,
            size_at: None,
            size_params: None,
            max_live: None,
            max_live_source: None,
            verified: false,
            verification: None,
            verification_reason: None,
            execution: None,
            ilps: Vec::new(),
            solve_ms: 0.0,
            solver_ms: None,
            read_ms: 0.0,
            conflicts_ms: 0.0,
            method_ms: 0.0,
            verify_ms: 0.0,
            max_live_ms: 0.0,
            output_ms: 0.0,
            shared: None,
            details: BTreeMap::new(),
        }
    }

    /// The key `(example, array, method, backend)`.
    pub fn key(&self) -> (String, String, String, String) {
        (self.example.clone(), self.array.clone(), self.method.clone(), self.backend.clone())
    }

    /// Fills the mapping fields (hyperplanes, moduli, printed form, size, size at
    /// `size_params`).
    pub fn set_mapping(&mut self, mapping: &ModularMapping, size: Option<&Polynomial>, size_params: Option<&BTreeMap<String, i64>>) {
        self.dims = mapping.array.dims.clone();
        self.params = mapping.params.clone();
        self.hyperplanes = mapping.rows.iter().map(|r| r.hyperplane.clone()).collect();
        self.moduli = mapping.rows.iter().map(|r| r.modulus.as_ref().map(|e| modulus_string(e, &mapping.params))).collect();
        self.mapping = Some(mapping.to_string());
        self.size = size.map(|p| p.to_string());
        if let Some(values) = size_params {
            self.size_params = Some(values.clone());
            self.size_at = values_for(&mapping.params, values).and_then(|v| mapping.size_for(&v).ok());
        }
    }

    /// Fills the mapping fields with a shared storage (`mapping`, `size`, `size_at`,
    /// `params`, `moduli`; `dims` and `hyperplanes` stay empty: each array has its own, in
    /// `shared.parts`) and `shared` with the arrays' parts and `separate`: each array
    /// stored alone, `(array, mapping, verification label)`.
    pub fn set_shared(&mut self, mapping: &SharedMapping, size_params: Option<&BTreeMap<String, i64>>, separate: &[(String, ModularMapping, Claim)]) {
        self.params = mapping.params.clone();
        self.moduli = mapping.moduli.iter().map(|e| Some(modulus_string(e, &mapping.params))).collect();
        self.mapping = Some(mapping.to_string());
        self.size = mapping.size().ok().map(|p| p.to_string());
        if let Some(values) = size_params {
            self.size_params = Some(values.clone());
            self.size_at = values_for(&mapping.params, values).and_then(|v| mapping.size_for(&v).ok());
        }
        let at = |m: &ModularMapping| size_params.and_then(|v| values_for(&m.params, v)).and_then(|v| m.size_for(&v).ok());
        let separate: Vec<SeparateRecord> = separate
            .iter()
            .map(|(array, m, verification)| SeparateRecord {
                array: array.clone(),
                mapping: m.to_string(),
                size: m.size().ok().flatten().map(|p| p.to_string()),
                size_at: at(m),
                verification: *verification,
            })
            .collect();
        let total = separate.iter().try_fold(Polynomial::constant(0), |acc, r| {
            r.size.as_deref().and_then(|s| Polynomial::parse(s).ok()).and_then(|p| acc.checked_add(&p).ok())
        });
        let total_at = separate.iter().try_fold(0i128, |acc, r| r.size_at.and_then(|v| acc.checked_add(v)));
        self.shared = Some(SharedRecord {
            storage: mapping.storage.clone(),
            parts: mapping
                .parts
                .iter()
                .map(|p| SharedPartRecord {
                    array: p.array.name.clone().unwrap_or_default(),
                    dims: p.array.dims.clone(),
                    hyperplanes: p.hyperplanes.clone(),
                    offsets: p.offsets.clone(),
                })
                .collect(),
            separate_size: total.map(|p| p.to_string()),
            separate_size_at: if size_params.is_some() { total_at } else { None },
            separate,
        });
    }

    /// The size polynomial, parsed.
    pub fn size_polynomial(&self) -> Option<Polynomial> {
        self.size.as_deref().and_then(|s| Polynomial::parse(s).ok())
    }
}

/// The first line of a message, at most 300 characters (records hold one-line errors).
pub fn one_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    if line.chars().count() > 300 {
        format!("{}...", line.chars().take(300).collect::<String>())
    } else {
        line.to_string()
    }
}
