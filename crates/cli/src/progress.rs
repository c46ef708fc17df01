//! Progress of `polyalloc allocate` on standard error.
//!
//! Decision: progress is drawn **only when standard error is a terminal**, as one line
//! rewritten in place (`example / array / method / backend: 12 s of 60 s`) for a run
//! that has lasted over a second, and erased when its record is printed. Redirected to
//! a file or a pipe, standard error gets no progress (scripts and CI logs stay exactly
//! the records and the errors), as `cargo xtask`'s progress bar does.
//!
//! Records are printed through [`Progress::print`] as one write under
//! `polyalloc::output::exclusive`, so that an interruption never cuts one.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs shorter than this show no progress.
const SHOW_AFTER: Duration = Duration::from_secs(1);
/// How often the line is redrawn.
const TICK: Duration = Duration::from_millis(200);

#[derive(Default)]
struct State {
    current: Option<(String, Instant)>,
    drawn: bool,
    done: bool,
}

/// The progress line of one `allocate` command.
pub struct Progress {
    state: Arc<Mutex<State>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// The progress line of a run: `label: 12 s of 60 s` (or `12 s, no time limit`).
pub fn line(label: &str, elapsed: Duration, budget: Option<Duration>) -> String {
    match budget {
        Some(b) => format!("polyalloc: {label}: {} s of {} s", elapsed.as_secs(), b.as_secs_f64()),
        None => format!("polyalloc: {label}: {} s, no time limit", elapsed.as_secs()),
    }
}

fn lock(state: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|p| p.into_inner())
}

impl Progress {
    /// Starts the drawing thread when standard error is a terminal.
    pub fn start(budget: Option<Duration>) -> Progress {
        let state = Arc::new(Mutex::new(State::default()));
        let thread = std::io::stderr().is_terminal().then(|| {
            let state = Arc::clone(&state);
            std::thread::spawn(move || loop {
                std::thread::sleep(TICK);
                let mut s = lock(&state);
                if s.done {
                    break;
                }
                if let Some((label, start)) = &s.current {
                    let elapsed = start.elapsed();
                    if elapsed >= SHOW_AFTER {
                        let text = line(label, elapsed, budget);
                        let _out = polyalloc::output::exclusive();
                        let mut err = std::io::stderr().lock();
                        let _ = write!(err, "\r\x1b[2K{text}");
                        let _ = err.flush();
                        s.drawn = true;
                    }
                }
            })
        });
        Progress { state, thread }
    }

    /// A run starts.
    pub fn begin(&self, label: String) {
        lock(&self.state).current = Some((label, Instant::now()));
    }

    /// The run ended: erases the progress line and prints its record to standard
    /// output in one write.
    pub fn print(&self, text: &str) -> std::io::Result<()> {
        let mut s = lock(&self.state);
        s.current = None;
        let _out = polyalloc::output::exclusive();
        if std::mem::take(&mut s.drawn) {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
        // A write error (a full device, a closed pipe) is the run's error.
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(text.as_bytes())?;
        stdout.flush()
    }

    /// Stops the drawing thread and erases the line.
    pub fn finish(mut self) {
        {
            let mut s = lock(&self.state);
            s.done = true;
            s.current = None;
            if std::mem::take(&mut s.drawn) {
                let _out = polyalloc::output::exclusive();
                eprint!("\r\x1b[2K");
            }
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_run_and_the_budget() {
        assert_eq!(
            line("ex / A / smo / microlp", Duration::from_millis(12_400), Some(Duration::from_secs(60))),
            "polyalloc: ex / A / smo / microlp: 12 s of 60 s"
        );
        assert_eq!(line("x", Duration::from_secs(3), None), "polyalloc: x: 3 s, no time limit");
    }
}
