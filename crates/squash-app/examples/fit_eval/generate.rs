//! Generated agent sessions: turn after turn of a request, the agent's tool calls with their
//! outputs (test runs with a failure and its fix, builds with an error and its fix, searches
//! and file reads) and an answer. Each turn plants the facts it checks; seeded, deterministic
//! for the locked `rand` 0.8.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use squash_core::{ContentItem, Role};

use super::names::{pick, Phrase, Unique, CRATES, MODULES};
use super::outputs::{self, TestRun};

/// A generated session: messages in order and the facts its turns planted.
pub struct Generated {
    pub messages: Vec<(Role, Vec<ContentItem>)>,
    pub facts: Vec<Vec<String>>,
    pub turns: usize,
}

/// Turns until the session holds at least `target` messages.
pub fn session(seed: u64, target: usize) -> Generated {
    let mut g = Gen {
        rng: StdRng::seed_from_u64(seed),
        unique: None,
        next_id: 0,
        out: Generated {
            messages: Vec::new(),
            facts: Vec::new(),
            turns: 0,
        },
    };
    g.unique = Some(Unique::new(&mut g.rng));
    while g.out.messages.len() < target {
        g.turn();
    }
    g.out
}

struct Gen {
    rng: StdRng,
    unique: Option<Unique>,
    next_id: u64,
    out: Generated,
}

impl Gen {
    fn turn(&mut self) {
        self.out.turns += 1;
        let phrase = self.unique().phrase();
        let krate = pick(&mut self.rng, &CRATES);
        let module = pick(&mut self.rng, &MODULES);
        match self.rng.gen_range(0..100) {
            0..=34 => self.fix_test(&phrase, krate, module),
            35..=59 => self.add_flag(&phrase, krate),
            60..=84 => self.investigate(&phrase, krate, module),
            _ => self.chat(&phrase),
        }
    }

    fn unique(&mut self) -> &mut Unique {
        self.unique.as_mut().expect("set in session()")
    }

    fn number(&mut self) -> u64 {
        let Gen { rng, unique, .. } = self;
        unique.as_mut().expect("set").number(rng)
    }

    fn fact(&mut self, spellings: &[String]) {
        self.out.facts.push(spellings.to_vec());
    }

    fn request(&mut self, text: String) {
        self.out
            .messages
            .push((Role::User, vec![ContentItem::UserMessage { text }]));
    }

    fn say(&mut self, text: String) {
        self.out.messages.push((
            Role::Assistant,
            vec![ContentItem::text_for(Role::Assistant, text)],
        ));
    }

    /// An assistant message with optional text and one tool call, then the tool's result.
    fn tool(
        &mut self,
        text: Option<String>,
        name: &str,
        input: Value,
        output: String,
        error: bool,
    ) {
        self.next_id += 1;
        let id = format!("toolu_{:06}", self.next_id);
        let mut content: Vec<ContentItem> = text
            .map(|t| ContentItem::text_for(Role::Assistant, t))
            .into_iter()
            .collect();
        content.push(ContentItem::tool_call(id.clone(), name, input));
        self.out.messages.push((Role::Assistant, content));
        self.out.messages.push((
            Role::User,
            vec![ContentItem::tool_result(id, name, output, error)],
        ));
    }

    /// Claude Code's to-do bookkeeping, in some turns.
    fn maybe_todo(&mut self, task: &str) {
        if self.rng.gen_bool(0.3) {
            self.tool(
                None,
                "TodoWrite",
                json!({"todos": [{"content": task, "status": "in_progress", "activeForm": task}]}),
                "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable".into(),
                false,
            );
        }
    }

