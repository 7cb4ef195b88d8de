//! The conversation list, grouped by project: create, rename, delete.

use std::collections::BTreeMap;

use axum::extract::State;
use maud::{html, Markup};
use squash_core::{Conversation, ProjectId};

use super::errors::PageError;
use super::{layout, when};
use crate::state::AppState;

pub async fn page(State(state): State<AppState>) -> Result<Markup, PageError> {
    let service = state.service();
    let conversations = service.list_conversations(None).await?;
    let projects = service.projects().await?;
    let mut groups: BTreeMap<String, Vec<&Conversation>> = BTreeMap::new();
    let path_of = |id: ProjectId| {
        projects
            .iter()
            .find(|p| p.id == id)
            .map_or_else(|| "(unknown project)".to_owned(), |p| p.path.clone())
    };
    for c in &conversations {
        groups.entry(path_of(c.project_id)).or_default().push(c);
    }
    let body = html! {
        main.home {
            section.card.create {
                h2 { "New conversation" }
                form #create-form {
                    label { "Name" input #create-name name="name" required placeholder="Fix the build"; }
                    label { "Project" input #create-project name="project" value=(state.default_project()); }
                    button.primary type="submit" { "Create" }
                }
            }
            div #flash.flash role="alert" hidden {}
            section.conversations {
                h2 { "Conversations" }
                @if groups.is_empty() {
                    p.empty { "No conversations yet. Create one above, or import one with the " code { "squash" } " command." }
                }
                @for (path, list) in &groups {
                    section.project {
                        h3 { "Project " code { (path) } }
                        ul.conversation-list {
                            @for c in list {
                                (row(c))
                            }
                        }
                    }
                }
            }
        }
    };
    Ok(layout::page_with_sidebar(
        "Conversations",
        Some(state.model_choice()),
        super::sidebar::sidebar(&state, None).await?,
        body,
    ))
}

fn row(c: &Conversation) -> Markup {
    html! {
        li.conversation data-id=(c.id) {
            div.conversation-main {
                a.conversation-link href={ "/c/" (c.id) } { (c.display_name) }
                span.muted.small { "updated " (when(&c.updated_at)) }
            }
            div.conversation-actions {
                button.rename-btn type="button" { "Rename" }
                button.delete-conversation-btn.danger type="button" { "Delete" }
            }
            form.rename-form hidden {
                input name="name" value=(c.display_name) aria-label="New name" required;
                button.primary type="submit" { "Save" }
                button.cancel-btn type="button" { "Cancel" }
            }
        }
    }
}
