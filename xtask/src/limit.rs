//! The distance of every mapping to the physical limit: per (example, array)
//! the max-live recorded next to its mappings (`Record::max_live`, computed by
//! `polyalloc::limit` at the record's instance) and, per method, the ratio
//! `size / max-live` at that instance. A ratio of 1 is a mapping with as many cells as
//! values live at one time: no valid mapping, modular or not, has fewer. The table is a
//! section of `results/REPORT.md` and the plot is `results/plots/max-live.svg`.
//!
//! Only the first backend of a results file is shown (the methods' answers do not depend
//! on the backend when they verify; sizes per backend are in the paper tables), and only
//! verified mappings (`status` ok) with a size at the instance.

use crate::md::cell;
use crate::results::ResultsFile;
use crate::svg::{hbar_chart, Bar, Group};
use polyalloc::record::Record;
use polyalloc::Status;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One (example, array) row: its max-live (or why it is unknown) and each method's
/// verified size at the same instance.
#[derive(Clone, Debug, PartialEq)]
pub struct LimitRow {
    pub example: String,
    pub array: String,
    /// Max-live and how it was computed (`simulation`, `clique`).
    pub max_live: Option<(u64, String)>,
    /// Why max-live is unknown, when it is.
    pub unknown: Option<String>,
    /// The instance (parameter values) of the sizes and of max-live.
    pub at: Option<BTreeMap<String, i64>>,
    /// Method -> size at the instance, in the order of the results file.
    pub sizes: Vec<(String, i128)>,
}

impl LimitRow {
    /// `size / max-live` of `method`, when both are known and max-live is positive.
    pub fn ratio(&self, method: &str) -> Option<f64> {
        let (live, _) = self.max_live.as_ref()?;
        let size = self.sizes.iter().find(|(m, _)| m == method)?.1;
        (*live > 0).then(|| size as f64 / *live as f64)
    }

    /// The smallest verified size of the row, and the first method (in file order)
    /// that has it.
    pub fn smallest(&self) -> Option<(&str, i128)> {
        self.sizes.iter().fold(None, |acc: Option<(&str, i128)>, (m, s)| match acc {
            Some((_, b)) if b <= *s => acc,
            _ => Some((m.as_str(), *s)),
        })
    }
}

/// The rows of a results file (first backend; records of one array, not the SMO tool's
/// inputs, which have their own section), in file order of the (example, array) keys.
pub fn rows(f: &ResultsFile) -> Vec<LimitRow> {
    let Some(backend) = f.records.first().map(|r| r.backend.clone()) else { return Vec::new() };
    let mut out: Vec<LimitRow> = Vec::new();
    let of_array = |r: &&Record| r.backend == backend && r.shared.is_none() && !r.example.starts_with(crate::smo_tool::PREFIX);
    for r in f.records.iter().filter(of_array) {
        // Only targets max-live is about: records of an array carry a max-live or say
        // why it is unknown; a mapping without either (a results file made before
        // max-live was recorded, an array max-live is not computed for) is shown with
        // max-live unknown; a method's named run (no mapping) is left out.
        if r.max_live.is_none() && r.max_live_source.is_none() && r.dims.is_empty() {
            continue;
        }
        let k = match out.iter().position(|x| x.example == r.example && x.array == r.array) {
            Some(k) => k,
            None => {
                out.push(LimitRow { example: r.example.clone(), array: r.array.clone(), max_live: None, unknown: None, at: None, sizes: Vec::new() });
                out.len() - 1
            }
        };
        let row = &mut out[k];
        match (r.max_live, r.max_live_source.as_deref()) {
            (Some(v), src) if row.max_live.is_none() => row.max_live = Some((v, src.unwrap_or("?").to_string())),
            (None, Some(why)) if row.max_live.is_none() && row.unknown.is_none() => {
                row.unknown = Some(why.strip_prefix("unknown: ").unwrap_or(why).to_string())
            }
            _ => {}
        }
        if row.at.is_none() {
            row.at = r.size_params.clone();
        }
        if let (Status::Ok, Some(size)) = (r.status, r.size_at) {
            if !row.sizes.iter().any(|(m, _)| m == &r.method) {
                row.sizes.push((r.method.clone(), size));
            }
        }
    }
    out
}

fn fmt_at(at: &Option<BTreeMap<String, i64>>) -> String {
    match at {
        Some(m) if !m.is_empty() => m.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(","),
        _ => "-".into(),
    }
}

