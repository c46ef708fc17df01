//! Modular mappings `A[x] -> A'[(M x) mod e]` (storage hyperplanes and moduli).

use crate::aff::AffExpr;
use crate::error::{Error, Result};
use crate::parse::{lex, Tok};
use crate::poly::Polynomial;
use crate::space::{Space, Tuple};
use std::fmt;

/// One output dimension of a modular mapping: a storage hyperplane `h` (integer row over
/// the array's dimensions) and its modulus, affine in the parameters, or `None` when
/// the dimension is not folded (then `h . x` is used as is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StorageRow {
    /// The hyperplane normal, one coefficient per array dimension.
    pub hyperplane: Vec<i64>,
    /// The modulus `u . P + w` over the mapping's parameter space, or `None` (unfolded).
    pub modulus: Option<AffExpr>,
}

/// A modular mapping of an array (Bhaskaracharya et al. 2016, Sec. 3; Darte et al. 2015, Sec. 2): cell `x` is stored at
/// `((h_1 . x) mod e_1, ..., (h_m . x) mod e_m)`. Printed as the papers print it, e.g.
/// `A[(i - t) mod (2N - 1)]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModularMapping {
    /// Parameter names (the moduli are affine in them).
    pub params: Vec<String>,
    /// The array and its dimension names (`A[t, i]`).
    pub array: Tuple,
    /// The storage rows.
    pub rows: Vec<StorageRow>,
}

impl ModularMapping {
    /// Builds and validates a mapping (hyperplane lengths, moduli over the parameters).
    pub fn new(params: &[&str], array: Tuple, rows: Vec<StorageRow>) -> Result<Self> {
        let m = ModularMapping { params: params.iter().map(|s| s.to_string()).collect(), array, rows };
        let psp = m.param_space();
        for (k, r) in m.rows.iter().enumerate() {
            if r.hyperplane.len() != m.array.len() {
                return Err(Error::Mapping(format!(
                    "row {k}: hyperplane has {} coefficients, the array has {} dimensions",
                    r.hyperplane.len(),
                    m.array.len()
                )));
            }
            if let Some(e) = &r.modulus {
                if e.coeffs.len() != psp.n_cols() {
                    return Err(Error::Mapping(format!("row {k}: modulus is not over the parameters")));
                }
            }
        }
        Ok(m)
    }

