//! Parser of the isl notation subset (sets, relations, affine expressions).

use crate::aff::AffExpr;
use crate::basic::BasicSet;
use crate::error::{Error, ParseError, Result};
use crate::set::Set;
use crate::space::{Space, Tuple};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Ident(String),
    Int(i64),
    Sym(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: usize,
    pub col: usize,
    /// Length in characters (an integer's text, leading zeros included, is its value
    /// padded to it).
    pub len: usize,
}

impl Token {
    /// The token as written, for messages.
    pub fn text(&self) -> String {
        match &self.tok {
            Tok::Ident(s) => s.clone(),
            Tok::Int(v) => format!("{v:0width$}", width = self.len),
            Tok::Sym(s) => (*s).to_string(),
            Tok::Eof => "end of input".to_string(),
        }
    }
}

const SYMS: &[&str] = &["->", "<=", ">=", "==", "!=", "[", "]", "{", "}", "(", ")", ":", ";", ",", "+", "-", "*", "/", "<", ">", "=", "^"];

pub(crate) fn lex(text: &str) -> Result<Vec<Token>, ParseError> {
    // A token every two or three bytes at most in practice: one allocation for the list.
    let mut out = Vec::with_capacity(text.len() / 3 + 1);
    let mut chars = text.char_indices().peekable();
    let (mut line, mut col) = (1usize, 1usize);
    while let Some(&(i, c)) = chars.peek() {
        if c == '\n' {
            chars.next();
            line += 1;
            col = 1;
            continue;
        }
        if c.is_whitespace() {
            chars.next();
            col += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let mut end = i;
            let mut n = 0;
            while let Some(&(j, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
                end = j + d.len_utf8();
                n += 1;
                chars.next();
            }
            let s = &text[i..end];
            let v = s.parse::<i64>().map_err(|_| ParseError {
                line,
                column: col,
                expected: "an integer that fits in 64 bits".into(),
                found: s.to_string(),
            })?;
            out.push(Token { tok: Tok::Int(v), line, col, len: n });
            col += n;
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let mut end = i;
            let mut n = 0;
            while let Some(&(j, d)) = chars.peek().filter(|(_, d)| d.is_alphanumeric() || *d == '_' || *d == '\'') {
                end = j + d.len_utf8();
                n += 1;
                chars.next();
            }
            out.push(Token { tok: Tok::Ident(text[i..end].to_string()), line, col, len: n });
            col += n;
            continue;
        }
        match SYMS.iter().find(|s| text[i..].starts_with(**s)) {
            Some(s) => {
                out.push(Token { tok: Tok::Sym(s), line, col, len: s.len() });
                for _ in 0..s.len() {
                    chars.next();
                }
                col += s.len();
            }
            None => {
                return Err(ParseError {
                    line,
                    column: col,
                    expected: "a name, an integer or one of [ ] { } ( ) -> : ; , + - * / < <= > >= = != ^".into(),
                    found: format!("`{c}`"),
                })
            }
        }
    }
    out.push(Token { tok: Tok::Eof, line, col, len: 0 });
    Ok(out)
}

const KEYWORDS: &[&str] = &["and", "or", "exists", "floor", "mod", "true", "false"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Var {
    Param(usize),
    Dim(usize),
    Local(usize),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Lin {
    /// Nonzero coefficients, sorted by variable (a linear form has few terms: a sorted
    /// vector allocates once where a map allocated per node).
    terms: Vec<(Var, i64)>,
    c: i64,
}

impl Lin {
    fn constant(c: i64) -> Lin {
        Lin { terms: Vec::new(), c }
    }
    fn var(v: Var) -> Lin {
        Lin { terms: vec![(v, 1)], c: 0 }
    }
    fn is_const(&self) -> bool {
        self.terms.iter().all(|&(_, v)| v == 0)
    }
    fn add_scaled(&self, o: &Lin, k: i64) -> Option<Lin> {
        // A merge of the two sorted term lists.
        let mut terms = Vec::with_capacity(self.terms.len() + o.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < o.terms.len() {
            let (v, c) = match (self.terms.get(i), o.terms.get(j)) {
                (Some(&(a, ca)), Some(&(b, cb))) if a == b => {
                    i += 1;
                    j += 1;
                    (a, ca.checked_add(cb.checked_mul(k)?)?)
                }
                (Some(&(a, ca)), Some(&(b, _))) if a < b => {
                    i += 1;
                    (a, ca)
                }
                (Some(&(a, ca)), None) => {
                    i += 1;
                    (a, ca)
                }
                (_, Some(&(b, cb))) => {
                    j += 1;
                    (b, cb.checked_mul(k)?)
                }
                (None, None) => break,
            };
            if c != 0 {
                terms.push((v, c));
            }
        }
        Some(Lin { terms, c: self.c.checked_add(o.c.checked_mul(k)?)? })
    }
    fn scale(&self, k: i64) -> Option<Lin> {
        Lin::default().add_scaled(self, k)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Eq,
    Ge,
}

type Conj = Vec<(Lin, Kind)>;

/// Deepest nesting of parentheses, unary minus signs and `exists` the parsers accept.
/// The parsers recurse once per level; the limit keeps the stack bounded on any input
/// (10,000 nested parentheses overflowed it) while leaving room for every hand-written
/// or generated set (the bench-suite nests at most 4 levels).
pub const MAX_NESTING: usize = 100;

/// Most existential variables one piece of a set may introduce (`exists`, each `floor`
/// and `mod`).
pub const MAX_LOCALS: usize = 100;

/// Most pieces (conjunctions of constraints) the disjunctive normal form of one set
/// text may have. A conjunction of `k` two-way disjunctions needs `2^k` pieces (20 of
/// them exhausted 6 GB before this limit); beyond the limit the parser counts the
/// pieces without building them and reports the count.
pub const MAX_DNF_PIECES: usize = 4096;

/// A formula in disjunctive normal form: its conjunctions, or, once the count would
/// exceed [`MAX_DNF_PIECES`], only their number (saturating).
#[derive(Clone, Debug)]
enum Dnf {
    Pieces(Vec<Conj>),
    Count(u128),
}

impl Dnf {
    fn truth() -> Dnf {
        Dnf::Pieces(vec![vec![]])
    }
    fn one(c: Conj) -> Dnf {
        Dnf::Pieces(vec![c])
    }
    fn count(&self) -> u128 {
        match self {
            Dnf::Pieces(v) => v.len() as u128,
            Dnf::Count(n) => *n,
        }
    }
}

/// Conjunction: the cross product of the pieces (counted, not built, past the limit).
fn and(a: Dnf, b: Dnf) -> Dnf {
    let n = a.count().saturating_mul(b.count());
    match (a, b) {
        (Dnf::Pieces(a), Dnf::Pieces(b)) if n <= MAX_DNF_PIECES as u128 => {
            // By move where it can: a chain `c1 and c2 and ...` of single pieces would
            // otherwise copy the conjunction so far at every `and`.
            let mut out = Vec::with_capacity(n as usize);
            for x in a {
                if let Some((last, rest)) = b.split_last() {
                    for y in rest {
                        let mut c = x.clone();
                        c.extend(y.iter().cloned());
                        out.push(c);
                    }
                    let mut c = x;
                    c.extend(last.iter().cloned());
                    out.push(c);
                }
            }
            Dnf::Pieces(out)
        }
        _ if n == 0 => Dnf::Pieces(vec![]),
        _ => Dnf::Count(n),
    }
}

/// Disjunction: the pieces of both.
fn or(a: Dnf, b: Dnf) -> Dnf {
    let n = a.count().saturating_add(b.count());
    match (a, b) {
        (Dnf::Pieces(mut a), Dnf::Pieces(b)) if n <= MAX_DNF_PIECES as u128 => {
            a.extend(b);
            Dnf::Pieces(a)
        }
        _ => Dnf::Count(n),
    }
}

/// `n` for a message: exact, or "more than 10^38" when the count saturated.
fn fmt_count(n: u128) -> String {
    if n == u128::MAX {
        "more than 10^38".to_string()
    } else {
        n.to_string()
    }
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    params: Vec<String>,
    dims: Vec<String>,
    n_local: usize,
    scopes: Vec<(String, usize)>,
    pending: Conj,
    furthest: Option<ParseError>,
    /// Current nesting depth (see [`MAX_NESTING`]).
    depth: usize,
    /// An error that ends the parse whatever alternatives remain (nesting too deep).
    fatal: Option<ParseError>,
}

impl Parser {
    fn new(text: &str) -> Result<Parser, ParseError> {
        Ok(Parser {
            toks: lex(text)?,
            pos: 0,
            params: vec![],
            dims: vec![],
            n_local: 0,
            scopes: vec![],
            pending: vec![],
            furthest: None,
            depth: 0,
            fatal: None,
        })
    }

    /// Enters one nesting level; an error past [`MAX_NESTING`] (fatal: no alternative
    /// parse is tried after it).
    fn enter(&mut self) -> Result<(), ParseError> {
        if let Some(f) = &self.fatal {
            return Err(f.clone());
        }
        if self.depth >= MAX_NESTING {
            let e = self.err(&format!("at most {MAX_NESTING} nested levels of parentheses, signs or `exists`"));
            self.fatal = Some(e.clone());
            return Err(e);
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }
    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }
    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }
    fn is_kw(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Ident(x) if x == s)
    }
    fn err(&mut self, expected: &str) -> ParseError {
        let t = &self.toks[self.pos];
        let found = match &t.tok {
            Tok::Eof => "end of input".to_string(),
            _ => format!("`{}`", t.text()),
        };
        let e = ParseError { line: t.line, column: t.col, expected: expected.to_string(), found };
        let further = match &self.furthest {
            None => true,
            Some(f) => (e.line, e.column) >= (f.line, f.column),
        };
        if further {
            self.furthest = Some(e.clone());
        }
        e
    }
    fn expect_sym(&mut self, s: &str) -> Result<(), ParseError> {
        if self.is_sym(s) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err(&format!("`{s}`")))
        }
    }
    fn ident(&mut self, what: &str) -> Result<String, ParseError> {
        match self.peek().clone() {
            Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) => {
                self.pos += 1;
                Ok(s)
            }
            _ => Err(self.err(what)),
        }
    }
    fn overflow(&mut self) -> ParseError {
        self.err("coefficients that fit in 64 bits (integer overflow)")
    }

    fn lookup(&self, name: &str) -> Option<Var> {
        if let Some((_, k)) = self.scopes.iter().rev().find(|(n, _)| n == name) {
            return Some(Var::Local(*k));
        }
        if let Some(j) = self.dims.iter().position(|d| d == name) {
            return Some(Var::Dim(j));
        }
        self.params.iter().position(|p| p == name).map(Var::Param)
    }

    /// A new existential variable of the piece; an error past [`MAX_LOCALS`] (a chain
    /// `x mod 2 mod 2 ...` makes one per link, and every later step is at least
    /// quadratic in their number).
    fn new_local(&mut self) -> Result<usize, ParseError> {
        if self.n_local >= MAX_LOCALS {
            return Err(self.err(&format!("at most {MAX_LOCALS} existential variables (`exists`, `floor`, `mod`) in one piece")));
        }
        self.n_local += 1;
        Ok(self.n_local - 1)
    }

    // ---------- expressions ----------
    fn expr(&mut self) -> Result<Lin, ParseError> {
        let mut acc = if self.is_sym("-") {
            self.pos += 1;
            let t = self.term()?;
            t.scale(-1).ok_or_else(|| self.overflow())?
        } else {
            self.term()?
        };
        loop {
            if self.is_sym("+") {
                self.pos += 1;
                let t = self.term()?;
                acc = acc.add_scaled(&t, 1).ok_or_else(|| self.overflow())?;
            } else if self.is_sym("-") {
                self.pos += 1;
                let t = self.term()?;
                acc = acc.add_scaled(&t, -1).ok_or_else(|| self.overflow())?;
            } else {
                return Ok(acc);
            }
        }
    }

    fn mul(&mut self, a: Lin, b: Lin) -> Result<Lin, ParseError> {
        if a.is_const() {
            b.scale(a.c).ok_or_else(|| self.overflow())
        } else if b.is_const() {
            a.scale(b.c).ok_or_else(|| self.overflow())
        } else {
            Err(self.err("an affine expression (a product needs a constant factor)"))
        }
    }

    fn term(&mut self) -> Result<Lin, ParseError> {
        let mut acc = self.factor()?;
        loop {
            if self.is_sym("*") {
                self.pos += 1;
                let f = self.factor()?;
                acc = self.mul(acc, f)?;
            } else if self.is_kw("mod") {
                self.pos += 1;
                let k = self.positive_const("a positive integer constant after `mod`")?;
                let q = self.floor_local(&acc, k)?;
                acc = acc.add_scaled(&Lin::var(Var::Local(q)), -k).ok_or_else(|| self.overflow())?;
            } else if acc.is_const() && (matches!(self.peek(), Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) || s == "floor") || self.is_sym("("))
            {
                // Implicit product `2N`, `2(i + 1)`.
                let f = self.factor()?;
                acc = self.mul(acc, f)?;
            } else {
                return Ok(acc);
            }
        }
    }

    fn positive_const(&mut self, what: &str) -> Result<i64, ParseError> {
        match *self.peek() {
            Tok::Int(k) if k > 0 => {
                self.pos += 1;
                Ok(k)
            }
            _ => Err(self.err(what)),
        }
    }

    /// A local q with k q <= e <= k q + k - 1 (q = floor(e / k)).
    fn floor_local(&mut self, e: &Lin, k: i64) -> Result<usize, ParseError> {
        let q = self.new_local()?;
        let qv = Lin::var(Var::Local(q));
        let lo = e.add_scaled(&qv, -k).ok_or_else(|| self.overflow())?; // e - kq >= 0
        let hi = qv.scale(k).and_then(|x| x.add_scaled(e, -1)).and_then(|x| x.add_scaled(&Lin::constant(k - 1), 1)).ok_or_else(|| self.overflow())?; // kq + k - 1 - e >= 0
        self.pending.push((lo, Kind::Ge));
        self.pending.push((hi, Kind::Ge));
        Ok(q)
    }

    fn factor(&mut self) -> Result<Lin, ParseError> {
        match self.peek().clone() {
            Tok::Int(v) => {
                self.pos += 1;
                Ok(Lin::constant(v))
            }
            Tok::Sym("-") => {
                self.enter()?;
                self.pos += 1;
                let f = self.factor();
                self.leave();
                f?.scale(-1).ok_or_else(|| self.overflow())
            }
            Tok::Sym("(") => {
                self.enter()?;
                self.pos += 1;
                let e = self.expr().and_then(|e| self.expect_sym(")").map(|_| e));
                self.leave();
                e
            }
            Tok::Ident(s) if s == "floor" => {
                self.pos += 1;
                self.expect_sym("(")?;
                self.enter()?;
                let e = self.expr();
                self.leave();
                let e = e?;
                self.expect_sym("/")?;
                let k = self.positive_const("a positive integer constant divisor")?;
                self.expect_sym(")")?;
                let q = self.floor_local(&e, k)?;
                Ok(Lin::var(Var::Local(q)))
            }
            Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) => match self.lookup(&s) {
                Some(v) => {
                    self.pos += 1;
                    Ok(Lin::var(v))
                }
                None => Err(self.err("a declared parameter, tuple dimension or existential variable")),
            },
            _ => Err(self.err("an integer, a name, `(`, `-` or `floor(...)`")),
        }
    }

    // ---------- formulas ----------
    fn formula(&mut self) -> Result<Dnf, ParseError> {
        let mut acc = self.conj()?;
        while self.is_kw("or") {
            self.pos += 1;
            let b = self.conj()?;
            acc = or(acc, b);
        }
        Ok(acc)
    }

    fn conj(&mut self) -> Result<Dnf, ParseError> {
        let mut acc = self.atom()?;
        while self.is_kw("and") {
            self.pos += 1;
            let b = self.atom()?;
            acc = and(acc, b);
        }
        Ok(acc)
    }

    fn atom(&mut self) -> Result<Dnf, ParseError> {
        if self.is_kw("true") {
            self.pos += 1;
            return Ok(Dnf::truth());
        }
        if self.is_kw("false") {
            self.pos += 1;
            return Ok(Dnf::Pieces(vec![]));
        }
        if self.is_kw("exists") {
            self.enter()?;
            let r = self.exists();
            self.leave();
            return r;
        }
        if self.is_sym("(") {
            self.enter()?;
            let r = self.parenthesised();
            self.leave();
            return r;
        }
        self.chain()
    }

    /// `exists e1, e2: formula` or `exists (e1, e2: formula)`.
    fn exists(&mut self) -> Result<Dnf, ParseError> {
        {
            self.pos += 1;
            let paren = self.is_sym("(");
            if paren {
                self.pos += 1;
            }
            let depth = self.scopes.len();
            loop {
                let name = self.ident("an existential variable name")?;
                let k = self.new_local()?;
                self.scopes.push((name, k));
                if self.is_sym(",") {
                    self.pos += 1;
                    continue;
                }
                break;
            }
            self.expect_sym(":")?;
            let f = self.formula()?;
            if paren {
                self.expect_sym(")")?;
            }
            self.scopes.truncate(depth);
            Ok(f)
        }
    }

    /// Either a parenthesised formula or a comparison starting with `(expr)`.
    fn parenthesised(&mut self) -> Result<Dnf, ParseError> {
        let save = (self.pos, self.pending.len(), self.n_local, self.depth);
        match self.chain() {
            Ok(d) => Ok(d),
            Err(e1) => {
                if let Some(f) = &self.fatal {
                    return Err(f.clone());
                }
                self.pos = save.0;
                self.pending.truncate(save.1);
                self.n_local = save.2;
                self.depth = save.3;
                self.pos += 1;
                match self.formula().and_then(|f| self.expect_sym(")").map(|_| f)) {
                    Ok(f) => Ok(f),
                    Err(e2) => {
                        if let Some(f) = &self.fatal {
                            return Err(f.clone());
                        }
                        Err(if (e1.line, e1.column) >= (e2.line, e2.column) { e1 } else { e2 })
                    }
                }
            }
        }
    }

    fn expr_list(&mut self) -> Result<Vec<Lin>, ParseError> {
        let mut v = vec![self.expr()?];
        while self.is_sym(",") {
            self.pos += 1;
            v.push(self.expr()?);
        }
        Ok(v)
    }

    fn cmp_op(&mut self) -> Option<&'static str> {
        let op = match self.peek() {
            Tok::Sym(s) if ["<", "<=", ">", ">=", "=", "==", "!="].contains(s) => *s,
            _ => return None,
        };
        self.pos += 1;
        Some(op)
    }

    fn chain(&mut self) -> Result<Dnf, ParseError> {
        let pend_start = self.pending.len();
        let mut lhs = self.expr_list()?;
        let mut dnf = Dnf::truth();
        let mut n_cmp = 0;
        while let Some(op) = self.cmp_op() {
            let rhs = self.expr_list()?;
            for a in &lhs {
                for b in &rhs {
                    let d = self.compare(a, op, b)?;
                    dnf = and(dnf, d);
                }
            }
            lhs = rhs;
            n_cmp += 1;
        }
        if n_cmp == 0 {
            return Err(self.err("a comparison operator (<, <=, >, >=, =, !=)"));
        }
        let side: Conj = self.pending.drain(pend_start..).collect();
        Ok(and(dnf, Dnf::one(side)))
    }

    fn compare(&mut self, a: &Lin, op: &str, b: &Lin) -> Result<Dnf, ParseError> {
        let ba = b.add_scaled(a, -1).ok_or_else(|| self.overflow())?; // b - a
        let ab = a.add_scaled(b, -1).ok_or_else(|| self.overflow())?;
        let m1 = |x: &Lin| x.add_scaled(&Lin::constant(1), -1);
        Ok(Dnf::Pieces(match op {
            "<=" => vec![vec![(ba, Kind::Ge)]],
            ">=" => vec![vec![(ab, Kind::Ge)]],
            "<" => vec![vec![(m1(&ba).ok_or_else(|| self.overflow())?, Kind::Ge)]],
            ">" => vec![vec![(m1(&ab).ok_or_else(|| self.overflow())?, Kind::Ge)]],
            "=" | "==" => vec![vec![(ab, Kind::Eq)]],
            _ => vec![vec![(m1(&ba).ok_or_else(|| self.overflow())?, Kind::Ge)], vec![(m1(&ab).ok_or_else(|| self.overflow())?, Kind::Ge)]],
        }))
    }

    // ---------- tuples and pieces ----------
    fn fresh_dim_name(&self, prefix: &str) -> String {
        let mut k = 0;
        loop {
            let n = format!("{prefix}{k}");
            if !self.dims.contains(&n) && !self.params.contains(&n) {
                return n;
            }
            k += 1;
        }
    }

    /// Parses `Name[e1, e2]` or `[e1, e2]`; fresh identifiers declare dims, other entries
    /// become new dims with an equality (in `base`).
    fn tuple(&mut self, base: &mut Conj, prefix: &str) -> Result<Tuple, ParseError> {
        let name = match self.peek().clone() {
            Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) => {
                self.pos += 1;
                Some(s)
            }
            _ => None,
        };
        self.expect_sym("[")?;
        let first_dim = self.dims.len();
        if !self.is_sym("]") {
            loop {
                let fresh = match (self.peek().clone(), self.peek_at(1).clone()) {
                    (Tok::Ident(s), Tok::Sym(",")) | (Tok::Ident(s), Tok::Sym("]"))
                        if !KEYWORDS.contains(&s.as_str()) && self.lookup(&s).is_none() =>
                    {
                        Some(s)
                    }
                    _ => None,
                };
                if let Some(s) = fresh {
                    self.pos += 1;
                    self.dims.push(s);
                } else {
                    let pend = self.pending.len();
                    let e = self.expr()?;
                    let n = self.fresh_dim_name(prefix);
                    self.dims.push(n);
                    let j = self.dims.len() - 1;
                    let eq = Lin::var(Var::Dim(j)).add_scaled(&e, -1).ok_or_else(|| self.overflow())?;
                    base.push((eq, Kind::Eq));
                    base.extend(self.pending.drain(pend..));
                }
                if self.is_sym(",") {
                    self.pos += 1;
                    continue;
                }
                break;
            }
        }
        self.expect_sym("]")?;
        Ok(Tuple { name, dims: self.dims[first_dim..].to_vec() })
    }

    /// One `;`-separated piece: its basic sets, or only their number when building
    /// them would pass `room` (what is left of [`MAX_DNF_PIECES`]).
    fn piece(&mut self, room: u128) -> Result<(Space, Result<Vec<BasicSet>, u128>), ParseError> {
        self.dims.clear();
        self.n_local = 0;
        self.scopes.clear();
        self.pending.clear();
        let mut base: Conj = vec![];
        let (input, output) = if self.is_sym(":") {
            (None, Tuple { name: None, dims: vec![] })
        } else {
            let t1 = self.tuple(&mut base, "i")?;
            if self.is_sym("->") {
                self.pos += 1;
                let t2 = self.tuple(&mut base, "o")?;
                (Some(t1), t2)
            } else {
                (None, t1)
            }
        };
        let dnf = if self.is_sym(":") {
            self.pos += 1;
            // isl (and Polly's context `{  :  }`) allows an empty condition.
            if self.is_sym("}") || self.is_sym(";") {
                Dnf::truth()
            } else {
                self.formula()?
            }
        } else {
            Dnf::truth()
        };
        let space = Space { params: self.params.clone(), input, output };
        let conjs = match and(dnf, Dnf::one(base)) {
            Dnf::Pieces(c) if c.len() as u128 <= room => c,
            d => return Ok((space, Err(d.count()))),
        };
        let mut out = Vec::new();
        for conj in conjs {
            match self.build(&space, &conj) {
                Some(b) => out.push(b),
                None => return Err(self.overflow()),
            }
        }
        Ok((space, Ok(out)))
    }

    fn build(&self, space: &Space, conj: &Conj) -> Option<BasicSet> {
        let np = space.n_param();
        let nd = space.n_dim();
        // Only the locals used by this conjunct, in order.
        let mut used: Vec<usize> =
            conj.iter().flat_map(|(l, _)| l.terms.iter().filter_map(|(v, _)| if let Var::Local(k) = v { Some(*k) } else { None })).collect();
        used.sort();
        used.dedup();
        let mut b = BasicSet::universe(space.clone());
        b.n_local = used.len();
        let n = b.n_cols();
        for (l, kind) in conj {
            let mut row = vec![0i64; n];
            row[0] = l.c;
            for &(v, c) in &l.terms {
                let col = match v {
                    Var::Param(i) => 1 + i,
                    Var::Dim(j) => 1 + np + j,
                    Var::Local(k) => 1 + np + nd + used.iter().position(|&u| u == k)?,
                };
                row[col] = row[col].checked_add(c)?;
            }
            match kind {
                Kind::Eq => b.eqs.push(row),
                Kind::Ge => b.ineqs.push(row),
            }
        }
        b.simplify().ok()?;
        Some(b)
    }

    fn params_decl(&mut self) -> Result<(), ParseError> {
        if self.is_sym("[") {
            self.pos += 1;
            if !self.is_sym("]") {
                loop {
                    let p = self.ident("a parameter name")?;
                    if self.params.contains(&p) {
                        return Err(self.err("distinct parameter names"));
                    }
                    self.params.push(p);
                    if self.is_sym(",") {
                        self.pos += 1;
                        continue;
                    }
                    break;
                }
            }
            self.expect_sym("]")?;
            self.expect_sym("->")?;
        }
        Ok(())
    }

    fn set(&mut self) -> Result<Set> {
        let start = self.pos;
        let mut groups = self.union()?;
        if groups.len() > 1 {
            // Point at the first piece of the second space, as the reader of one space
            // always did.
            self.pos = groups[1].2;
            let s0 = groups[0].0.clone();
            return Err(self.err(&format!("a piece in the same space as the first one (`{s0}`)")).into());
        }
        let (space, pieces, _) = groups
            .pop()
            .unwrap_or_else(|| (Space { params: self.params.clone(), input: None, output: Tuple { name: None, dims: vec![] } }, vec![], start));
        let mut s = Set::empty(space.clone());
        for p in pieces {
            s.add_piece(p.with_space(space.clone())?)?;
        }
        Ok(s)
    }

    /// The pieces of a union, grouped by space in order of first appearance (with the
    /// token position of each group's first piece); pieces of one space may be
    /// separated by pieces of others.
    #[allow(clippy::type_complexity)]
    fn union(&mut self) -> Result<Vec<(Space, Vec<BasicSet>, usize)>> {
        self.params_decl()?;
        self.expect_sym("{")?;
        let mut groups: Vec<(Space, Vec<BasicSet>, usize)> = vec![];
        // Pieces in disjunctive normal form so far, and where the limit was passed.
        let mut total: u128 = 0;
        let mut too_many: Option<(usize, usize)> = None;
        if !self.is_sym("}") {
            loop {
                let at = self.pos;
                let room = if too_many.is_some() { 0 } else { MAX_DNF_PIECES as u128 - total };
                let (sp, ps) = self.piece(room)?;
                let ps = match ps {
                    Ok(ps) => ps,
                    Err(count) => {
                        total = total.saturating_add(count);
                        if too_many.is_none() {
                            too_many = Some((self.toks[at].line, self.toks[at].col));
                        }
                        vec![]
                    }
                };
                total = total.saturating_add(ps.len() as u128);
                match groups.iter_mut().find(|g| g.0.compatible(&sp)) {
                    Some(g) => g.1.extend(ps),
                    None => groups.push((sp, ps, at)),
                }
                if self.is_sym(";") {
                    self.pos += 1;
                    if self.is_sym("}") {
                        break;
                    }
                    continue;
                }
                break;
            }
        }
        self.expect_sym("}")?;
        if *self.peek() != Tok::Eof {
            return Err(self.err("end of input").into());
        }
        if let Some((line, column)) = too_many {
            return Err(Error::TooManyPieces {
                what: format!(
                    "line {line}, column {column}: the set in disjunctive normal form (each disjunction in a conjunction multiplies its pieces)"
                ),
                count: fmt_count(total),
                limit: MAX_DNF_PIECES,
            });
        }
        Ok(groups)
    }
}

