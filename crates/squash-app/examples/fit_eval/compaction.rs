//! The comparison with the agent's own compaction (QUALITY.md, "Against the agent's own
//! compaction"): for each real Claude Code session with a `/compact` in it, the history before
//! the compaction is imported into a fresh store, fitted with the defaults and no model at 25%
//! of its tokens and at the size of the agent's summary, read back, and scored — as is the
//! agent's summary itself — by the specifics the history held ([`super::specifics`]) and by
//! key facts written by hand (testdata/eval/compaction_facts.json, the tuning set, and
//! compaction_facts_heldout.json beside it, sessions no tuning has seen).

use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};
use std::time::Instant;

use regex::Regex;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use squash_app::fit::{message_cost, FitService, FitStrategy, StepAction};
use squash_app::import::{ImportOptions, NoProgress};
use squash_app::{ConversationService, SquashEngine};
use squash_core::fit::FitRequest;
use squash_core::prompt::SquashStyle;
use squash_core::tokens::{format_count, message_tokens};
use squash_core::{ConversationId, Message, Role};
use squash_llm::ChatModel;
use squash_store::sqlite::SqliteStore;

use super::specifics::{self, Kind, Specific, Tally};

/// One session of testdata/eval/compaction_facts.json.
#[derive(Clone, Debug, Deserialize)]
pub struct Entry {
    pub name: String,
    /// The session file, under testdata/sessions.
    pub session: String,
    /// The agent that wrote it: Claude Code unless said (`codex`).
    #[serde(default)]
    pub agent: Option<String>,
    pub facts: Vec<Vec<String>>,
    /// Which held-out set it is of: 0 for the tuning set (compaction_facts.json), N for
    /// compaction_facts_heldout.json (1) and compaction_facts_heldoutN.json (N ≥ 2).
    #[serde(skip)]
    pub held_out: u8,
    /// Whether its missing facts are printed: a held-out set's are not unless asked
    /// (`--show-held-out`), so that running the evaluation does not show what tuning must not
    /// see; its sums and its JSON lines are as for any set.
    #[serde(skip)]
    pub list_misses: bool,
}

/// A session cut at its compaction.
pub struct Case {
    pub entry: Entry,
    /// The lines before the compaction's boundary, as the file has them.
    pub history: Vec<String>,
    /// The history's chain as Claude Code lines: from the compaction's logical parent back to
    /// the root (a Codex history is read into the same shape, for the scorer).
    pub chain: Vec<Value>,
    pub cwd: String,
    /// The agent's compaction summary, as it was handed to the model afterwards.
    pub summary: String,
    /// Whether the summary is sealed (encrypted): only its readable rest can be scored.
    pub sealed: bool,
    /// The hand-written questions about the facts a fit at the summary's size leaves out.
    pub questions: Vec<super::recall::Question>,
}

/// One way of making the history small, scored.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub case: String,
    /// Of a held-out session: which set (testdata/SOURCES.md, "Held-out sessions (issue 29)"
    /// and "Held-out sessions 2 (issue 29)"); 0 for the tuning set.
    #[serde(skip_serializing_if = "is_zero")]
    pub held_out: u8,
    pub method: String,
    pub history_messages: usize,
    pub history_tool_calls: usize,
    /// Product's count of the history, of the budget, and of the thread read back.
    pub tokens_before: u64,
    pub budget: Option<u64>,
    pub tokens_after: u64,
    pub messages_after: usize,
    pub specifics: Tally,
    pub facts_total: usize,
    pub facts_kept: usize,
    pub facts_missing: Vec<String>,
    /// Steps by level, for the fits.
    pub levels: Vec<(String, usize)>,
    /// Of a fit: the oldest requests its plan took into digests.
    pub requests_folded: usize,
    /// Of a fit: its references, and the key facts that left the thread given back by recall.
    pub recall: Option<super::recall::RecallScore>,
    /// Of a hybrid fit: its digests that carry the model's gist, and all its digests that left
    /// room for one.
    pub gists: Option<(usize, usize)>,
    /// Terms of the result the history never had, and phrases about the squash, by the squash
    /// evaluation's scorer (examples/eval/score.rs), which reads nothing of the product's.
    pub invented: Vec<String>,
    pub meta: Vec<String>,
    pub seconds: f64,
    pub error: Option<String>,
}

