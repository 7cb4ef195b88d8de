//! Which projects and conversations exist: creating, listing, renaming, deleting them.

use std::collections::HashMap;

use squash_core::{Conversation, ConversationId, Project, ProjectId};
use squash_store::ConversationSummary;

use crate::conversations::ConversationService;
use crate::error::ServiceError;

type Result<T, E = ServiceError> = std::result::Result<T, E>;

impl ConversationService {
    pub async fn create_conversation(
        &self,
        project_path: &str,
        name: &str,
    ) -> Result<Conversation> {
        let name = name.trim();
        if name.is_empty() {
            return Err(ServiceError::Invalid(
                "the conversation name is empty".into(),
            ));
        }
        if project_path.trim().is_empty() {
            return Err(ServiceError::Invalid("the project path is empty".into()));
        }
        let project = self.store().ensure_project(project_path.trim()).await?;
        Ok(self.store().create_conversation(project.id, name).await?)
    }

    pub async fn projects(&self) -> Result<Vec<Project>> {
        Ok(self.store().projects().await?)
    }

    /// Each project's path by its id, for listings that group conversations by project.
    pub async fn project_paths(&self) -> Result<HashMap<ProjectId, String>> {
        let projects = self.store().projects().await?;
        Ok(projects.into_iter().map(|p| (p.id, p.path)).collect())
    }

    pub async fn project(&self, id: ProjectId) -> Result<Project> {
        Ok(self.store().project(id).await?)
    }

    /// Conversations, most recent first; only those of the project at `project_path` if given.
    pub async fn list_conversations(
        &self,
        project_path: Option<&str>,
    ) -> Result<Vec<Conversation>> {
        match self.project_filter(project_path).await? {
            Some(project) => Ok(self.store().conversations(project).await?),
            None => Ok(Vec::new()),
        }
    }

    /// [`list_conversations`](Self::list_conversations) with the size of each current thread
    /// (messages and estimated tokens), for listings.
    pub async fn conversation_summaries(
        &self,
        project_path: Option<&str>,
    ) -> Result<Vec<ConversationSummary>> {
        match self.project_filter(project_path).await? {
            Some(project) => Ok(self.store().conversation_summaries(project).await?),
            None => Ok(Vec::new()),
        }
    }

    /// The store's project filter for `project_path`: `Some(None)` for every project, `None`
    /// when no project has that path (so nothing can match).
    async fn project_filter(
        &self,
        project_path: Option<&str>,
    ) -> Result<Option<Option<ProjectId>>> {
        let Some(path) = project_path else {
            return Ok(Some(None));
        };
        let projects = self.store().projects().await?;
        Ok(projects
            .into_iter()
            .find(|p| p.path == path)
            .map(|p| Some(p.id)))
    }

    pub async fn conversation(&self, id: ConversationId) -> Result<Conversation> {
        Ok(self.store().conversation(id).await?)
    }

    pub async fn rename_conversation(
        &self,
        id: ConversationId,
        name: &str,
    ) -> Result<Conversation> {
        let name = name.trim();
        if name.is_empty() {
            return Err(ServiceError::Invalid(
                "the conversation name is empty".into(),
            ));
        }
        Ok(self.store().rename_conversation(id, name).await?)
    }

    pub async fn delete_conversation(&self, id: ConversationId) -> Result<()> {
        Ok(self.store().delete_conversation(id).await?)
    }
}