/// Parses a union over several spaces (`{ S[i] -> A[i]; S[i] -> B[i - 1] }`): one set
/// per space, in order of first appearance.
pub(crate) fn parse_union(text: &str) -> Result<Vec<Set>> {
    let mut p = Parser::new(text)?;
    let groups = match p.union() {
        Ok(g) => g,
        Err(Error::Parse(e)) => return Err(Error::Parse(p.furthest.clone().filter(|f| (f.line, f.column) > (e.line, e.column)).unwrap_or(e))),
        Err(e) => return Err(e),
    };
    groups
        .into_iter()
        .map(|(space, pieces, _)| {
            let mut s = Set::empty(space.clone());
            for b in pieces {
                s.add_piece(b.with_space(space.clone())?)?;
            }
            Ok(s)
        })
        .collect()
}

/// Parses a set or relation in isl notation.
pub(crate) fn parse_set(text: &str) -> Result<Set> {
    let mut p = Parser::new(text)?;
    match p.set() {
        Ok(s) => Ok(s),
        Err(Error::Parse(e)) => Err(Error::Parse(p.furthest.clone().filter(|f| (f.line, f.column) > (e.line, e.column)).unwrap_or(e))),
        Err(e) => Err(e),
    }
}

/// Parses an affine expression over the parameters and dims of `space`.
pub(crate) fn parse_aff(space: &Space, text: &str) -> Result<AffExpr> {
    let mut p = Parser::new(text)?;
    p.params = space.params.clone();
    p.dims = space.dim_names();
    let e = p.expr()?;
    if *p.peek() != Tok::Eof {
        return Err(p.err("end of the expression").into());
    }
    if p.n_local > 0 {
        return Err(Error::Parse(ParseError {
            line: 1,
            column: 1,
            expected: "an affine expression without floor or mod".into(),
            found: text.to_string(),
        }));
    }
    let np = space.n_param();
    let mut a = AffExpr::zero(space);
    a.coeffs[0] = e.c;
    for (v, c) in e.terms {
        let col = match v {
            Var::Param(i) => 1 + i,
            Var::Dim(j) => 1 + np + j,
            Var::Local(_) => 0,
        };
        a.coeffs[col] = c;
    }
    Ok(a)
}

