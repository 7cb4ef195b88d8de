//! The room a hybrid fit leaves in each digest for the model's gist: a sentence or two that
//! says what the folded work was for and what came of it, above the digest's facts. The plan
//! prices it in, so that the thread holds its budget whatever the model writes (a gist that
//! does not come, or is not faithful, leaves its room unused).

/// The most tokens a digest's gist may take: two sentences.
pub const GIST_MAX_TOKENS: u64 = 60;

/// A gist takes at most this share of its digest (a fifth): the facts are what a digest is for.
const GIST_SHARE: u64 = 5;

/// Below this a gist is not asked for: less than a sentence says nothing.
const GIST_MIN_TOKENS: u64 = 16;

/// The room for the gist of a digest of `digest_tokens`; 0 when it would be less than a
/// sentence.
pub fn gist_room(digest_tokens: u64) -> u64 {
    let room = (digest_tokens / GIST_SHARE).min(GIST_MAX_TOKENS);
    if room < GIST_MIN_TOKENS {
        0
    } else {
        room
    }
}

/// The most a digest may cost so that it and its gist's room are within `total`.
pub(crate) fn digest_within(total: u64) -> u64 {
    // The room is at most GIST_MAX_TOKENS, so the answer is at least that far below `total`.
    (total.saturating_sub(GIST_MAX_TOKENS)..=total)
        .rev()
        .find(|&c| c + gist_room(c) <= total)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::{digest_within, gist_room, GIST_MAX_TOKENS};

    #[test]
    fn a_gist_takes_a_fifth_of_its_digest_at_most_two_sentences_and_none_below_one() {
        assert_eq!(gist_room(50), 0);
        assert_eq!(gist_room(80), 16);
        assert_eq!(gist_room(200), 40);
        assert_eq!(gist_room(10_000), GIST_MAX_TOKENS);
    }

    #[test]
    fn the_digest_within_a_total_is_the_largest_whose_gist_still_fits() {
        for total in 0..2_000 {
            let c = digest_within(total);
            assert!(c + gist_room(c) <= total, "{total}");
            assert!(c == total || c + 1 + gist_room(c + 1) > total, "{total}");
        }
    }
}
