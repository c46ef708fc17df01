//! Export of a [`Model`] to the CPLEX LP text format, so that any formulation can be
//! handed to another solver (`highs model.lp`, `cbc model.lp`, CPLEX, Gurobi, SCIP).

use crate::expr::LinExpr;
use crate::model::{Cmp, Model, Sense, VarKind};
use std::collections::HashSet;
use std::fmt::Write;

/// Characters the LP format allows in names besides ASCII letters and digits.
const NAME_PUNCT: &str = "!\"#$%&()/,.;?@_`'{}|~";

fn sanitize(raw: &str, fallback: &str, used: &mut HashSet<String>) -> String {
    let mut s: String = raw.chars().map(|c| if c.is_ascii_alphanumeric() || NAME_PUNCT.contains(c) { c } else { '_' }).collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        s = format!("{fallback}_{s}");
    }
    // `e`/`E` followed by digits could be read as an exponent after a coefficient.
    if s.starts_with(['e', 'E']) && s[1..].chars().all(|c| c.is_ascii_digit()) {
        s = format!("_{s}");
    }
    s.truncate(250);
    let mut out = s.clone();
    let mut k = 1;
    while !used.insert(out.to_ascii_lowercase()) {
        out = format!("{s}#{k}");
        k += 1;
    }
    out
}

fn write_expr(out: &mut String, expr: &LinExpr, names: &[String]) {
    let mut first = true;
    for (v, c) in expr.terms() {
        out.push_str(match (first, c < 0) {
            (true, false) => " ",
            (true, true) => " - ",
            (false, false) => " + ",
            (false, true) => " - ",
        });
        let mag = c.unsigned_abs();
        if mag != 1 {
            let _ = write!(out, "{mag} ");
        }
        out.push_str(&names[v.index()]);
        first = false;
    }
    if first {
        // An empty expression: LP needs a term; `0 x` over the first variable.
        match names.first() {
            Some(n) => {
                let _ = write!(out, " 0 {n}");
            }
            None => out.push_str(" 0"),
        }
    }
}

impl Model {
    /// The model in CPLEX LP format. Names are sanitised to the LP character set and made
    /// unique; the objective's constant part is written as a comment (not every LP reader
    /// accepts constants in the objective).
    pub fn to_lp_string(&self) -> String {
        let mut used = HashSet::new();
        let names: Vec<String> = self.vars().iter().enumerate().map(|(i, v)| sanitize(&v.name, &format!("x{i}"), &mut used)).collect();
        let mut out = String::new();
        let _ = writeln!(out, "\\ polyalloc model `{}`: {} variables, {} constraints", self.name(), self.num_vars(), self.num_constraints());
        if self.objective().constant_part() != 0 {
            let _ = writeln!(out, "\\ objective constant: {}", self.objective().constant_part());
        }
        out.push_str(match self.sense() {
            Sense::Minimize => "Minimize\n",
            Sense::Maximize => "Maximize\n",
        });
        out.push_str(" obj:");
        let mut obj = self.objective().clone();
        obj.set_constant(0);
        write_expr(&mut out, &obj, &names);
        out.push_str("\nSubject To\n");
        let mut cused = HashSet::new();
        for (i, c) in self.constraints().iter().enumerate() {
            let n = sanitize(&c.name, &format!("c{i}"), &mut cused);
            let _ = write!(out, " {n}:");
            write_expr(&mut out, &c.expr, &names);
            let op = match c.cmp {
                Cmp::Le => "<=",
                Cmp::Ge => ">=",
                Cmp::Eq => "=",
            };
            let _ = writeln!(out, " {op} {}", c.rhs);
        }
        out.push_str("Bounds\n");
        for (v, n) in self.vars().iter().zip(&names) {
            if v.kind == VarKind::Binary {
                continue;
            }
            match (v.lower, v.upper) {
                (None, None) => {
                    let _ = writeln!(out, " {n} free");
                }
                (Some(l), Some(u)) if l == u => {
                    let _ = writeln!(out, " {n} = {l}");
                }
                (l, u) => {
                    let lo = l.map_or("-inf".to_string(), |x| x.to_string());
                    let up = u.map_or("+inf".to_string(), |x| x.to_string());
                    let _ = writeln!(out, " {lo} <= {n} <= {up}");
                }
            }
        }
        let generals: Vec<&str> = self.vars().iter().zip(&names).filter(|(v, _)| v.kind == VarKind::Integer).map(|(_, n)| n.as_str()).collect();
        if !generals.is_empty() {
            out.push_str("General\n");
            for chunk in generals.chunks(8) {
                let _ = writeln!(out, " {}", chunk.join(" "));
            }
        }
        let binaries: Vec<&str> = self.vars().iter().zip(&names).filter(|(v, _)| v.kind == VarKind::Binary).map(|(_, n)| n.as_str()).collect();
        if !binaries.is_empty() {
            out.push_str("Binary\n");
            for chunk in binaries.chunks(8) {
                let _ = writeln!(out, " {}", chunk.join(" "));
            }
        }
        out.push_str("End\n");
        out
    }
}
