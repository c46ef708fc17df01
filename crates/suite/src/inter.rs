//! Inter-array storage problems: several arrays that may share one storage.
//!
//! An example's optional `inter_array` section (bench-suite/README.md, section 11) names
//! arrays of `arrays` that may share storage and gives the conflict relations *between*
//! them; the conflicts *within* each array are the array's own `conflicts`. Together they
//! form an [`InterProblem`], the input of inter-array methods (`smo-inter`) and of the
//! shared-storage checker (`polyalloc_formulation::shared_checker`). The SMO tool's
//! inter-array inputs (`*.smo.input` with several statements) are read into this form.

use crate::{Example, SuiteError};
use polyalloc_formulation::{BasicSet, InterConflict, InterConflictSet, Map, Set};
use serde::{Deserialize, Serialize};

/// The JSON key of the section.
pub const SECTION: &str = "inter_array";

/// The `inter_array` section of an example.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InterSection {
    /// The arrays that share storage (names of `arrays`), in order.
    pub arrays: Vec<String>,
    /// Conflict relations between two different arrays.
    #[serde(default)]
    pub conflicts: Vec<InterRelation>,
}

/// One relation of an [`InterSection`]: pairs of a cell of `from` and a cell of `to`
/// that hold simultaneously live values (each pair listed once: half form).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InterRelation {
    pub from: String,
    pub to: String,
    /// An isl relation `[N] -> { A0[x] -> A1[y] : ... }` (pieces are conflict polyhedra).
    pub relation: String,
}

/// The storage problem of several arrays sharing one storage.
#[derive(Clone, Debug)]
pub struct InterProblem {
    /// The example it comes from.
    pub example: String,
    /// The conflicts within and between the arrays (its `arrays` give the order).
    pub conflicts: InterConflictSet,
    /// Each array's data space, in the order of `conflicts.arrays`: every modulus must be
    /// at least 1 wherever an array has cells.
    pub spaces: Vec<Set>,
    /// The parameter context.
    pub context: Option<BasicSet>,
    /// Parameter values (in `conflicts.params` order) at which the checker enumerates
    /// conflicts when a symbolic proof is out of reach.
    pub instances: Vec<Vec<i64>>,
}

impl InterProblem {
    /// The array names, in order.
    pub fn arrays(&self) -> Vec<String> {
        self.conflicts.array_names()
    }
    /// The parameter names, in order.
    pub fn params(&self) -> &[String] {
        &self.conflicts.params
    }
}

impl Example {
    /// The `inter_array` section, when the example has one.
    pub fn inter_section(&self) -> Result<Option<InterSection>, SuiteError> {
        let Some(v) = self.extra.get(SECTION) else { return Ok(None) };
        let s: InterSection = serde_json::from_value(v.clone()).map_err(|e| self.inter_err(SECTION, e.to_string()))?;
        if s.arrays.is_empty() {
            return Err(self.inter_err(&format!("{SECTION}.arrays"), "at least one array is needed".into()));
        }
        for (k, a) in s.arrays.iter().enumerate() {
            if !self.arrays.contains_key(a) {
                return Err(self.inter_err(&format!("{SECTION}.arrays[{k}]"), format!("no array `{a}` in `arrays`")));
            }
            if s.arrays[..k].contains(a) {
                return Err(self.inter_err(&format!("{SECTION}.arrays[{k}]"), format!("`{a}` is listed twice")));
            }
        }
        for (k, r) in s.conflicts.iter().enumerate() {
            for (what, a) in [("from", &r.from), ("to", &r.to)] {
                if !s.arrays.contains(a) {
                    return Err(self.inter_err(&format!("{SECTION}.conflicts[{k}].{what}"), format!("`{a}` is not one of {:?}", s.arrays)));
                }
            }
            if r.from == r.to {
                return Err(self.inter_err(
                    &format!("{SECTION}.conflicts[{k}]"),
                    format!("conflicts within `{}` belong in arrays.{}.conflicts", r.from, r.from),
                ));
            }
        }
        Ok(Some(s))
    }

    fn inter_err(&self, field: &str, message: String) -> SuiteError {
        SuiteError::Field { file: self.file.clone(), field: field.to_string(), message }
    }

    /// The inter-array problem of the `inter_array` section (`None` without one): each
    /// array's own conflict set (none: no conflict within it) and the relations between
    /// arrays, the data spaces, the context and the instances.
    pub fn inter_problem(&self) -> Result<Option<InterProblem>, SuiteError> {
        let Some(section) = self.inter_section()? else { return Ok(None) };
        let mut tuples = Vec::new();
        let mut spaces = Vec::new();
        let mut relations = Vec::new();
        for (i, a) in section.arrays.iter().enumerate() {
            let spec = &self.arrays[a];
            let field = format!("arrays.{a}.space");
            let space = Set::parse(&spec.space).map_err(|e| self.inter_err(&field, e.to_string()))?;
            let tuple = space.space().output.clone();
            if space.space().is_map() || tuple.name.as_deref() != Some(a.as_str()) {
                return Err(self.inter_err(&field, format!("expected a set of cells `{a}[...]`, found `{}`", space.space())));
            }
            tuples.push(tuple);
            spaces.push(space);
            if spec.conflicts.is_some() {
                let cs = self.conflicts(a)?;
                relations.push(InterConflict { from: i, to: i, relation: cs.relation });
            }
        }
        for (k, r) in section.conflicts.iter().enumerate() {
            let field = format!("{SECTION}.conflicts[{k}].relation");
            let relation = Map::parse(&r.relation).map_err(|e| self.inter_err(&field, e.to_string()))?;
            let index = |name: &String| section.arrays.iter().position(|a| a == name).unwrap_or(0);
            relations.push(InterConflict { from: index(&r.from), to: index(&r.to), relation });
        }
        let conflicts = InterConflictSet::new(&self.params, tuples, relations).map_err(|e| self.inter_err(SECTION, e.to_string()))?;
        let instances = self
            .instances
            .iter()
            .map(|inst| conflicts.params.iter().map(|p| inst.get(p).copied()).collect::<Option<Vec<i64>>>())
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| self.inter_err("instances", format!("every instance must give the parameters {:?}", conflicts.params)))?;
        Ok(Some(InterProblem { example: self.id.clone(), conflicts, spaces, context: self.context_set()?, instances }))
    }
}
