//! Minimal SVG plots (no dependency): grouped horizontal bar charts on a log scale,
//! one group per example, one bar per series (method or backend), with an optional
//! marker per bar (the paper's value).

use std::fmt::Write;

/// One bar.
#[derive(Clone, Debug)]
pub struct Bar {
    /// The series (colour and legend entry).
    pub series: String,
    /// The value (> 0; log scale).
    pub value: f64,
    /// An optional marker drawn as a black tick (e.g. the paper's size).
    pub marker: Option<f64>,
}

/// A group of bars with a label.
#[derive(Clone, Debug)]
pub struct Group {
    pub label: String,
    pub bars: Vec<Bar>,
}

const PALETTE: [&str; 8] = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn fmt_value(v: f64) -> String {
    if v >= 100.0 || (v.fract() == 0.0 && v >= 1.0) {
        format!("{v:.0}")
    } else if v >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// A grouped horizontal bar chart, log-scaled x axis. `marker_label` names the markers
/// in the legend (when any bar has one).
pub fn hbar_chart(title: &str, x_label: &str, groups: &[Group], series: &[String], marker_label: Option<&str>) -> String {
    let label_w = 300.0;
    let plot_w = 520.0;
    let right = 70.0;
    let bar_h = 11.0;
    let gap = 2.0;
    let group_gap = 10.0;
    let top = 56.0;
    let width = label_w + plot_w + right;
    let mut values: Vec<f64> = groups.iter().flat_map(|g| g.bars.iter().flat_map(|b| [Some(b.value), b.marker]).flatten()).filter(|v| *v > 0.0).collect();
    if values.is_empty() {
        values.push(1.0);
    }
    let vmin = values.iter().cloned().fold(f64::INFINITY, f64::min);
    let vmax = values.iter().cloned().fold(0.0, f64::max);
    let lo = 10f64.powf(vmin.log10().floor());
    let hi = 10f64.powf(vmax.log10().ceil().max(vmin.log10().floor() + 1.0));
    let x = |v: f64| -> f64 {
        let v = v.max(lo);
        label_w + (v.log10() - lo.log10()) / (hi.log10() - lo.log10()) * plot_w
    };
    let rows: f64 = groups.iter().map(|g| g.bars.len().max(1) as f64 * (bar_h + gap) + group_gap).sum();
    let height = top + rows + 40.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{}" y="18" font-size="14" font-weight="bold">{}</text>"#, 10, esc(title));
    // Legend.
    let mut lx = label_w;
    for (i, name) in series.iter().enumerate() {
        let c = PALETTE[i % PALETTE.len()];
        let _ = writeln!(s, r#"<rect x="{lx}" y="28" width="12" height="10" fill="{c}"/><text x="{}" y="37">{}</text>"#, lx + 16.0, esc(name));
        lx += 30.0 + 7.0 * name.len() as f64;
    }
    if let Some(m) = marker_label {
        if groups.iter().any(|g| g.bars.iter().any(|b| b.marker.is_some())) {
            let _ = writeln!(s, r#"<line x1="{lx}" y1="26" x2="{lx}" y2="40" stroke="black" stroke-width="2"/><text x="{}" y="37">{}</text>"#, lx + 6.0, esc(m));
        }
    }
    // Grid: powers of ten.
    let mut p = lo;
    while p <= hi * 1.0001 {
        let gx = x(p);
        let _ = writeln!(s, r##"<line x1="{gx:.1}" y1="{top}" x2="{gx:.1}" y2="{:.1}" stroke="#ddd"/>"##, top + rows);
        let _ = writeln!(s, r##"<text x="{gx:.1}" y="{:.1}" text-anchor="middle" fill="#555">{}</text>"##, top + rows + 14.0, fmt_value(p));
        p *= 10.0;
    }
    let _ = writeln!(s, r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#333">{}</text>"##, label_w + plot_w / 2.0, top + rows + 32.0, esc(x_label));
    let mut y = top;
    for g in groups {
        let n = g.bars.len().max(1) as f64;
        let gh = n * (bar_h + gap);
        let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#, label_w - 8.0, y + gh / 2.0 + 4.0, esc(&g.label));
        for b in &g.bars {
            let idx = series.iter().position(|x| x == &b.series).unwrap_or(0);
            let c = PALETTE[idx % PALETTE.len()];
            let w = (x(b.value) - label_w).max(1.0);
            let _ = writeln!(
                s,
                r#"<rect x="{label_w}" y="{y:.1}" width="{w:.1}" height="{bar_h}" fill="{c}"><title>{} {}: {}</title></rect>"#,
                esc(&g.label),
                esc(&b.series),
                fmt_value(b.value)
            );
            let _ = writeln!(s, r##"<text x="{:.1}" y="{:.1}" fill="#333">{}</text>"##, label_w + w + 4.0, y + bar_h - 1.5, fmt_value(b.value));
            if let Some(m) = b.marker.filter(|m| *m > 0.0) {
                let mx = x(m);
                let _ = writeln!(
                    s,
                    r#"<line x1="{mx:.1}" y1="{:.1}" x2="{mx:.1}" y2="{:.1}" stroke="black" stroke-width="2"><title>{}: {}</title></line>"#,
                    y - 1.0,
                    y + bar_h + 1.0,
                    esc(marker_label.unwrap_or("marker")),
                    fmt_value(m)
                );
            }
            y += bar_h + gap;
        }
        y += group_gap;
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_is_well_formed() {
        let g = vec![Group {
            label: "smo-produce-consume A <x>".into(),
            bars: vec![
                Bar { series: "lefe".into(), value: 81.0, marker: Some(81.0) },
                Bar { series: "smo".into(), value: 17.0, marker: None },
            ],
        }];
        let s = hbar_chart("sizes", "cells", &g, &["lefe".into(), "smo".into()], Some("paper"));
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("&lt;x&gt;"));
        assert_eq!(s.matches("height=\"11\" fill=").count(), 2, "{s}");
    }
}
