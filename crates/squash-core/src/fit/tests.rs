use std::collections::HashMap;

use super::extracts::Renders;
use super::*;
use crate::ids::RecallRef;
use crate::ids::{ConversationId, MessageId};
use crate::message::{ContentItem, Message, Role};
use crate::recall::Mark;
use crate::tokens::message_tokens;

fn msg(conv: ConversationId, role: Role, content: Vec<ContentItem>) -> Message {
    Message::new(conv, role, content).expect("valid message")
}

/// A tool call and its result.
fn call_and_result(
    conv: ConversationId,
    id: &str,
    tool: &str,
    input: serde_json::Value,
    output: String,
) -> [Message; 2] {
    [
        msg(
            conv,
            Role::Assistant,
            vec![ContentItem::tool_call(id, tool, input)],
        ),
        msg(
            conv,
            Role::User,
            vec![ContentItem::tool_result(id, tool, output, false)],
        ),
    ]
}

/// One request, then `steps` steps of the agent: a `cargo test` call and its long output
/// (failing in odd steps, with a named error), every fourth step followed by a sentence of
/// the agent's.
fn session(steps: usize, output_lines: usize) -> Vec<Message> {
    let conv = ConversationId::new();
    let mut out = vec![
        msg(
            conv,
            Role::System,
            vec![ContentItem::text_for(
                Role::System,
                "You are a coding agent.",
            )],
        ),
        msg(
            conv,
            Role::User,
            vec![ContentItem::UserMessage {
                text: "Make every test in crates/report pass".into(),
            }],
        ),
    ];
    for t in 0..steps {
        let id = format!("toolu_{t}");
        out.push(msg(
            conv,
            Role::Assistant,
            vec![ContentItem::tool_call(
                id.clone(),
                "Bash",
                serde_json::json!({"command": format!("cargo test report_{t}")}),
            )],
        ));
        let failing = t % 2 == 1;
        let mut log: Vec<String> = (0..output_lines)
            .map(|i| format!("   Compiling dep_{i} v1.{i}.0"))
            .collect();
        if failing {
            log.push(format!(
                "error[E0425]: cannot find value `x_{t}` in src/mod_{t}.rs"
            ));
            log.push("Process exited with code 101".into());
        } else {
            log.push(format!("test result: ok. {} passed; 0 failed", 1000 + t));
        }
        out.push(msg(
            conv,
            Role::User,
            vec![ContentItem::tool_result(
                id,
                "Bash",
                log.join("\n"),
                failing,
            )],
        ));
        if t % 4 == 3 {
            out.push(msg(
                conv,
                Role::Assistant,
                vec![ContentItem::text_for(
                    Role::Assistant,
                    format!("Step {t}: report_{t} now passes with {} cases.", 20 + t),
                )],
            ));
        }
    }
    out
}

/// A plan is priced exactly, but for the note on recalling said inside a trim's marker when a
/// trim comes first (the note's line break is priced and not written there): one token high.
fn assert_priced(real: u64, plan: &FitPlan) {
    assert!(
        real <= plan.tokens_after && plan.tokens_after - real <= 1,
        "applied {real}, planned {}",
        plan.tokens_after
    );
}

/// The thread after applying `plan`'s steps the way the services do (each result marked with
/// its recall reference, six digits wide as plans price them), and its cost.
fn applied(thread: &[Message], plan: &FitPlan) -> (Vec<Message>, u64) {
    let by_id: HashMap<MessageId, &Message> = thread.iter().map(|m| (m.id, m)).collect();
    let mut made: HashMap<MessageId, Message> = HashMap::new();
    let positions: Vec<usize> = plan.steps.iter().map(|s| s.first_position).collect();
    let marks = Mark::assign(&positions, RecallRef::new(100_000).expect("a reference"));
    let results: Vec<(&FitStep, MessageId)> = plan
        .steps
        .iter()
        .zip(marks)
        .map(|(step, mark)| {
            let first = by_id[&step.sources[0]];
            let (role, content) = match (&step.text, step.action) {
                (_, StepAction::Trim) => (
                    first.role,
                    trim_message(
                        first,
                        first.role == Role::User && turns::is_request(first),
                        Some(mark),
                    )
                    .expect("a trim step trims"),
                ),
                (Some(text), _) => (
                    Role::Assistant,
                    vec![ContentItem::text_for(Role::Assistant, mark.apply(text))],
                ),
                (None, _) => panic!("no text for {step:?}"),
            };
            let m = Message::new(first.conversation_id, role, content).expect("valid");
            let id = m.id;
            made.insert(id, m);
            (step, id)
        })
        .collect();
    let base: Vec<MessageId> = thread.iter().map(|m| m.id).collect();
    let links = fitted_links(&base, &results);
    let out: Vec<Message> = links
        .iter()
        .map(|id| made.get(id).cloned().unwrap_or_else(|| by_id[id].clone()))
        .collect();
    let total = out.iter().map(message_tokens).sum();
    (out, total)
}

