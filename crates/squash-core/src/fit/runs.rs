//! The units a fit takes above the single step: runs of consecutive removable steps, groups of
//! runs in a row, and spans of groups with nothing kept between them — the whole work that
//! answers one request, from its first step the fit may touch to its last.

use std::ops::Range;

use super::turns::Layout;

/// Steps in one run's extract at most: small enough that taking one overshoots the budget by
/// little.
const RUN_STEPS: usize = 16;
/// Runs merged into one extract at most, one at a time from the oldest: what repeats across
/// runs (a file read again, a command run again) is said once.
const MERGE_RUNS: usize = 4;

pub(crate) struct Run {
    /// Step indexes.
    pub steps: Range<usize>,
}

pub(crate) struct Group {
    /// Run indexes.
    pub runs: Range<usize>,
}

pub(crate) struct Span {
    /// Group indexes.
    pub groups: Range<usize>,
}

/// How many of a span's first groups its digests cover, smallest first: doubling, so that
/// rendering them all costs about twice the span, and ending with the whole span.
pub(crate) fn digest_sizes(groups: usize) -> Vec<usize> {
    let mut sizes = Vec::new();
    let mut n = 1;
    while n < groups {
        sizes.push(n);
        n *= 2;
    }
    if groups > 0 {
        sizes.push(groups);
    }
    sizes
}

/// Runs of consecutive removable steps (at most [`RUN_STEPS`]), groups of consecutive runs
/// with no kept step between them (at most [`MERGE_RUNS`]), and spans of consecutive groups.
pub(crate) fn partition(layout: &Layout) -> (Vec<Run>, Vec<Group>, Vec<Span>) {
    let runs = runs_of(layout);
    let continues = |r: usize| r > 0 && runs[r - 1].steps.end == runs[r].steps.start;
    let mut groups: Vec<Group> = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    for r in 0..runs.len() {
        match groups.last_mut() {
            Some(g) if continues(r) && g.runs.len() < MERGE_RUNS => g.runs.end = r + 1,
            _ => {
                let g = groups.len();
                groups.push(Group { runs: r..r + 1 });
                match spans.last_mut() {
                    Some(span) if continues(r) => span.groups.end = g + 1,
                    _ => spans.push(Span { groups: g..g + 1 }),
                }
            }
        }
    }
    (runs, groups, spans)
}

fn runs_of(layout: &Layout) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut open: Option<Range<usize>> = None;
    for (k, step) in layout.steps.iter().enumerate() {
        match open.as_mut() {
            Some(r) if step.removable && r.len() < RUN_STEPS => r.end = k + 1,
            _ => {
                if let Some(r) = open.take() {
                    runs.push(Run { steps: r });
                }
                open = step.removable.then_some(k..k + 1);
            }
        }
    }
    runs.extend(open.map(|steps| Run { steps }));
    runs
}

#[cfg(test)]
mod tests {
    use super::digest_sizes;

    #[test]
    fn digests_double_and_end_with_the_whole_span() {
        assert_eq!(digest_sizes(0), Vec::<usize>::new());
        assert_eq!(digest_sizes(1), vec![1]);
        assert_eq!(digest_sizes(2), vec![1, 2]);
        assert_eq!(digest_sizes(5), vec![1, 2, 4, 5]);
        assert_eq!(digest_sizes(8), vec![1, 2, 4, 8]);
    }
}
