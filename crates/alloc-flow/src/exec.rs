//! Executable contraction: the loop bodies of the `flow` section are interpreted twice,
//! as the original sequence of nests with full arrays and as the shifted, fused loop
//! with every local region contracted, and every value computed is compared bit for
//! bit.
//!
//! * Statements are `A(sub, ..) = expr` with `+ - * /`, parentheses, numbers, array
//!   references and scalars. Subscripts are integer expressions of the loop indices
//!   and parameters. Values are `f64`; an array element never written before it is read
//!   is an input and gets a deterministic pseudo-random value; unknown scalars (`S`,
//!   `T`) likewise. Intrinsics (`INT`, `MOD2N`, ...) and integer-typed arrays are not
//!   supported: LL14 is not executed.
//! * The transformed program runs in one of two orders ([`Order`]): the coalesced fused
//!   loop of Sec. 3.1-3.2 (one loop over the coalesced index `c`; at step `c` nest `L_i`
//!   runs its original iteration whose coalesced index is `c - p_i . s`, if it exists,
//!   nests in sequence order), which is exactly the order Problem 0 measures memory
//!   for; or the fused n-level nest of Fig. 8 (the union box of the shifted nests in
//!   lexicographic order, with guards). Both coincide when all shifts have zero inner
//!   components (every example shipped); both are executed.
//! * Every access to a local region goes to a buffer of `M . s` cells at the address
//!   given by a [`Storage`] (Sec. 5: the linearised subscript modulo the size); accesses
//!   to the rest of the array (non-local parts, e.g. `ZA(1, K)`) go to the full array.
//!   Each buffer cell carries the element it holds, so reading an element whose cell
//!   was overwritten is reported as a fault, not just as a wrong value.
//! * The original run also checks Assumption 1's dynamic part: each local write
//!   reference writes distinct elements, inside its region, every value it writes is
//!   read, and no element of a local region is read before it is written.

use crate::error::{FlowError, Result};
use crate::input::LoopSequence;
use crate::storage::Storage;
use std::collections::{BTreeMap, HashMap};

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
        FlowError::Exec(format!("cannot parse `{}` at column {}: {what}", self.text, self.pos + 1))
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
    let (l, r) = text.split_once('=').ok_or_else(|| FlowError::Exec(format!("`{text}`: expected `lhs = rhs`")))?;
    match parse_expr(l.trim())? {
        Expr::Ref(array, subs) => Ok(Stmt { array, subs, rhs: parse_expr(r.trim())?, text: text.to_string() }),
        _ => Err(FlowError::Exec(format!("`{text}`: the left-hand side must be an array element"))),
    }
}

/// Integer evaluation of a subscript (loop indices and parameters from `env`).
pub fn eval_subscript(e: &Expr, env: &HashMap<String, i64>) -> Result<i64> {
    eval_int(e, env)
}

fn eval_int(e: &Expr, env: &HashMap<String, i64>) -> Result<i64> {
    let ov = || FlowError::Exec("subscript overflow".into());
    Ok(match e {
        Expr::Int(v) => *v,
        Expr::Var(v) => *env.get(v).ok_or_else(|| FlowError::Exec(format!("subscript uses `{v}`, which is neither a loop index nor a parameter")))?,
        Expr::Neg(a) => eval_int(a, env)?.checked_neg().ok_or_else(ov)?,
        Expr::Bin(op, a, b) => {
            let (x, y) = (eval_int(a, env)?, eval_int(b, env)?);
            match op {
                '+' => x.checked_add(y),
                '-' => x.checked_sub(y),
                '*' => x.checked_mul(y),
                _ => return Err(FlowError::Exec("division in a subscript".into())),
            }
            .ok_or_else(ov)?
        }
        Expr::Num(_) | Expr::Ref(..) => return Err(FlowError::Exec("subscripts must be integer expressions of indices and parameters (no indirection)".into())),
    })
}

/// A deterministic input value for `name(idx)` in [0.5, 1.5).
fn input_value(name: &str, idx: &[i64]) -> f64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in name.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
    }
    for x in idx {
        h = (h ^ (*x as u64)).wrapping_mul(0x100000001b3);
        h ^= h >> 29;
    }
    h = h.wrapping_mul(0x9E3779B97F4A7C15);
    0.5 + ((h >> 11) as f64) / ((1u64 << 53) as f64)
}

/// One step of a transformed program: (fused step, nest, original iteration).
type Step = (Vec<i64>, usize, Vec<i64>);