fn plan(thread: &[Message], budget: u64, strategy: FitStrategy) -> FitPlan {
    let refs: Vec<&Message> = thread.iter().collect();
    plan_fit(&refs, FitRequest::new(budget, strategy))
}

/// The steps of `plan` at `action`'s level.
fn of_action(plan: &FitPlan, action: StepAction) -> Vec<&FitStep> {
    plan.steps.iter().filter(|s| s.action == action).collect()
}

fn total(thread: &[Message]) -> u64 {
    thread.iter().map(message_tokens).sum()
}

#[test]
fn a_thread_within_budget_needs_no_step() {
    let thread = session(6, 50);
    let p = plan(&thread, u64::MAX, FitStrategy::Extract);
    assert!(p.is_noop());
    assert_eq!(p.tokens_after, p.tokens_before);
    assert_eq!(p.tokens_before, total(&thread));
}

#[test]
fn one_request_and_many_steps_lands_just_under_any_budget() {
    let thread = session(40, 120);
    let before = total(&thread);
    for share in [0.6, 0.25, 0.1, 0.05] {
        let budget = (before as f64 * share) as u64;
        let p = plan(&thread, budget, FitStrategy::Extract);
        assert!(p.fits(), "{share}: {} > {budget}", p.tokens_after);
        assert!(
            p.tokens_after * 10 >= budget * 9,
            "{share}: {} is under 90% of {budget}",
            p.tokens_after
        );
        let (after, real) = applied(&thread, &p);
        assert_priced(real, &p);
        // The request and the newest steps up to a fifth of the budget stay as they were.
        assert_eq!(after[1].id, thread[1].id);
        assert!(p.protection.recent_tokens <= budget / 5);
        let kept_tail = p.protection.recent_steps;
        assert!(
            kept_tail >= 1 || budget / 5 < 300,
            "{share}: {:?}",
            p.protection
        );
    }
}

#[test]
fn levels_go_oldest_first_one_level_at_a_time() {
    let thread = session(40, 120);
    let before = total(&thread);
    // Trimming every output is not enough for a quarter: the oldest steps become lines.
    let p = plan(&thread, before / 4, FitStrategy::Extract);
    let actions: Vec<StepAction> = p.levels.iter().map(|l| l.action).collect();
    assert!(actions.contains(&StepAction::Trim), "{actions:?}");
    let first_line = p.steps.iter().find(|s| s.action != StepAction::Trim);
    let last_degraded = p.steps.iter().rev().find(|s| s.action != StepAction::Trim);
    if let (Some(a), Some(b)) = (first_line, last_degraded) {
        assert!(a.first_position <= b.first_position);
        // Nothing newer than a trimmed step is more degraded than it (oldest first).
        let newest_trim = p
            .steps
            .iter()
            .filter(|s| s.action == StepAction::Trim)
            .map(|s| s.first_position)
            .min()
            .unwrap_or(usize::MAX);
        assert!(b.first_position < newest_trim || newest_trim == usize::MAX);
    }
    // Every level's tokens add up to the plan's.
    let saved: u64 = p
        .levels
        .iter()
        .map(|l| l.tokens_before - l.tokens_after)
        .sum();
    assert_eq!(
        p.tokens_before - saved + p.recall_note_tokens,
        p.tokens_after
    );
}