impl std::str::FromStr for Set {
    type Err = Error;
    fn from_str(s: &str) -> Result<Set> {
        parse_set(s)
    }
}

impl AffExpr {
    /// Parses an affine expression such as `i - t + 2N - 1` over `space`.
    pub fn parse(space: &Space, text: &str) -> Result<Self> {
        parse_aff(space, text)
    }
}

impl Set {
    /// Parses isl notation, e.g.
    /// `[N] -> { A[t, i] -> A[t2, i2] : 1 <= t, i, t2, i2 <= N and t2 = t and i2 >= i + 1 }`.
    ///
    /// Supported: parameters, named or anonymous tuples (whose entries may be affine
    /// expressions or repeated names, giving equalities), chained comparisons with
    /// comma lists (`0 <= i, j < N`), `and`/`or`/parentheses, `exists e: ...` and
    /// `exists (e1, e2 : ...)`, `true`/`false`, integer constants, `*` by constants,
    /// implicit products (`2N`), `floor(e/k)` and `e mod k` for a constant `k > 0`,
    /// `!=`, and `;`-separated pieces of one space.
    pub fn parse(text: &str) -> Result<Self> {
        parse_set(text)
    }

    /// Parses a union in isl notation whose pieces may lie in different spaces (isl's
    /// union sets and union maps: `[N] -> { S[i] -> A[i]; S[i] -> B[i - 1] : i >= 1 }`):
    /// one [`Set`] per space, in order of first appearance. A union of one space is
    /// one set, as [`Set::parse`] reads it; an empty union `{ }` is no set.
    pub fn parse_union(text: &str) -> Result<Vec<Self>> {
        parse_union(text)
    }
}

impl BasicSet {
    /// Parses a single-piece set or map in isl notation; see [`Set::parse`].
    pub fn parse(text: &str) -> Result<Self> {
        let s = Set::parse(text)?;
        let space = s.space().clone();
        let mut pieces = s.pieces().to_vec();
        match pieces.len() {
            0 => Ok(BasicSet::empty(space)),
            1 => pieces.pop().ok_or_else(|| Error::WrongKind("expected one basic set".into())),
            n => Err(Error::WrongKind(format!("expected one basic set, the text has {n} disjuncts"))),
        }
    }
}
