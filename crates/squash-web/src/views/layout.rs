//! The page shell.

use maud::{html, Markup, DOCTYPE};

use crate::state::ModelChoice;

/// A whole page; `model` adds the model indicator to the header.
pub fn page(title: &str, model: Option<&ModelChoice>, body: Markup) -> Markup {
    shell(title, model, None, body)
}

/// [`page`] with the sidebar (`views::sidebar`) beside the body.
pub fn page_with_sidebar(
    title: &str,
    model: Option<&ModelChoice>,
    sidebar: Markup,
    body: Markup,
) -> Markup {
    shell(title, model, Some(sidebar), body)
}

fn shell(
    title: &str,
    model: Option<&ModelChoice>,
    sidebar: Option<Markup>,
    body: Markup,
) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="no-referrer";
                title { (title) " · Squash" }
                link rel="icon" href="data:,";
                meta name="color-scheme" content="light dark";
                link rel="stylesheet" href="/static/app.css";
                link rel="stylesheet" href="/static/reader.css";
                script src="/static/app.js" defer {}
                script src="/static/reader.js" defer {}
                script src="/static/live.js" defer {}
                @if sidebar.is_some() {
                    link rel="stylesheet" href="/static/sidebar.css";
                    script src="/static/sidebar.js" defer {}
                }
            }
            body {
                header.top {
                    a.brand href="/" { "Squash" }
                    span.title { (title) }
                    @if let Some(model) = model {
                        (model_status(model))
                    }
                    (super::shortcuts::button())
                }
                @if let Some(sidebar) = sidebar {
                    div.with-sidebar {
                        (sidebar)
                        div.page-main { (body) }
                    }
                } @else {
                    (body)
                }
            }
        }
    }
}

fn model_status(model: &ModelChoice) -> Markup {
    match model {
        ModelChoice::Ready(m) => {
            let info = m.info();
            html! {
                span.model-status.ready #model-status title="The model AI squash and chat use" {
                    "model: " code { (info.model) } " (" (info.provider.as_str()) ")"
                }
            }
        }
        ModelChoice::Missing(reason) => html! {
            span.model-status.missing #model-status title=(reason) { "no model configured" }
        },
    }
}