#[test]
fn every_fact_stays_in_lines_and_extracts() {
    let thread = session(40, 120);
    let p = plan(&thread, total(&thread) / 20, FitStrategy::Extract);
    assert!(p.fits());
    let (after, _) = applied(&thread, &p);
    let text: String = after.iter().map(crate::render::message_text).collect();
    for t in 0..40 {
        if t % 2 == 1 {
            assert!(text.contains(&format!("x_{t}")), "the error of step {t}");
        } else {
            assert!(
                text.contains(&format!("{} passed", 1000 + t)),
                "the count of step {t}"
            );
        }
        assert!(
            text.contains(&format!("cargo test report_{t}")),
            "command {t}"
        );
    }
    for level in &p.levels {
        assert_eq!(level.facts_lost, 0, "{level:?}");
    }
}

#[test]
fn mask_only_trims_and_keeps_every_message() {
    let thread = session(20, 200);
    let p = plan(&thread, 0, FitStrategy::Mask);
    assert!(!p.fits());
    assert!(p.steps.iter().all(|s| s.action == StepAction::Trim));
    let (after, real) = applied(&thread, &p);
    assert_eq!(after.len(), thread.len(), "a trim replaces, never removes");
    assert_priced(real, &p);
    assert_eq!(p.best_reachable, p.tokens_after);
}

/// `steps` reads of the same file: a run says it once, the lines each time.
fn rereads(steps: usize) -> Vec<Message> {
    let mut thread = session(0, 0);
    let conv = thread[0].conversation_id;
    for t in 0..steps {
        let text: String = (1..=200)
            .map(|i| format!("{i:>6}→let v_{i} = {i};\n"))
            .collect();
        thread.extend(call_and_result(
            conv,
            &format!("toolu_read_{t}"),
            "Read",
            serde_json::json!({"file_path": "/work/acme/crates/report/src/lib.rs"}),
            text,
        ));
    }
    thread
}

#[test]
fn runs_say_once_what_their_steps_repeat() {
    let thread = rereads(64);
    let lines_only = plan(&thread, 0, FitStrategy::Extract);
    let extracts = of_action(&lines_only, StepAction::Extract);
    assert!(!extracts.is_empty(), "{:?}", lines_only.levels);
    let (after, real) = applied(&thread, &lines_only);
    assert_priced(real, &lines_only);
    let text: String = after.iter().map(crate::render::message_text).collect();
    assert_eq!(
        text.matches("crates/report/src/lib.rs").count(),
        extracts.len()
    );
}

#[test]
fn hybrid_squashes_the_oldest_runs_with_the_model() {
    let thread = rereads(64);
    // A budget that the lines alone do not reach: runs must go.
    let best = plan(&thread, 0, FitStrategy::Extract).best_reachable;
    let p = plan(&thread, best + 200, FitStrategy::Hybrid);
    let ai = of_action(&p, StepAction::Ai);
    assert!(!ai.is_empty(), "{:?}", p.levels);
    assert!(ai.iter().all(|s| s.estimated && s.facts_kept.is_none()));
    assert_eq!(ai[0].first_position, 2, "the oldest run first");
    assert!(!p.steps.iter().any(|s| s.action == StepAction::Extract));
}