/// An array element: (array, subscripts).
pub type Element = (String, Vec<i64>);

/// The location of one computed value: (nest, statement, original iteration).
pub type ValueKey = (usize, usize, Vec<i64>);

/// What a run produced.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The bits of every value computed.
    pub values: BTreeMap<ValueKey, u64>,
    /// The final contents of the non-local arrays (local regions excluded).
    pub arrays: BTreeMap<(String, Vec<i64>), u64>,
}

/// The execution order of the transformed program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// The coalesced fused loop (Sec. 3.1-3.2): one step per coalesced index `c`; nest
    /// i runs its iteration with coalesced index `c - P_i`, `P_i = p_i . s` given here.
    Coalesced(Vec<i64>),
    /// The fused n-level nest (Fig. 2(b) fused, Fig. 8): one step per point `t` of the
    /// union of the shifted boxes, in lexicographic order; nest i runs `t - p_i`.
    FusedNest(Vec<Vec<i64>>),
}

/// One dependence found by [`Program::dependences`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Dependence {
    pub from: usize,
    pub to: usize,
    /// `flow`, `anti` or `output`.
    pub kind: &'static str,
    pub array: String,
    pub distance: Vec<i64>,
    /// Write id, for flow dependences of local writes.
    pub write: Option<String>,
    pub extension: Option<Vec<i64>>,
}

/// Comparison of a transformed run with the original.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecReport {
    /// Values computed by the original.
    pub values: usize,
    /// Values of the transformed run that are bit-identical to the original's.
    pub identical: usize,
    /// Final non-local array elements compared, and equal.
    pub array_elements: usize,
    pub array_identical: usize,
    /// Cells allocated for the local regions in the transformed run, per array.
    pub cells: BTreeMap<String, i128>,
    /// Elements of the local regions in the original, per array.
    pub original_elements: BTreeMap<String, i128>,
    /// The first difference or fault, if any.
    pub first_problem: Option<String>,
}

impl ExecReport {
    /// True when everything matched.
    pub fn ok(&self) -> bool {
        self.first_problem.is_none() && self.values == self.identical && self.array_elements == self.array_identical
    }
}

/// A loop sequence ready to run at one instance.
pub struct Program<'a> {
    seq: &'a LoopSequence,
    stmts: Vec<Vec<Stmt>>,
    params: HashMap<String, i64>,
    lower: Vec<Vec<i64>>,
    trips: Vec<i64>,
    s: Vec<i64>,
    /// Local region boxes per array.
    regions: BTreeMap<String, Vec<(i64, i64)>>,
}

fn to_i64(v: i128, what: &str) -> Result<i64> {
    i64::try_from(v).map_err(|_| FlowError::Exec(format!("{what} out of range")))
}

