//! Minimal SVG plots (no dependency): grouped horizontal bar charts on a log scale,
//! one group per example, one bar per series (method or backend), with an optional
//! marker per bar (the paper's value); and panels of log-log line charts (the scale
//! suite: a quantity against the size of the input, one line per series).

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
    let (lo, hi) = log_range(groups.iter().flat_map(|g| g.bars.iter().flat_map(|b| [Some(b.value), b.marker]).flatten()));
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
            let _ = writeln!(
                s,
                r#"<line x1="{lx}" y1="26" x2="{lx}" y2="40" stroke="black" stroke-width="2"/><text x="{}" y="37">{}</text>"#,
                lx + 6.0,
                esc(m)
            );
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
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#333">{}</text>"##,
        label_w + plot_w / 2.0,
        top + rows + 32.0,
        esc(x_label)
    );
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

/// One line of a [`line_panels`] chart.
#[derive(Clone, Debug)]
pub struct Line {
    /// The series (colour and legend entry).
    pub series: String,
    /// Written at the line's last point (e.g. `n=3`).
    pub label: String,
    /// `(x, y)` points, `x` and `y` > 0 (log scales), in order of `x`.
    pub points: Vec<(f64, f64)>,
}

/// A panel of a [`line_panels`] chart.
#[derive(Clone, Debug)]
pub struct Panel {
    pub title: String,
    pub lines: Vec<Line>,
}

fn log_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let v: Vec<f64> = values.filter(|v| *v > 0.0 && v.is_finite()).collect();
    if v.is_empty() {
        return (1.0, 10.0);
    }
    let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = v.iter().cloned().fold(0.0, f64::max);
    let lo = 10f64.powf(lo.log10().floor());
    let hi = 10f64.powf(hi.log10().ceil().max(lo.log10() + 1.0));
    (lo, hi)
}

/// Panels stacked vertically, each a log-log chart of lines; the axes are shared.
pub fn line_panels(title: &str, x_label: &str, y_label: &str, panels: &[Panel], series: &[String]) -> String {
    let left = 70.0;
    let plot_w = 560.0;
    let right = 60.0;
    let panel_h = 170.0;
    let panel_gap = 46.0;
    let top = 60.0;
    let width = left + plot_w + right;
    let height = top + panels.len() as f64 * (panel_h + panel_gap) + 20.0;
    let (xlo, xhi) = log_range(panels.iter().flat_map(|p| p.lines.iter().flat_map(|l| l.points.iter().map(|q| q.0))));
    let (ylo, yhi) = log_range(panels.iter().flat_map(|p| p.lines.iter().flat_map(|l| l.points.iter().map(|q| q.1))));
    let xs = |v: f64| left + (v.max(xlo).log10() - xlo.log10()) / (xhi.log10() - xlo.log10()) * plot_w;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="10" y="18" font-size="14" font-weight="bold">{}</text>"#, esc(title));
    let mut lx = left;
    for (i, name) in series.iter().enumerate() {
        let c = PALETTE[i % PALETTE.len()];
        let _ = writeln!(s, r#"<rect x="{lx}" y="30" width="12" height="10" fill="{c}"/><text x="{}" y="39">{}</text>"#, lx + 16.0, esc(name));
        lx += 30.0 + 7.0 * name.len() as f64;
    }
    for (k, panel) in panels.iter().enumerate() {
        let y0 = top + k as f64 * (panel_h + panel_gap);
        let ys = |v: f64| y0 + panel_h - (v.max(ylo).log10() - ylo.log10()) / (yhi.log10() - ylo.log10()) * panel_h;
        let _ = writeln!(s, r#"<text x="{left}" y="{:.1}" font-weight="bold">{}</text>"#, y0 - 6.0, esc(&panel.title));
        let _ = writeln!(s, r##"<rect x="{left}" y="{y0:.1}" width="{plot_w}" height="{panel_h}" fill="none" stroke="#999"/>"##);
        let mut p = ylo;
        while p <= yhi * 1.0001 {
            let gy = ys(p);
            let _ = writeln!(s, r##"<line x1="{left}" y1="{gy:.1}" x2="{:.1}" y2="{gy:.1}" stroke="#eee"/>"##, left + plot_w);
            let _ = writeln!(s, r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555">{}</text>"##, left - 4.0, gy + 4.0, fmt_value(p));
            p *= 10.0;
        }
        let mut q = xlo;
        while q <= xhi * 1.0001 {
            let gx = xs(q);
            let _ = writeln!(s, r##"<line x1="{gx:.1}" y1="{y0:.1}" x2="{gx:.1}" y2="{:.1}" stroke="#eee"/>"##, y0 + panel_h);
            let _ = writeln!(s, r##"<text x="{gx:.1}" y="{:.1}" text-anchor="middle" fill="#555">{}</text>"##, y0 + panel_h + 13.0, fmt_value(q));
            q *= if xhi / xlo > 1000.0 { 10.0 } else { 2.0 };
        }
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#333">{}</text>"##,
            left + plot_w / 2.0,
            y0 + panel_h + 28.0,
            esc(x_label)
        );
        let _ = writeln!(
            s,
            r##"<text x="14" y="{:.1}" fill="#333" transform="rotate(-90 14 {:.1})" text-anchor="middle">{}</text>"##,
            y0 + panel_h / 2.0,
            y0 + panel_h / 2.0,
            esc(y_label)
        );
        for line in &panel.lines {
            let idx = series.iter().position(|x| x == &line.series).unwrap_or(0);
            let c = PALETTE[idx % PALETTE.len()];
            let pts: Vec<String> = line.points.iter().map(|&(x, y)| format!("{:.1},{:.1}", xs(x), ys(y))).collect();
            if pts.is_empty() {
                continue;
            }
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="1.5"><title>{} {}</title></polyline>"#,
                pts.join(" "),
                esc(&line.series),
                esc(&line.label)
            );
            for &(x, y) in &line.points {
                let _ = writeln!(s, r#"<circle cx="{:.1}" cy="{:.1}" r="2" fill="{c}"/>"#, xs(x), ys(y));
            }
            if let Some(&(x, y)) = line.points.last() {
                let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}" fill="{c}" font-size="9">{}</text>"#, xs(x) + 4.0, ys(y) + 3.0, esc(&line.label));
            }
        }
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
            bars: vec![Bar { series: "lefe".into(), value: 81.0, marker: Some(81.0) }, Bar { series: "smo".into(), value: 17.0, marker: None }],
        }];
        let s = hbar_chart("sizes", "cells", &g, &["lefe".into(), "smo".into()], Some("paper"));
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("&lt;x&gt;"));
        assert_eq!(s.matches("height=\"11\" fill=").count(), 2, "{s}");
    }

    #[test]
    fn line_chart_is_well_formed() {
        let panels = vec![Panel {
            title: "smo <n>".into(),
            lines: vec![Line { series: "microlp".into(), label: "n=2".into(), points: vec![(1.0, 0.5), (2.0, 1.5), (64.0, 120.0)] }],
        }];
        let s = line_panels("scale", "pieces", "ms", &panels, &["microlp".into()]);
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("smo &lt;n&gt;"));
        assert_eq!(s.matches("<polyline").count(), 1);
        assert_eq!(s.matches("<circle").count(), 3);
    }
}