#[test]
fn a_hybrid_fit_leaves_each_digest_room_for_its_gist_within_the_budget() {
    // 40 files read and tested: digests of a few hundred tokens near the smallest.
    let thread = files_and_runs(40);
    let budget = plan(&thread, 0, FitStrategy::Hybrid).best_reachable + 100;
    let hybrid = plan(&thread, budget, FitStrategy::Hybrid);
    assert!(hybrid.fits() && hybrid.needs_model(), "{:?}", hybrid.levels);
    let digests = of_action(&hybrid, StepAction::Digest);
    assert!(!digests.is_empty(), "{:?}", hybrid.levels);
    let mut rooms = 0;
    for d in &digests {
        let room = d
            .gist_room
            .expect("a hybrid digest leaves room for its gist");
        assert_eq!(room, gist_room(d.tokens_after - room));
        // Its facts are known; only its size waits for the model.
        assert!(d.estimated && d.facts_kept.is_some());
        rooms += room;
    }
    assert!(rooms > 0);
    // Applied with no gist at all, the thread is its plan less the rooms: a gist up to its
    // room keeps the budget.
    let (_, real) = applied(&thread, &hybrid);
    assert!(
        real + rooms <= hybrid.tokens_after && hybrid.tokens_after - (real + rooms) <= 1,
        "applied {real} + rooms {rooms}, planned {}",
        hybrid.tokens_after
    );
    // Without a model, the same budget's digests leave no room and ask nothing.
    let extract = plan(&thread, budget, FitStrategy::Extract);
    assert!(extract.steps.iter().all(|s| s.gist_room.is_none()));
    assert!(!extract.needs_model());
}

#[test]
fn a_budget_below_what_is_kept_cannot_be_met() {
    let thread = session(10, 200);
    let p = plan(&thread, 10, FitStrategy::Extract);
    assert!(!p.fits());
    assert!(p.best_reachable >= p.protected_tokens);
    assert!(p.best_reachable > 10);
    assert_eq!(
        p.best_reachable, p.tokens_after,
        "the best is what it applies"
    );
}

#[test]
fn settle_drops_what_a_higher_level_covers() {
    let thread = session(8, 200);
    let p = plan(&thread, 0, FitStrategy::Extract);
    let mut all = p.steps.clone();
    // A trim of a message a run's extract covers goes.
    let run = all
        .iter()
        .find(|s| s.action == StepAction::Extract)
        .cloned();
    if let Some(run) = run {
        all.push(FitStep {
            action: StepAction::Trim,
            sources: vec![run.sources[1]],
            first_position: run.first_position + 1,
            last_position: run.first_position + 1,
            ..run.clone()
        });
        assert_eq!(settle(all).len(), p.steps.len());
    }
}

#[test]
fn settle_keeps_one_of_a_level_where_a_larger_step_or_the_same_covers_a_smaller() {
    let thread = session(8, 200);
    let p = plan(&thread, 0, FitStrategy::Extract);
    let Some(whole) = p.steps.iter().find(|s| s.sources.len() >= 4).cloned() else {
        panic!("{:?}", p.levels);
    };
    let part = FitStep {
        action: StepAction::Ai,
        sources: whole.sources[..2].to_vec(),
        last_position: whole.first_position + 1,
        ..whole.clone()
    };
    let group = FitStep {
        action: StepAction::Ai,
        ..whole.clone()
    };
    // A run's squash and its group's, drawn later from the reserve: the group's stays.
    let settled = settle(vec![part.clone(), group.clone()]);
    assert_eq!(settled, vec![group.clone()]);
    // The same squash twice: the first stays.
    let twice = settle(vec![group.clone(), group.clone(), part]);
    assert_eq!(twice, vec![group]);
}

#[test]
fn strategies_round_trip_their_names() {
    for s in FitStrategy::ALL {
        assert_eq!(FitStrategy::parse(s.as_str()), Some(s));
    }
    assert_eq!(FitStrategy::parse("fold"), None);
    assert_eq!(FitStrategy::default(), FitStrategy::Extract);
    assert_eq!(
        FitRequest::new(50_000, FitStrategy::Extract).keep_recent_tokens(),
        10_000
    );
}

#[test]
fn a_request_s_whole_work_becomes_one_digest_that_says_each_fact_once() {
    // 200 reads of one file: 13 runs in 4 groups, one span after the request.
    let thread = rereads(200);
    let p = plan(&thread, 0, FitStrategy::Extract);
    let digests = of_action(&p, StepAction::Digest);
    assert_eq!(digests.len(), 1, "{:?}", p.levels);
    assert_eq!(p.steps.len(), 1, "the digest covers every other level");
    assert_eq!(digests[0].first_position, 2);
    assert_eq!(digests[0].last_position, thread.len() - 1);
    assert_eq!(digests[0].facts_kept, Some(digests[0].facts));
    let (after, real) = applied(&thread, &p);
    assert_priced(real, &p);
    let text: String = after.iter().map(crate::render::message_text).collect();
    assert_eq!(text.matches("crates/report/src/lib.rs").count(), 1);
    // With a model the digest is the same, written from the ledger; the model only adds its
    // gist above it.
    let hybrid = plan(&thread, 0, FitStrategy::Hybrid);
    assert!(hybrid.steps.iter().all(|s| s.action == StepAction::Digest));
}

