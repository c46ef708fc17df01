//! Multivariate polynomials with integer coefficients in the parameters (mapping sizes).

use crate::error::{Error, Result};
use crate::int::gcd;
use std::collections::BTreeMap;
use std::fmt;

/// A monomial: parameter name -> exponent (exponents > 0).
pub type Monomial = BTreeMap<String, u32>;

/// A polynomial in named parameters with `i64` coefficients, e.g. `2*N - 1`, `N^2`,
/// `4*B^2 + 2*B`. Equality is equality as polynomials (canonical form).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Polynomial {
    terms: BTreeMap<Monomial, i64>,
}

fn ovf() -> Error {
    Error::Overflow("polynomial arithmetic".into())
}

impl Polynomial {
    /// The zero polynomial.
    pub fn zero() -> Self {
        Self::default()
    }
    /// A constant.
    pub fn constant(c: i64) -> Self {
        let mut p = Self::zero();
        if c != 0 {
            p.terms.insert(Monomial::new(), c);
        }
        p
    }
    /// A parameter.
    pub fn var(name: &str) -> Self {
        let mut m = Monomial::new();
        m.insert(name.to_string(), 1);
        let mut p = Self::zero();
        p.terms.insert(m, 1);
        p
    }
    /// The terms (monomial, coefficient), zero coefficients omitted.
    pub fn terms(&self) -> impl Iterator<Item = (&Monomial, i64)> {
        self.terms.iter().map(|(m, &c)| (m, c))
    }
    /// True for the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }
    /// Total degree (0 for constants and for zero).
    pub fn degree(&self) -> u32 {
        self.terms.keys().map(|m| m.values().sum()).max().unwrap_or(0)
    }
    /// The leading term `c * P^d` of a polynomial in at most one parameter: the
    /// coefficient, the degree and the parameter (empty for a constant). `None` when
    /// the highest-degree part has several terms or mixes parameters (`N*M`), or for zero.
    pub fn leading_term(&self) -> Option<(i64, u32, String)> {
        let d = self.degree();
        let mut it = self.terms().filter(|(m, _)| m.values().sum::<u32>() == d);
        let (m, c) = it.next()?;
        if it.next().is_some() || m.len() > 1 {
            return None;
        }
        Some((c, d, m.keys().next().cloned().unwrap_or_default()))
    }

    /// The improvement ratio `self / size` in order of magnitude, the "Ratio" column of
    /// Table 1 of Darte, Isoard, Yuki 2015: the quotient of the leading terms,
    /// printed as the paper prints it (`1`, `3/2`, `N/2`, `2N/5`, `B/20`). `None` when a
    /// leading term is not a single one-parameter monomial, when `size` grows faster than
    /// `self`, or on a non-positive leading coefficient.
    pub fn improvement_ratio(&self, size: &Polynomial) -> Option<String> {
        let (cb, db, vb) = self.leading_term()?;
        let (cs, ds, vs) = size.leading_term()?;
        if ds > db || cb <= 0 || cs <= 0 {
            return None;
        }
        let var = if db > 0 { vb } else { vs };
        let g = gcd(cb, cs);
        let (num, den) = (cb / g, cs / g);
        let power = match db - ds {
            0 => String::new(),
            1 => var,
            k => format!("{var}^{k}"),
        };
        let head = match (num, power.is_empty()) {
            (n, true) => n.to_string(),
            (1, false) => power,
            (n, false) => format!("{n}{power}"),
        };
        Some(if den == 1 { head } else { format!("{head}/{den}") })
    }

    /// Checked sum.
    pub fn checked_add(&self, o: &Polynomial) -> Result<Polynomial> {
        let mut r = self.clone();
        for (m, &c) in &o.terms {
            let e = r.terms.entry(m.clone()).or_insert(0);
            *e = e.checked_add(c).ok_or_else(ovf)?;
        }
        r.terms.retain(|_, c| *c != 0);
        Ok(r)
    }
    /// Checked difference.
    pub fn checked_sub(&self, o: &Polynomial) -> Result<Polynomial> {
        self.checked_add(&o.checked_scale(-1)?)
    }
    /// Checked product by a constant.
    pub fn checked_scale(&self, k: i64) -> Result<Polynomial> {
        let mut r = Polynomial::zero();
        for (m, &c) in &self.terms {
            let v = c.checked_mul(k).ok_or_else(ovf)?;
            if v != 0 {
                r.terms.insert(m.clone(), v);
            }
        }
        Ok(r)
    }
    /// Checked product.
    pub fn checked_mul(&self, o: &Polynomial) -> Result<Polynomial> {
        let mut r = Polynomial::zero();
        for (m1, &c1) in &self.terms {
            for (m2, &c2) in &o.terms {
                let mut m = m1.clone();
                for (v, &e) in m2 {
                    let x = m.entry(v.clone()).or_insert(0);
                    *x = x.checked_add(e).ok_or_else(ovf)?;
                }
                let c = c1.checked_mul(c2).ok_or_else(ovf)?;
                let t = r.terms.entry(m).or_insert(0);
                *t = t.checked_add(c).ok_or_else(ovf)?;
            }
        }
        r.terms.retain(|_, c| *c != 0);
        Ok(r)
    }
    /// Exact value for named parameter values (`i128`, checked).
    pub fn eval(&self, values: &[(&str, i64)]) -> Result<i128> {
        let mut acc: i128 = 0;
        for (m, &c) in &self.terms {
            let mut t = c as i128;
            for (v, &e) in m {
                let x =
                    values.iter().find(|(n, _)| n == v).map(|(_, x)| *x as i128).ok_or_else(|| Error::ParamValues(format!("no value for `{v}`")))?;
                for _ in 0..e {
                    t = t.checked_mul(x).ok_or_else(ovf)?;
                }
            }
            acc = acc.checked_add(t).ok_or_else(ovf)?;
        }
        Ok(acc)
    }
    /// Parses `2*N - 1`, `N^2`, `4*B^2 + 2*B`, `2N`, `(N + 1)*(N - 1)`.
    pub fn parse(text: &str) -> Result<Polynomial> {
        let toks = crate::parse::lex(text)?;
        let mut p = PolyParser { toks, pos: 0, depth: 0 };
        let r = p.sum()?;
        if p.toks[p.pos].tok != crate::parse::Tok::Eof {
            return Err(p.err("an operator or end of input"));
        }
        Ok(r)
    }
}

