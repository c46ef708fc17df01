//! The checks of a bench-suite file that need its isl strings parsed (bench-suite
//! README sections 1-5): what the JSON types alone cannot say. Each failure names the
//! field, and what was expected; none is left for a method to stumble on later.

use crate::{Example, SuiteError};
use polyalloc_formulation::{Set, Space};
use std::collections::BTreeSet;

/// Most integer points of an array space enumerated to prove it bounded at an instance
/// (one is enough: the scan fails at the first unbounded dimension).
const BOUNDED_PROBE: usize = 1;

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    // As the isl parser reads names (`polyalloc_formulation`): a letter or `_`, then
    // letters, digits, `_` and primes.
    matches!(c.next(), Some(f) if f.is_alphabetic() || f == '_') && c.all(|x| x.is_alphanumeric() || x == '_' || x == '\'')
}

impl Example {
    fn parse_field(&self, field: &str, text: &str) -> Result<Set, SuiteError> {
        Set::parse(text).map_err(|e| self.field_err(field, e.to_string()))
    }

    /// Parameters of `space` not declared in `params`.
    fn undeclared_param(&self, field: &str, space: &Space) -> Result<(), SuiteError> {
        match space.params.iter().find(|p| !self.params.contains(p)) {
            Some(p) => Err(self.field_err(field, format!("parameter `{p}` is not in `params` ({:?})", self.params))),
            None => Ok(()),
        }
    }

    /// The checks of this module, in the order of the file's fields.
    pub(crate) fn validate_isl(&self) -> Result<(), SuiteError> {
        // params: identifiers, each once.
        let mut seen = BTreeSet::new();
        for (k, p) in self.params.iter().enumerate() {
            if !is_ident(p) {
                return Err(self.field_err(format!("params[{k}]"), format!("expected an identifier, found `{p}`")));
            }
            if !seen.insert(p) {
                return Err(self.field_err(format!("params[{k}]"), format!("`{p}` is listed twice")));
            }
        }
        // context: a set of parameters, every instance in it.
        let context = match &self.context {
            None => None,
            Some(text) => {
                let c = self.parse_field("context", text)?;
                if c.space().is_map() || c.space().n_dim() != 0 {
                    return Err(self.field_err(
                        "context",
                        format!("expected constraints on the parameters only, `[N] -> {{ : ... }}`, found a set of `{}`", c.space()),
                    ));
                }
                self.undeclared_param("context", c.space())?;
                Some(c)
            }
        };
        for (k, inst) in self.instances.iter().enumerate() {
            if let Some(c) = &context {
                let values: Vec<i64> = c.space().params.iter().map(|p| inst.get(p).copied().unwrap_or(0)).collect();
                let inside = c.contains(&values, &[]).map_err(|e| self.field_err(format!("instances[{k}]"), e.to_string()))?;
                if !inside {
                    return Err(self.field_err(format!("instances[{k}]"), "outside the context (every instance satisfies `context`)"));
                }
            }
        }
        let metadata_only = self.is_metadata_only();
        // A bench-suite file (`x.json`, or standard input read as one), not an input of
        // the SMO tool (no instances needed: `--params` gives them) or a JSCoP.
        let json = !crate::smo_input::is_smo_input(&self.file) && !crate::jscop::is_jscop(&self.file);
        if json && self.instances.is_empty() && !metadata_only {
            return Err(self.field_err(
                "instances",
                "expected at least one instance (checks are exhaustive on each instance; `[{}]` when there are no parameters)",
            ));
        }
        // arrays: a key that is the tuple of a bounded set.
        for (name, a) in &self.arrays {
            let field = format!("arrays.{name}");
            if !is_ident(name) {
                return Err(self.field_err(&field, format!("expected an identifier as the array's name, found `{name}`")));
            }
            let space = self.parse_field(&format!("{field}.space"), &a.space)?;
            let sp = space.space();
            if sp.is_map() {
                return Err(self.field_err(format!("{field}.space"), format!("expected a set `{{ {name}[...] : ... }}`, found a relation")));
            }
            if sp.output.name.as_deref() != Some(name.as_str()) {
                return Err(self.field_err(
                    format!("{field}.space"),
                    format!("the tuple is named `{}`, expected `{name}` (the array's key)", sp.output.name.as_deref().unwrap_or("")),
                ));
            }
            self.undeclared_param(&format!("{field}.space"), sp)?;
            // A bench-suite file gives finite arrays; a compiler's export may not (C's
            // `double A[][N]` has no first size: Polly writes `*`).
            let instances = if json { &self.instances[..] } else { &[] };
            for (k, inst) in instances.iter().enumerate() {
                let values: Vec<i64> = sp.params.iter().map(|p| inst.get(p).copied().unwrap_or(0)).collect();
                let mut n = 0;
                if let Err(e) = space.for_each_point(&values, &mut |_| {
                    n += 1;
                    Ok(n < BOUNDED_PROBE)
                }) {
                    if e.stop().is_some() {
                        continue;
                    }
                    return Err(self.field_err(format!("{field}.space"), format!("not a finite set of cells at instances[{k}]: {e}")));
                }
            }
            if let Some(text) = &a.conflicts {
                let f = format!("{field}.conflicts");
                let rel = match Set::parse_union(text) {
                    Ok(r) => r,
                    Err(e) => return Err(self.field_err(&f, e.to_string())),
                };
                for r in &rel {
                    let rs = r.space();
                    let Some(input) = rs.input.as_ref() else {
                        return Err(self.field_err(&f, format!("expected a relation `{name}[...] -> {name}[...]`, found a set of `{rs}`")));
                    };
                    for t in [input, &rs.output] {
                        if t.name.as_deref() != Some(name.as_str()) || t.len() != sp.n_dim() {
                            return Err(self.field_err(
                                &f,
                                format!(
                                    "pairs of cells of `{name}` have the form `{name}[{}]` ({} dimensions, as the space), found `{t}`",
                                    sp.dim_names().join(", "),
                                    sp.n_dim()
                                ),
                            ));
                        }
                    }
                    self.undeclared_param(&f, rs)?;
                }
            }
        }
        if let Some(prog) = &self.program {
            self.validate_program(prog)?;
        }
        Ok(())
    }

