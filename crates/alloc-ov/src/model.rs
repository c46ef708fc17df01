//! The method's formulation of the program (Thies et al. 2007, Sec. 4.1-4.2, Eqs. 2-3), a view of the
//! one program model of polyalloc ([`polyalloc_program::Program`], as
//! `polyalloc_suite::Example::program_model` builds it from a bench-suite file) and of the
//! file's `ov` section ([`OvSection`]): single-assignment statements whose iteration
//! space is the data space of the one array each writes, the flow dependences
//! `P_j = (R_j, T_j, h_j, P_j)` (Eq. 2) and the space `E` of one-dimensional affine
//! schedule coefficients (Eq. 3). Nothing here reads program text: domains, schedules and
//! accesses come from the program model; only the dependences the paper prints
//! (`ov.dependences`, [`DependenceSource::File`]) and schedules given as isl relations are
//! parsed, as relations over the statements' spaces.

use crate::geom::{subst, unit, Rows};
use crate::section::OvSection;
use crate::OvError;
use polyalloc_formulation::{AffExpr, BasicSet, Set, Space};
use polyalloc_program::{Access, Program, Statement};
use std::collections::BTreeMap;

/// A statement `S` with its domain `D_S` (union of convex pieces) over
/// `[const, params, dims]`.
#[derive(Clone, Debug)]
pub struct OvStatement {
    pub name: String,
    pub dims: Vec<String>,
    /// The array it writes (location = iteration vector).
    pub array: String,
    pub pieces: Vec<Rows>,
    /// The schedule of the file's `program` as a row over `[const, params, dims]`.
    pub program_schedule: Vec<i64>,
}

impl OvStatement {
    /// Columns of its rows: `1 + params + dims`.
    pub fn ncols(&self, np: usize) -> usize {
        1 + np + self.dims.len()
    }
}

/// One flow dependence: `R(x)` reads the value of `T(h(x))` for `x` in `domain`.
#[derive(Clone, Debug)]
pub struct Dependence {
    pub name: String,
    pub consumer: usize,
    pub producer: usize,
    /// `P_j` over the consumer's columns (includes `h(x) in D_T`, one piece of it).
    pub domain: Rows,
    /// `h(x)`: one row per producer dimension, over the consumer's columns.
    pub h: Vec<Vec<i64>>,
}

/// Where the dependences come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DependenceSource {
    /// Every read access of the `program` against every writer (exact for these
    /// single-assignment programs: the producer of cell `c` of `A` is the iteration `c`
    /// of the statement writing `A` whose domain contains `c`).
    Accesses,
    /// The `ov.dependences` list of the file, as the paper prints it.
    File,
}

/// The space `E` of schedule coefficients: per statement, one coefficient per
/// iterator, one per parameter and a constant (`a*i + b*j + c*m + d*n + e`).
#[derive(Clone, Debug)]
pub struct ScheduleSpace {
    pub np: usize,
    pub offsets: Vec<usize>,
    pub dims: Vec<usize>,
    pub names: Vec<String>,
    /// Sort key of each coefficient for printing: (letter index, statement index).
    pub order: Vec<(usize, usize)>,
}

impl ScheduleSpace {
    fn new(stmts: &[OvStatement], np: usize) -> ScheduleSpace {
        let mut offsets = Vec::new();
        let mut names = Vec::new();
        let mut order = Vec::new();
        let letters = "abcdefghklpqrsuwxyz";
        for (s, st) in stmts.iter().enumerate() {
            offsets.push(names.len());
            let n = st.dims.len() + np + 1;
            for k in 0..n {
                let letter = letters.chars().nth(k).map(String::from).unwrap_or_else(|| format!("z{k}"));
                names.push(if stmts.len() > 1 { format!("{letter}_{}", s + 1) } else { letter });
                order.push((k, s));
            }
        }
        ScheduleSpace { np, offsets, dims: stmts.iter().map(|s| s.dims.len()).collect(), names, order }
    }
    /// Number of coefficients.
    pub fn len(&self) -> usize {
        self.names.len()
    }
    /// True when there is no statement.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    pub fn dim(&self, s: usize, k: usize) -> usize {
        self.offsets[s] + k
    }
    pub fn param(&self, s: usize, p: usize) -> usize {
        self.offsets[s] + self.dims[s] + p
    }
    pub fn constant(&self, s: usize) -> usize {
        self.offsets[s] + self.dims[s] + self.np
    }
}

