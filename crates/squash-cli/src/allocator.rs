//! The process's allocator: jemalloc, whose thread caches suit an import that makes and frees
//! millions of small strings across three threads (glibc's allocator took a fifth of its CPU,
//! perf of a 200 MB session; jemalloc cut the import's wall time by a tenth — BENCHMARKS.md).

#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Binds the calling thread to jemalloc's first arena. An import makes a file's messages and
/// rows on one thread and frees them on the store's writer; with an arena a thread, each
/// arena kept pages the others had freed into (a directory of real sessions: 117–160 MB
/// resident, against 84–90 MB with one arena, no slower — BENCHMARKS.md, "A directory's next
/// file made while one is stored"). A server's threads keep their own arenas: its answers'
/// large buffers contend for one (a page of the API ~8% slower in one arena).
pub fn share_one_arena() {
    #[cfg(not(target_env = "msvc"))]
    // SAFETY: `thread.arena` takes an arena's index as an `unsigned`; arena 0 always exists.
    // A failure leaves the thread where jemalloc put it, which only costs memory.
    unsafe {
        let _ = tikv_jemalloc_ctl::raw::write(b"thread.arena\0", 0u32);
    }
}