    /// A failing test found by a test run, read, fixed and run again.
    fn fix_test(&mut self, p: &Phrase, krate: &str, module: &str) {
        let snake = p.snake();
        let file = format!("crates/acme-{krate}/src/{module}/{snake}.rs");
        let test = format!("{module}::{snake}::tests::rejects_{snake}");
        let line = self.rng.gen_range(20..300);
        let total = self.number();
        self.request(format!(
            "The {module} tests in acme-{krate} fail since the {} change landed. Please fix them without touching the public API.",
            p.words()
        ));
        self.maybe_todo(&format!("Fix the failing {module} tests"));
        let run = TestRun {
            krate,
            module,
            total,
            failing: None,
        };
        let at = format!("{file}:{line}:9");
        let left = self.rng.gen_range(1..50);
        let failing = outputs::cargo_test(
            &mut self.rng,
            &TestRun {
                failing: Some((&test, &at, left, left + 1)),
                ..run
            },
        );
        let cmd = json!({"command": format!("cargo test -p acme-{krate}"), "description": format!("Run the acme-{krate} tests")});
        self.tool(
            Some(format!("I'll run the acme-{krate} tests first.")),
            "Bash",
            cmd.clone(),
            failing,
            true,
        );
        let landmark = format!("    if {}.age <= limit {{", p.noun);
        let read = outputs::file_read(&mut self.rng, Some((line, &landmark)));
        self.tool(
            None,
            "Read",
            json!({"file_path": format!("/work/acme/{file}")}),
            read,
            false,
        );
        let new = format!("    if {}.age < limit {{", p.noun);
        let edited = outputs::edit_result(&mut self.rng, &format!("/work/acme/{file}"), &new);
        self.tool(
            Some(format!("`check_{snake}` compares the {}'s age with `<=` where the contract says `<`, so a {} at the limit slips through.", p.noun, p.words())),
            "Edit",
            json!({"file_path": format!("/work/acme/{file}"), "old_string": landmark, "new_string": new}),
            edited,
            false,
        );
        let passing = outputs::cargo_test(&mut self.rng, &run);
        self.tool(None, "Bash", cmd, passing, false);
        if self.rng.gen_bool(0.5) {
            self.say(format!("Fixed `rejects_{snake}`: `check_{snake}` in {file} now rejects a {} at the limit. All {total} tests of acme-{krate} pass.", p.words()));
        } else {
            self.say(format!(
                "Fixed: the comparison was off by one. The acme-{krate} tests pass again."
            ));
        }
        self.fact(&[p.words()]);
        self.fact(&[format!("rejects_{snake}")]);
        self.fact(&[file.clone(), format!("{module}/{snake}.rs")]);
        self.fact(&[format!("{total} passed"), format!("{total} tests")]);
    }

    /// A new option: written, a build error, fixed, built and tried.
    fn add_flag(&mut self, p: &Phrase, krate: &str) {
        let (snake, kebab) = (p.snake(), p.kebab());
        let file = format!("crates/acme-{krate}/src/sync/{snake}.rs");
        let ident = format!("{snake}_limit");
        let default = self.rng.gen_range(2..60);
        let records = self.number();
        self.request(format!(
            "Add a `--{kebab}` option to `acme {krate} sync` that skips every {} older than the given number of days.",
            p.words()
        ));
        self.maybe_todo(&format!("Add --{kebab} to acme {krate} sync"));
        let cli = format!("crates/acme-{krate}/src/cli.rs");
        let place = format!("{cli}:{}", self.rng.gen_range(10..200));
        let grep = outputs::grep(
            &mut self.rng,
            krate,
            Some((&place, "pub struct SyncArgs {")),
        );
        self.tool(
            Some("Let me find where the sync options are parsed.".into()),
            "Grep",
            json!({"pattern": "struct SyncArgs", "path": format!("crates/acme-{krate}")}),
            grep,
            false,
        );
        let body: String = (1..self.rng.gen_range(20..70))
            .map(|i| outputs::code_line(&mut self.rng, i) + "\n")
            .collect();
        self.tool(None, "Write", json!({"file_path": format!("/work/acme/{file}"), "content": format!("{body}    skip_older(items, {ident})\n")}),
            format!("File created successfully at: /work/acme/{file}"), false);
        let line = self.rng.gen_range(20..70);
        let build = outputs::cargo_build(
            &mut self.rng,
            krate,
            Some((&ident, &format!("{file}:{line}:21"))),
        );
        let cmd = format!("cargo build -p acme-{krate}");
        self.tool(
            None,
            "Bash",
            json!({"command": cmd, "description": "Build"}),
            build,
            true,
        );
        let new = format!("    let {ident} = args.{snake}.unwrap_or({default});");
        let edited = outputs::edit_result(&mut self.rng, &format!("/work/acme/{file}"), &new);
        self.tool(Some(format!("`{ident}` is used before it is defined; it comes from the option, {default} days by default.")),
            "Edit", json!({"file_path": format!("/work/acme/{file}"), "old_string": "    skip_older(items, ", "new_string": format!("{new}\n    skip_older(items, ")}), edited, false);
        let mut ok = outputs::cargo_build(&mut self.rng, krate, None);
        ok.push_str(&format!(
            "\ndry run: {records} records would be skipped, {} kept",
            self.rng.gen_range(10..5000)
        ));
        self.tool(None, "Bash", json!({"command": format!("{cmd} && ./target/debug/acme {krate} sync --{kebab} {default} --dry-run")}), ok, false);
        if self.rng.gen_bool(0.5) {
            self.say(format!("Added `--{kebab}` (default {default} days) in {file}. A dry run skips {records} records."));
        } else {
            self.say(format!(
                "Done: `acme {krate} sync --{kebab}` works and the build is clean."
            ));
        }
        self.fact(&[format!("--{kebab}")]);
        self.fact(&[ident]);
        self.fact(&[file.clone(), format!("sync/{snake}.rs")]);
        self.fact(&[format!("{records} records")]);
    }