impl<'a> Program<'a> {
    /// Parses the bodies and evaluates bounds at the instance.
    pub fn new(seq: &'a LoopSequence, values: &BTreeMap<String, i64>) -> Result<Program<'a>> {
        let env = seq.env(values);
        let mut stmts = Vec::new();
        let mut lower = Vec::new();
        for nest in &seq.nests {
            stmts.push(nest.body.iter().map(|t| parse_stmt(t)).collect::<Result<Vec<_>>>()?);
            lower.push(nest.bounds.iter().map(|(lo, _)| to_i64(lo.eval(&env)?, "bound")).collect::<Result<Vec<_>>>()?);
        }
        let trips = seq.trip_counts_at(values)?.into_iter().map(|t| to_i64(t, "trip count")).collect::<Result<Vec<_>>>()?;
        if trips.iter().any(|t| *t <= 0) {
            return Err(FlowError::Exec("a loop has no iteration at this instance".into()));
        }
        let s = seq.coalescing_at(values)?.into_iter().map(|t| to_i64(t, "coalescing")).collect::<Result<Vec<_>>>()?;
        let mut regions = BTreeMap::new();
        for r in &seq.regions {
            let b = r.bounds.iter().map(|(lo, hi)| Ok((to_i64(lo.eval(&env)?, "region")?, to_i64(hi.eval(&env)?, "region")?))).collect::<Result<Vec<_>>>()?;
            regions.insert(r.array.clone(), b);
        }
        Ok(Program { seq, stmts, params: values.iter().map(|(k, v)| (k.clone(), *v)).collect(), lower, trips, s, regions })
    }

    /// `prod b`.
    pub fn total_iterations(&self) -> Result<i64> {
        self.trips.iter().try_fold(1i64, |a, b| a.checked_mul(*b)).ok_or_else(|| FlowError::Exec("iteration count overflow".into()))
    }

    fn in_region(&self, array: &str, idx: &[i64]) -> bool {
        self.regions.get(array).is_some_and(|b| b.len() == idx.len() && b.iter().zip(idx).all(|((lo, hi), x)| lo <= x && x <= hi))
    }

    /// The iteration of nest i with coalesced index `lin` (0-based).
    fn delinearize(&self, i: usize, lin: i64) -> Vec<i64> {
        let mut it = Vec::with_capacity(self.trips.len());
        let mut rest = lin;
        for (k, sk) in self.s.iter().enumerate() {
            it.push(self.lower[i][k] + rest / sk);
            rest %= sk;
        }
        it
    }

    fn env_for(&self, i: usize, it: &[i64]) -> HashMap<String, i64> {
        let mut env = self.params.clone();
        for (k, name) in self.seq.index_names.iter().enumerate() {
            env.insert(name.clone(), it[k]);
        }
        let _ = i;
        env
    }

    /// Runs the original sequence, checking Assumption 1's dynamic part.
    pub fn run_original(&self) -> Result<Trace> {
        let mut mem: HashMap<(String, Vec<i64>), f64> = HashMap::new();
        let mut trace = Trace::default();
        // Local regions: who wrote the element, and whether its value was read.
        let mut written: HashMap<(String, Vec<i64>), (usize, usize, bool)> = HashMap::new();
        let mut writes_seen: HashMap<(usize, usize, String, Vec<i64>), ()> = HashMap::new();
        let total = self.total_iterations()?;
        for i in 0..self.seq.nests.len() {
            for lin in 0..total {
                let it = self.delinearize(i, lin);
                let env = self.env_for(i, &it);
                for (st_idx, st) in self.stmts[i].iter().enumerate() {
                    let mut read = |name: &str, idx: Vec<i64>| -> Result<f64> {
                        if self.in_region(name, &idx) {
                            match written.get_mut(&(name.to_string(), idx.clone())) {
                                Some(w) => w.2 = true,
                                None => {
                                    return Err(FlowError::Assumption { number: 1, message: format!("{name}{idx:?} of a local region is read before it is written (nest {}, statement {})", self.seq.nests[i].name, st_idx + 1) })
                                }
                            }
                        }
                        Ok(*mem.get(&(name.to_string(), idx.clone())).unwrap_or(&input_value(name, &idx)))
                    };
                    let v = eval(&st.rhs, &env, &mut read)?;
                    let idx = st.subs.iter().map(|e| eval_int(e, &env)).collect::<Result<Vec<_>>>()?;
                    if self.regions.contains_key(&st.array) {
                        let local = self.in_region(&st.array, &idx);
                        let is_local_write = self.write_of(i, st_idx, st).is_some();
                        if is_local_write && !local {
                            return Err(FlowError::Assumption { number: 1, message: format!("local write `{}` writes {}{idx:?} outside its region", st.text, st.array) });
                        }
                        if local {
                            if !is_local_write {
                                return Err(FlowError::Exec(format!("`{}` writes the local region of {} but is not a listed local write", st.text, st.array)));
                            }
                            if writes_seen.insert((i, st_idx, st.array.clone(), idx.clone()), ()).is_some() {
                                return Err(FlowError::Assumption { number: 1, message: format!("`{}` writes {}{idx:?} twice", st.text, st.array) });
                            }
                            if let Some((wi, ws, used)) = written.insert((st.array.clone(), idx.clone()), (i, st_idx, false)) {
                                if !used {
                                    return Err(FlowError::Assumption { number: 1, message: format!("the value of {}{idx:?} written by nest {} statement {} is never read", st.array, self.seq.nests[wi].name, ws + 1) });
                                }
                            }
                        }
                    }
                    trace.values.insert((i, st_idx, it.clone()), v.to_bits());
                    mem.insert((st.array.clone(), idx), v);
                }
            }
        }
        for ((a, idx), (wi, ws, used)) in &written {
            if !used {
                return Err(FlowError::Assumption { number: 1, message: format!("the value of {a}{idx:?} written by nest {} statement {} is never read", self.seq.nests[*wi].name, ws + 1) });
            }
        }
        for ((a, idx), v) in mem {
            if !self.in_region(&a, &idx) {
                trace.arrays.insert((a, idx), v.to_bits());
            }
        }
        Ok(trace)
    }

    /// Dependence analysis by execution (Sec. 2, Definition 2): runs the original
    /// sequence and returns every dependence between distinct nests (value-based flow,
    /// anti from each read to the next write of the element, output between consecutive
    /// writes) and every flow dependence from a local write reference within its own
    /// nest, with its write index and extension vector `o_e` (`0` when the reader
    /// precedes the writer in the loop body, `(0, .., 0, 1)` otherwise, Sec. 3.3).
    /// Dependences of a nest on itself through non-local data are omitted (fusion
    /// preserves them, Sec. 4.1), as in the bench-suite files.
    pub fn dependences(&self) -> Result<std::collections::BTreeSet<Dependence>> {
        let n = self.trips.len();
        let mut mem: HashMap<(String, Vec<i64>), f64> = HashMap::new();
        // element -> (nest, statement, iteration) of the last write
        let mut last_write: HashMap<Element, (usize, usize, Vec<i64>)> = HashMap::new();
        // element -> reads since the last write (nest, iteration)
        let mut readers: HashMap<Element, Vec<(usize, Vec<i64>)>> = HashMap::new();
        let mut out = std::collections::BTreeSet::new();
        let total = self.total_iterations()?;
        let diff = |a: &[i64], b: &[i64]| a.iter().zip(b).map(|(x, y)| x - y).collect::<Vec<i64>>();
        for j in 0..self.seq.nests.len() {
            for lin in 0..total {
                let it = self.delinearize(j, lin);
                let env = self.env_for(j, &it);
                for (st_idx, st) in self.stmts[j].iter().enumerate() {
                    let mut reads: Vec<(String, Vec<i64>)> = Vec::new();
                    let mut read = |name: &str, idx: Vec<i64>| -> Result<f64> {
                        let v = *mem.get(&(name.to_string(), idx.clone())).unwrap_or(&input_value(name, &idx));
                        reads.push((name.to_string(), idx));
                        Ok(v)
                    };
                    let v = eval(&st.rhs, &env, &mut read)?;
                    for key in reads {
                        if let Some((i, wst, wit)) = last_write.get(&key) {
                            let local = self.in_region(&key.0, &key.1);
                            let write = if local { self.write_of(*i, *wst, &self.stmts[*i][*wst]) } else { None };
                            if *i != j || write.is_some() {
                                let mut o = vec![0; n];
                                if !(*i == j && st_idx < *wst) {
                                    o[n - 1] = 1;
                                }
                                out.insert(Dependence {
                                    from: *i,
                                    to: j,
                                    kind: "flow",
                                    array: key.0.clone(),
                                    distance: diff(&it, wit),
                                    write: write.map(|w| self.seq.writes[w].id.clone()),
                                    extension: write.map(|_| o),
                                });
                            }
                        }
                        readers.entry(key).or_default().push((j, it.clone()));
                    }
                    let idx = st.subs.iter().map(|e| eval_int(e, &env)).collect::<Result<Vec<_>>>()?;
                    let key = (st.array.clone(), idx);
                    for (i, rit) in readers.remove(&key).unwrap_or_default() {
                        if i != j {
                            out.insert(Dependence { from: i, to: j, kind: "anti", array: key.0.clone(), distance: diff(&it, &rit), write: None, extension: None });
                        }
                    }
                    if let Some((i, _, wit)) = last_write.get(&key) {
                        if *i != j {
                            out.insert(Dependence { from: *i, to: j, kind: "output", array: key.0.clone(), distance: diff(&it, wit), write: None, extension: None });
                        }
                    }
                    last_write.insert(key.clone(), (j, st_idx, it.clone()));
                    mem.insert(key, v);
                }
            }
        }
        Ok(out)
    }

    /// The local write reference of statement `st_idx` of nest `i`, if any.
    fn write_of(&self, i: usize, st_idx: usize, st: &Stmt) -> Option<usize> {
        let norm = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        let lhs = norm(st.text.split('=').next().unwrap_or(""));
        self.seq.writes.iter().position(|w| {
            w.nest == i && match w.statement {
                Some(s) => s == st_idx + 1,
                None => norm(&w.reference) == lhs,
            }
        })
    }

    /// Runs the shifted, fused, coalesced loop with the given contracted storage per
    /// local array, and compares with the original trace.
    pub fn run_contracted(&self, shifts_dot_s: &[i64], storage: &BTreeMap<String, Storage>, original: &Trace) -> Result<ExecReport> {
        self.run_order(&Order::Coalesced(shifts_dot_s.to_vec()), storage, original)
    }

    /// The execution order: (fused step, nest, original iteration) in sequence.
    fn schedule(&self, order: &Order) -> Result<Vec<Step>> {
        let total = self.total_iterations()?;
        let m = self.seq.nests.len();
        let mut out = Vec::new();
        match order {
            Order::Coalesced(p) => {
                if p.len() != m {
                    return Err(FlowError::Exec("one shift per nest expected".into()));
                }
                let lo = p.iter().copied().min().unwrap_or(0);
                let hi = p.iter().copied().max().unwrap_or(0);
                for c in lo..hi + total {
                    for (i, pi) in p.iter().enumerate() {
                        let lin = c - pi;
                        if (0..total).contains(&lin) {
                            out.push((vec![c], i, self.delinearize(i, lin)));
                        }
                    }
                }
            }
            Order::FusedNest(p) => {
                let n = self.trips.len();
                if p.len() != m || p.iter().any(|v| v.len() != n) {
                    return Err(FlowError::Exec("one shift vector per nest expected".into()));
                }
                // The fused box: per level, from the smallest shifted lower bound to the
                // largest shifted upper bound (Sec. 3.2, Fig. 8).
                let mut lo = vec![i64::MAX; n];
                let mut hi = vec![i64::MIN; n];
                for (low, pi) in self.lower.iter().zip(p) {
                    for k in 0..n {
                        lo[k] = lo[k].min(low[k] + pi[k]);
                        hi[k] = hi[k].max(low[k] + pi[k] + self.trips[k] - 1);
                    }
                }
                let mut t = lo.clone();
                'outer: loop {
                    for (i, (pi, low)) in p.iter().zip(&self.lower).enumerate() {
                        let it: Vec<i64> = t.iter().zip(pi).map(|(a, b)| a - b).collect();
                        if it.iter().enumerate().all(|(k, x)| low[k] <= *x && *x < low[k] + self.trips[k]) {
                            out.push((t.clone(), i, it));
                        }
                    }
                    let mut k = n;
                    loop {
                        if k == 0 {
                            break 'outer;
                        }
                        k -= 1;
                        t[k] += 1;
                        if t[k] <= hi[k] {
                            break;
                        }
                        t[k] = lo[k];
                    }
                }
            }
        }
        Ok(out)
    }

