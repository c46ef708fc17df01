//! Old results against new ones, record by record (keyed by example, array, method and
//! backend): size change, verification, solve-time ratio. A **regression** is a mapping
//! that got larger, stopped verifying, or disappeared. Timestamps, revisions and machines
//! are never compared, so comparisons are not flaky.
//!
//! Sizes are compared as polynomials; when they differ, at the parameter values of the
//! records (`size_params`, the largest instance in `cargo xtask reproduce`) when both
//! give the same ones, and otherwise with every parameter set to [`FAR`] (the
//! asymptotic order).

use polyalloc::record::{Record, Status};
use polyalloc_formulation::Polynomial;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The parameter value used to compare two sizes when no instance is recorded.
pub const FAR: i64 = 1000;

/// How a record changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Same size (as polynomials), still verified.
    Same,
    /// Smaller mapping.
    Smaller,
    /// Larger mapping (regression).
    Larger,
    /// Different sizes that cannot be ordered (regression, to be looked at).
    Incomparable,
    /// Verified before, not any more (regression).
    StoppedVerifying,
    /// Not verified before, verified now.
    NowVerified,
    /// Neither verified (e.g. a method that does not apply).
    NeitherVerified,
    /// In the old results only (regression).
    Missing,
    /// In the new results only.
    New,
}

impl Change {
    /// The label in tables.
    pub fn label(self) -> &'static str {
        match self {
            Change::Same => "same",
            Change::Smaller => "smaller",
            Change::Larger => "LARGER",
            Change::Incomparable => "CHANGED (incomparable)",
            Change::StoppedVerifying => "STOPPED VERIFYING",
            Change::NowVerified => "now verified",
            Change::NeitherVerified => "not verified (before either)",
            Change::Missing => "MISSING",
            Change::New => "new",
        }
    }
    /// True for a regression.
    pub fn is_regression(self) -> bool {
        matches!(self, Change::Larger | Change::Incomparable | Change::StoppedVerifying | Change::Missing)
    }
}

/// One compared key.
#[derive(Clone, Debug)]
pub struct Row {
    pub example: String,
    pub array: String,
    pub method: String,
    pub backend: String,
    pub old_size: Option<String>,
    pub new_size: Option<String>,
    pub change: Change,
    /// New solve time over old solve time.
    pub time_ratio: Option<f64>,
}

/// The outcome of [`compare`].
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub rows: Vec<Row>,
}

impl Report {
    /// The regressions.
    pub fn regressions(&self) -> Vec<&Row> {
        self.rows.iter().filter(|r| r.change.is_regression()).collect()
    }

    /// A Markdown table, followed by a summary line.
    pub fn to_markdown(&self) -> String {
        let mut t = crate::md::Table::new(&["example", "array", "method", "backend", "old size", "new size", "change", "solve time new/old"]);
        for r in &self.rows {
            t.row(vec![
                r.example.clone(),
                r.array.clone(),
                r.method.clone(),
                r.backend.clone(),
                r.old_size.as_deref().unwrap_or("-").to_string(),
                r.new_size.as_deref().unwrap_or("-").to_string(),
                r.change.label().to_string(),
                r.time_ratio.map(|x| format!("{x:.2}")).unwrap_or_else(|| "-".into()),
            ]);
        }
        let mut s = t.render();
        let n = self.regressions().len();
        let _ = writeln!(s, "\n{} compared, {} regression{}.", self.rows.len(), n, if n == 1 { "" } else { "s" });
        s
    }
}

fn eval_at(p: &Polynomial, values: &BTreeMap<String, i64>) -> Option<i128> {
    let v: Vec<(&str, i64)> = values.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    p.eval(&v).ok()
}

fn far_values(a: &Polynomial, b: &Polynomial) -> BTreeMap<String, i64> {
    let mut m = BTreeMap::new();
    for p in [a, b] {
        for (mono, _) in p.terms() {
            for (name, _) in mono.iter() {
                m.insert(name.clone(), FAR);
            }
        }
    }
    m
}

