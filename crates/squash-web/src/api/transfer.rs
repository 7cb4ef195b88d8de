//! Import and export: an uploaded session file (any format the importer reads) in, a
//! conversation out as Markdown, our lossless JSON or a Claude Code session. The parsing and
//! writing live in `squash-app`; this file only maps HTTP onto them.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use squash_app::import::{ImportFormat, ImportOptions, UnknownImportFormat};
use squash_app::{ExportFormat, ExportOptions, ServiceError};
use squash_core::{ConversationId, ThreadId};

use super::{given, parse_id, IdPath, Query};
use crate::error::ApiError;
use crate::state::AppState;

/// The largest upload `POST /api/import` accepts (also in openapi.json).
pub const IMPORT_LIMIT: usize = 256 * 1024 * 1024;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportQuery {
    /// `auto` (default), `claude-code`, `codex`, `openai`, `anthropic`, `gromozeka`, `squash`.
    format: Option<String>,
    /// The project the conversations go to; default: the one the file names, else the
    /// server's default project.
    project: Option<String>,
    /// The uploaded file's name: it names the source in the summary, and identifies it for
    /// formats that carry no id of their own (re-uploading the same file is idempotent).
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// `markdown` (default), `json` or `claude-code`.
    format: Option<String>,
    /// A thread to export instead of the current one (markdown and claude-code; the JSON
    /// export always holds every thread).
    thread: Option<String>,
}

pub async fn import(
    State(state): State<AppState>,
    Query(q): Query<ImportQuery>,
    req: Request,
) -> Result<Json<Value>, ApiError> {
    // A declared length over the limit was refused before this handler (`body_limit`); the
    // route's limit stops uploads that do not declare one while they are read.
    let format: ImportFormat = given(q.format.as_deref())
        .unwrap_or("auto")
        .parse()
        .map_err(|e: UnknownImportFormat| ApiError::invalid(e.to_string()))?;
    let body = Bytes::from_request(req, &state)
        .await
        .map_err(|rejection: BytesRejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::too_large(IMPORT_LIMIT)
            } else {
                ApiError::invalid(rejection.body_text())
            }
        })?;
    if body.is_empty() {
        return Err(ApiError::invalid(
            "the request body is empty: send the file's content",
        ));
    }
    let name = given(q.name.as_deref()).unwrap_or("upload").to_owned();
    let options = ImportOptions {
        format,
        project: q.project.filter(|p| !p.trim().is_empty()),
        fallback_project: state.default_project().to_owned(),
    };
    let summary = state
        .service()
        .import_bytes(&name, Vec::from(body), &options)
        .await?;
    let totals = summary.totals();
    Ok(Json(json!({ "summary": summary, "totals": totals })))
}

pub async fn export(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    Query(q): Query<ExportQuery>,
) -> Result<Response, ApiError> {
    let format: ExportFormat = given(q.format.as_deref())
        .unwrap_or("markdown")
        .parse()
        .map_err(ServiceError::from)?;
    let mut options = ExportOptions::new(format);
    options.thread = q
        .thread
        .as_deref()
        .map(|t| parse_id::<ThreadId>(t, "thread"))
        .transpose()?;
    let mut out = Vec::new();
    let report = state.service().export(id, &options, &mut out).await?;
    let session = report.session_id.as_deref().unwrap_or("squash-session");
    // Where an agent looks for a session file, only the file's name is used.
    let here = std::path::Path::new("");
    let named = |path: std::path::PathBuf| {
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("squash-{id}.jsonl"))
    };
    let (content_type, file_name) = match format {
        ExportFormat::Markdown => ("text/markdown; charset=utf-8", format!("squash-{id}.md")),
        ExportFormat::Json => ("application/json", format!("squash-{id}.json")),
        // `claude --resume` finds a session by its file name: the session id.
        ExportFormat::ClaudeCode => ("application/x-ndjson", format!("{session}.jsonl")),
        // `codex resume` finds a rollout by the id at the end of its file name.
        ExportFormat::Codex => {
            let path = squash_app::export::rollout_path(here, session, &chrono::Local::now());
            ("application/x-ndjson", named(path))
        }
        // Gemini CLI finds a recording by the session id in it, in its project's chats folder.
        ExportFormat::Gemini => {
            let path = squash_app::export::gemini_session_path(here, session, &chrono::Utc::now());
            ("application/x-ndjson", named(path))
        }
        // Read by `opencode import <file>`.
        ExportFormat::Opencode => ("application/json", format!("{session}.json")),
    };
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
        .map_err(|_| ApiError::invalid("the export's file name is not a valid header"))?;
    Ok((
        [
            (CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (CONTENT_DISPOSITION, disposition),
        ],
        out,
    )
        .into_response())
}