struct PolyParser {
    toks: Vec<crate::parse::Token>,
    pos: usize,
    /// Nesting depth of `(` and unary `-` (at most [`crate::parse::MAX_NESTING`]).
    depth: usize,
}

impl PolyParser {
    fn err(&self, expected: &str) -> Error {
        let t = &self.toks[self.pos];
        Error::Parse(crate::error::ParseError {
            line: t.line,
            column: t.col,
            expected: expected.into(),
            found: if t.tok == crate::parse::Tok::Eof { "end of input".into() } else { format!("`{}`", t.text()) },
        })
    }
    fn sym(&self, s: &str) -> bool {
        matches!(&self.toks[self.pos].tok, crate::parse::Tok::Sym(x) if *x == s)
    }
    fn sum(&mut self) -> Result<Polynomial> {
        let mut acc = if self.sym("-") {
            self.pos += 1;
            self.product()?.checked_scale(-1)?
        } else {
            self.product()?
        };
        loop {
            if self.sym("+") {
                self.pos += 1;
                acc = acc.checked_add(&self.product()?)?;
            } else if self.sym("-") {
                self.pos += 1;
                acc = acc.checked_sub(&self.product()?)?;
            } else {
                return Ok(acc);
            }
        }
    }
    fn product(&mut self) -> Result<Polynomial> {
        let mut acc = self.power()?;
        loop {
            if self.sym("*") {
                self.pos += 1;
                acc = acc.checked_mul(&self.power()?)?;
            } else if matches!(self.toks[self.pos].tok, crate::parse::Tok::Ident(_)) || self.sym("(") {
                acc = acc.checked_mul(&self.power()?)?;
            } else {
                return Ok(acc);
            }
        }
    }
    fn power(&mut self) -> Result<Polynomial> {
        let base = self.atom()?;
        if !self.sym("^") {
            return Ok(base);
        }
        self.pos += 1;
        let e = match self.toks[self.pos].tok {
            crate::parse::Tok::Int(e) if (0..=64).contains(&e) => e,
            _ => return Err(self.err("an exponent between 0 and 64")),
        };
        self.pos += 1;
        let mut r = Polynomial::constant(1);
        for _ in 0..e {
            r = r.checked_mul(&base)?;
        }
        Ok(r)
    }
    fn atom(&mut self) -> Result<Polynomial> {
        if self.depth >= crate::parse::MAX_NESTING {
            return Err(self.err(&format!("at most {} nested levels of parentheses or signs", crate::parse::MAX_NESTING)));
        }
        self.depth += 1;
        let r = self.atom_inner();
        self.depth -= 1;
        r
    }
    fn atom_inner(&mut self) -> Result<Polynomial> {
        match self.toks[self.pos].tok.clone() {
            crate::parse::Tok::Int(v) => {
                self.pos += 1;
                Ok(Polynomial::constant(v))
            }
            crate::parse::Tok::Ident(s) => {
                self.pos += 1;
                Ok(Polynomial::var(&s))
            }
            crate::parse::Tok::Sym("(") => {
                self.pos += 1;
                let e = self.sum()?;
                if !self.sym(")") {
                    return Err(self.err("`)`"));
                }
                self.pos += 1;
                Ok(e)
            }
            crate::parse::Tok::Sym("-") => {
                self.pos += 1;
                self.atom()?.checked_scale(-1)
            }
            _ => Err(self.err("an integer, a parameter name or `(`")),
        }
    }
}

impl fmt::Display for Polynomial {
    /// Canonical form: terms by decreasing degree, then by name; `*` between factors and
    /// `^` for powers, e.g. `4*B^2 + 2*B - 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return f.write_str("0");
        }
        let mut ts: Vec<(&Monomial, i64)> = self.terms().collect();
        ts.sort_by(|a, b| {
            let da: u32 = a.0.values().sum();
            let db: u32 = b.0.values().sum();
            db.cmp(&da).then_with(|| a.0.cmp(b.0))
        });
        for (i, (m, c)) in ts.iter().enumerate() {
            let a = c.unsigned_abs();
            if i == 0 {
                if *c < 0 {
                    f.write_str("-")?;
                }
            } else {
                f.write_str(if *c < 0 { " - " } else { " + " })?;
            }
            let factors: Vec<String> = m.iter().map(|(v, &e)| if e == 1 { v.clone() } else { format!("{v}^{e}") }).collect();
            if factors.is_empty() {
                write!(f, "{a}")?;
            } else if a == 1 {
                f.write_str(&factors.join("*"))?;
            } else {
                write!(f, "{a}*{}", factors.join("*"))?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Polynomial {
    type Err = Error;
    fn from_str(s: &str) -> Result<Polynomial> {
        Polynomial::parse(s)
    }
}
