//! What every closable dialog of the page starts with: its title (which `aria-labelledby` of
//! the dialog names) and the close button the page script wires up.

use maud::{html, Markup};

/// The head of a dialog: the title as `h2#{title_id}` and the ✕ button.
pub fn head(title_id: &str, title: &str) -> Markup {
    html! {
        div.dialog-head {
            h2 id=(title_id) { (title) }
            button.close-dialog type="button" aria-label="Close" { "✕" }
        }
    }
}
