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

/// A dialog around a form, its parts named after `name` as the page script finds them
/// (`#{name}-dialog`, `#{name}-form`, `#{name}-title`, `#{name}-intro`): the head, the intro,
/// the form's fields and actions, then what the dialog shows below the form.
pub fn with_form(name: &str, title: &str, intro: Markup, fields: Markup, below: Markup) -> Markup {
    html! {
        dialog id={ (name) "-dialog" } .dialog aria-labelledby={ (name) "-title" }
            aria-describedby={ (name) "-intro" } {
            form id={ (name) "-form" } novalidate {
                (head(&format!("{name}-title"), title))
                p id={ (name) "-intro" } .muted { (intro) }
                (fields)
            }
            (below)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_dialog_names_its_parts_after_its_name() {
        let html = with_form(
            "fit",
            "Fit <budget>",
            html! { "Why." },
            html! { input #x; },
            html! { div #below {} },
        )
        .into_string();
        assert_eq!(
            html,
            concat!(
                r#"<dialog class="dialog" id="fit-dialog" aria-labelledby="fit-title" aria-describedby="fit-intro">"#,
                r#"<form id="fit-form" novalidate>"#,
                r#"<div class="dialog-head"><h2 id="fit-title">Fit &lt;budget&gt;</h2>"#,
                r#"<button class="close-dialog" type="button" aria-label="Close">✕</button></div>"#,
                r#"<p class="muted" id="fit-intro">Why.</p><input id="x"></form>"#,
                r#"<div id="below"></div></dialog>"#
            )
        );
    }
}
