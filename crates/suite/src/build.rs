//! From bench-suite records to the formulation's objects: conflict sets (given, or
//! computed from the program), parameter contexts, allocation problems and the
//! papers' mappings. Every isl string that does not parse is reported with the file,
//! the field and the position inside the string.

use crate::Problem;
use crate::{Example, SuiteError};
use polyalloc_formulation::{AffExpr, BasicSet, ConflictForm, ConflictSet, ModularMapping, Set, Space, StorageRow, Tuple};
use polyalloc_program::{Program, ProgramError, Statement};

impl Example {
    fn fmt_err(&self, field: &str) -> impl Fn(polyalloc_formulation::Error) -> SuiteError + '_ {
        let field = field.to_string();
        move |e| match e.stop() {
            Some(s) => SuiteError::Stopped { file: self.file.clone(), field: field.clone(), source: Box::new(s.clone()) },
            None => SuiteError::Field { file: self.file.clone(), field: field.clone(), message: e.to_string() },
        }
    }

    fn prog_err(&self, field: &str) -> impl Fn(ProgramError) -> SuiteError + '_ {
        let field = field.to_string();
        move |e| match e.stop() {
            Some(s) => SuiteError::Stopped { file: self.file.clone(), field: field.clone(), source: Box::new(s.clone()) },
            None => SuiteError::Field { file: self.file.clone(), field: field.clone(), message: e.to_string() },
        }
    }

    /// The parameter context as a zero-dimensional basic set (`None` when absent).
    pub fn context_set(&self) -> Result<Option<BasicSet>, SuiteError> {
        match &self.context {
            None => Ok(None),
            Some(text) => BasicSet::parse(text).map(Some).map_err(self.fmt_err("context")),
        }
    }

    /// The program, when the file has one.
    pub fn program_model(&self) -> Result<Option<Program>, SuiteError> {
        let Some(spec) = &self.program else { return Ok(None) };
        let ctx = self.context.clone().unwrap_or_else(|| format!("[{}] -> {{ : }}", self.params.join(", ")));
        let mut prog = Program::new(&ctx).map_err(self.prog_err("context"))?;
        for (k, s) in spec.statements.iter().enumerate() {
            let writes: Vec<&str> = s.writes.iter().map(String::as_str).collect();
            let reads: Vec<&str> = s.reads.iter().map(String::as_str).collect();
            let st =
                Statement::parse(&s.domain, &s.schedule, &writes, &reads).map_err(self.prog_err(&format!("program.statements[{k}] ({})", s.name)))?;
            prog.add_statement(st).map_err(self.prog_err(&format!("program.statements[{k}] ({})", s.name)))?;
        }
        if let Some(lo) = &spec.live_out {
            prog.add_live_out(lo).map_err(self.prog_err("program.live_out"))?;
        }
        // Every array of `arrays` that the program accesses has its space's number of
        // dimensions there.
        for (name, a) in &self.arrays {
            let Ok(space) = Set::parse(&a.space) else { continue };
            if let Ok(n) = prog.array_dims(name) {
                if n != space.space().n_dim() {
                    return Err(SuiteError::Field {
                        file: self.file.clone(),
                        field: format!("arrays.{name}.space"),
                        message: format!(
                            "`{name}` has {} dimension{} here, the program accesses it with {n} subscript{}",
                            space.space().n_dim(),
                            if space.space().n_dim() == 1 { "" } else { "s" },
                            if n == 1 { "" } else { "s" }
                        ),
                    });
                }
                // Accesses to cells outside the space are ignored (README section 4).
                prog.restrict_to_space(name, &space).map_err(self.prog_err(&format!("arrays.{name}.space")))?;
            }
        }
        Ok(Some(prog))
    }

    /// The conflict set given explicitly for `array` (`None` when the file gives none).
    pub fn given_conflicts(&self, array: &str) -> Result<Option<ConflictSet>, SuiteError> {
        let spec = self.arrays.get(array).ok_or_else(|| SuiteError::Field {
            file: self.file.clone(),
            field: "arrays".into(),
            message: format!("no array `{array}`"),
        })?;
        let Some(text) = &spec.conflicts else { return Ok(None) };
        // Validated when the example was read (`Example::validate`).
        let form = spec.form().unwrap_or(ConflictForm::Half);
        let field = format!("arrays.{array}.conflicts");
        // The empty relation `[N] -> { }` names no space: no pair of the array's cells.
        if Set::parse_union(text).map_err(self.fmt_err(&field))?.is_empty() {
            let space = Set::parse(&spec.space).map_err(self.fmt_err(&format!("arrays.{array}.space")))?;
            return Ok(Some(ConflictSet::empty(&space.space().params, array, space.space().n_dim(), form)));
        }
        ConflictSet::parse(text, form).map(Some).map_err(self.fmt_err(&field))
    }

    /// The conflict set of `array`: the given one, or else the one the program yields.
    pub fn conflicts(&self, array: &str) -> Result<ConflictSet, SuiteError> {
        if let Some(cs) = self.given_conflicts(array)? {
            return Ok(cs);
        }
        let prog = self.program_model()?.ok_or_else(|| SuiteError::Field {
            file: self.file.clone(),
            field: format!("arrays.{array}"),
            message: "neither `conflicts` nor a `program` to compute them from".into(),
        })?;
        prog.conflict_set(array).map_err(self.prog_err("program"))
    }

    /// Every instance's parameter values, in the order of `params`.
    pub fn instance_list(&self) -> Vec<Vec<i64>> {
        (0..self.instances.len()).filter_map(|k| self.instance_values(k)).collect()
    }

    /// The allocation problem of `array`.
    pub fn problem(&self, array: &str) -> Result<Problem, SuiteError> {
        let conflicts = self.conflicts(array)?;
        let rel_params = conflicts.relation.space().params.clone();
        // Instances in the relation's parameter order.
        let instances = self
            .instances
            .iter()
            .map(|inst| rel_params.iter().map(|p| inst.get(p).copied()).collect::<Option<Vec<i64>>>())
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| SuiteError::Field {
                file: self.file.clone(),
                field: "instances".into(),
                message: format!("every instance must give the conflict set's parameters {rel_params:?}"),
            })?;
        let space = match self.arrays.get(array) {
            Some(spec) => Some(Set::parse(&spec.space).map_err(self.fmt_err(&format!("arrays.{array}.space")))?),
            None => None,
        };
        Ok(Problem { example: self.id.clone(), conflicts, context: self.context_set()?, space, instances })
    }

    /// Arrays that have a conflict set (given or computable), in name order.
    pub fn allocatable_arrays(&self) -> Vec<String> {
        self.arrays.iter().filter(|(_, a)| a.conflicts.is_some() || self.program.is_some()).map(|(n, _)| n.clone()).collect()
    }

    /// The mapping of `paper[k]` built from its `hyperplanes` and `moduli` over the
    /// array of the conflict set (`None` when the entry has no hyperplanes).
    pub fn paper_mapping(&self, k: usize, conflicts: &ConflictSet) -> Result<Option<ModularMapping>, SuiteError> {
        let Some(entry) = self.paper.get(k) else { return Ok(None) };
        let (Some(hs), Some(ms)) = (&entry.hyperplanes, &entry.moduli) else { return Ok(None) };
        let field = format!("paper[{k}]");
        let params: Vec<&str> = conflicts.relation.space().params.iter().map(String::as_str).collect();
        let psp = Space::set(&params, Tuple::anonymous(&[]));
        let mut rows = Vec::new();
        for (j, (h, m)) in hs.iter().zip(ms).enumerate() {
            let modulus = AffExpr::parse(&psp, m).map_err(self.fmt_err(&format!("{field}.moduli[{j}]")))?;
            rows.push(StorageRow { hyperplane: h.clone(), modulus: Some(modulus) });
        }
        let array = conflicts.relation.space().output.clone();
        ModularMapping::new(&params, array, rows).map(Some).map_err(self.fmt_err(&field))
    }
}
