//! Names for the generated sessions. The words a planted fact is made of (`ADJECTIVES`,
//! `NOUNS`) are never used by the filler, so a fact's spelling occurs only in its own turn and a
//! fact counts as kept only when its own turn kept it.

use std::collections::HashSet;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

/// Words of the planted phrases ("stale cursor", `rejects_stale_cursor`, `--stale-cursor`).
const ADJECTIVES: [&str; 40] = [
    "stale",
    "orphaned",
    "lazy",
    "partial",
    "nested",
    "duplicate",
    "expired",
    "sparse",
    "eager",
    "detached",
    "dangling",
    "frozen",
    "shadow",
    "implicit",
    "greedy",
    "pinned",
    "rotated",
    "truncated",
    "quoted",
    "compressed",
    "pending",
    "bounded",
    "weighted",
    "chunked",
    "mirrored",
    "inverted",
    "signed",
    "tainted",
    "hoisted",
    "deferred",
    "sealed",
    "forked",
    "dormant",
    "volatile",
    "cached",
    "staged",
    "leaked",
    "skewed",
    "muted",
    "phantom",
];
const NOUNS: [&str; 40] = [
    "cursor",
    "lease",
    "manifest",
    "watermark",
    "checkpoint",
    "tombstone",
    "backlog",
    "snapshot",
    "quota",
    "shard",
    "ledger",
    "digest",
    "cookie",
    "payload",
    "bucket",
    "heartbeat",
    "beacon",
    "tenant",
    "voucher",
    "waypoint",
    "envelope",
    "sidecar",
    "journal",
    "fence",
    "ticket",
    "gauge",
    "mailbox",
    "cohort",
    "replica",
    "anchor",
    "rollup",
    "trailer",
    "banner",
    "stencil",
    "coupon",
    "receipt",
    "parcel",
    "badge",
    "drawer",
    "lantern",
];

/// The filler: crates, modules, dependencies and test names that surround the facts.
pub const CRATES: [&str; 10] = [
    "parser", "router", "cache", "auth", "billing", "search", "export", "metrics", "gateway",
    "notify",
];
pub const MODULES: [&str; 10] = [
    "config", "session", "index", "query", "token", "retry", "codec", "limits", "pool", "render",
];
pub const DEPS: [&str; 24] = [
    "serde",
    "serde_json",
    "tokio",
    "bytes",
    "hyper",
    "tower",
    "tracing",
    "regex",
    "chrono",
    "uuid",
    "rustls",
    "http",
    "futures-util",
    "memchr",
    "itoa",
    "ryu",
    "libc",
    "mio",
    "socket2",
    "smallvec",
    "indexmap",
    "hashbrown",
    "once_cell",
    "thiserror",
];
const TEST_VERBS: [&str; 12] = [
    "parses", "accepts", "keeps", "splits", "merges", "sorts", "counts", "maps", "reads", "writes",
    "skips", "trims",
];
const TEST_OBJECTS: [&str; 12] = [
    "empty_input",
    "unicode_keys",
    "long_lines",
    "zero_values",
    "max_size",
    "default_config",
    "trailing_slash",
    "mixed_case",
    "single_item",
    "many_items",
    "utf8_bom",
    "crlf_endings",
];
pub const CODE_WORDS: [&str; 16] = [
    "value", "entry", "items", "count", "offset", "limit", "buf", "key", "state", "inner",
    "result", "total", "next", "prev", "len", "index",
];

/// A planted phrase: an adjective and a noun no other turn has together.
#[derive(Clone, Debug)]
pub struct Phrase {
    pub adjective: &'static str,
    pub noun: &'static str,
}

impl Phrase {
    /// "stale cursor"
    pub fn words(&self) -> String {
        format!("{} {}", self.adjective, self.noun)
    }
    /// "stale_cursor"
    pub fn snake(&self) -> String {
        format!("{}_{}", self.adjective, self.noun)
    }
    /// "stale-cursor"
    pub fn kebab(&self) -> String {
        format!("{}-{}", self.adjective, self.noun)
    }
}

/// Hands out what must be unique in one session: phrases and the numbers planted as facts.
pub struct Unique {
    phrases: Vec<Phrase>,
    numbers: HashSet<u64>,
}

impl Unique {
    pub fn new(rng: &mut StdRng) -> Unique {
        let mut phrases: Vec<Phrase> = ADJECTIVES
            .iter()
            .flat_map(|a| {
                NOUNS.iter().map(move |n| Phrase {
                    adjective: a,
                    noun: n,
                })
            })
            .collect();
        phrases.shuffle(rng);
        Unique {
            phrases,
            numbers: HashSet::new(),
        }
    }

    /// A phrase no earlier turn had (1,600 exist; a session needs one per turn, ~1,200 for
    /// 10,000 messages).
    pub fn phrase(&mut self) -> Phrase {
        self.phrases.pop().expect("more phrases than turns")
    }

    /// A four-digit number that neither it nor its neighbours were handed out before, so that
    /// "N passed" of one turn never reads as another turn's count (the same digit count for
    /// every planted number: "312 passed" would be found inside "1312 passed").
    pub fn number(&mut self, rng: &mut StdRng) -> u64 {
        // 9,000 numbers, each taking up to three: a 10,000-message session needs ~1,100.
        for _ in 0..100_000 {
            let n = rng.gen_range(1000..10_000);
            if !(n - 1..=n + 1).any(|k| self.numbers.contains(&k)) {
                self.numbers.insert(n);
                return n;
            }
        }
        panic!("the planted numbers ran out: generate a shorter session");
    }
}

/// A filler test name: `module::tests::verb_object`.
pub fn filler_test(rng: &mut StdRng, module: &str) -> String {
    format!(
        "{module}::tests::{}_{}",
        pick(rng, &TEST_VERBS),
        pick(rng, &TEST_OBJECTS)
    )
}

pub fn pick<T: Copy>(rng: &mut StdRng, items: &[T]) -> T {
    items[rng.gen_range(0..items.len())]
}