    /// Parses `[N] -> { A[t, i] -> A[(i - t) mod (2N - 1)] }` (braces optional; output
    /// components are `expr mod modulus` or a plain `expr` for an unfolded dimension;
    /// the output tuple name is ignored).
    pub fn parse(text: &str) -> Result<Self> {
        let toks = lex(text)?;
        let mut pos = 0;
        let perr = |pos: usize, expected: &str| -> Error {
            let t = &toks[pos.min(toks.len() - 1)];
            Error::Parse(crate::error::ParseError {
                line: t.line,
                column: t.col,
                expected: expected.into(),
                found: if t.tok == Tok::Eof { "end of input".into() } else { format!("`{}`", t.text()) },
            })
        };
        let is = |pos: usize, s: &str| matches!(&toks[pos].tok, Tok::Sym(x) if *x == s);
        let mut params = Vec::new();
        if is(pos, "[") {
            pos += 1;
            while let Tok::Ident(p) = &toks[pos].tok {
                params.push(p.clone());
                pos += 1;
                if is(pos, ",") {
                    pos += 1;
                }
            }
            if !is(pos, "]") {
                return Err(perr(pos, "`]` closing the parameter list"));
            }
            pos += 1;
            if !is(pos, "->") {
                return Err(perr(pos, "`->`"));
            }
            pos += 1;
        }
        let brace = is(pos, "{");
        if brace {
            pos += 1;
        }
        let name = match &toks[pos].tok {
            Tok::Ident(n) => {
                pos += 1;
                Some(n.clone())
            }
            _ => None,
        };
        if !is(pos, "[") {
            return Err(perr(pos, "`[` opening the array's dimensions"));
        }
        pos += 1;
        let mut dims = Vec::new();
        while let Tok::Ident(d) = &toks[pos].tok {
            dims.push(d.clone());
            pos += 1;
            if is(pos, ",") {
                pos += 1;
            }
        }
        if !is(pos, "]") {
            return Err(perr(pos, "`]` closing the array's dimensions"));
        }
        pos += 1;
        if !is(pos, "->") {
            return Err(perr(pos, "`->`"));
        }
        pos += 1;
        if let Tok::Ident(_) = &toks[pos].tok {
            pos += 1;
        }
        if !is(pos, "[") {
            return Err(perr(pos, "`[` opening the mapped cell"));
        }
        pos += 1;
        // Split components at top-level commas.
        let mut comps: Vec<Vec<usize>> = vec![vec![]];
        let mut depth = 0i32;
        loop {
            match &toks[pos].tok {
                Tok::Eof => return Err(perr(pos, "`]` closing the mapped cell")),
                Tok::Sym("(") => depth += 1,
                Tok::Sym(")") => depth -= 1,
                Tok::Sym("]") if depth == 0 => break,
                Tok::Sym(",") if depth == 0 => {
                    comps.push(vec![]);
                    pos += 1;
                    continue;
                }
                _ => {}
            }
            if let Some(c) = comps.last_mut() {
                c.push(pos);
            }
            pos += 1;
        }
        pos += 1;
        if brace {
            if !is(pos, "}") {
                return Err(perr(pos, "`}`"));
            }
            pos += 1;
        }
        if toks[pos].tok != Tok::Eof {
            return Err(perr(pos, "end of input"));
        }
        let pnames: Vec<&str> = params.iter().map(|s| s.as_str()).collect();
        let dnames: Vec<&str> = dims.iter().map(|s| s.as_str()).collect();
        let array = Tuple { name, dims: dims.clone() };
        let asp = Space::set(&pnames, array.clone());
        let psp = Space::set(&pnames, Tuple::anonymous(&[]));
        let text_of = |ix: &[usize]| ix.iter().map(|&i| toks[i].text()).collect::<Vec<_>>().join(" ");
        let mut rows = Vec::new();
        if comps.len() == 1 && comps[0].is_empty() {
            comps.clear();
        }
        for c in comps {
            let mut d = 0i32;
            let mut split = None;
            for (k, &i) in c.iter().enumerate() {
                match &toks[i].tok {
                    Tok::Sym("(") => d += 1,
                    Tok::Sym(")") => d -= 1,
                    Tok::Ident(s) if s == "mod" && d == 0 => split = Some(k),
                    _ => {}
                }
            }
            let (lhs, modulus) = match split {
                Some(k) => (&c[..k], Some(AffExpr::parse(&psp, &text_of(&c[k + 1..]))?)),
                None => (&c[..], None),
            };
            let h = AffExpr::parse(&asp, &text_of(lhs))?;
            let np = pnames.len();
            if h.coeffs[0] != 0 || h.coeffs[1..1 + np].iter().any(|&v| v != 0) {
                return Err(Error::Mapping(format!("hyperplane `{}` must be linear in the array dimensions {}", text_of(lhs), dnames.join(", "))));
            }
            rows.push(StorageRow { hyperplane: h.coeffs[1 + np..].to_vec(), modulus });
        }
        ModularMapping::new(&pnames, array, rows)
    }

    /// The parameter-only space of the moduli.
    pub fn param_space(&self) -> Space {
        Space { params: self.params.clone(), input: None, output: Tuple::anonymous(&[]) }
    }

    /// The moduli for concrete parameter values (`None` for unfolded rows); a modulus
    /// that is not positive is an error.
    pub fn moduli(&self, params: &[i64]) -> Result<Vec<Option<i64>>> {
        self.rows
            .iter()
            .enumerate()
            .map(|(k, r)| match &r.modulus {
                None => Ok(None),
                Some(e) => {
                    let v = e.eval(params, &[])?;
                    if v <= 0 {
                        Err(Error::Mapping(format!("modulus of row {k} is {v} (not positive) for {params:?}")))
                    } else {
                        Ok(Some(v))
                    }
                }
            })
            .collect()
    }

    /// The first row whose modulus is not positive for concrete parameter values
    /// (`None` when every folded row has a modulus of at least 1): where the array has
    /// no cell at these values no modulus is used, so this is no error by itself.
    pub fn nonpositive_modulus(&self, params: &[i64]) -> Result<Option<usize>> {
        for (k, r) in self.rows.iter().enumerate() {
            if let Some(e) = &r.modulus {
                if e.eval(params, &[])? <= 0 {
                    return Ok(Some(k));
                }
            }
        }
        Ok(None)
    }