/// How many held-out sets are looked for beside the tuning set.
const HELD_OUT_SETS: u8 = 4;

fn is_zero(set: &u8) -> bool {
    *set == 0
}

/// The label of a set's sums.
fn set_label(set: u8) -> String {
    match set {
        0 => "**all**".to_owned(),
        1 => "**all, held out**".to_owned(),
        n => format!("**all, held out {n}**"),
    }
}

pub fn load(root: &Path, facts: &Path) -> Result<Vec<Case>, String> {
    let read =
        |path: &Path| std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
    let mut entries: Vec<Entry> =
        serde_json::from_str(&read(facts)?).map_err(|e| format!("{}: {e}", facts.display()))?;
    // The held-out sets, beside the tuning set: none of them was read while tuning.
    for set in 1u8..=HELD_OUT_SETS {
        let name = match set {
            1 => "compaction_facts_heldout.json".to_owned(),
            n => format!("compaction_facts_heldout{n}.json"),
        };
        let heldout = facts.with_file_name(name);
        if heldout == facts || !heldout.exists() {
            continue;
        }
        let read_set: Vec<Entry> = serde_json::from_str(&read(&heldout)?)
            .map_err(|e| format!("{}: {e}", heldout.display()))?;
        entries.extend(read_set.into_iter().map(|mut e| {
            e.held_out = set;
            e
        }));
    }
    let mut questions: Vec<super::recall::Question> = Vec::new();
    // The first set was the tuning set of the search's second part and tool exchanges; the
    // held-out set was written afterwards, by someone who saw neither the search nor its
    // results (testdata/SOURCES.md, "Recall questions").
    for (file, held_out) in [
        ("testdata/eval/recall_questions.json", false),
        ("testdata/eval/recall_questions_heldout.json", true),
    ] {
        let path = root.join(file);
        let read_set: Vec<super::recall::Question> =
            serde_json::from_str(&read(&path)?).map_err(|e| format!("{}: {e}", path.display()))?;
        questions.extend(read_set.into_iter().filter(|q| !q.absent).map(|mut q| {
            q.held_out = held_out;
            q
        }));
    }
    entries
        .into_iter()
        .map(|entry| {
            let mut case = cut(root, entry)?;
            case.questions = questions
                .iter()
                .filter(|q| q.session == case.entry.name)
                .cloned()
                .collect();
            Ok(case)
        })
        .collect()
}

fn cut(root: &Path, entry: Entry) -> Result<Case, String> {
    let path = root.join("testdata/sessions").join(&entry.session);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let at = |e: String| format!("{}: {e}", path.display());
    if entry.agent.as_deref() == Some("opencode") {
        // One JSON document, not lines: the history is the document cut at the compaction.
        let document: Value = serde_json::from_str(&text).map_err(|e| at(e.to_string()))?;
        let cut = super::compaction_cut::opencode(&document).map_err(at)?;
        let history = super::compaction_cut::opencode_history(&document, cut.boundary);
        return Ok(Case {
            entry,
            history: vec![history.to_string()],
            chain: cut.chain,
            cwd: cut.cwd,
            summary: cut.summary,
            sealed: cut.sealed,
            questions: Vec::new(),
        });
    }
    let lines: Vec<&str> = text.lines().collect();
    let parsed: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
        .collect();
    let cut = match entry.agent.as_deref() {
        None | Some("claude-code") => super::compaction_cut::claude(&parsed),
        Some("codex") => super::compaction_cut::codex(&parsed),
        Some(other) => Err(format!("no cut for agent {other:?}")),
    }
    .map_err(at)?;
    Ok(Case {
        entry,
        history: lines[..cut.boundary]
            .iter()
            .map(|l| (*l).to_owned())
            .collect(),
        chain: cut.chain,
        cwd: cut.cwd,
        summary: cut.summary,
        sealed: cut.sealed,
        questions: Vec::new(),
    })
}

