//! The allocator: mimalloc, told to return freed memory to the system at once.
//!
//! Importing a 1 GB session, glibc's allocator took 37-39 s and 206 MB: the conversations are
//! built on the reader's thread and stored from another, and glibc kept the reader's freed
//! memory for that thread alone. mimalloc with immediate purging: 31 s and 167 MB (BENCHMARKS.md,
//! "1 GB import").

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc's `mi_option_e` (mimalloc.h): how many milliseconds freed
/// memory is kept before it goes back to the system (10 by default, and ten times that for
/// its arenas — long enough, while an import allocates all the time, to keep it all).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Called first in `main`.
pub fn return_freed_memory_at_once() {
    // SAFETY: `mi_option_set` is not thread-safe; this runs before `main` starts any thread, and
    // sets an integer option that mimalloc reads when it purges.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) }
}
