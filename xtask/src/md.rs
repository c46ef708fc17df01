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