    fn validate_program(&self, prog: &crate::ProgramSpec) -> Result<(), SuiteError> {
        let mut names = BTreeSet::new();
        let mut arity: Option<(usize, &str)> = None;
        for (k, s) in prog.statements.iter().enumerate() {
            let field = format!("program.statements[{k}] ({})", s.name);
            if !names.insert(s.name.as_str()) {
                return Err(self.field_err(&field, format!("a second statement named `{}`", s.name)));
            }
            let domain = self.parse_field(&format!("{field}.domain"), &s.domain)?;
            if domain.space().is_map() || domain.space().output.name.as_deref() != Some(s.name.as_str()) {
                return Err(self.field_err(
                    format!("{field}.domain"),
                    format!("expected a set `{{ {}[...] : ... }}` (the tuple named as the statement), found `{}`", s.name, domain.space()),
                ));
            }
            let schedule = self.parse_field(&format!("{field}.schedule"), &s.schedule)?;
            let d = schedule.space().output.len();
            match arity {
                Some((a, first)) if a != d => {
                    return Err(self.field_err(
                        format!("{field}.schedule"),
                        format!("{d} time dimensions, statement `{first}` has {a}: every statement of a program has the same number"),
                    ))
                }
                None => arity = Some((d, &s.name)),
                _ => {}
            }
            for (what, rels) in [("writes", &s.writes), ("reads", &s.reads)] {
                for (j, text) in rels.iter().enumerate() {
                    let f = if rels.0.len() == 1 { format!("{field}.{what}") } else { format!("{field}.{what}[{j}]") };
                    let union = Set::parse_union(text).map_err(|e| self.field_err(&f, e.to_string()))?;
                    for r in &union {
                        let Some(array) = r.space().output.name.as_deref() else { continue };
                        if !self.arrays.contains_key(array) && !prog.ignored_arrays.iter().any(|x| x == array) {
                            return Err(self.field_err(
                                &f,
                                format!(
                                    "array `{array}` is not declared: list it in `arrays` (to contract it) or in `program.ignored_arrays` (an input or output the program only passes through)"
                                ),
                            ));
                        }
                    }
                }
            }
        }
        for (k, a) in prog.ignored_arrays.iter().enumerate() {
            if self.arrays.contains_key(a) {
                return Err(self.field_err(format!("program.ignored_arrays[{k}]"), format!("`{a}` is also in `arrays`")));
            }
        }
        Ok(())
    }
}