/// The occupancy-vector method's formulation of a program in the domain of Thies et al. 2007 (Sec.
/// 4.1): its statements with the array each writes, its flow dependences (Eq. 2) and the
/// schedule-coefficient space `E` (Eq. 3). Built from the one program model by
/// [`OvFormulation::new`].
#[derive(Clone, Debug)]
pub struct OvFormulation {
    /// What it was built from (the example id), for messages.
    pub name: String,
    pub params: Vec<String>,
    /// Context rows over `[const, params]`.
    pub context: Rows,
    pub statements: Vec<OvStatement>,
    /// Array name -> writing statements (one in the paper's domain; Example 3 has two
    /// statements writing disjoint parts of `A`, handled as described in the crate doc).
    pub writers: BTreeMap<String, Vec<usize>>,
    pub dependences: Vec<Dependence>,
    pub space: ScheduleSpace,
}

/// Rows of a basic set over a statement-like space, columns re-ordered to
/// `[const, params (program order), dims]`.
fn rows_of(b: &BasicSet, params: &[String], what: &str) -> Result<Rows, OvError> {
    if b.n_local() > 0 {
        return Err(OvError::Unsupported(format!("{what}: existential variables are not supported")));
    }
    let sp = b.space();
    let np = params.len();
    let conv = |r: &Vec<i64>| -> Result<Vec<i64>, OvError> {
        let mut out = vec![0; 1 + np + sp.n_dim()];
        out[0] = r[0];
        for (i, p) in sp.params.iter().enumerate() {
            let j = params.iter().position(|q| q == p).ok_or_else(|| OvError::Input(format!("{what}: unknown parameter `{p}`")))?;
            out[1 + j] = r[1 + i];
        }
        for d in 0..sp.n_dim() {
            out[1 + np + d] = r[sp.dim_col(d)];
        }
        Ok(out)
    };
    Ok(Rows { eqs: b.equalities().iter().map(conv).collect::<Result<_, _>>()?, ineqs: b.inequalities().iter().map(conv).collect::<Result<_, _>>()? })
}

fn aff_row(a: &AffExpr, sp: &Space, params: &[String], what: &str) -> Result<Vec<i64>, OvError> {
    let np = params.len();
    let mut out = vec![0; 1 + np + sp.n_dim()];
    out[0] = a.coeffs[0];
    for (i, p) in sp.params.iter().enumerate() {
        let j = params.iter().position(|q| q == p).ok_or_else(|| OvError::Input(format!("{what}: unknown parameter `{p}`")))?;
        out[1 + j] = a.coeffs[1 + i];
    }
    for d in 0..sp.n_dim() {
        out[1 + np + d] = a.coeffs[sp.dim_col(d)];
    }
    Ok(out)
}

/// The universe of a statement's iteration space as isl text (`[m, n] -> { S[i, j] }`):
/// the domain against which relations given in the `ov` section (`h`, schedules) are
/// read. Only the space matters: a relation's own constraints become its guard.
fn universe_text(st: &Statement) -> String {
    let sp = st.domain.space();
    format!("[{}] -> {{ {}[{}] }}", sp.params.join(", "), st.name, sp.output.dims.join(", "))
}

/// The accesses a relation `S[x] -> T[h(x)] : guard` describes, over the space of
/// statement `st` (one per piece of the relation).
pub fn relation_accesses(st: &Statement, relation: &str) -> Result<Vec<Access>, OvError> {
    let sp = st.domain.space();
    let dummy = format!("[{}] -> {{ {}[{}] -> [0] }}", sp.params.join(", "), st.name, sp.output.dims.join(", "));
    Ok(Statement::parse(&universe_text(st), &dummy, &[], &[relation])?.reads)
}

/// The one-dimensional schedule `S[x] -> [theta(x)]` given as an isl relation, as an
/// affine expression over the space of statement `st` (its domain's space).
pub fn schedule_expr(st: &Statement, relation: &str) -> Result<AffExpr, OvError> {
    let parsed = Statement::parse(&universe_text(st), relation, &[], &[])?;
    let [a] = parsed.schedule.as_slice() else {
        return Err(OvError::Input(format!("schedule of `{}` must be one-dimensional: `{relation}`", st.name)));
    };
    Ok(a.clone())
}