/// The Markdown section: one row per (example, array), one column per method
/// (`size (ratio)`), the smallest size's ratio and its method.
pub fn markdown(f: &ResultsFile) -> String {
    let rows = rows(f);
    let mut s = String::new();
    if rows.is_empty() {
        s.push_str("No record of an array in this results file.\n");
        return s;
    }
    let mut methods: Vec<String> = Vec::new();
    for r in &rows {
        for (m, _) in &r.sizes {
            if !methods.contains(m) {
                methods.push(m.clone());
            }
        }
    }
    // Registry order (the papers' order, `best` last); unknown names after, in file order.
    let order = polyalloc::registry().names();
    methods.sort_by_key(|m| order.iter().position(|n| n == m).unwrap_or(order.len()));
    let mut head: Vec<&str> = vec!["example", "array", "at", "max-live"];
    head.extend(methods.iter().map(String::as_str));
    head.push("smallest / max-live");
    let mut t = crate::md::Table::new(&head);
    let (mut known, mut within) = (0usize, 0usize);
    for r in &rows {
        let live = match (&r.max_live, &r.unknown) {
            (Some((v, src)), _) => format!("{v} ({src})"),
            (None, Some(why)) => format!("unknown: {}", cell(why)),
            (None, None) => "unknown: not recorded".into(),
        };
        let mut row = vec![r.example.clone(), r.array.clone(), fmt_at(&r.at), live];
        for m in &methods {
            row.push(match (r.sizes.iter().find(|(x, _)| x == m), r.ratio(m)) {
                (Some((_, size)), Some(q)) => format!("{size} ({q:.2})"),
                (Some((_, size)), None) => size.to_string(),
                (None, _) => "-".into(),
            });
        }
        row.push(match r.smallest().and_then(|(m, _)| r.ratio(m).map(|q| (m, q))) {
            Some((m, q)) => {
                known += 1;
                if q <= TARGET {
                    within += 1;
                }
                let bold = if q > TARGET { "**" } else { "" };
                format!("{bold}{q:.2} ({m}){bold}")
            }
            None => "-".into(),
        });
        t.row(row);
    }
    s.push_str(&t.render());
    let _ = writeln!(
        s,
        "\n{within} of {known} arrays with a known max-live have a verified mapping within {TARGET:.2} x max-live (ratios above it in bold)."
    );
    s
}

/// The target ratio: the smallest verified size within 10% of max-live.
pub const TARGET: f64 = 1.10;

/// The plot: `size / max-live` per method and (example, array), log scale.
pub fn svg(f: &ResultsFile) -> String {
    let rows = rows(f);
    let mut series: Vec<String> = Vec::new();
    let mut groups = Vec::new();
    for r in &rows {
        let mut bars = Vec::new();
        for (m, _) in &r.sizes {
            if let Some(q) = r.ratio(m) {
                if !series.contains(m) {
                    series.push(m.clone());
                }
                bars.push(Bar { series: m.clone(), value: q, marker: None });
            }
        }
        if !bars.is_empty() {
            groups.push(Group { label: format!("{} {}", r.example, r.array), bars });
        }
    }
    let backend = f.records.first().map(|r| r.backend.as_str()).unwrap_or("");
    hbar_chart(
        &format!("Mapping size / max-live per method at the largest instance ({backend})"),
        "size / max-live (log scale; 1 = the physical limit)",
        &groups,
        &series,
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(example: &str, method: &str, size: Option<i128>, live: Option<u64>, source: &str) -> Record {
        let mut r = Record::empty(example, "A", method, "microlp");
        r.status = if size.is_some() { Status::Ok } else { Status::SolverError };
        r.verified = size.is_some();
        r.size_at = size;
        r.size_params = Some([("N".to_string(), 8)].into());
        r.max_live = live;
        r.max_live_source = Some(source.to_string());
        r
    }

    fn file(records: Vec<Record>) -> ResultsFile {
        let mut f = ResultsFile::new("test", &crate::workspace_root());
        f.records = records;
        f
    }

    #[test]
    fn ratios_smallest_and_unknown() {
        let f = file(vec![
            rec("ex", "lefe", Some(64), Some(15), "simulation"),
            rec("ex", "smo", Some(15), Some(15), "simulation"),
            rec("ex", "lattice", None, Some(15), "simulation"),
            rec("other", "smo", Some(20), None, "unknown: no instance to compute max-live at"),
        ]);
        let rows = rows(&f);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].max_live, Some((15, "simulation".into())));
        assert_eq!(rows[0].ratio("lefe"), Some(64.0 / 15.0));
        assert_eq!(rows[0].smallest(), Some(("smo", 15)));
        // A failed method has no size, and no ratio.
        assert_eq!(rows[0].ratio("lattice"), None);
        assert_eq!(rows[1].unknown.as_deref(), Some("no instance to compute max-live at"));
        let md = markdown(&f);
        assert!(md.contains("| ex | A | N=8 | 15 (simulation) | 64 (4.27) | 15 (1.00) | 1.00 (smo) |"), "{md}");
        assert!(md.contains("unknown: no instance"), "{md}");
        assert!(md.contains("1 of 1 arrays"), "{md}");
        let svg = svg(&f);
        assert_eq!(svg.matches("height=\"11\" fill=").count(), 2, "{svg}");
    }

    #[test]
    fn above_the_target_is_bold() {
        let f = file(vec![rec("ex", "smo", Some(12), Some(10), "clique")]);
        assert!(markdown(&f).contains("**1.20 (smo)**"));
    }
}
