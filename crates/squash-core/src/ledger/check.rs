//! Checking a summary against the ledger: which facts it states, which terms it invented.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::fact::Ledger;
use crate::terms::compare_terms;

/// Which facts of a ledger a text states (indexes into [`Ledger::facts`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactCheck {
    pub kept: Vec<usize>,
    pub missing: Vec<usize>,
}

/// Splits the ledger's facts into those `text` states and those it does not. A fact is stated
/// when the text holds every one of its anchors (case-insensitively; a path also by its last
/// two components, or by its file name when no other path of the ledger has that name).
pub fn check_facts(ledger: &Ledger, text: &str) -> FactCheck {
    let haystack = normalise(text);
    // How many of the ledger's path anchors end in each file name: counted once, not once
    // per path checked (a digest of a long session names thousands of paths).
    let mut names: HashMap<String, usize> = HashMap::new();
    for path in ledger.anchors().filter(|a| is_path(a)) {
        let name = normalise(path)
            .rsplit(['/', '\\'])
            .next()
            .map(str::to_owned);
        if let Some(name) = name {
            *names.entry(name).or_default() += 1;
        }
    }
    let forms: Vec<Vec<Vec<String>>> = ledger
        .facts
        .iter()
        .map(|f| f.anchors.iter().map(|a| anchor_forms(a, &names)).collect())
        .collect();
    let found = Found::in_text(&haystack, forms.iter().flatten().flatten());
    let mut check = FactCheck::default();
    for (i, anchors) in forms.iter().enumerate() {
        let states = anchors
            .iter()
            .all(|spellings| spellings.iter().any(|f| found.holds(f, &haystack)));
        if states {
            check.kept.push(i);
        } else {
            check.missing.push(i);
        }
    }
    check
}

/// Which of many spellings a text holds. A digest of a long session is checked against
/// thousands of facts: one pass of an automaton over the text finds them all, where a search
/// of the whole text per spelling was most of planning its fit.
struct Found<'a> {
    /// `None` for a few spellings, each searched on its own.
    held: Option<HashMap<&'a str, bool>>,
}

/// Spellings below which searching each alone costs less than building the automaton.
const FEW_SPELLINGS: usize = 32;

