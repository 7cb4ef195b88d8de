//! Tool outputs as the tools print them: cargo's test and build logs, Claude Code's `Read`
//! (numbered lines) and `Grep` (path:line:text), edit confirmations. Sizes follow a long tail:
//! most outputs are a few lines, some are hundreds.

use rand::rngs::StdRng;
use rand::Rng;

use super::names::{filler_test, pick, CODE_WORDS, DEPS};

/// How long an output is: small (a few lines), medium, or large.
pub fn lines(rng: &mut StdRng) -> usize {
    match rng.gen_range(0..100) {
        0..=44 => rng.gen_range(4..20),
        45..=84 => rng.gen_range(30..110),
        _ => rng.gen_range(150..420),
    }
}

/// A test run of `total` tests in `module`; `failing` (name, file:line, left, right) fails.
pub struct TestRun<'a> {
    pub krate: &'a str,
    pub module: &'a str,
    pub total: u64,
    pub failing: Option<(&'a str, &'a str, u64, u64)>,
}

pub fn cargo_test(rng: &mut StdRng, run: &TestRun<'_>) -> String {
    let n = rng.gen_range(0..6);
    let mut out = compile_lines(rng, n, run.krate);
    out.push_str(&format!(
        "    Finished `test` profile [unoptimized + debuginfo] target(s) in {}.{:02}s\n     Running unittests src/lib.rs (target/debug/deps/acme_{}-{:016x})\n\nrunning {} tests\n",
        rng.gen_range(2..40),
        rng.gen_range(0..100),
        run.krate,
        rng.gen::<u64>(),
        run.total
    ));
    // One line per test is what cargo prints; long runs are shown in part, as a tool that cuts
    // its output would (the count stays in the summary line).
    let shown = (lines(rng) as u64).min(run.total);
    let fail_at = rng.gen_range(0..shown.max(1));
    for i in 0..shown {
        if let (Some((name, ..)), true) = (run.failing, i == fail_at) {
            out.push_str(&format!("test {name} ... FAILED\n"));
        } else {
            out.push_str(&format!("test {} ... ok\n", filler_test(rng, run.module)));
        }
    }
    match run.failing {
        Some((name, at, left, right)) => out.push_str(&format!(
            "\nfailures:\n\n---- {name} stdout ----\nthread '{name}' panicked at {at}:\nassertion `left == right` failed\n  left: {left}\n right: {right}\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\nfailures:\n    {name}\n\ntest result: FAILED. {} passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.{:02}s\n\nerror: test failed, to rerun pass `-p acme-{} --lib`",
            run.total - 1,
            rng.gen_range(1..100),
            run.krate
        )),
        None => out.push_str(&format!(
            "\ntest result: ok. {} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.{:02}s",
            run.total,
            rng.gen_range(1..100)
        )),
    }
    out
}

/// `cargo build` ending in one error at `at` naming `ident`, or finishing.
pub fn cargo_build(rng: &mut StdRng, krate: &str, error: Option<(&str, &str)>) -> String {
    let n = lines(rng);
    let mut out = compile_lines(rng, n, krate);
    match error {
        Some((ident, at)) => {
            let line: String = at.rsplit(':').nth(1).unwrap_or("1").to_owned();
            out.push_str(&format!(
                "error[E0425]: cannot find value `{ident}` in this scope\n  --> {at}\n   |\n{line} |     let {} = {ident} * 2;\n   |             ^^^^^^^^^^^^ not found in this scope\n\nFor more information about this error, try `rustc --explain E0425`.\nerror: could not compile `acme-{krate}` (lib) due to 1 previous error",
                pick(rng, &CODE_WORDS)
            ));
        }
        None => out.push_str(&format!(
            "    Finished `dev` profile [unoptimized + debuginfo] target(s) in {}.{:02}s",
            rng.gen_range(1..90),
            rng.gen_range(0..100)
        )),
    }
    out
}

fn compile_lines(rng: &mut StdRng, n: usize, krate: &str) -> String {
    let mut out = String::new();
    for _ in 0..n {
        out.push_str(&format!(
            "   Compiling {} v{}.{}.{}\n",
            pick(rng, &DEPS),
            rng.gen_range(0..4),
            rng.gen_range(0..40),
            rng.gen_range(0..20)
        ));
    }
    out.push_str(&format!(
        "   Compiling acme-{krate} v0.{}.0 (/work/acme/crates/acme-{krate})\n",
        rng.gen_range(1..9)
    ));
    out
}

/// A file as Claude Code's `Read` shows it: `{n:>6}→{line}`, with `landmark` on one line.
pub fn file_read(rng: &mut StdRng, landmark: Option<(usize, &str)>) -> String {
    let n = lines(rng).max(landmark.map_or(0, |(at, _)| at + 3));
    let mut out = String::new();
    for i in 1..=n {
        let text = match landmark {
            Some((at, text)) if at == i => text.to_owned(),
            _ => code_line(rng, i),
        };
        out.push_str(&format!("{i:>6}→{text}\n"));
    }
    out
}

/// One plausible line of Rust.
pub fn code_line(rng: &mut StdRng, i: usize) -> String {
    let (a, b) = (pick(rng, &CODE_WORDS), pick(rng, &CODE_WORDS));
    match i % 9 {
        0 => String::new(),
        1 => format!(
            "    let {a} = self.{b}.get({}).copied().unwrap_or_default();",
            i % 7
        ),
        2 => format!("    if {a}.len() > {} {{", 16 + i % 48),
        3 => format!("        return Err(Error::Invalid(\"{a} too long\"));"),
        4 => "    }".to_owned(),
        5 => format!("    for {a} in &self.{b} {{ total += {a}.len(); }}"),
        6 => format!("/// Returns the {a} of the {b}."),
        7 => format!("pub fn {a}_{b}(&self) -> usize {{"),
        _ => format!("    self.{a}.insert({b}.clone(), {});", i % 11),
    }
}

/// `Grep` output: `path:line:text`, with `landmark` (path:line, text) among the matches.
pub fn grep(rng: &mut StdRng, krate: &str, landmark: Option<(&str, &str)>) -> String {
    let n = lines(rng).min(120);
    let at = rng.gen_range(0..n.max(1));
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        match landmark {
            Some((place, text)) if i == at => out.push(format!("{place}:{text}")),
            _ => {
                let (file, line, kind) = (
                    pick(rng, &CODE_WORDS),
                    rng.gen_range(1..900),
                    rng.gen_range(1..9),
                );
                out.push(format!(
                    "crates/acme-{krate}/src/{file}.rs:{line}:{}",
                    code_line(rng, kind)
                ))
            }
        }
    }
    out.join("\n")
}

/// What `Edit` answers: the path and a numbered snippet around the change.
pub fn edit_result(rng: &mut StdRng, path: &str, new: &str) -> String {
    let start = rng.gen_range(10..400);
    let mut out = format!("The file {path} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n");
    for i in 0..rng.gen_range(5..14) {
        let text = if i == 3 {
            new.to_owned()
        } else {
            code_line(rng, start + i)
        };
        out.push_str(&format!("{:>6}→{text}\n", start + i));
    }
    out
}
