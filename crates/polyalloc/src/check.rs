//! `polyalloc check`: the exact checker (`polyalloc_alloc::verify`) on a mapping the
//! user gives as hyperplanes and moduli.

use crate::error::Error;
use crate::record::{modulus_string, values_for};
use crate::run::Backend;
use polyalloc_alloc::{verify, AllocError, Problem, Verification};
use polyalloc_formulation::{AffExpr, ModularMapping, Space, StorageRow, Tuple};
use std::collections::BTreeMap;

/// Parses `--hyperplanes`: a JSON array of integer rows (`[[-1,1]]`), or one row (`[-1,1]`).
pub fn parse_hyperplanes(text: &str) -> Result<Vec<Vec<i64>>, Error> {
    if let Ok(rows) = serde_json::from_str::<Vec<Vec<i64>>>(text) {
        return Ok(rows);
    }
    serde_json::from_str::<Vec<i64>>(text).map(|row| vec![row]).map_err(|e| {
        Error::Input(format!(
            "--hyperplanes: expected a JSON array of integer rows such as [[-1,1]] or [[1,0],[0,1]]: {}",
            e.to_string().split(" at line ").next().unwrap_or_default()
        ))
    })
}

/// Parses `--moduli`: comma-separated affine expressions (`2*N - 1` or `N, N`), or a JSON
/// array of strings (`["N", "N"]`).
pub fn parse_moduli(text: &str) -> Result<Vec<String>, Error> {
    let t = text.trim();
    if t.starts_with('[') {
        return serde_json::from_str::<Vec<serde_json::Value>>(t)
            .map_err(|e| Error::Input(format!("--moduli: expected a JSON array of strings: {e}")))?
            .into_iter()
            .map(|v| match v {
                serde_json::Value::String(s) => Ok(s),
                serde_json::Value::Number(n) => Ok(n.to_string()),
                other => Err(Error::Input(format!("--moduli: expected a string, found {other}"))),
            })
            .collect();
    }
    Ok(t.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
}

/// Builds the user's mapping over the problem's array and parameters.
pub fn build_mapping(problem: &Problem, hyperplanes: &[Vec<i64>], moduli: &[String]) -> Result<ModularMapping, Error> {
    if hyperplanes.len() != moduli.len() {
        return Err(Error::Input(format!(
            "{} hyperplane row(s) but {} modul{} (give one modulus per row)",
            hyperplanes.len(),
            moduli.len(),
            if moduli.len() == 1 { "us" } else { "i" }
        )));
    }
    if hyperplanes.is_empty() {
        return Err(Error::Input("--hyperplanes: at least one row is needed".into()));
    }
    let params: Vec<&str> = problem.params().iter().map(String::as_str).collect();
    let psp = Space::set(&params, Tuple::anonymous(&[]));
    let array = problem.array_tuple();
    let mut rows = Vec::new();
    for (k, (h, m)) in hyperplanes.iter().zip(moduli).enumerate() {
        if h.len() != array.len() {
            return Err(Error::Input(format!(
                "--hyperplanes: row {k} has {} coefficient(s); array {} has {} dimension(s) ({})",
                h.len(),
                problem.array(),
                array.len(),
                array.dims.join(", ")
            )));
        }
        let modulus = AffExpr::parse(&psp, m).map_err(|e| {
            Error::Input(format!(
                "--moduli: `{m}`: {e} (an affine expression in the parameters {})",
                if params.is_empty() { "(none)".to_string() } else { params.join(", ") }
            ))
        })?;
        rows.push(StorageRow { hyperplane: h.clone(), modulus: Some(modulus) });
    }
    ModularMapping::new(&params, array, rows).map_err(|e| Error::Input(e.to_string()))
}

/// The result of a check.
#[derive(Debug)]
pub struct CheckOutcome {
    /// The mapping as printed.
    pub mapping: String,
    pub hyperplanes: Vec<Vec<i64>>,
    pub moduli: Vec<String>,
    /// The size polynomial.
    pub size: Option<String>,
    /// The size at `--params`.
    pub size_at: Option<i128>,
    /// The checker's verdict.
    pub verdict: Result<Verification, AllocError>,
}

impl CheckOutcome {
    /// True when the checker accepted the mapping.
    pub fn valid(&self) -> bool {
        self.verdict.is_ok()
    }
    /// The exit code: 0 valid, 3 refuted, 2 checker failure.
    pub fn exit_code(&self) -> i32 {
        match &self.verdict {
            Ok(_) => crate::EXIT_OK,
            Err(AllocError::Invalid { .. }) => crate::EXIT_VERIFICATION,
            Err(_) => crate::EXIT_SOLVER,
        }
    }
}

/// Checks the user's mapping. With `params`, those values are also checked concretely
/// (added to the instances the checker enumerates when the symbolic proof does not
/// conclude) and the size there is reported.
pub fn check(
    mut problem: Problem,
    hyperplanes: &[Vec<i64>],
    moduli: &[String],
    params: Option<&BTreeMap<String, i64>>,
    backend: &Backend,
) -> Result<CheckOutcome, Error> {
    let mapping = build_mapping(&problem, hyperplanes, moduli)?;
    let mut size_at = None;
    if let Some(values) = params {
        let v = values_for(problem.params(), values)
            .ok_or_else(|| Error::Input(format!("--params: give every parameter: {}", problem.params().join(", "))))?;
        if !problem.instances.contains(&v) {
            problem.instances.push(v.clone());
        }
        size_at = mapping.size_for(&v).ok();
    }
    let verdict = verify(&problem, &mapping, backend.solver.as_ref(), "check");
    let size = mapping.size().ok().flatten().map(|p| p.to_string());
    Ok(CheckOutcome {
        mapping: mapping.to_string(),
        hyperplanes: mapping.rows.iter().map(|r| r.hyperplane.clone()).collect(),
        moduli: mapping.rows.iter().filter_map(|r| r.modulus.as_ref().map(|e| modulus_string(e, &mapping.params))).collect(),
        size,
        size_at,
        verdict,
    })
}