    /// Runs the transformed program in the given order with the given contracted storage
    /// per local array, and compares with the original trace.
    pub fn run_order(&self, order: &Order, storage: &BTreeMap<String, Storage>, original: &Trace) -> Result<ExecReport> {
        let schedule = self.schedule(order)?;
        let mut report = ExecReport { values: original.values.len(), ..Default::default() };
        // Per array: the cells (element held, value), the coefficients, the size.
        type Buffer = (Vec<Option<(Vec<i64>, f64)>>, Vec<i64>, i64);
        let mut bufs: BTreeMap<String, Buffer> = BTreeMap::new();
        for (a, st) in storage {
            let (coefs, m) = st.at(&self.params)?;
            if m <= 0 {
                return Err(FlowError::Exec(format!("{a}: contracted size {m} is not positive")));
            }
            let cells = usize::try_from(m).map_err(|_| FlowError::Exec("buffer size".into()))?;
            report.cells.insert(a.clone(), m as i128);
            bufs.insert(a.clone(), (vec![None; cells], coefs, m));
        }
        for (a, b) in &self.regions {
            let n: i128 = b.iter().map(|(l, h)| (h - l + 1) as i128).product();
            report.original_elements.insert(a.clone(), n);
        }
        for a in self.regions.keys() {
            if !storage.contains_key(a) {
                return Err(FlowError::Exec(format!("no storage for local array {a}")));
            }
        }
        let addr = |coefs: &[i64], m: i64, idx: &[i64]| -> Result<usize> {
            let mut acc: i128 = 0;
            for (c, x) in coefs.iter().zip(idx) {
                acc += (*c as i128) * (*x as i128);
            }
            usize::try_from(acc.rem_euclid(m as i128)).map_err(|_| FlowError::Exec("address".into()))
        };
        let mut mem: HashMap<(String, Vec<i64>), f64> = HashMap::new();
        let mut problem: Option<String> = None;
        for (c, i, it) in schedule {
            {
                let env = self.env_for(i, &it);
                for (st_idx, st) in self.stmts[i].iter().enumerate() {
                    let mut read = |name: &str, idx: Vec<i64>| -> Result<f64> {
                        if self.in_region(name, &idx) {
                            let (buf, coefs, m) = bufs.get(name).ok_or_else(|| FlowError::Exec(format!("no buffer for {name}")))?;
                            let a = addr(coefs, *m, &idx)?;
                            return match &buf[a] {
                                Some((held, v)) if *held == idx => Ok(*v),
                                Some((held, _)) => Err(FlowError::Exec(format!("{name}{idx:?} read at step {c:?} (nest {}, statement {}) but its cell {a} holds {name}{held:?}", self.seq.nests[i].name, st_idx + 1))),
                                None => Err(FlowError::Exec(format!("{name}{idx:?} read at step {c:?} before any write to its cell"))),
                            };
                        }
                        Ok(*mem.get(&(name.to_string(), idx.clone())).unwrap_or(&input_value(name, &idx)))
                    };
                    let v = match eval(&st.rhs, &env, &mut read) {
                        Ok(v) => v,
                        Err(FlowError::Exec(msg)) => {
                            problem.get_or_insert(msg);
                            continue;
                        }
                        Err(e) => return Err(e),
                    };
                    let idx = st.subs.iter().map(|e| eval_int(e, &env)).collect::<Result<Vec<_>>>()?;
                    match original.values.get(&(i, st_idx, it.clone())) {
                        Some(bits) if *bits == v.to_bits() => report.identical += 1,
                        Some(bits) => {
                            problem.get_or_insert(format!("nest {} statement {} iteration {it:?}: {} instead of {}", self.seq.nests[i].name, st_idx + 1, v, f64::from_bits(*bits)));
                        }
                        None => {
                            problem.get_or_insert(format!("nest {} statement {} iteration {it:?} does not exist in the original", self.seq.nests[i].name, st_idx + 1));
                        }
                    }
                    if self.in_region(&st.array, &idx) {
                        let (buf, coefs, m) = bufs.get_mut(&st.array).ok_or_else(|| FlowError::Exec("buffer".into()))?;
                        let a = addr(coefs, *m, &idx)?;
                        buf[a] = Some((idx, v));
                    } else {
                        mem.insert((st.array.clone(), idx), v);
                    }
                }
            }
        }
        for (key, bits) in &original.arrays {
            report.array_elements += 1;
            if mem.get(key).map(|v| v.to_bits()) == Some(*bits) {
                report.array_identical += 1;
            } else {
                problem.get_or_insert(format!("final {}{:?} differs", key.0, key.1));
            }
        }
        report.first_problem = problem;
        Ok(report)
    }
}

