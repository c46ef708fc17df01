//! Markdown cells of the harness's tables.

/// Text for a table cell (no `|`, no line break).
pub fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// A code cell: `` `text` ``, or `-` when empty.
pub fn code(s: Option<&str>) -> String {
    match s {
        Some(s) if !s.is_empty() => format!("`{}`", s.replace('`', "'").replace('|', "\\|")),
        _ => "-".into(),
    }
}

/// Bytes with a decimal unit (`4.0 MB`).
pub fn human_bytes(b: u64) -> String {
    let b = b as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.1} kB", b / 1e3)
    } else {
        format!("{b} B")
    }
}
