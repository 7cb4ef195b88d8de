//! The scorer. It reads only the applied text and the case's hand-written facts: nothing of
//! the product's own quality report, ledger or fact check.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

/// One case's score.
#[derive(Clone, Debug, Default)]
pub struct Score {
    pub facts_total: usize,
    pub facts_kept: usize,
    pub missing: Vec<String>,
    /// Forbidden phrases the text contains.
    pub forbidden: Vec<String>,
    /// Salient terms of the text that the input never had.
    pub invented: Vec<String>,
    /// Phrases about the squash, the prompt or the model (not about the conversation) that
    /// the text has and the input does not.
    pub meta: Vec<String>,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Paths, error codes, snake_case identifiers and numbers of two or more digits: a deliberately
/// simple extractor, independent of the product's.
static TERMS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        [A-Za-z0-9_.-]+/[A-Za-z0-9_./-]*[A-Za-z0-9_]      # a/b paths
      | \b[A-Za-z0-9_-]+\.(?:py|rs|ts|js|go|json|toml|yaml|yml|md|csv|sh)\b   # file names
      | \b[A-Z]{1,4}\d{3,5}\b                          # error codes
      | \b[a-z][a-z0-9]*_[a-z0-9_]+\b                  # snake_case
      | \b\d{2,}(?:[.,]\d+)*\b                         # numbers",
    )
    .expect("static regex")
});

pub fn score(input: &str, output: &str, facts: &[Vec<String>], forbidden: &[String]) -> Score {
    let out = output.to_lowercase();
    let inp = input.to_lowercase();
    let mut score = Score {
        facts_total: facts.len(),
        input_tokens: tokens(input),
        output_tokens: tokens(output),
        ..Score::default()
    };
    for alternatives in facts {
        if alternatives.iter().any(|a| out.contains(&a.to_lowercase())) {
            score.facts_kept += 1;
        } else {
            score.missing.push(alternatives.join(" | "));
        }
    }
    score.forbidden = forbidden
        .iter()
        .filter(|f| out.contains(&f.to_lowercase()))
        .cloned()
        .collect();
    let invented: BTreeSet<String> = TERMS
        .find_iter(output)
        .map(|m| m.as_str().trim_end_matches(['.', ',']).to_owned())
        .filter(|t| !holds(&inp, &t.to_lowercase()))
        // Thousands separators and trailing zeros are spelling, not invention.
        .filter(|t| !holds(&inp, &t.replace(',', "").to_lowercase()))
        .collect();
    score.invented = invented.into_iter().collect();
    score.meta = output
        .lines()
        .flat_map(|line| {
            META.find_iter(line)
                .map(|m| m.as_str().trim().to_lowercase())
        })
        .filter(|m| !inp.contains(m.trim_end_matches(':')))
        .collect();
    score
}

/// Whether `input` holds `term`: a number only as a number of its own (the 42 of `E0425` is
/// not the input's 42), anything else anywhere.
fn holds(input: &str, term: &str) -> bool {
    if !term
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
    {
        return input.contains(term);
    }
    input.match_indices(term).any(|(at, _)| {
        let before = input[..at].chars().next_back();
        let after = input[at + term.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric()) && !after.is_some_and(|c| c.is_alphanumeric())
    })
}

/// Talk about the note itself, the task or the prompt: the scorer's own list, written from
/// what small models were seen to write (issue 28), not shared with the product.
static META: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?xi)
        \bsummar(?:y|ies|ised|ized|ise|ize)\b | \bcompress\w* | \bsquash\w* | \bcondens\w*
      | \bno\ preamble | \bno\ comments | \bwhat\ was\ wanted | \bwhat\ the\ assistant\ did
      | \bhow\ it\ ended | ^\s*requests?\s*: | ^\s*details\s*: | \bthe\ facts\b
      | \bfacts\ (?:above|below|recorded) | \bthe\ prompt\b | \bas\ instructed\b
      | \bthe\ (?:above|following)\ (?:conversation|messages|text)
      | \b(?:this|the)\ conversation\b | \bhere\ is\b | \bhere's\b | \bplain\ sentences
      | \bthe\ assistant\ wanted | \bin\ (?:short|summary|conclusion)\b",
    )
    .expect("static regex")
});

/// Tokens as a BPE tokenizer roughly counts them: words and punctuation runs.
pub fn tokens(text: &str) -> u64 {
    static TOKEN: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[A-Za-z]{1,6}|\d{1,3}|[^\sA-Za-z\d]{1,2}").expect("regex"));
    TOKEN.find_iter(text).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_forbidden_and_inventions() {
        let s = score(
            "cargo test failed with E0425 in src/lib.rs",
            "Fixed E0425 in src/lib.rs and src/zzz.py; 42 tests",
            &[vec!["E0425".into()], vec!["cargo test".into()]],
            &["zzz".into()],
        );
        assert_eq!(s.facts_kept, 1);
        assert_eq!(s.forbidden, vec!["zzz".to_owned()]);
        assert_eq!(s.invented, vec!["42".to_owned(), "src/zzz.py".to_owned()]);
        assert!(s.meta.is_empty());
    }

    #[test]
    fn meta_phrases_count_unless_the_input_has_them() {
        let s = score(
            "the summary of the release was late",
            "What was wanted?\nDetails: the summary was late.\nRequests:\n- no preamble",
            &[],
            &[],
        );
        assert_eq!(
            s.meta,
            vec!["what was wanted", "details:", "requests:", "no preamble"]
        );
    }
}
