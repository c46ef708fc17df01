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

/// A Markdown table: a header row, the separator, then one line per row. Cells are
/// written as given (escape them with [`cell`] or [`code`] where they may hold `|`).
pub struct Table {
    head: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headers.
    pub fn new<S: AsRef<str>>(head: &[S]) -> Table {
        Table { head: head.iter().map(|h| h.as_ref().to_string()).collect(), rows: Vec::new() }
    }

    /// Appends a row (as many cells as headers: checked when rendered).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// `| a | b |`, `|---|---|`, then the rows. A row with another number of cells than
    /// the header is a bug of the caller: it is rendered padded with `-` (or cut), and
    /// debug builds stop on it.
    pub fn render(&self) -> String {
        let n = self.head.len();
        let line = |cells: &[String]| {
            let mut s = String::from("|");
            for k in 0..n {
                s.push(' ');
                s.push_str(cells.get(k).map_or("-", String::as_str));
                s.push_str(" |");
            }
            s.push('\n');
            s
        };
        let mut s = line(&self.head);
        s.push('|');
        s.push_str(&"---|".repeat(n));
        s.push('\n');
        for r in &self.rows {
            debug_assert_eq!(r.len(), n, "a table row of {} cells under {n} headers", r.len());
            s.push_str(&line(r));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_renders_header_separator_and_rows() {
        let mut t = Table::new(&["a", "b"]);
        t.row(vec!["1".into(), cell("x|y")]);
        assert_eq!(t.render(), "| a | b |\n|---|---|\n| 1 | x\\|y |\n");
        assert_eq!(Table::new(&["only"]).render(), "| only |\n|---|\n");
    }
}
