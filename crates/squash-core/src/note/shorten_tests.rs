use super::*;
use crate::ids::MessageId;

fn fact(kind: FactKind, text: &str, anchors: &[&str]) -> Fact {
    Fact {
        kind,
        text: text.to_owned(),
        anchors: anchors.iter().map(|a| (*a).to_owned()).collect(),
        source: MessageId::new(),
    }
}

fn ledger(facts: Vec<Fact>) -> Ledger {
    Ledger { facts }
}

const SOURCE: &str = "the conversation's text";

#[test]
fn a_line_with_words_left_out_replaces_its_fact() {
    let l = ledger(vec![
        fact(
            FactKind::Request,
            "User: Okay so, to put it simply: how do I show the 9:30 standup in Berlin time?",
            &["9:30", "berlin"],
        ),
        fact(
            FactKind::Answer,
            "In Google Calendar open Settings, then General, then Time zone, and set the primary time zone to Berlin.",
            &["settings", "berlin"],
        ),
        fact(FactKind::Command, "Ran `cargo test` → ok", &["cargo test"]),
    ]);
    let offered = offered(&l);
    assert_eq!(offered, vec![0, 1], "a command's line is not offered");
    assert_eq!(
        offered_lines(&l, &offered)[0],
        "Okay so, to put it simply: how do I show the 9:30 standup in Berlin time?"
    );
    let answer = "1. how do I show the 9:30 standup in Berlin time?\n\
                  2) Google Calendar: Settings, General, Time zone: set primary time zone to Berlin.";
    let outcomes = judge(&l, &offered, answer, SOURCE);
    assert!(
        matches!(&outcomes[0], Shortened::Kept(t) if t == "User: how do I show the 9:30 standup in Berlin time?"),
        "{outcomes:?}"
    );
    assert!(matches!(&outcomes[1], Shortened::Kept(_)), "{outcomes:?}");
    let shorter = apply(&l, &offered, &outcomes);
    assert_eq!(shorter.facts[0].anchors, l.facts[0].anchors);
    assert!(shorter.facts[1]
        .text
        .starts_with("Google Calendar: Settings"));
    assert_eq!(shorter.facts[2], l.facts[2]);
}

#[test]
fn a_line_that_says_more_or_other_than_its_original_is_refused() {
    let l = ledger(vec![
        fact(
            FactKind::Answer,
            "You're right, I was wrong: the capital is Canberra, and Sydney is the largest city.",
            &["canberra", "sydney"],
        ),
        fact(
            FactKind::Answer,
            "A lifetime annotation never changes how long a value lives, it only describes references.",
            &["annotation"],
        ),
        fact(
            FactKind::Answer,
            "Of the 99,900 healthy people, 1% test positive by mistake, that is 999 false positives.",
            &["999"],
        ),
        fact(
            FactKind::Answer,
            "The cookie doesn't matter here, the token itself is what is missing from the request.",
            &["cookie", "token"],
        ),
        fact(
            FactKind::Answer,
            "Store the object key and metadata in Postgres and serve the files through presigned URLs.",
            &["postgres", "presigned"],
        ),
    ]);
    let offered = offered(&l);
    let answer = "1. Sydney is the capital, Canberra the largest city.\n\
                  2. A lifetime annotation changes how long a value lives.\n\
                  3. Of the healthy people, 1% test positive by mistake: 999 false positives.\n\
                  4. The cookie does matter, the token is missing.\n\
                  5. In short, key in Postgres, files through presigned URLs.";
    let outcomes = judge(&l, &offered, answer, SOURCE);
    assert_eq!(
        outcomes,
        vec![
            Shortened::Refused(Refusal::NewWords),
            Shortened::Refused(Refusal::LostNegation),
            Shortened::Refused(Refusal::LostTerm),
            Shortened::Refused(Refusal::NewWords),
            Shortened::Refused(Refusal::NewWords),
        ]
    );
    // Only words the original has, and the negation kept: taken.
    let answer = "1. wrong: capital is Canberra, Sydney largest city.\n\
                  2. lifetime annotation never changes how long a value lives.\n\
                  3. Of 99,900 healthy, 1% test positive: 999 false positives.\n\
                  4. cookie doesn't matter, the token is missing.\n\
                  5. key and metadata in Postgres, files through presigned URLs.";
    let outcomes = judge(&l, &offered, answer, SOURCE);
    assert!(
        outcomes.iter().all(|o| matches!(o, Shortened::Kept(_))),
        "{outcomes:?}"
    );
}

#[test]
fn a_missing_longer_or_meta_line_keeps_the_original() {
    let l = ledger(vec![
        fact(
            FactKind::Answer,
            "Use pg_total_relation_size for the table with its indexes.",
            &["pg_total_relation_size"],
        ),
        fact(
            FactKind::Decision,
            "Decided: self-hosted MinIO in Frankfurt, not AWS.",
            &["minio", "frankfurt"],
        ),
        fact(
            FactKind::OpenItem,
            "Open question for you: what should happen to infected files?",
            &["infected"],
        ),
    ]);
    let offered = offered(&l);
    let answer = "Here are the shortened lines:\n\
                  2. Decided: self-hosted MinIO in Frankfurt, not AWS.\n\
                  3. Summary: infected files?";
    let outcomes = judge(&l, &offered, answer, SOURCE);
    assert_eq!(
        outcomes,
        vec![
            Shortened::Refused(Refusal::Missing),
            Shortened::Refused(Refusal::NotShorter),
            Shortened::Refused(Refusal::NewWords),
        ]
    );
    let l = ledger(vec![fact(
        FactKind::OpenItem,
        "Open question for you, to put it simply: what should happen to infected files, deletion or keeping them?",
        &["infected"],
    )]);
    let all = super::offered(&l);
    let outcomes = judge(&l, &all, "1. to put it simply: infected files?", SOURCE);
    assert_eq!(outcomes, vec![Shortened::Refused(Refusal::Meta)]);
}

#[test]
fn numbered_lines_are_read_in_either_style_and_only_prose_is_worth_asking() {
    assert_eq!(
        numbered_lines("Sure:\n1. one\n 2) two\n- 3. three\n4.\nnot a line"),
        vec![
            (1, "one".to_owned()),
            (2, "two".to_owned()),
            (3, "three".to_owned())
        ]
    );
    let short = ledger(vec![fact(FactKind::Answer, "Four bytes.", &["four"])]);
    assert!(!worth_asking(&short, 10));
    let long = ledger(vec![fact(
        FactKind::Answer,
        "Four bytes: a u32 is 32 bits, so std::mem::size_of::<u32>() returns 4.",
        &["u32"],
    )]);
    assert!(
        worth_asking(&long, 40),
        "the line is most of a 40-token selection"
    );
    assert!(
        !worth_asking(&long, 400),
        "the line is a tenth of a 400-token one"
    );
}
