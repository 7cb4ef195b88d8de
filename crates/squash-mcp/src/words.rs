//! What the tools answer, in words an agent reads: the page with a line that says what it is
//! and how to get the rest.

use squash_app::Recalled;
use squash_core::operation::KindTag;

/// The server's instructions, sent once at the handshake.
pub const INSTRUCTIONS: &str = "Squash keeps the whole history of this session. Where a part \
    of it was shortened (a trimmed output, a one-line extract of a step, a digest of earlier \
    work, a squash), the text shows a reference like [ref 12]: `recall` with that reference \
    returns the original messages verbatim, a page of lines at a time. `search` finds words \
    anywhere in the history, also in what was shortened, and says which reference holds it.";

/// A recalled page: a header line, the originals' lines, and where the rest is.
pub fn recalled(r: &Recalled) -> String {
    let what = match r.kind {
        KindTag::Mask => "a trimmed output",
        KindTag::Extract => "an extract",
        KindTag::Ai => "a squash",
        _ => "a squash",
    };
    let last = r.offset + r.text.lines().count().max(1);
    let messages = if r.messages == 1 {
        "1 message".to_owned()
    } else {
        format!("{} messages", r.messages)
    };
    let mut out = format!(
        "[{}] stands for {what} of {messages}; lines {}–{last} of {}:\n{}",
        r.recall_ref,
        r.offset + 1,
        r.total_lines,
        r.text
    );
    if let Some(next) = r.next_offset {
        out.push_str(&format!(
            "\n[{} more lines: recall with ref \"{}\" and offset {next}]",
            r.total_lines - next,
            r.recall_ref.get()
        ));
    }
    out
}