    /// The folded cell of `cell` for concrete parameter values.
    pub fn apply(&self, params: &[i64], cell: &[i64]) -> Result<Vec<i64>> {
        let mods = self.moduli(params)?;
        self.apply_with(&mods, cell)
    }

    /// Like [`ModularMapping::apply`] with precomputed moduli.
    pub fn apply_with(&self, moduli: &[Option<i64>], cell: &[i64]) -> Result<Vec<i64>> {
        if cell.len() != self.array.len() {
            return Err(Error::Mapping(format!("cell of {} coordinates for a {}-d array", cell.len(), self.array.len())));
        }
        self.rows
            .iter()
            .zip(moduli)
            .map(|(r, m)| {
                let mut v: i128 = 0;
                for (h, x) in r.hyperplane.iter().zip(cell) {
                    v += *h as i128 * *x as i128;
                }
                let v = match m {
                    Some(e) => v.rem_euclid(*e as i128),
                    None => v,
                };
                crate::int::to_i64(v, "applying a mapping")
            })
            .collect()
    }

    /// The size (number of cells) as a polynomial in the parameters: the product of the
    /// moduli. `None` when a row is unfolded.
    pub fn size(&self) -> Result<Option<Polynomial>> {
        let mut p = Polynomial::constant(1);
        for r in &self.rows {
            let Some(e) = &r.modulus else { return Ok(None) };
            let mut m = Polynomial::constant(e.coeffs[0]);
            for (i, name) in self.params.iter().enumerate() {
                m = m.checked_add(&Polynomial::var(name).checked_scale(e.coeffs[1 + i])?)?;
            }
            p = p.checked_mul(&m)?;
        }
        Ok(Some(p))
    }

    /// The size for concrete parameters (product of the moduli).
    pub fn size_for(&self, params: &[i64]) -> Result<i128> {
        let mut s: i128 = 1;
        for (k, m) in self.moduli(params)?.into_iter().enumerate() {
            let m = m.ok_or_else(|| Error::Mapping(format!("row {k} is unfolded: no finite size")))?;
            s = s.checked_mul(m as i128).ok_or_else(|| Error::Overflow("mapping size".into()))?;
        }
        Ok(s)
    }
}

fn fmt_terms_paper(coeffs: &[i64], names: &[String], constant: i64) -> (String, usize) {
    // Positive terms first, then negative ones, then the constant: `i - t`, `2x - y`.
    let mut order: Vec<usize> = (0..coeffs.len()).filter(|&j| coeffs[j] > 0).collect();
    order.extend((0..coeffs.len()).filter(|&j| coeffs[j] < 0));
    let c2: Vec<i64> = order.iter().map(|&j| coeffs[j]).collect();
    let n2: Vec<String> = order.iter().map(|&j| names[j].clone()).collect();
    let nterms = order.len() + usize::from(constant != 0);
    (crate::aff::fmt_linear(&c2, &n2, constant), nterms)
}

/// One storage row as the papers print it: `(i - t) mod (2N - 1)`, `x mod N`, or the
/// unfolded `(x + y)`; `constant` is added to the hyperplane's value (an offset, as in a
/// shared storage; 0 for a modular mapping).
pub(crate) fn fmt_row(hyperplane: &[i64], dims: &[String], constant: i64, modulus: Option<&AffExpr>, params: &[String]) -> String {
    let (h, nh) = fmt_terms_paper(hyperplane, dims, constant);
    let h = if nh > 1 || hyperplane.iter().any(|&c| c < 0 && nh == 1 && modulus.is_some()) { format!("({h})") } else { h };
    match modulus {
        None => h,
        Some(e) => {
            let (m, nm) = fmt_terms_paper(&e.coeffs[1..], params, e.coeffs[0]);
            let m = if nm > 1 || e.coeffs[1..].iter().any(|&c| c != 0 && c != 1) { format!("({m})") } else { m };
            format!("{h} mod {m}")
        }
    }
}

impl fmt::Display for ModularMapping {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.array.name.clone().unwrap_or_default();
        let comps: Vec<String> = self.rows.iter().map(|r| fmt_row(&r.hyperplane, &self.array.dims, 0, r.modulus.as_ref(), &self.params)).collect();
        write!(f, "{name}[{}]", comps.join(", "))
    }
}
