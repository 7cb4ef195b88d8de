//! What the tools answer, in words an agent reads: the page with a line that says what it is
//! and how to get the rest.

use squash_app::{ExchangeSide, HistoryFound, HistoryMatch, HistoryPlace, OperationRef, Recalled};
use squash_core::operation::KindTag;
use squash_core::ConversationId;

/// The server's instructions, sent once at the handshake.
pub const INSTRUCTIONS: &str = "Squash keeps the whole history of this session. Where a part \
    of it was shortened (a trimmed output, a one-line extract of a step, a digest of earlier \
    work, a squash), the text shows a reference like [ref 12]: `recall` with that reference \
    returns the original messages verbatim, a page of lines at a time. `search` finds words \
    anywhere in the history, also in what was shortened, and says which reference holds it.";

/// What an operation's result is, in a few words.
fn what(kind: KindTag) -> &'static str {
    match kind {
        KindTag::Mask => "a trimmed output",
        KindTag::Extract => "an extract",
        KindTag::Ai | KindTag::AiLegacy => "a squash",
        KindTag::Manual => "a squash by hand",
        KindTag::Edit => "an edit",
    }
}

/// A recalled page: a header line, the originals' lines, and where the rest is.
pub fn recalled(r: &Recalled) -> String {
    let what = what(r.kind);
    let last = r.offset + r.text.lines().count().max(1);
    let messages = if r.messages == 1 {
        "1 message".to_owned()
    } else {
        format!("{} messages", r.messages)
    };
    let of = r
        .total_lines
        .map_or_else(|| "more follow".to_owned(), |n| format!("of {n}"));
    let mut out = format!(
        "[{}] stands for {what} of {messages}; lines {}–{last} {of}:\n{}",
        r.recall_ref,
        r.offset + 1,
        r.text
    );
    if let Some(next) = r.next_offset {
        out.push_str(&format!(
            "\n[more lines: recall with ref \"{}\" and offset {next}]",
            r.recall_ref.get()
        ));
    }
    out
}

/// A page of search hits: each with its role, the words around the match (`«…»`), and where
/// it is now; then where the next page starts.
pub fn found(query: &str, r: &HistoryFound, conversation: Option<ConversationId>) -> String {
    let mut out = match conversation {
        Some(c) => format!("In conversation {c}: "),
        None => String::new(),
    };
    if r.hits.is_empty() {
        out.push_str(&format!("nothing in the history holds {query:?}"));
        if !r.all_but_one.is_empty() {
            out.push_str("; these hold all of it but one word:");
            push_hits(&mut out, &r.all_but_one, 1);
        }
        return out;
    }
    let first = r.offset + 1;
    let last = r.offset + r.hits.len() as u64;
    let total = if r.more {
        format!("more than {}", r.total)
    } else {
        r.total.to_string()
    };
    out.push_str(&format!(
        "hits {first}–{last} of {total} for {query:?}, best first:"
    ));
    push_hits(&mut out, &r.hits, first);
    if !r.all_but_one.is_empty() {
        out.push_str("\nthen messages that hold all of it but one word:");
        push_hits(&mut out, &r.all_but_one, last + 1);
    }
    if last < r.total {
        out.push_str(&format!("\n[more hits: search again with offset {last}]"));
    }
    out
}

/// Hits numbered from `first`: role, the words around the match, where it is now, the other
/// half of its tool exchange.
fn push_hits(out: &mut String, hits: &[HistoryMatch], first: u64) {
    for (i, hit) in hits.iter().enumerate() {
        let words = squash_core::search::marked_line(&hit.snippet);
        let lacks = match &hit.lacks {
            Some(term) => format!(" (without {term:?})"),
            None => String::new(),
        };
        out.push_str(&format!(
            "\n{}. [{}]{lacks} {words}\n   {}",
            first + i as u64,
            hit.role,
            place(&hit.place, hit.result_of.as_ref())
        ));
        for half in &hit.exchange {
            let what = match half.holds {
                ExchangeSide::Calls => "the call",
                ExchangeSide::Outputs => "its output",
            };
            out.push_str(&format!("\n   {what}:"));
            for line in half.opening.lines() {
                out.push_str(&format!("\n     {line}"));
            }
        }
        if hit.exchange_more > 0 {
            out.push_str(&format!(
                "\n   (and {} more messages of its tool calls)",
                hit.exchange_more
            ));
        }
    }
}

/// Where a hit is now, and how to see it whole.
fn place(place: &HistoryPlace, result_of: Option<&OperationRef>) -> String {
    let mut s = match place {
        HistoryPlace::InCurrentThread { position } => format!("in the thread, message {position}"),
        HistoryPlace::OutOfThread {
            taken_out_by: Some(op),
        } => match op.recall_ref {
            Some(r) => format!(
                "shortened into {} [{r}]: recall ref {} to read it whole",
                what(op.kind),
                r.get()
            ),
            None => format!("taken out of the thread by {}", what(op.kind)),
        },
        HistoryPlace::OutOfThread { taken_out_by: None } => {
            "deleted from the thread (still in the history)".to_owned()
        }
    };
    if let Some(r) = result_of.and_then(|op| op.recall_ref) {
        s.push_str(&format!(
            "; it is itself [{r}], whose originals recall ref {} returns",
            r.get()
        ));
    }
    s
}