/// The rows of one case: the agent's summary, then the default fit at 50%, 25% and 10%, at the
/// size of the agent's summary, and as small as it goes (a budget of 0, best effort). With
/// `dump`, the text a model would read of each result goes to `DUMP/CASE-METHOD.txt`.
pub async fn run(
    case: &Case,
    tmp: &Path,
    dump: Option<&Path>,
    hybrid: Option<&Hybrid>,
) -> Vec<Row> {
    // A key fact the history does not hold is a mistake in the case, not a score.
    // Held when the raw lines or their decoded strings hold it: a spelling with quotes is
    // escaped in the raw JSON (`\"`) but is what a fit's text says.
    let history_text = format!(
        "{}\n{}",
        case.history.join("\n"),
        decoded_strings(&case.history)
    );
    let history = history_text.to_lowercase();
    let absent: Vec<String> = specifics::not_held(&case.entry.facts, &history)
        .map(|s| s.join(" | "))
        .collect();
    if !absent.is_empty() {
        return vec![Row {
            case: case.entry.name.clone(),
            held_out: case.entry.held_out,
            method: "key facts".into(),
            error: Some(format!(
                "facts the history does not hold (fix the case): {absent:?}"
            )),
            ..Row::default()
        }];
    }
    let specifics = specifics::of_history(&case.chain, &case.cwd);
    let calls = case
        .chain
        .iter()
        .filter_map(|v| v.pointer("/message/content").and_then(Value::as_array))
        .flatten()
        .filter(|b| b["type"] == "tool_use")
        .count();
    let summary_tokens = summary_cost(&case.summary);
    let mut rows = Vec::new();
    let mut agent = Row {
        case: case.entry.name.clone(),
        held_out: case.entry.held_out,
        method: if case.sealed {
            "agent's /compact summary (sealed: its readable rest)".into()
        } else {
            "agent's /compact summary".into()
        },
        tokens_after: summary_tokens,
        messages_after: 1,
        ..Row::default()
    };
    score(&mut agent, case, &specifics, &case.summary, &history_text);
    let mut fits: Vec<(String, Option<f64>, Option<&Hybrid>)> = [
        ("fit, defaults, 50%", Some(0.5)),
        ("fit, defaults, 25%", Some(0.25)),
        ("fit, defaults, 10%", Some(0.1)),
        ("fit, defaults, at the summary's size", None),
        ("fit, defaults, smallest reachable", Some(0.0)),
    ]
    .into_iter()
    .map(|(label, share)| (label.to_owned(), share, None))
    .collect();
    if let Some(h) = hybrid {
        let label = format!("fit, hybrid ({}), at the summary's size", h.label);
        fits.push((label, None, Some(h)));
    }
    for (label, share, with) in fits {
        let mut row = Row {
            case: case.entry.name.clone(),
            held_out: case.entry.held_out,
            method: label,
            history_tool_calls: calls,
            ..Row::default()
        };
        let how = Fit {
            share,
            summary_tokens,
            hybrid: with,
            history: &history_text,
        };
        match fit(case, tmp, how, &specifics, &mut row).await {
            Ok(text) => write_dump(dump, &row, &text),
            Err(e) => row.error = Some(e),
        }
        agent.tokens_before = row.tokens_before;
        agent.history_messages = row.history_messages;
        rows.push(row);
    }
    agent.history_tool_calls = calls;
    write_dump(dump, &agent, &case.summary);
    rows.insert(0, agent);
    rows
}

