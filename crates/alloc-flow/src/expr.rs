//! The loop bodies of the `flow` section, read as far as the program model needs: the
//! array element written by each statement and the elements it reads, with their
//! subscripts as affine functions of the loop indices and parameters.
//!
//! Statements are `A(sub, ..) = expr` with `+ - * /`, parentheses, numbers, array
//! references, scalars and intrinsic calls (`INT(..)`, `MOD2N(.., ..)`, ...: their
//! arguments are read, they are not arrays). What a statement computes does not
//! matter to the executor (its bodies are hash bodies, which compare every value read),
//! so only the references are kept. A reference whose subscript is not affine (an
//! indirection `EX(IX(K))`, `RH(IR(K))`) is reported as such
//! ([`crate::FlowError::NotAffine`]): LL14 cannot be expressed in the program model.

use crate::error::{FlowError, Result};

/// Intrinsic functions of the Fortran loop bodies: called, not arrays.
pub const INTRINSICS: &[&str] = &["INT", "REAL", "DBLE", "FLOAT", "MOD2N", "MOD", "ABS", "SQRT", "EXP", "MIN", "MAX"];

/// True for an intrinsic function name.
pub fn is_intrinsic(name: &str) -> bool {
    INTRINSICS.contains(&name)
}

/// An expression of a loop body.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Num(f64),
    /// Integer literal (kept exact for subscripts).
    Int(i64),
    Var(String),
    Ref(String, Vec<Expr>),
    Neg(Box<Expr>),
    Bin(char, Box<Expr>, Box<Expr>),
}

/// A statement `lhs = rhs`.
#[derive(Clone, Debug)]
pub struct Stmt {
    pub array: String,
    pub subs: Vec<Expr>,
    pub rhs: Expr,
    pub text: String,
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    text: &'a str,
}