impl OvFormulation {
    /// The formulation of `program` (the one program model) with the `ov` section of its
    /// file: statement arrays, and with [`DependenceSource::File`] the dependences the
    /// paper prints. `name` names it in messages (the example id).
    pub fn new(name: &str, program: &Program, section: &OvSection, source: DependenceSource) -> Result<OvFormulation, OvError> {
        let params = program.params.clone();
        let np = params.len();
        let context = rows_of(&program.context, &params, "context")?;
        let mut statements = Vec::new();
        for st in &program.statements {
            let array = section
                .statement_arrays
                .get(&st.name)
                .ok_or_else(|| OvError::Input(format!("{name}: ov.statement_arrays: no array for statement `{}`", st.name)))?;
            statements.push(Self::statement(name, st, array, &params)?);
        }
        let mut writers: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (s, st) in statements.iter().enumerate() {
            writers.entry(st.array.clone()).or_default().push(s);
        }
        let space = ScheduleSpace::new(&statements, np);
        let mut p = OvFormulation { name: name.to_string(), params, context, statements, writers, dependences: Vec::new(), space };
        match source {
            DependenceSource::Accesses => {
                for (r, st) in program.statements.iter().enumerate() {
                    for (k, acc) in st.reads.iter().enumerate() {
                        let dep = format!("{}.read{} <- ", st.name, k);
                        p.add_access(&dep, r, st, acc)?;
                    }
                }
            }
            DependenceSource::File => {
                let deps = section
                    .dependences
                    .as_ref()
                    .ok_or_else(|| OvError::Input(format!("{name}: ov.dependences: missing (needed to read the printed dependences)")))?;
                for (k, d) in deps.iter().enumerate() {
                    let field = |f: &str, m: &str| OvError::Input(format!("{name}: ov.dependences[{k}].{f}: {m}"));
                    let r = p.stmt_index(&d.consumer).ok_or_else(|| field("consumer", "unknown statement"))?;
                    let t = p.stmt_index(&d.producer).ok_or_else(|| field("producer", "unknown statement"))?;
                    let st = &program.statements[r];
                    let accs = relation_accesses(st, &d.h).map_err(|e| field("h", &e.to_string()))?;
                    for acc in &accs {
                        if acc.array != p.statements[t].name {
                            return Err(field("h", &format!("relates `{}` to `{}`, not to the producer `{}`", d.consumer, acc.array, d.producer)));
                        }
                        let h: Vec<Vec<i64>> = acc.index.iter().map(|a| aff_row(a, st.domain.space(), &p.params, "h")).collect::<Result<_, _>>()?;
                        let guard = match &acc.guard {
                            Some(g) => Some(rows_of(&g.align_params(&p.params)?, &p.params, "dependence domain")?),
                            None => None,
                        };
                        p.add_dependence(&d.name, r, t, &h, guard.as_ref())?;
                    }
                }
            }
        }
        Ok(p)
    }

    /// Adds the dependences of read access `acc` of statement `r` on every writer of
    /// its array (exact for these single-assignment programs: the producer of cell `c`
    /// is the iteration `c` of the statement whose domain contains it).
    fn add_access(&mut self, prefix: &str, r: usize, st: &Statement, acc: &Access) -> Result<(), OvError> {
        let Some(ws) = self.writers.get(&acc.array).cloned() else { return Ok(()) };
        let h: Vec<Vec<i64>> = acc.index.iter().map(|a| aff_row(a, st.domain.space(), &self.params, "read access")).collect::<Result<_, _>>()?;
        let guard = match &acc.guard {
            Some(g) => Some(rows_of(&g.align_params(&self.params)?, &self.params, "read guard")?),
            None => None,
        };
        for t in ws {
            let name = format!("{prefix}{}", self.statements[t].name);
            self.add_dependence(&name, r, t, &h, guard.as_ref())?;
        }
        Ok(())
    }