/// Orders two sizes: `Less` when `new` is smaller.
fn order_sizes(old: &Record, new: &Record) -> Option<std::cmp::Ordering> {
    match (&old.size, &new.size) {
        (None, None) => return Some(std::cmp::Ordering::Equal),
        (Some(_), None) => return Some(std::cmp::Ordering::Greater), // unfolded: unbounded
        (None, Some(_)) => return Some(std::cmp::Ordering::Less),
        _ => {}
    }
    let (po, pn) = (old.size_polynomial()?, new.size_polynomial()?);
    if po == pn {
        return Some(std::cmp::Ordering::Equal);
    }
    if let (Some(vo), Some(vn)) = (&old.size_params, &new.size_params) {
        if vo == vn {
            if let (Some(a), Some(b)) = (eval_at(&po, vo), eval_at(&pn, vn)) {
                return Some(b.cmp(&a));
            }
        }
    }
    let far = far_values(&po, &pn);
    Some(eval_at(&pn, &far)?.cmp(&eval_at(&po, &far)?))
}

/// Compares two sets of records key by key.
pub fn compare(old: &[Record], new: &[Record]) -> Report {
    type Key = (String, String, String, String);
    let mut keys: BTreeMap<Key, (Option<&Record>, Option<&Record>)> = BTreeMap::new();
    for r in old {
        keys.entry(r.key()).or_default().0 = Some(r);
    }
    for r in new {
        keys.entry(r.key()).or_default().1 = Some(r);
    }
    let mut rows = Vec::new();
    for ((example, array, method, backend), (o, n)) in keys {
        let change = match (o, n) {
            (Some(_), None) => Change::Missing,
            (None, Some(_)) => Change::New,
            (Some(o), Some(n)) => {
                let (ov, nv) = (o.verified && o.status == Status::Ok, n.verified && n.status == Status::Ok);
                match (ov, nv) {
                    (true, false) => Change::StoppedVerifying,
                    (false, true) => Change::NowVerified,
                    (false, false) => Change::NeitherVerified,
                    (true, true) => match order_sizes(o, n) {
                        Some(std::cmp::Ordering::Equal) => Change::Same,
                        Some(std::cmp::Ordering::Less) => Change::Smaller,
                        Some(std::cmp::Ordering::Greater) => Change::Larger,
                        None => Change::Incomparable,
                    },
                }
            }
            (None, None) => continue,
        };
        let time_ratio = match (o, n) {
            (Some(o), Some(n)) if o.solve_ms > 0.0 && n.status == Status::Ok && o.status == Status::Ok => Some(n.solve_ms / o.solve_ms),
            _ => None,
        };
        rows.push(Row {
            example,
            array,
            method,
            backend,
            old_size: o.and_then(|r| r.size.clone()),
            new_size: n.and_then(|r| r.size.clone()),
            change,
            time_ratio,
        });
    }
    Report { rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(size: &str, verified: bool) -> Record {
        let mut r = Record::empty("ex", "A", "smo", "microlp");
        r.status = if verified { Status::Ok } else { Status::Invalid };
        r.verified = verified;
        r.size = Some(size.to_string());
        r.solve_ms = 2.0;
        r
    }

    #[test]
    fn sizes() {
        let c = |a: &str, b: &str| compare(&[rec(a, true)], &[rec(b, true)]).rows[0].change;
        assert_eq!(c("2*N - 1", "2*N - 1"), Change::Same);
        assert_eq!(c("N^2", "2*N - 1"), Change::Smaller);
        assert_eq!(c("2*N - 1", "N^2"), Change::Larger);
        assert_eq!(c("3*B - 2", "3*B - 1"), Change::Larger);
    }

    #[test]
    fn verification_and_missing() {
        let r = compare(&[rec("N", true)], &[rec("N", false)]);
        assert_eq!(r.rows[0].change, Change::StoppedVerifying);
        assert_eq!(r.regressions().len(), 1);
        let r = compare(&[rec("N", true)], &[]);
        assert_eq!(r.rows[0].change, Change::Missing);
        let r = compare(&[], &[rec("N", true)]);
        assert_eq!(r.rows[0].change, Change::New);
        assert!(r.regressions().is_empty());
    }

    #[test]
    fn instance_values_decide() {
        let mut a = rec("N + 100", true);
        let mut b = rec("2*N", true);
        let v: BTreeMap<String, i64> = [("N".to_string(), 9)].into();
        a.size_params = Some(v.clone());
        b.size_params = Some(v);
        // At N = 9, 2N = 18 < 109 although 2N grows faster.
        assert_eq!(compare(&[a], &[b]).rows[0].change, Change::Smaller);
    }
}