#[test]
fn each_request_keeps_its_own_digest() {
    let mut thread = rereads(100);
    let conv = thread[0].conversation_id;
    thread.push(msg(
        conv,
        Role::User,
        vec![ContentItem::UserMessage {
            text: "Now read it again".into(),
        }],
    ));
    let second = thread.len();
    thread.extend(rereads(100).into_iter().skip(2).map(|m| Message {
        conversation_id: conv,
        ..m
    }));
    // The smallest budget both requests stay typed at (below it, the older one is folded).
    let floor = plan(&thread, 0, FitStrategy::Extract).best_reachable;
    let p = (floor..floor + 5_000)
        .step_by(20)
        .map(|budget| plan(&thread, budget, FitStrategy::Extract))
        .find(|p| p.fits() && p.protection.requests_folded == 0)
        .expect("a budget that keeps both requests");
    let digests: Vec<(usize, usize)> = p
        .steps
        .iter()
        .filter(|s| s.action == StepAction::Digest)
        .map(|s| (s.first_position, s.last_position))
        .collect();
    assert_eq!(digests, vec![(2, second - 2), (second, thread.len() - 1)]);
    let (after, _) = applied(&thread, &p);
    assert!(
        after.iter().any(|m| m.id == thread[second - 1].id),
        "the request stays"
    );
}

#[test]
fn the_newest_steps_give_way_before_a_budget_is_refused() {
    // A long request stays as typed: the floor is high enough that the default share of the
    // newest steps (a fifth of the budget) holds several steps and does not fit beside it.
    let mut thread = session(40, 5);
    thread[1].content = vec![ContentItem::UserMessage {
        text: format!(
            "Make every test in crates/report pass. {}",
            "Keep the report format stable for the dashboards that read it. ".repeat(40)
        ),
    }];
    let floor = plan_fit(
        &thread.iter().collect::<Vec<_>>(),
        FitRequest {
            keep_recent: Some(0),
            ..FitRequest::new(0, FitStrategy::Extract)
        },
    )
    .best_reachable;
    let budget = floor + 20;
    let p = plan(&thread, budget, FitStrategy::Extract);
    assert!(p.fits(), "{} > {budget}", p.tokens_after);
    assert!(p.protection.keep_recent < budget / 5, "{:?}", p.protection);
    // A share the person asked for is kept as asked: then the budget is out of reach.
    let asked = plan_fit(
        &thread.iter().collect::<Vec<_>>(),
        FitRequest {
            keep_recent: Some(budget / 5),
            ..FitRequest::new(budget, FitStrategy::Extract)
        },
    );
    assert!(!asked.fits());
    assert_eq!(asked.protection.keep_recent, budget / 5);
}

/// A thread of `requests` typed requests (the `r`th saying `ask(r)`), each answered by three
/// reads of its own `/w/src/module_{r}.rs`, which holds `module`.
fn requests_reading_modules(
    requests: usize,
    ask: impl Fn(usize) -> String,
    module: &str,
) -> Vec<Message> {
    let mut thread = session(0, 0);
    let conv = thread[0].conversation_id;
    for r in 0..requests {
        thread.push(msg(
            conv,
            Role::User,
            vec![ContentItem::UserMessage { text: ask(r) }],
        ));
        for t in 0..3 {
            thread.extend(call_and_result(
                conv,
                &format!("toolu_{r}_{t}"),
                "Read",
                serde_json::json!({"file_path": format!("/w/src/module_{r}.rs")}),
                module.to_owned(),
            ));
        }
    }
    thread
}