impl<'a> Found<'a> {
    fn in_text(haystack: &str, spellings: impl Iterator<Item = &'a String>) -> Found<'a> {
        let mut held: HashMap<&'a str, bool> = HashMap::new();
        for s in spellings {
            held.entry(s.as_str()).or_insert(false);
        }
        if held.len() < FEW_SPELLINGS {
            return Found { held: None };
        }
        // The empty spelling is in every text; the automaton would report it at every byte.
        let patterns: Vec<&'a str> = held.keys().copied().filter(|s| !s.is_empty()).collect();
        let Ok(automaton) = aho_corasick::AhoCorasick::new(&patterns) else {
            return Found { held: None };
        };
        for m in automaton.find_overlapping_iter(haystack) {
            held.insert(patterns[m.pattern().as_usize()], true);
        }
        if let Some(empty) = held.get_mut("") {
            *empty = true;
        }
        Found { held: Some(held) }
    }

    /// Whether the text holds `spelling`, one of those it was searched for.
    fn holds(&self, spelling: &str, haystack: &str) -> bool {
        match &self.held {
            Some(held) => held.get(spelling).copied().unwrap_or(false),
            None => haystack.contains(spelling),
        }
    }
}

/// The spellings that count for `anchor`, of a ledger whose paths end in file names `names`
/// (with how many end in each).
fn anchor_forms(anchor: &str, names: &HashMap<String, usize>) -> Vec<String> {
    let full = normalise(anchor);
    let mut forms = vec![full.clone()];
    if !is_path(anchor) {
        return forms;
    }
    let parts: Vec<&str> = full.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    if parts.len() >= 3 {
        forms.push(parts[parts.len() - 2..].join("/"));
    }
    if let Some(name) = parts.last().filter(|n| n.contains('.')) {
        if names.get(*name).copied().unwrap_or(0) <= 1 {
            forms.push((*name).to_owned());
        }
    }
    forms
}

fn is_path(s: &str) -> bool {
    s.contains('/') || s.contains('\\')
}

/// Lower case, backticks and quotes dropped, whitespace collapsed: how a summary may quote a
/// term differs from how the messages did.
fn normalise(text: &str) -> String {
    // One character at a time lower-cases as the whole string does but for the capital sigma,
    // whose lower case depends on the letters around it.
    if !text.contains('\u{3a3}') {
        return normalise_by_char(text);
    }
    text.to_lowercase()
        .replace(['`', '"', '\u{201c}', '\u{201d}'], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// [`normalise`] of a text without a capital sigma, in one pass: a fit checks every trimmed
/// output, and the general rule's four passes (each with its own string) were most of it.
fn normalise_by_char(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        match c {
            '`' | '"' | '\u{201c}' | '\u{201d}' => {}
            c if c.is_whitespace() => space = !out.is_empty(),
            c => {
                if space {
                    out.push(' ');
                    space = false;
                }
                if c.is_ascii() {
                    out.push(c.to_ascii_lowercase());
                } else {
                    out.extend(c.to_lowercase());
                }
            }
        }
    }
    out
}

/// Salient terms (paths, identifiers, numbers, error codes, URLs) of `output` that neither
/// `input_text` (the selected messages, whole) nor the ledger has: possible inventions.
pub fn invented_terms(input_text: &str, output: &str) -> Vec<String> {
    compare_terms(input_text, output).introduced
}

/// The sentences (or list items) of `text` that contain one of `terms`, removed; what is left,
/// and how many sentences went. For an answer whose invented terms a repair did not remove.
pub fn drop_sentences_with(text: &str, terms: &[String]) -> (String, usize) {
    let mut removed = 0;
    let mut lines = Vec::new();
    for line in text.lines() {
        let mut kept_parts = Vec::new();
        for part in split_keep_ends(line) {
            if terms.iter().any(|t| part.contains(t.as_str())) {
                removed += 1;
            } else {
                kept_parts.push(part);
            }
        }
        let joined = kept_parts.concat();
        let bare = joined.trim().trim_start_matches(['-', '*']).trim();
        if !bare.is_empty() || line.trim().is_empty() {
            lines.push(joined.trim_end().to_owned());
        }
    }
    (lines.join("\n").trim().to_owned(), removed)
}

/// A line split after sentence ends, each part keeping its end and the space after it.
fn split_keep_ends(line: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let bytes = line.as_bytes();
    for i in 0..bytes.len() {
        if matches!(bytes[i], b'.' | b'!' | b'?') && bytes.get(i + 1) == Some(&b' ') {
            parts.push(&line[start..=i + 1]);
            start = i + 2;
        }
    }
    if start < line.len() {
        parts.push(&line[start..]);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::MessageId;
    use crate::ledger::Fact;
    use crate::ledger::FactKind;

    fn fact(anchors: &[&str]) -> Fact {
        Fact {
            kind: FactKind::Value,
            text: anchors.join(" "),
            anchors: anchors.iter().map(|a| a.to_string()).collect(),
            source: MessageId::new(),
        }
    }

    /// [`normalise`] as written before its ASCII pass.
    fn normalise_as_written(text: &str) -> String {
        text.to_lowercase()
            .replace(['`', '"', '\u{201c}', '\u{201d}'], "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn text_is_normalised_as_before() {
        for text in [
            "",
            "   ",
            " `Fixed` \"Main.RS\"  and\ta/lib.rs;\r\n E0308\x0b at\x0cline 42. ",
            "a ` b",
            "a`b\"c",
            "\u{0}\u{1f}\u{7f} CONTROL",
            "  12\u{2192}fn Main() \u{201c}Quoted\u{201d}\u{a0}\u{2003}İSTANBUL ΣΟΦΟΣ Straße",
            "ΣΑΣ σας",
        ] {
            assert_eq!(normalise(text), normalise_as_written(text), "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_normalised_as_before(
            ascii in "[\\x00-\\x7f]{0,200}",
            text in "\\PC{0,200}",
        ) {
            proptest::prop_assert_eq!(normalise(&ascii), normalise_as_written(&ascii));
            proptest::prop_assert_eq!(normalise(&text), normalise_as_written(&text));
        }
    }

    /// [`check_facts`] as written before its one pass over the text: each spelling searched
    /// on its own.
    fn check_facts_as_written(ledger: &Ledger, text: &str) -> FactCheck {
        let haystack = normalise(text);
        let mut names: HashMap<String, usize> = HashMap::new();
        for path in ledger.anchors().filter(|a| is_path(a)) {
            if let Some(name) = normalise(path).rsplit(['/', '\\']).next() {
                *names.entry(name.to_owned()).or_default() += 1;
            }
        }
        let mut check = FactCheck::default();
        for (i, fact) in ledger.facts.iter().enumerate() {
            let states = fact.anchors.iter().all(|anchor| {
                anchor_forms(anchor, &names)
                    .iter()
                    .any(|f| haystack.contains(f))
            });
            if states {
                check.kept.push(i);
            } else {
                check.missing.push(i);
            }
        }
        check
    }

    proptest::proptest! {
        #[test]
        fn many_facts_are_checked_as_each_alone(
            anchors in proptest::collection::vec(
                proptest::collection::vec("(/?[ab]{0,2}(/[ab.]{0,3}){0,3}|[AbC1 ]{0,4})", 0..3),
                0..80,
            ),
            text in "[aBc1 /.`]{0,300}",
        ) {
            let ledger = Ledger {
                facts: anchors
                    .iter()
                    .map(|a| fact(&a.iter().map(String::as_str).collect::<Vec<_>>()))
                    .collect(),
            };
            proptest::prop_assert_eq!(
                check_facts(&ledger, &text),
                check_facts_as_written(&ledger, &text)
            );
        }
    }

    #[test]
    fn paths_count_by_shorter_unique_forms() {
        let ledger = Ledger {
            facts: vec![
                fact(&["/home/u/proj/src/main.rs"]),
                fact(&["crates/a/lib.rs"]),
                fact(&["crates/b/lib.rs"]),
                fact(&["E0308", "42"]),
            ],
        };
        let check = check_facts(&ledger, "Fixed `main.rs` and a/lib.rs; e0308 at line 42.");
        assert_eq!(check.kept, vec![0, 1, 3]);
        assert_eq!(check.missing, vec![2]);
        // A file name two paths share does not count for either.
        let check = check_facts(&ledger, "edited lib.rs");
        assert_eq!(check.kept, Vec::<usize>::new());
    }

    #[test]
    fn sentences_with_invented_terms_go() {
        let (text, removed) = drop_sentences_with(
            "Edited src/a.rs. Also touched src/zzz.py. Tests pass.\n- ran bogus_tool\n- ok",
            &["src/zzz.py".into(), "bogus_tool".into()],
        );
        assert_eq!(removed, 2);
        assert_eq!(text, "Edited src/a.rs. Tests pass.\n- ok");
    }
}
