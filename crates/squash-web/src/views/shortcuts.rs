//! The keyboard shortcuts of the conversation page and their help dialog (opened with `?` or
//! the header's button); `static/reader.js` implements them.

use super::dialog;
use maud::{html, Markup};

/// Keys, in the words of the help, and what they do.
const SHORTCUTS: [(&[&str], &str); 7] = [
    (&["Ctrl", "Z"], "Undo (⌘Z on a Mac)"),
    (&["Ctrl", "Shift", "Z"], "Redo (also Ctrl+Y, ⇧⌘Z)"),
    (
        &["S"],
        "Open the Squash menu (two or more messages selected)",
    ),
    (&["↓", "↑", "Home", "End"], "Move in the open menu"),
    (&["Enter"], "Run the focused menu item"),
    (
        &["Esc"],
        "Close the menu; cancel a running AI squash or an edit",
    ),
    (&["?"], "Show this help"),
];

pub fn dialog() -> Markup {
    html! {
        dialog #shortcuts-dialog.dialog aria-labelledby="shortcuts-title" {
            (dialog::head("shortcuts-title", "Keyboard shortcuts"))
            p.muted.small { "Shortcuts are off while you type in a field." }
            dl.shortcuts {
                @for (keys, what) in SHORTCUTS {
                    dt {
                        @for (i, key) in keys.iter().enumerate() {
                            @if i > 0 { " " }
                            kbd { (key) }
                        }
                    }
                    dd { (what) }
                }
            }
        }
    }
}

/// The header button that opens the help; shown by the script when the page has the dialog.
pub fn button() -> Markup {
    html! {
        button #shortcuts-btn.shortcuts-btn type="button" hidden aria-keyshortcuts="?" title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts" { "?" }
    }
}