#[test]
fn the_oldest_requests_join_a_digest_only_when_nothing_else_reaches_the_budget() {
    // Ten requests, each answered by a few reads of its own file.
    let module: String = (1..=80).map(|i| format!("pub fn f_{i}() {{}}\n")).collect();
    let thread = requests_reading_modules(
        10,
        |r| format!("Now look at module_{r} and tell me what it exports"),
        &module,
    );
    let requests = 11;
    let roomy = plan(&thread, total(&thread) / 4, FitStrategy::Extract);
    assert!(roomy.fits());
    assert_eq!(
        roomy.protection.requests_folded, 0,
        "{:?}",
        roomy.protection
    );
    assert_eq!(roomy.protection.requests, requests);
    // Below what the kept requests and their digests reach, the oldest requests give way; the
    // newest always stays as typed.
    let floor = plan(&thread, 0, FitStrategy::Extract);
    assert_eq!(floor.protection.requests_folded, requests - 1);
    let budget = floor.best_reachable + 60;
    let p = plan(&thread, budget, FitStrategy::Extract);
    assert!(p.fits(), "{} > {budget}", p.tokens_after);
    let folded = p.protection.requests_folded;
    assert!((1..requests).contains(&folded), "{:?}", p.protection);
    assert_eq!(p.protection.requests, requests - folded);
    let (after, real) = applied(&thread, &p);
    assert_eq!(real, p.tokens_after);
    let text: String = after.iter().map(crate::render::message_text).collect();
    assert!(text.contains("Now look at module_9 and tell me what it exports"));
    // A folded request is in the digest of its work, with the file it read.
    assert!(text.contains("module_0"), "{text}");
    assert!(text.contains("/w/src/module_0.rs"), "{text}");
}

/// One request, then `n` steps, each reading its own file and running its own tests; the run
/// of step 20 fails and the next edit fixes it.
fn files_and_runs(n: usize) -> Vec<Message> {
    let mut thread = session(0, 0);
    let conv = thread[0].conversation_id;
    for t in 0..n {
        thread.extend(call_and_result(
            conv,
            &format!("toolu_r{t}"),
            "Read",
            serde_json::json!({"file_path": format!("/w/src/part_{t}.rs")}),
            "fn f() {}\n".repeat(40),
        ));
        let output = if t == 20 {
            "error[E0599]: no method named `frob` found\nProcess exited with code 101".to_owned()
        } else {
            format!("test result: ok. {} passed; 0 failed", 10 + t)
        };
        thread.extend(call_and_result(
            conv,
            &format!("toolu_t{t}"),
            "Bash",
            serde_json::json!({"command": format!("cargo test part_{t}")}),
            output,
        ));
    }
    thread
}

#[test]
fn below_every_digest_the_digest_goes_brief_keeping_every_file_and_the_fix() {
    let thread = files_and_runs(40);
    let floor = plan(&thread, 0, FitStrategy::Extract);
    // The smallest keeps every file and no run.
    let smallest: String = of_action(&floor, StepAction::Digest)
        .iter()
        .filter_map(|s| s.text.clone())
        .collect();
    assert!((0..40).all(|t| smallest.contains(&format!("/w/src/part_{t}.rs"))));
    assert!(!smallest.contains("cargo test"), "{smallest}");
    // Halfway between it and the smallest budget whose digest says every run: within the
    // budget, every file, the failure and its fix, and some of the runs.
    let runs_at = |budget: u64| {
        let p = plan(&thread, budget, FitStrategy::Extract);
        let text: String = applied(&thread, &p)
            .0
            .iter()
            .map(crate::render::message_text)
            .collect();
        text.matches("cargo test").count()
    };
    let every_run = (floor.best_reachable..)
        .step_by(50)
        .find(|&b| runs_at(b) >= 41)
        .expect("a budget that says every run");
    let budget = (floor.best_reachable + every_run) / 2;
    let p = plan(&thread, budget, FitStrategy::Extract);
    assert!(p.fits(), "{} > {budget}", p.tokens_after);
    let (after, real) = applied(&thread, &p);
    assert_priced(real, &p);
    let text: String = after.iter().map(crate::render::message_text).collect();
    assert!(
        (0..40).all(|t| text.contains(&format!("/w/src/part_{t}.rs"))),
        "{text}"
    );
    assert!(text.contains("E0599"), "{text}");
    let runs = text.matches("cargo test").count();
    assert!(0 < runs && runs < 41, "{runs}: {text}");
}