    fn statement(name: &str, st: &Statement, array: &str, params: &[String]) -> Result<OvStatement, OvError> {
        let dims = st.domain.space().output.dims.clone();
        // Data space = iteration space (000 Sec. 4.1): the write must be the identity.
        let [w] = st.writes.as_slice() else {
            return Err(OvError::Unsupported(format!("{name}: statement `{}` must write exactly one cell per iteration", st.name)));
        };
        let sp = st.domain.space();
        let ident = w.array == array
            && w.index.len() == dims.len()
            && w.index.iter().enumerate().all(|(k, a)| a.coeffs.iter().enumerate().all(|(c, &x)| x == i64::from(c == sp.dim_col(k))));
        if !ident || w.guard.is_some() {
            return Err(OvError::Unsupported(format!(
                "{name}: statement `{}` must write {array}[iteration vector] (Thies, Vivien, Amarasinghe 2007, Sec. 4.1: the data space is the iteration space)",
                st.name
            )));
        }
        let [sched] = st.schedule.as_slice() else {
            return Err(OvError::Unsupported(format!("{name}: statement `{}` needs a one-dimensional schedule", st.name)));
        };
        let dom: &Set = &st.domain;
        let pieces = dom
            .pieces()
            .iter()
            .map(|b| b.align_params(params).map_err(OvError::from).and_then(|b| rows_of(&b, params, "statement domain")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(OvStatement { name: st.name.clone(), dims, array: array.to_string(), pieces, program_schedule: aff_row(sched, sp, params, "schedule")? })
    }

    /// The index of statement `name`.
    pub fn stmt_index(&self, name: &str) -> Option<usize> {
        self.statements.iter().position(|s| s.name == name)
    }

    /// Context rows padded to `ncols`.
    pub fn context_rows(&self, ncols: usize) -> Rows {
        Rows {
            eqs: self.context.eqs.iter().map(|r| crate::geom::pad(r, ncols)).collect(),
            ineqs: self.context.ineqs.iter().map(|r| crate::geom::pad(r, ncols)).collect(),
        }
    }

    fn add_dependence(&mut self, name: &str, r: usize, t: usize, h: &[Vec<i64>], guard: Option<&Rows>) -> Result<(), OvError> {
        let np = self.params.len();
        let ncols = self.statements[r].ncols(np);
        if h.len() != self.statements[t].dims.len() {
            return Err(OvError::Input(format!(
                "{name}: h has {} components, `{}` has {} dimensions",
                h.len(),
                self.statements[t].name,
                self.statements[t].dims.len()
            )));
        }
        for rp in self.statements[r].pieces.clone() {
            for tp in self.statements[t].pieces.clone() {
                let mut dom = self.context_rows(ncols);
                dom.extend(&rp);
                if let Some(g) = guard {
                    dom.extend(g);
                }
                for row in &tp.eqs {
                    dom.eqs.push(subst(row, np, h, ncols)?);
                }
                for row in &tp.ineqs {
                    dom.ineqs.push(subst(row, np, h, ncols)?);
                }
                let Some(dom) = crate::geom::simplify(&dom, ncols)? else { continue };
                self.dependences.push(Dependence { name: name.to_string(), consumer: r, producer: t, domain: dom, h: h.to_vec() });
            }
        }
        Ok(())
    }

    /// The schedule of the file's `program` as a point of `E`.
    pub fn program_schedule(&self) -> Vec<i64> {
        let np = self.params.len();
        let mut th = vec![0; self.space.len()];
        for (s, st) in self.statements.iter().enumerate() {
            for k in 0..st.dims.len() {
                th[self.space.dim(s, k)] = st.program_schedule[1 + np + k];
            }
            for p in 0..np {
                th[self.space.param(s, p)] = st.program_schedule[1 + p];
            }
            th[self.space.constant(s)] = st.program_schedule[0];
        }
        th
    }

    /// A schedule given per statement as isl relations (`S[i, j] -> [2*i + j]`), as a
    /// point of `E`.
    pub fn parse_schedule(&self, per_stmt: &BTreeMap<String, String>) -> Result<Vec<i64>, OvError> {
        let np = self.params.len();
        let mut th = vec![0; self.space.len()];
        for (s, st) in self.statements.iter().enumerate() {
            let text = per_stmt.get(&st.name).ok_or_else(|| OvError::Input(format!("schedule: no entry for statement `{}`", st.name)))?;
            let names: Vec<&str> = st.dims.iter().map(String::as_str).collect();
            let pnames: Vec<&str> = self.params.iter().map(String::as_str).collect();
            let dom = format!("[{}] -> {{ {}[{}] }}", pnames.join(", "), st.name, names.join(", "));
            let parsed = Statement::parse(&dom, text, &[], &[]).map_err(|e| OvError::Input(format!("schedule of `{}`: {e}", st.name)))?;
            let [a] = parsed.schedule.as_slice() else {
                return Err(OvError::Input(format!("schedule of `{}` must be one-dimensional", st.name)));
            };
            let row = aff_row(a, parsed.domain.space(), &self.params, "schedule")?;
            for k in 0..st.dims.len() {
                th[self.space.dim(s, k)] = row[1 + np + k];
            }
            for p in 0..np {
                th[self.space.param(s, p)] = row[1 + p];
            }
            th[self.space.constant(s)] = row[0];
        }
        Ok(th)
    }

    /// The schedule `th` (a point of `E`) as one affine expression per statement of
    /// `program` (the program this formulation was built from), each over its
    /// statement's domain space, as [`polyalloc_program::Statement::schedule`] holds it.
    pub fn affine_schedules(&self, program: &Program, th: &[i64]) -> Result<Vec<AffExpr>, OvError> {
        if program.statements.len() != self.statements.len() || th.len() != self.space.len() {
            return Err(OvError::Input(format!(
                "{}: a schedule of {} coefficients for {} statements",
                self.name,
                th.len(),
                program.statements.len()
            )));
        }
        let mut out = Vec::new();
        for (s, st) in program.statements.iter().enumerate() {
            let sp = st.domain.space();
            let mut a = AffExpr::zero(sp);
            a.coeffs[0] = th[self.space.constant(s)];
            for (i, p) in sp.params.iter().enumerate() {
                let j = self
                    .params
                    .iter()
                    .position(|q| q == p)
                    .ok_or_else(|| OvError::Input(format!("statement `{}`: unknown parameter `{p}`", st.name)))?;
                a.coeffs[1 + i] = th[self.space.param(s, j)];
            }
            for k in 0..sp.n_dim() {
                a.coeffs[sp.dim_col(k)] = th[self.space.dim(s, k)];
            }
            out.push(a);
        }
        Ok(out)
    }

    /// `th` as a label, statement by statement as the paper writes schedules:
    /// `S: 2*i + j`, `S1: 2*j, S2: 2*j + 1`.
    pub fn schedule_label(&self, th: &[i64]) -> String {
        self.schedule_strings(th).iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join(", ")
    }

    /// Prints `theta` per statement: `S: 2i + j`.
    pub fn schedule_strings(&self, th: &[i64]) -> BTreeMap<String, String> {
        let np = self.params.len();
        let mut out = BTreeMap::new();
        for (s, st) in self.statements.iter().enumerate() {
            let mut coeffs = Vec::new();
            let mut names = Vec::new();
            for (k, d) in st.dims.iter().enumerate() {
                coeffs.push(th[self.space.dim(s, k)]);
                names.push(d.clone());
            }
            for p in 0..np {
                coeffs.push(th[self.space.param(s, p)]);
                names.push(self.params[p].clone());
            }
            out.insert(st.name.clone(), crate::fmt_linear(&coeffs, &names, th[self.space.constant(s)]));
        }
        out
    }

    /// Adds `sign * Theta_s(g(y))` to the coefficient rows `coef` (one per schedule
    /// coefficient, over `ncols` columns); `g` gives the iteration of `s` as rows over y.
    pub(crate) fn add_theta(&self, coef: &mut [Vec<i64>], s: usize, g: &[Vec<i64>], sign: i64, ncols: usize) -> Result<(), OvError> {
        let np = self.params.len();
        let mut add = |idx: usize, row: &[i64]| -> Result<(), OvError> {
            for (c, x) in coef[idx].iter_mut().zip(row) {
                *c = x.checked_mul(sign).and_then(|v| c.checked_add(v)).ok_or_else(|| crate::geom::ovf("schedule form"))?;
            }
            Ok(())
        };
        for (k, gk) in g.iter().enumerate() {
            add(self.space.dim(s, k), gk)?;
        }
        for p in 0..np {
            add(self.space.param(s, p), &unit(1 + p, ncols))?;
        }
        add(self.space.constant(s), &unit(0, ncols))
    }
}