    /// A question answered from a search and a file read.
    fn investigate(&mut self, p: &Phrase, krate: &str, module: &str) {
        let (snake, kebab) = (p.snake(), p.kebab());
        let file = format!("crates/acme-{krate}/src/{module}.rs");
        let handler = format!("handle_{snake}");
        let line = self.rng.gen_range(20..400);
        self.request(format!(
            "Where do we handle a {} in acme-{krate}? I want to understand it before changing anything.",
            p.words()
        ));
        let signature = format!(
            "pub fn {handler}(&mut self, {}: {}) -> Result<()> {{",
            p.noun, p.noun
        );
        let grep = outputs::grep(
            &mut self.rng,
            krate,
            Some((&format!("{file}:{line}"), &signature)),
        );
        self.tool(None, "Grep", json!({"pattern": p.noun, "path": format!("crates/acme-{krate}"), "output_mode": "content", "-n": true}), grep, false);
        let landmark = format!("#[cfg(feature = \"{kebab}\")] {signature}");
        let read = outputs::file_read(&mut self.rng, Some((line, &landmark)));
        self.tool(
            None,
            "Read",
            json!({"file_path": format!("/work/acme/{file}")}),
            read,
            false,
        );
        self.say(format!(
            "`{handler}` in {file}:{line} handles it: it checks the {}'s age, drops it when expired, and is compiled only with the `{kebab}` feature.",
            p.noun
        ));
        self.fact(&[p.words()]);
        self.fact(&[handler]);
        self.fact(&[
            format!("`{kebab}` feature"),
            format!("feature = \"{kebab}\""),
            format!("{kebab} feature"),
        ]);
    }

    /// A design question answered in prose: a decision with its numbers.
    fn chat(&mut self, p: &Phrase) {
        let (rate, ttl) = (self.number(), self.number());
        self.request(format!(
            "Should the {} be cached or recomputed on every request? We see about {rate} requests per second.",
            p.words()
        ));
        self.say(format!(
            "Cache it: at {rate} requests per second recomputing costs more than the memory does. Use a TTL of {ttl} ms so that a rotated key is picked up quickly, and put the cache behind a `{}-cache` setting so it can be turned off.",
            p.kebab()
        ));
        self.fact(&[p.words()]);
        self.fact(&[format!("{ttl} ms"), format!("{ttl}ms")]);
        self.fact(&[format!("{}-cache", p.kebab())]);
    }
}