/// Every string value of the JSON lines, one a line (a line that is not JSON is as it is).
fn decoded_strings(lines: &[String]) -> String {
    fn walk(value: &Value, out: &mut String) {
        match value {
            Value::String(s) => {
                out.push_str(s);
                out.push('\n');
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            Value::Object(map) => map.values().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = String::new();
    for line in lines {
        match serde_json::from_str::<Value>(line) {
            Ok(value) => walk(&value, &mut out),
            Err(_) => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

fn write_dump(dump: Option<&Path>, row: &Row, text: &str) {
    let Some(dir) = dump else { return };
    let method: String = row
        .method
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let path = dir.join(format!("{}-{method}.txt", row.case));
    if let Err(e) = std::fs::write(&path, text) {
        eprintln!("{}: {e}", path.display());
    }
}

/// The agent's summary, priced as the message it becomes.
/// The messages of `conv`'s current thread.
async fn thread_messages(
    service: &ConversationService,
    conv: ConversationId,
) -> Result<Vec<Message>, String> {
    let thread = service
        .current_thread(conv)
        .await
        .map_err(|e| e.to_string())?;
    Ok(thread.messages)
}

fn summary_cost(summary: &str) -> u64 {
    Message::text(ConversationId::new(), Role::User, summary)
        .map(|m| message_tokens(&m))
        .unwrap_or(0)
}

/// The model a hybrid fit asks, and how the table names it.
pub struct Hybrid {
    pub model: Arc<dyn ChatModel>,
    pub label: String,
}

/// One fit of a case: to `share` of its tokens, or to the agent's summary's size; with the
/// defaults, or hybrid with a model.
struct Fit<'a> {
    share: Option<f64>,
    summary_tokens: u64,
    hybrid: Option<&'a Hybrid>,
    /// The history's text, raw and decoded: what a term must be in not to be invented.
    history: &'a str,
}

async fn fit(
    case: &Case,
    tmp: &Path,
    how: Fit<'_>,
    specifics: &[Specific],
    row: &mut Row,
) -> Result<String, String> {
    let dir = tempfile::tempdir_in(tmp).map_err(|e| e.to_string())?;
    let file: PathBuf = dir.path().join(
        Path::new(&case.entry.session)
            .file_name()
            .ok_or("a session file has a name")?,
    );
    std::fs::write(&file, case.history.join("\n") + "\n").map_err(|e| e.to_string())?;
    let store = SqliteStore::open(dir.path().join("fit.db")).map_err(|e| e.to_string())?;
    let service = ConversationService::new(Arc::new(store));
    let summary = service
        .import_file(&file, &ImportOptions::default(), Arc::new(NoProgress))
        .await
        .map_err(|e| e.to_string())?;
    let conv = summary
        .conversations
        .iter()
        .filter(|c| !c.sidechain)
        .max_by_key(|c| c.counts.messages)
        .map(|c| c.conversation_id)
        .ok_or("no conversation imported")?;
    let before = thread_messages(&service, conv).await?;
    row.history_messages = before.len();
    row.tokens_before = before.iter().map(message_cost).sum();
    let budget = match how.share {
        Some(s) => (row.tokens_before as f64 * s) as u64,
        None => how.summary_tokens,
    };
    row.budget = Some(budget);
    let (engine, strategy) = match how.hybrid {
        Some(h) => (
            SquashEngine::new(service.clone(), h.model.clone()),
            FitStrategy::Hybrid,
        ),
        None => (
            SquashEngine::offline(service.clone()),
            FitStrategy::default(),
        ),
    };
    let fitter = FitService::new(engine);
    let started = Instant::now();
    let planned = fitter
        .plan(conv, FitRequest::new(budget, strategy))
        .await
        .map_err(|e| e.to_string())?;
    row.requests_folded = planned.plan.protection.requests_folded;
    let outcome = fitter
        .apply(planned, true, &|_| {})
        .await
        .map_err(|e| e.to_string())?;
    row.seconds = started.elapsed().as_secs_f64();
    if how.hybrid.is_some() {
        let mut gists = (0, 0);
        for done in outcome.steps.iter().filter(|d| d.step.gist_room.is_some()) {
            let op = service
                .operation(done.operation_id)
                .await
                .map_err(|e| e.to_string())?;
            gists.1 += 1;
            if op.kind.style() == Some(SquashStyle::Prose) {
                gists.0 += 1;
            }
        }
        row.gists = Some(gists);
    }
    row.levels = StepAction::ALL
        .iter()
        .map(|a| {
            let n = outcome.steps.iter().filter(|d| d.step.action == *a).count();
            (a.as_str().to_owned(), n)
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    let after = thread_messages(&service, conv).await?;
    row.messages_after = after.len();
    row.tokens_after = after.iter().map(message_cost).sum();
    let text = specifics::visible_text(&after);
    score(row, case, specifics, &text, how.history);
    let lower = text.to_lowercase();
    let missing: Vec<Vec<String>> = specifics::not_held(&case.entry.facts, &lower)
        .cloned()
        .collect();
    let mut recall = super::recall::score(&service, conv, &after, &missing).await?;
    let asked = |held_out: bool| -> Vec<&super::recall::Question> {
        case.questions
            .iter()
            .filter(|q| q.held_out == held_out && row.facts_missing.contains(&q.fact))
            .collect()
    };
    let held = asked(true);
    let held_answers = super::recall::answered(&service, conv, &held).await?;
    recall.held_questions = held.len();
    recall.held_answered = held_answers.answered;
    recall.held_answered_plain = held_answers.plain;
    let asked = asked(false);
    let answers = super::recall::answered(&service, conv, &asked).await?;
    recall.answered_plain = answers.plain;
    let (answered, mut unanswered) = (answers.answered, answers.missed);
    unanswered.extend(
        held_answers
            .missed
            .into_iter()
            .map(|m| format!("held out: {m}")),
    );
    if case.entry.list_misses && (!unanswered.is_empty() || !recall.not_recalled.is_empty()) {
        eprintln!(
            "{} {}: not recalled {:?}; search's top {} misses {unanswered:?}",
            case.entry.name,
            row.method,
            recall.not_recalled,
            super::recall::TOP
        );
    }
    (recall.questions, recall.answered, recall.unanswered) = (asked.len(), answered, unanswered);
    row.recall = Some(recall);
    Ok(text)
}

/// The recall table: per fit at the summary's size and at 25%, the references and what they
/// cost, and the key facts that left the thread and came back through recall.
pub fn recall_table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| session | method | tokens after | references | their tokens (of the thread) | key facts that left | given back by recall | questions about them: answer in search's top 5 | held-out questions: answer in top 5 |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let methods = ["25%", "summary's size", "smallest reachable"];
    // The tuning set's sums, then the held-out set's.
    let mut sums = [[RecallSum::default(); 3]; HELD_OUT_SETS as usize + 1];
    for r in rows.iter().filter(|r| r.error.is_none()) {
        let Some(s) = &r.recall else { continue };
        let Some(m) = methods.iter().position(|m| r.method.contains(m)) else {
            continue;
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} ({}) | {} | {} | {} | {} |\n",
            r.case,
            r.method,
            format_count(r.tokens_after),
            s.refs,
            format_count(s.ref_tokens),
            pct(s.ref_tokens as usize, r.tokens_after as usize),
            s.facts_left,
            cell((s.facts_recalled, s.facts_left)),
            cell((s.answered, s.questions)),
            cell((s.held_answered, s.held_questions)),
        ));
        sums[usize::from(r.held_out)][m].add(r.tokens_after, s);
    }
    let held_out = rows.iter().any(|r| r.held_out > 0);
    for (set, set_sums) in sums.iter().enumerate() {
        let set = set as u8;
        if set > 0 && !rows.iter().any(|r| r.held_out == set) {
            continue;
        }
        let label = set_label(set);
        for (m, sum) in methods.iter().zip(*set_sums) {
            out.push_str(&format!(
                "| {label} | {m} | {} | | {} ({}) | {} | **{}** | **{}** | **{}** |\n",
                format_count(sum.tokens),
                format_count(sum.marks),
                pct(sum.marks as usize, sum.tokens as usize),
                sum.left,
                cell((sum.back, sum.left)),
                cell((sum.answered, sum.asked)),
                cell((sum.held_answered, sum.held_asked)),
            ));
        }
    }
    out.push_str(
        "\nAnswered by the messages that hold every word alone (no tool exchange, no \
         all-but-one part), for comparison:\n",
    );
    for (m, sum) in methods.iter().zip(sums[0]) {
        out.push_str(&format!(
            "- {m}: questions {}, held-out {}\n",
            cell((sum.plain, sum.asked)),
            cell((sum.held_plain, sum.held_asked)),
        ));
    }
    if held_out {
        let held: Vec<RecallSum> = (0..methods.len())
            .map(|m| {
                sums[1..].iter().fold(RecallSum::default(), |mut all, set| {
                    all.merge(set[m]);
                    all
                })
            })
            .collect();
        for (m, sum) in methods.iter().zip(held) {
            out.push_str(&format!(
                "- {m}, held-out sessions: questions {}, held-out {}\n",
                cell((sum.plain, sum.asked)),
                cell((sum.held_plain, sum.held_asked)),
            ));
        }
    }
    out
}

/// One method's recall figures over the sessions.
#[derive(Clone, Copy, Default)]
struct RecallSum {
    tokens: u64,
    marks: u64,
    left: usize,
    back: usize,
    asked: usize,
    answered: usize,
    held_asked: usize,
    held_answered: usize,
    plain: usize,
    held_plain: usize,
}

impl RecallSum {
    fn add(&mut self, tokens: u64, s: &super::recall::RecallScore) {
        self.tokens += tokens;
        self.marks += s.ref_tokens;
        self.left += s.facts_left;
        self.back += s.facts_recalled;
        self.asked += s.questions;
        self.answered += s.answered;
        self.held_asked += s.held_questions;
        self.held_answered += s.held_answered;
        self.plain += s.answered_plain;
        self.held_plain += s.held_answered_plain;
    }

    fn merge(&mut self, other: RecallSum) {
        self.tokens += other.tokens;
        self.marks += other.marks;
        self.left += other.left;
        self.back += other.back;
        self.asked += other.asked;
        self.answered += other.answered;
        self.held_asked += other.held_asked;
        self.held_answered += other.held_answered;
        self.plain += other.plain;
        self.held_plain += other.held_plain;
    }
}

/// The marks a fit puts on what it writes: `[ref 12]`, `[ref 1: the recall tool …]`,
/// `[trimmed by squash: kept 3 of 40 lines, …]`.
static MARKS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\[ref \d+(?::[^\]]*)?\]|\[trimmed by squash:[^\]]*\]").expect("static regex")
});

