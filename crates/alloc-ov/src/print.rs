//! Printing the linearised constraints the way Thies et al. 2007 prints them (Sec. 5.1.3, 5.2):
//! equalities solved for the first coefficient (`a_1 = a_2`), substituted into the
//! inequalities, redundant rows removed, terms ordered by letter then statement
//! (`b_2 - e_1 + e_2 - 1 >= 0`).

use crate::model::ScheduleSpace;
use crate::OvError;
use polyalloc_formulation::BasicSet;

use polyalloc_formulation::int::gcd_i128 as gcd;

fn norm(r: Vec<i128>) -> Result<Vec<i64>, OvError> {
    let g = r.iter().fold(0, |acc, &x| gcd(acc, x)).max(1);
    r.into_iter().map(|x| i64::try_from(x / g).map_err(|_| crate::geom::ovf("printing constraints"))).collect()
}

fn comb(p: i64, r: &[i64], q: i64, e: &[i64]) -> Result<Vec<i64>, OvError> {
    norm(r.iter().zip(e).map(|(&a, &b)| p as i128 * a as i128 - q as i128 * b as i128).collect())
}

/// Terms of `row` (over `[const, theta]`) in print order, `sign` applied.
fn fmt_terms(row: &[i64], sp: &ScheduleSpace, skip: Option<usize>, sign: i64, with_const: bool) -> String {
    let mut idx: Vec<usize> = (0..sp.len()).filter(|&k| row[1 + k] != 0 && Some(k) != skip).collect();
    idx.sort_by_key(|&k| sp.order[k]);
    let coeffs: Vec<i64> = idx.iter().map(|&k| sign * row[1 + k]).collect();
    let names: Vec<String> = idx.iter().map(|&k| sp.names[k].clone()).collect();
    crate::fmt_linear(&coeffs, &names, if with_const { sign * row[0] } else { 0 })
}

/// Equalities solved for their pivot column: `(pivot, row)`.
type Pivots = Vec<(usize, Vec<i64>)>;

fn solve_equalities(set: &BasicSet, n: usize) -> Result<(Pivots, BasicSet), OvError> {
    let mut eqs: Vec<Vec<i64>> = set.equalities().to_vec();
    let mut pivots: Vec<(usize, Vec<i64>)> = Vec::new();
    for c in 0..n {
        let Some(p) = eqs.iter().position(|r| r[1 + c] != 0) else { continue };
        let mut e = eqs.remove(p);
        if e[1 + c] < 0 {
            e.iter_mut().for_each(|x| *x = -*x);
        }
        for r in eqs.iter_mut() {
            if r[1 + c] != 0 {
                *r = comb(e[1 + c], r, r[1 + c], &e)?;
            }
        }
        for (_, r) in pivots.iter_mut() {
            if r[1 + c] != 0 {
                *r = comb(e[1 + c], r, r[1 + c], &e)?;
            }
        }
        pivots.push((c, e));
    }
    let mut ineqs: Vec<Vec<i64>> = set.inequalities().to_vec();
    for (c, e) in &pivots {
        for r in ineqs.iter_mut() {
            if r[1 + c] != 0 {
                *r = comb(e[1 + c], r, r[1 + c], e)?;
            }
        }
    }
    let mut b = BasicSet::universe(set.space().clone());
    for (_, e) in &pivots {
        b.add_eq_row(e.clone())?;
    }
    for r in &ineqs {
        b.add_ineq_row(r.clone())?;
    }
    b.remove_redundant()?;
    Ok((pivots, b))
}

/// The constraints of `set` (over the schedule coefficients) as the paper prints them.
pub fn paper_constraints(set: &BasicSet, sp: &ScheduleSpace) -> Result<Vec<String>, OvError> {
    // Substituting the equalities can expose new implicit equalities (opposite
    // inequalities): repeat until the number of equalities is stable.
    let mut cur = set.clone();
    let (pivots, b) = loop {
        let (pivots, b) = solve_equalities(&cur, sp.len())?;
        if b.equalities().len() <= pivots.len() {
            break (pivots, b);
        }
        cur = b;
    };
    let n = sp.len();
    let mut out = Vec::new();
    for (c, e) in &pivots {
        let pc = e[1 + *c];
        if pc == 1 {
            let rest = fmt_terms(e, sp, Some(*c), -1, true);
            out.push(format!("{} = {rest}", sp.names[*c]));
        } else {
            out.push(format!("{} = 0", fmt_terms(e, sp, None, 1, true)));
        }
    }
    let mut rows: Vec<Vec<i64>> = b.inequalities().to_vec();
    rows.sort_by_key(|r| {
        let mut k: Vec<(usize, usize)> = (0..n).filter(|&k| r[1 + k] != 0).map(|k| sp.order[k]).collect();
        k.sort();
        k
    });
    for r in rows {
        out.push(format!("{} >= 0", fmt_terms(&r, sp, None, 1, true)));
    }
    Ok(out)
}

/// True when `set` (over the schedule coefficients) and the constraints `printed`
/// (isl syntax over the same names, e.g. `a + 2*b - 1 >= 0`, `a_1 = a_2`) define the
/// same integer points, decided by exact rational implication tests in both directions
/// (each row of one, negated and tightened, is inconsistent with the other).
pub fn equivalent_to_printed(set: &BasicSet, sp: &ScheduleSpace, printed: &[String]) -> Result<bool, OvError> {
    let text = format!("{{ [{}] : {} }}", sp.names.join(", "), if printed.is_empty() { "0 = 0".to_string() } else { printed.join(" and ") });
    let theirs = BasicSet::parse(&text)?;
    let implies = |a: &BasicSet, b: &BasicSet| -> Result<bool, OvError> {
        let mut rows: Vec<Vec<i64>> = b.inequalities().to_vec();
        for e in b.equalities() {
            rows.push(e.clone());
            rows.push(e.iter().map(|x| -x).collect());
        }
        for r in rows {
            let mut t = a.clone();
            let mut neg: Vec<i64> = r.iter().map(|x| -x).collect();
            neg[0] -= 1;
            t.add_ineq_row(neg)?;
            if !t.is_rationally_empty()? {
                return Ok(false);
            }
        }
        Ok(true)
    };
    Ok(implies(set, &theirs)? && implies(&theirs, set)?)
}