#[test]
fn a_brief_digest_fills_the_room_its_depth_leaves() {
    // A depth keeps an eighth fewer of the runs, or half as many, than the one above: without
    // filling, a budget between two depths lands at the lower one.
    let thread = files_and_runs(120);
    let floor = plan(&thread, 0, FitStrategy::Extract);
    let mut widest = 0;
    for budget in (floor.best_reachable..floor.best_reachable + 1_500).step_by(37) {
        let p = plan(&thread, budget, FitStrategy::Extract);
        assert!(p.fits(), "{} > {budget}", p.tokens_after);
        let (after, real) = applied(&thread, &p);
        assert_priced(real, &p);
        let text: String = after.iter().map(crate::render::message_text).collect();
        // Brief: some of the runs said, not all.
        let runs = text.matches("cargo test").count();
        if 0 < runs && runs < 120 {
            widest = widest.max(budget - p.tokens_after);
        }
    }
    // One run's line is about twenty tokens; a depth of 120 runs is fifteen of them.
    assert!(widest <= 40, "{widest} tokens of a budget left unused");
}
#[test]
fn summarized_side_by_side_the_thread_gets_the_summaries_of_one_message_at_a_time() {
    // Long enough that the messages are shared among the threads, with calls whose results
    // come in later messages and a call that never gets one.
    let mut thread = session(120, 60);
    let conv = thread[0].conversation_id;
    thread.push(msg(
        conv,
        Role::Assistant,
        vec![ContentItem::tool_call(
            "never-answered",
            "Bash",
            serde_json::json!({"command": "cargo test -p config"}),
        )],
    ));
    let refs: Vec<&Message> = thread.iter().collect();
    let one_at_a_time = format!("{:?}", summarize(&refs));
    let costs: Vec<u64> = thread.iter().map(message_tokens).collect();
    for workers in [1, 2, 4] {
        let side_by_side = format!("{:?}", summarize_thread(&thread, Some(&costs), workers));
        assert_eq!(side_by_side, one_at_a_time, "{workers} workers");
    }
    assert_eq!(
        format!("{:?}", summarize_thread(&thread, None, 2)),
        one_at_a_time
    );
    // Read in chunks (as a store's reader gives a thread), calls answered in a later chunk.
    for chunk in [1, 7, 50] {
        let mut summarizer = Summarizer::new();
        for (messages, costs) in thread.chunks(chunk).zip(costs.chunks(chunk)) {
            summarizer.push_chunk(messages, Some(costs), 2);
        }
        let chunked = format!("{:?}", summarizer.finish());
        assert_eq!(chunked, one_at_a_time, "chunks of {chunk}");
    }
}

#[test]
fn a_plan_rendered_side_by_side_is_the_plan_of_one_thread() {
    // Budgets that stop at each level: trims only, runs' extracts, digests, brief digests.
    let thread = session(300, 60);
    let refs: Vec<&Message> = thread.iter().collect();
    let summaries = summarize(&refs);
    let total: u64 = summaries.iter().map(|s| s.cost).sum();
    for share in [2, 4, 10, 50, 1000] {
        let request = FitRequest::new(total / share, FitStrategy::Extract);
        let alone = plan_summaries(&summaries, request, 1);
        assert!(
            !alone.steps.is_empty(),
            "1/{share}: the plan does something"
        );
        for workers in [2, 4] {
            assert_eq!(
                plan_summaries(&summaries, request, workers),
                alone,
                "1/{share}, {workers} workers"
            );
        }
    }
}