fn eval(e: &Expr, env: &HashMap<String, i64>, read: &mut dyn FnMut(&str, Vec<i64>) -> Result<f64>) -> Result<f64> {
    Ok(match e {
        Expr::Num(v) => *v,
        Expr::Int(v) => *v as f64,
        Expr::Var(v) => match env.get(v) {
            Some(x) => *x as f64,
            None => input_value(v, &[]),
        },
        Expr::Ref(name, subs) => {
            if matches!(name.as_str(), "INT" | "REAL" | "MOD2N" | "MOD" | "ABS" | "SQRT" | "EXP") {
                return Err(FlowError::Exec(format!("intrinsic `{name}` is not supported by the interpreter")));
            }
            let idx = subs.iter().map(|s| eval_int(s, env)).collect::<Result<Vec<_>>>()?;
            read(name, idx)?
        }
        Expr::Neg(a) => -eval(a, env, read)?,
        Expr::Bin(op, a, b) => {
            let x = eval(a, env, read)?;
            let y = eval(b, env, read)?;
            match op {
                '+' => x + y,
                '-' => x - y,
                '*' => x * y,
                _ => x / y,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bodies() {
        let s = parse_stmt("ZP(J, K) = ZP(J, K) + ZA(J, K) - ZA(J - 1, K)").unwrap();
        assert_eq!(s.array, "ZP");
        assert_eq!(s.subs.len(), 2);
        let env: HashMap<String, i64> = [("J".to_string(), 3), ("K".to_string(), 5)].into_iter().collect();
        assert_eq!(eval_int(&parse_expr("J - 1 + 2*K").unwrap(), &env).unwrap(), 12);
        assert!(parse_stmt("A(I) = (E(I)").is_err());
        // Left-associative subtraction: 1 - 2 - 3 = -4.
        let mut no_read = |_: &str, _: Vec<i64>| -> Result<f64> { Ok(0.0) };
        assert_eq!(eval(&parse_expr("1 - 2 - 3").unwrap(), &env, &mut no_read).unwrap(), -4.0);
        assert_eq!(eval(&parse_expr("8 / 4 / 2").unwrap(), &env, &mut no_read).unwrap(), 1.0);
    }
}