fn score(row: &mut Row, case: &Case, specifics: &[Specific], text: &str, history: &str) {
    row.specifics = specifics::kept(specifics, text);
    // The squash evaluation's own scorer: terms the history never had, talk about the squash
    // — in what the fit wrote, not in its own marks (a recall reference, a trim's marker).
    let written = MARKS.replace_all(text, "");
    let independent = super::score::score(history, &written, &[], &[]);
    row.invented = independent.invented;
    row.meta = independent.meta;
    let lower = text.to_lowercase();
    row.facts_total = case.entry.facts.len();
    row.facts_missing = case
        .entry
        .facts
        .iter()
        .filter(|spellings| !spellings.iter().any(|s| lower.contains(&s.to_lowercase())))
        .map(|s| s.join(" | "))
        .collect();
    row.facts_kept = row.facts_total - row.facts_missing.len();
}

fn pct(part: usize, whole: usize) -> String {
    if whole == 0 {
        "–".into()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

fn cell(t: (usize, usize)) -> String {
    format!("{}/{} ({})", t.0, t.1, pct(t.0, t.1))
}

/// A method's sums over the cases of one set (held out or not): kept and total per kind of
/// specific, and of key facts.
type MethodSums = (u8, String, [(usize, usize); 7], (usize, usize));

/// The QUALITY.md table: one row per case and method, then the sums per method over the tuning
/// set, then over the held-out set.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| session | method | history: messages, tool calls, tokens | budget | tokens after (of the history; of the budget) | files touched | commands | paths | numbers | error lines | all specifics | relative paths accepted | key facts | seconds |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut sums: Vec<MethodSums> = Vec::new();
    for r in rows {
        if let Some(e) = &r.error {
            out.push_str(&format!(
                "| {} | {} | error: {e} ||||||||||||\n",
                r.case, r.method
            ));
            continue;
        }
        let kinds: Vec<(usize, usize)> = Kind::ALL.iter().map(|k| r.specifics.of(*k)).collect();
        out.push_str(&format!(
            "| {} | {} | {}, {}, {} | {} | {} ({}; {}) | {} | {} | {} | {} | {} | **{}** | {} | {} | {:.2} |\n",
            r.case,
            r.method,
            r.history_messages,
            r.history_tool_calls,
            format_count(r.tokens_before),
            r.budget.map_or("–".into(), format_count),
            format_count(r.tokens_after),
            pct(r.tokens_after as usize, r.tokens_before as usize),
            r.budget.map_or("–".into(), |b| pct(r.tokens_after as usize, b as usize)),
            cell(kinds[0]),
            cell(kinds[1]),
            cell(kinds[2]),
            cell(kinds[3]),
            cell(kinds[4]),
            cell(r.specifics.all()),
            cell((r.specifics.lenient, r.specifics.all().1)),
            cell((r.facts_kept, r.facts_total)),
            r.seconds,
        ));
        let entry = match sums
            .iter_mut()
            .find(|(h, m, _, _)| *h == r.held_out && *m == r.method)
        {
            Some(e) => e,
            None => {
                sums.push((r.held_out, r.method.clone(), [(0, 0); 7], (0, 0)));
                sums.last_mut().expect("pushed")
            }
        };
        let extra = [
            r.specifics.all(),
            (r.specifics.lenient, r.specifics.all().1),
        ];
        for (i, k) in kinds.iter().chain(extra.iter()).enumerate() {
            entry.2[i].0 += k.0;
            entry.2[i].1 += k.1;
        }
        entry.3 .0 += r.facts_kept;
        entry.3 .1 += r.facts_total;
    }
    // The tuning set's sums first, then the held-out set's.
    sums.sort_by_key(|(held_out, _, _, _)| *held_out);
    for (held_out, method, k, f) in sums {
        let label = set_label(held_out);
        out.push_str(&format!(
            "| {label} | {method} | | | | {} | {} | {} | {} | {} | **{}** | {} | {} | |\n",
            cell(k[0]),
            cell(k[1]),
            cell(k[2]),
            cell(k[3]),
            cell(k[4]),
            cell(k[5]),
            cell(k[6]),
            cell(f),
        ));
    }
    out
}

/// One line per row for stderr, with what is missing when `list_misses`.
pub fn progress_line(r: &Row, list_misses: bool) -> String {
    if let Some(e) = &r.error {
        return format!("{:<28} {:<40} ERROR {e}", r.case, r.method);
    }
    let misses = if list_misses {
        format!(
            "missing {:?}; facts missing {:?}",
            &r.specifics.missing[..r.specifics.missing.len().min(12)],
            r.facts_missing
        )
    } else {
        format!(
            "held out {}: misses not listed (--show-held-out)",
            r.held_out
        )
    };
    format!(
        "{:<28} {:<40} {} → {} tokens (budget {}), specifics {}, key facts {}/{}, levels {:?}, gists {:?}, invented {:?}, meta {:?}, {:.2}s; {misses}",
        r.case,
        r.method,
        r.tokens_before,
        r.tokens_after,
        r.budget.map_or("–".into(), |b| b.to_string()),
        cell(r.specifics.all()),
        r.facts_kept,
        r.facts_total,
        r.levels,
        r.gists,
        r.invented,
        r.meta,
        r.seconds,
    )
}
