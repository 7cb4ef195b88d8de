//! Work on independent items spread over a few threads: a fit summarizes and trims tens of
//! thousands of messages, each on its own, and a person's machine has more than one core.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Items a thread takes at a time: small enough that one thread's share of large items does
/// not keep the others waiting, large enough that taking one costs nothing.
const CHUNK: usize = 128;

/// `f(0) … f(n - 1)`, in order, computed on up to `workers` threads (the calling one among
/// them). A panic in `f` is raised again here, as it would be without the threads.
pub fn map_indexed<T, F>(n: usize, workers: usize, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    map_in_chunks(n, workers, CHUNK, f)
}

/// [`map_indexed`] for items of very unequal size, a few of them as large as all the rest
/// together: each thread takes one item at a time, so no thread holds a run of large ones
/// while the others wait.
pub fn map_each<T, F>(n: usize, workers: usize, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    map_in_chunks(n, workers, 1, f)
}

fn map_in_chunks<T, F>(n: usize, workers: usize, chunk: usize, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    let workers = workers.clamp(1, n.div_ceil(chunk).max(1));
    if workers == 1 {
        return (0..n).map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done: Vec<(usize, Vec<T>)> = Vec::new();
        loop {
            let start = next.fetch_add(chunk, Ordering::Relaxed);
            if start >= n {
                return done;
            }
            done.push((start, (start..(start + chunk).min(n)).map(&f).collect()));
        }
    };
    let mut chunks: Vec<(usize, Vec<T>)> = std::thread::scope(|scope| {
        let others: Vec<_> = (1..workers).map(|_| scope.spawn(work)).collect();
        let mut chunks = work();
        for handle in others {
            match handle.join() {
                Ok(theirs) => chunks.extend(theirs),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        chunks
    });
    chunks.sort_unstable_by_key(|(start, _)| *start);
    chunks.into_iter().flat_map(|(_, items)| items).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_results_come_in_order_whatever_the_threads() {
        for workers in [1, 2, 3, 8] {
            for n in [0, 1, CHUNK - 1, CHUNK, CHUNK * 5 + 7] {
                let squares = map_indexed(n, workers, |i| i * i);
                assert_eq!(
                    squares,
                    (0..n).map(|i| i * i).collect::<Vec<_>>(),
                    "{workers} {n}"
                );
                assert_eq!(map_each(n, workers, |i| i * i), squares, "{workers} {n}");
            }
        }
    }

    #[test]
    fn a_panic_in_a_worker_is_raised_again() {
        let caught = std::panic::catch_unwind(|| {
            map_indexed(CHUNK * 4, 2, |i| {
                assert!(i != CHUNK * 3, "item {i}");
                i
            })
        });
        assert!(caught.is_err());
    }
}