impl<'a> Parser<'a> {
    fn err(&self, what: &str) -> FlowError {
        FlowError::Body(format!("cannot parse `{}` at column {}: {what}", self.text, self.pos + 1))
    }
    fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.pos).copied()
    }
    fn expr(&mut self) -> Result<Expr> {
        let mut l = self.term()?;
        while let Some(c @ (b'+' | b'-')) = self.peek() {
            self.pos += 1;
            let r = self.term()?;
            l = Expr::Bin(c as char, Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn term(&mut self) -> Result<Expr> {
        let mut l = self.factor()?;
        while let Some(c @ (b'*' | b'/')) = self.peek() {
            self.pos += 1;
            let r = self.factor()?;
            l = Expr::Bin(c as char, Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn factor(&mut self) -> Result<Expr> {
        match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                Ok(Expr::Neg(Box::new(self.factor()?)))
            }
            Some(b'+') => {
                self.pos += 1;
                self.factor()
            }
            Some(b'(') => {
                self.pos += 1;
                let e = self.expr()?;
                if self.peek() != Some(b')') {
                    return Err(self.err("expected `)`"));
                }
                self.pos += 1;
                Ok(e)
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => {
                let start = self.pos;
                while self.pos < self.s.len() && (self.s[self.pos].is_ascii_digit() || self.s[self.pos] == b'.') {
                    self.pos += 1;
                }
                let t = &self.text[start..self.pos];
                if t.contains('.') {
                    t.parse::<f64>().map(Expr::Num).map_err(|_| self.err("bad number"))
                } else {
                    t.parse::<i64>().map(Expr::Int).map_err(|_| self.err("bad integer"))
                }
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let start = self.pos;
                while self.pos < self.s.len() && (self.s[self.pos].is_ascii_alphanumeric() || self.s[self.pos] == b'_') {
                    self.pos += 1;
                }
                let name = self.text[start..self.pos].to_string();
                if self.peek() == Some(b'(') {
                    self.pos += 1;
                    let mut args = vec![self.expr()?];
                    while self.peek() == Some(b',') {
                        self.pos += 1;
                        args.push(self.expr()?);
                    }
                    if self.peek() != Some(b')') {
                        return Err(self.err("expected `)` or `,`"));
                    }
                    self.pos += 1;
                    Ok(Expr::Ref(name, args))
                } else {
                    Ok(Expr::Var(name))
                }
            }
            _ => Err(self.err("expected an operand")),
        }
    }
}

/// Parses an expression.
pub fn parse_expr(text: &str) -> Result<Expr> {
    let mut p = Parser { s: text.as_bytes(), pos: 0, text };
    let e = p.expr()?;
    if p.peek().is_some() {
        return Err(p.err("unexpected text"));
    }
    Ok(e)
}

/// Parses `A(J, K) = ...`.
pub fn parse_stmt(text: &str) -> Result<Stmt> {
    let (l, r) = text.split_once('=').ok_or_else(|| FlowError::Body(format!("`{text}`: expected `lhs = rhs`")))?;
    match parse_expr(l.trim())? {
        Expr::Ref(array, subs) => Ok(Stmt { array, subs, rhs: parse_expr(r.trim())?, text: text.to_string() }),
        _ => Err(FlowError::Body(format!("`{text}`: the left-hand side must be an array element"))),
    }
}

/// An array element reference `A(sub, ..)` of a statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    pub array: String,
    pub subscripts: Vec<Expr>,
}

impl Stmt {
    /// The element written.
    pub fn write(&self) -> Reference {
        Reference { array: self.array.clone(), subscripts: self.subs.clone() }
    }

    /// Every element read, in textual order, without repetitions: the references of
    /// the right-hand side and those inside any subscript (of the left-hand side too).
    pub fn reads(&self) -> Vec<Reference> {
        let mut out = Vec::new();
        for s in &self.subs {
            collect_refs(s, &mut out);
        }
        collect_refs(&self.rhs, &mut out);
        let mut unique: Vec<Reference> = Vec::new();
        for r in out {
            if !unique.contains(&r) {
                unique.push(r);
            }
        }
        unique
    }
}

fn collect_refs(e: &Expr, out: &mut Vec<Reference>) {
    match e {
        Expr::Ref(name, args) => {
            for a in args {
                collect_refs(a, out);
            }
            if !is_intrinsic(name) {
                out.push(Reference { array: name.clone(), subscripts: args.clone() });
            }
        }
        Expr::Neg(a) => collect_refs(a, out),
        Expr::Bin(_, a, b) => {
            collect_refs(a, out);
            collect_refs(b, out);
        }
        Expr::Num(_) | Expr::Int(_) | Expr::Var(_) => {}
    }
}

/// The affine form of an integer expression over the variables `vars`: coefficients
/// `[constant, vars...]`; `None` when the expression is not affine in them (an array
/// reference, a real number, a division, a product of two variables, another name) or
/// a coefficient overflows.
pub fn affine(e: &Expr, vars: &[String]) -> Option<Vec<i64>> {
    let n = vars.len() + 1;
    Some(match e {
        Expr::Int(v) => {
            let mut r = vec![0; n];
            r[0] = *v;
            r
        }
        Expr::Var(v) => {
            let mut r = vec![0; n];
            r[1 + vars.iter().position(|x| x == v)?] = 1;
            r
        }
        Expr::Neg(a) => affine(a, vars)?.iter().map(|x| x.checked_neg()).collect::<Option<Vec<_>>>()?,
        Expr::Bin(op, a, b) => {
            let (x, y) = (affine(a, vars)?, affine(b, vars)?);
            let constant = |r: &[i64]| r[1..].iter().all(|c| *c == 0).then_some(r[0]);
            match op {
                '+' => x.iter().zip(&y).map(|(p, q)| p.checked_add(*q)).collect::<Option<Vec<_>>>()?,
                '-' => x.iter().zip(&y).map(|(p, q)| p.checked_sub(*q)).collect::<Option<Vec<_>>>()?,
                '*' => match (constant(&x), constant(&y)) {
                    (Some(k), _) => y.iter().map(|q| q.checked_mul(k)).collect::<Option<Vec<_>>>()?,
                    (None, Some(k)) => x.iter().map(|p| p.checked_mul(k)).collect::<Option<Vec<_>>>()?,
                    (None, None) => return None,
                },
                _ => return None,
            }
        }
        Expr::Num(_) | Expr::Ref(..) => return None,
    })
}

/// The text of a reference, for messages: `ZA(J - 1, K)`.
pub fn show(r: &Reference) -> String {
    format!("{}({})", r.array, r.subscripts.iter().map(show_expr).collect::<Vec<_>>().join(", "))
}

fn show_expr(e: &Expr) -> String {
    match e {
        Expr::Num(v) => v.to_string(),
        Expr::Int(v) => v.to_string(),
        Expr::Var(v) => v.clone(),
        Expr::Ref(n, args) => format!("{n}({})", args.iter().map(show_expr).collect::<Vec<_>>().join(", ")),
        Expr::Neg(a) => format!("-{}", show_expr(a)),
        Expr::Bin(op, a, b) => {
            let side = |x: &Expr| if matches!(x, Expr::Bin(..)) { format!("({})", show_expr(x)) } else { show_expr(x) };
            format!("{} {op} {}", side(a), side(b))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bodies_and_reads_affine_subscripts() {
        let s = parse_stmt("ZP(J, K) = ZP(J, K) + ZA(J, K) - ZA(J - 1, K)").unwrap();
        assert_eq!(s.array, "ZP");
        assert_eq!(s.subs.len(), 2);
        assert_eq!(s.reads().len(), 3, "ZP(J, K) is read once");
        let vars: Vec<String> = ["N", "K", "J"].iter().map(|v| v.to_string()).collect();
        assert_eq!(affine(&parse_expr("J - 1 + 2*K").unwrap(), &vars), Some(vec![-1, 0, 2, 1]));
        assert_eq!(affine(&parse_expr("N - (K - 3)*2").unwrap(), &vars), Some(vec![6, 1, -2, 0]));
        // Left-associative subtraction: 1 - 2 - 3 = -4.
        assert_eq!(affine(&parse_expr("1 - 2 - 3").unwrap(), &vars), Some(vec![-4, 0, 0, 0]));
        assert_eq!(affine(&parse_expr("J*K").unwrap(), &vars), None);
        assert_eq!(affine(&parse_expr("J / 2").unwrap(), &vars), None);
        assert_eq!(affine(&parse_expr("M + 1").unwrap(), &vars), None, "M is not a loop index or parameter");
        assert!(parse_stmt("A(I) = (E(I)").is_err());
        // LL14: intrinsics are calls; the indirection reads IX(K) and EX at a
        // non-affine subscript.
        let s = parse_stmt("EX1(K) = EX(IX(K))").unwrap();
        let reads = s.reads();
        assert_eq!(reads.iter().map(show).collect::<Vec<_>>(), vec!["IX(K)", "EX(IX(K))"]);
        assert_eq!(affine(&reads[1].subscripts[0], &vars), None);
        let s = parse_stmt("IR(K) = MOD2N(IR(K), 2048) + 1").unwrap();
        assert_eq!(s.reads().iter().map(show).collect::<Vec<_>>(), vec!["IR(K)"]);
        let s = parse_stmt("RH(IR(K) + 1) = RH(IR(K) + 1) + RX(K)").unwrap();
        assert_eq!(s.reads().iter().map(show).collect::<Vec<_>>(), vec!["IR(K)", "RH(IR(K) + 1)", "RX(K)"]);
    }
}
