//! Printing in isl notation (the parser reads it back).

use crate::aff::fmt_linear;
use crate::basic::BasicSet;
use crate::set::Set;
use std::fmt;

/// Splits a row `c0 + sum c_j x_j (>= or =) 0` into `lhs op rhs` with positive
/// coefficients on both sides and the constant on the side where it is positive.
fn fmt_row(row: &[i64], names: &[String], op: &str) -> String {
    let coeffs = &row[1..];
    let pos: Vec<i64> = coeffs.iter().map(|&c| c.max(0)).collect();
    let neg: Vec<i64> = coeffs.iter().map(|&c| if c < 0 { c.checked_neg().unwrap_or(i64::MAX) } else { 0 }).collect();
    let c = row[0];
    let (lc, rc) = if c >= 0 { (c, 0) } else { (0, c.checked_neg().unwrap_or(i64::MAX)) };
    let l = fmt_linear(&pos, names, lc);
    let r = fmt_linear(&neg, names, rc);
    // For equalities prefer `var = expr` with the simpler side first.
    format!("{l} {op} {r}")
}

pub(crate) fn local_names(b: &BasicSet) -> Vec<String> {
    let mut taken: Vec<String> = b.space.params.clone();
    taken.extend(b.space.dim_names());
    let mut out = Vec::new();
    let mut k = 0;
    while out.len() < b.n_local {
        let n = format!("e{k}");
        k += 1;
        if !taken.contains(&n) {
            out.push(n);
        }
    }
    out
}

impl BasicSet {
    /// The piece body without the parameter declaration and braces:
    /// `A[t, i] : t >= 1 and ...`.
    pub(crate) fn fmt_piece(&self) -> String {
        let sp = &self.space;
        let mut s = match &sp.input {
            Some(i) => format!("{i} -> {}", sp.output),
            None => {
                if sp.output.name.is_none() && sp.output.dims.is_empty() {
                    String::new()
                } else {
                    sp.output.to_string()
                }
            }
        };
        let mut names = sp.params.clone();
        names.extend(sp.dim_names());
        let locals = local_names(self);
        names.extend(locals.iter().cloned());
        let mut cons: Vec<String> = Vec::new();
        for r in &self.eqs {
            cons.push(fmt_row(r, &names, "="));
        }
        for r in &self.ineqs {
            cons.push(fmt_row(r, &names, ">="));
        }
        if cons.is_empty() && self.n_local == 0 {
            // A universe without a tuple is `{ : }` (`{ }` would be the empty set).
            return if s.is_empty() { ":".to_string() } else { s };
        }
        let body = if cons.is_empty() { "true".to_string() } else { cons.join(" and ") };
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(": ");
        if self.n_local > 0 {
            s.push_str(&format!("exists ({} : {body})", locals.join(", ")));
        } else {
            s.push_str(&body);
        }
        s
    }
}

fn fmt_params(f: &mut fmt::Formatter<'_>, params: &[String]) -> fmt::Result {
    if !params.is_empty() {
        write!(f, "[{}] -> ", params.join(", "))?;
    }
    Ok(())
}

impl fmt::Display for BasicSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_params(f, &self.space.params)?;
        write!(f, "{{ {} }}", self.fmt_piece())
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_params(f, &self.space.params)?;
        if self.pieces.is_empty() {
            // The empty set of a tuple keeps its tuple (`{ A[i] : false }`), so that it
            // reads back in the same space.
            let sp = &self.space;
            let tuple = match &sp.input {
                Some(i) => format!("{i} -> {}", sp.output),
                None if sp.output.name.is_none() && sp.output.dims.is_empty() => return f.write_str("{  }"),
                None => sp.output.to_string(),
            };
            return write!(f, "{{ {tuple} : false }}");
        }
        let ps: Vec<String> = self.pieces.iter().map(|p| p.fmt_piece()).collect();
        write!(f, "{{ {} }}", ps.join("; "))
    }
}