#[test]
fn no_plan_goes_below_what_its_layout_keeps() {
    // The reach skips a layout whose kept messages are over the budget without rendering it:
    // that is sound only if no plan of it, at its smallest, goes below them.
    let thread = requests_reading_modules(
        6,
        |r| {
            format!(
                "Look at module_{r}. {}",
                "Here is the log I saw:\n".to_owned() + &"line of a pasted log\n".repeat(60)
            )
        },
        &"pub fn f() {}\n".repeat(50),
    );
    let refs: Vec<&Message> = thread.iter().collect();
    let s = summarize(&refs);
    let mut over = 0;
    for budget in [0, total(&thread) / 8, total(&thread) / 3] {
        let request = FitRequest::new(budget, FitStrategy::Extract);
        for keep in [request.keep_recent_tokens(), 0] {
            for folded in 0..7 {
                let floor = reach::kept_floor(&s, request, keep, folded);
                let smallest = reach::plan_keeping(
                    &s,
                    request,
                    (keep, folded, brief::BRIEF_DEPTHS),
                    1,
                    &mut Renders::default(),
                );
                assert!(
                    floor <= smallest.best_reachable,
                    "keep {keep}, folded {folded}: {floor} > {}",
                    smallest.best_reachable
                );
                if floor > budget {
                    over += 1;
                    let rendered = &mut Renders::default();
                    let plan = reach::plan_keeping(&s, request, (keep, folded, 0), 1, rendered);
                    assert!(!plan.fits());
                }
            }
        }
    }
    // Both kinds of layout were met: some over their budget by what they keep, some not.
    assert!((1..3 * 2 * 7).contains(&over), "{over}");
}

#[test]
fn a_plan_made_from_the_renders_of_the_reach_s_other_plans_is_the_plan_made_alone() {
    // The reach tries layouts one after another (the newest steps' share halved, the oldest
    // requests folded, then brief), each taking the extracts the ones before rendered for the
    // same messages in the same form: the plan it returns is the plan of its layout made with
    // nothing rendered before.
    let module: String = (1..=60).map(|i| format!("pub fn f_{i}() {{}}\n")).collect();
    let mut thread = requests_reading_modules(8, |r| format!("Look at module_{r}"), &module);
    let conv = thread[0].conversation_id;
    for t in 0..40 {
        let failing = if t % 3 == 0 {
            "error[E0425]: oops\n"
        } else {
            ""
        };
        thread.extend(call_and_result(
            conv,
            &format!("toolu_late_{t}"),
            "Bash",
            serde_json::json!({"command": format!("cargo test part_{}", t % 7)}),
            format!(
                "{failing}{}test result: ok. {t} passed",
                "   Compiling x\n".repeat(30)
            ),
        ));
    }
    let refs: Vec<&Message> = thread.iter().collect();
    let s = summarize(&refs);
    let all = total(&thread);
    let mut layouts = Vec::new();
    let nothing = FitRequest::new(0, FitStrategy::Extract);
    let floor = plan_summaries(&s, nothing, 1).best_reachable;
    // What the digests reach with all requests but the newest folded, none brief.
    let folded_floor =
        reach::plan_keeping(&s, nothing, (0, 8, 0), 1, &mut Renders::default()).best_reachable;
    for budget in [
        all / 3,
        all / 10,
        folded_floor + 100,
        folded_floor,
        floor + 20,
        floor,
    ] {
        let request = FitRequest::new(budget, FitStrategy::Extract);
        for workers in [1, 2] {
            let plan = plan_summaries(&s, request, workers);
            let p = &plan.protection;
            let (keep, folded) = (p.keep_recent, p.requests_folded);
            let made_alone = |deepest| {
                let alone = &mut Renders::default();
                reach::plan_keeping(&s, request, (keep, folded, deepest), 1, alone)
            };
            let deepest = if plan == made_alone(0) {
                0
            } else {
                assert_eq!(plan, made_alone(brief::BRIEF_DEPTHS), "budget {budget}");
                brief::BRIEF_DEPTHS
            };
            layouts.push((keep, folded, deepest));
        }
    }
    layouts.dedup();
    // The budgets end in layouts of each kind: as kept, folded, brief.
    assert!(layouts.iter().any(|l| l.1 == 0), "{layouts:?}");
    assert!(layouts.iter().any(|l| l.1 > 0 && l.2 == 0), "{layouts:?}");
    assert!(layouts.iter().any(|l| l.2 > 0), "{layouts:?}");
}
