//! The tools: each parses its arguments, asks squash-app one use case per conversation in
//! scope, and words the answer. Bad arguments and unknown references are JSON-RPC errors
//! (`invalid_params`, `resource_not_found`) with a message that says what would work.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, JsonObject, ServerCapabilities, ServerConfig,
};
use rmcp::{schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler};
use serde::Deserialize;
use squash_app::{AppError, ConversationService, ErrorCode, LinePage, ServiceError};
use squash_core::{ConversationId, RecallRef};

use crate::scope::Scope;
use crate::words;

/// The server: the store's services, read-only, for the conversations of `scope`.
#[derive(Clone)]
pub struct SquashMcp {
    service: ConversationService,
    scope: Scope,
    tool_router: ToolRouter<Self>,
}

/// A reference as a model writes it: a number, or a text such as `12`, `ref 12`, `[ref 12]`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum RefArg {
    Number(u64),
    Text(String),
}

impl RefArg {
    fn parse(&self) -> Result<RecallRef, McpError> {
        let text = match self {
            RefArg::Number(n) => n.to_string(),
            RefArg::Text(s) => s.clone(),
        };
        text.parse().map_err(|e: squash_core::ids::BadRecallRef| {
            McpError::invalid_params(e.to_string(), None)
        })
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RecallArgs {
    /// The reference as the text shows it: `12`, `ref 12` or `[ref 12]`.
    #[serde(rename = "ref")]
    pub reference: RefArg,
    /// The first line to return, from 0 (a previous answer says where the next page starts).
    #[serde(default)]
    pub offset: Option<u64>,
    /// How many lines at most (default 200, at most 2000).
    #[serde(default)]
    pub limit: Option<u64>,
    /// The conversation, when the server answers about several.
    #[serde(default)]
    pub conversation: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SearchArgs {
    /// Words, all of which a hit holds (stemmed, any case), and "quoted phrases".
    pub query: String,
    /// How many hits at most (default 10, at most 50).
    #[serde(default)]
    pub limit: Option<u32>,
    /// Hits to skip (a previous answer says where the next page starts).
    #[serde(default)]
    pub offset: Option<u32>,
    /// The conversation, when the server answers about several.
    #[serde(default)]
    pub conversation: Option<String>,
}

/// Hits per search when the call names no limit, and the most it may ask.
const SEARCH_LIMIT: u32 = 10;
const MAX_SEARCH_LIMIT: u32 = 50;

#[tool_router]
impl SquashMcp {
    pub fn new(service: ConversationService, scope: Scope) -> SquashMcp {
        SquashMcp {
            service,
            scope,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "Return, verbatim, the original messages behind a reference like [ref 12] \
                       that a shortened part of this session shows (a trimmed output, a one-line \
                       extract, a digest, a squash). Long originals come a page of lines at a \
                       time: the answer says the offset of the next page.",
        input_schema = schema::<RecallArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn recall(
        &self,
        Parameters(args): Parameters<JsonObject>,
    ) -> Result<CallToolResult, McpError> {
        let args: RecallArgs = arguments("recall", args)?;
        let recall = args.reference.parse()?;
        let page = LinePage {
            offset: to_usize(args.offset, "offset")?.unwrap_or(0),
            limit: to_usize(args.limit, "limit")?,
        };
        let conversations = self
            .scope
            .pick(args.conversation.as_deref())
            .map_err(|e| McpError::invalid_params(e.to_string(), None))?;
        let mut found = Vec::new();
        let mut last_error = None;
        for conversation in conversations {
            match self.service.recall(conversation, recall, page).await {
                Ok(r) => found.push(r),
                Err(e) if e.code() == ErrorCode::NotFound => last_error = Some(e),
                Err(e) => return Err(service_error(e)),
            }
        }
        match found.as_slice() {
            [one] => Ok(text(words::recalled(one))),
            [] => Err(service_error(last_error.unwrap_or_else(|| {
                ServiceError::Invalid(format!("no conversation holds {recall}"))
            }))),
            many => Err(McpError::invalid_params(
                format!(
                    "{recall} is in {} conversations; name one with `conversation`: {}",
                    many.len(),
                    ids(many.iter().map(|r| r.conversation_id))
                ),
                None,
            )),
        }
    }

    #[tool(
        description = "Search the whole history of this session for words or \"a phrase\", also \
                       what was shortened or squashed away. Each hit says where it is: in the \
                       thread, or behind a [ref N] that `recall` returns whole.",
        input_schema = schema::<SearchArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn search(
        &self,
        Parameters(args): Parameters<JsonObject>,
    ) -> Result<CallToolResult, McpError> {
        let args: SearchArgs = arguments("search", args)?;
        let limit = args.limit.unwrap_or(SEARCH_LIMIT);
        if limit == 0 || limit > MAX_SEARCH_LIMIT {
            return Err(McpError::invalid_params(
                format!("a search returns 1 to {MAX_SEARCH_LIMIT} hits, not {limit}"),
                None,
            ));
        }
        let conversations = self
            .scope
            .pick(args.conversation.as_deref())
            .map_err(|e| McpError::invalid_params(e.to_string(), None))?;
        let several = conversations.len() > 1;
        let mut out = Vec::new();
        for conversation in conversations {
            let found = self
                .service
                .search_history(conversation, &args.query, Some(limit), args.offset)
                .await
                .map_err(service_error)?;
            out.push(words::found(
                &args.query,
                &found,
                several.then_some(conversation),
            ));
        }
        Ok(text(out.join("\n\n")))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for SquashMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("squash", env!("CARGO_PKG_VERSION")))
            .with_instructions(words::INSTRUCTIONS)
    }
}

/// A tool's input schema, from its arguments' type.
fn schema<T: schemars::JsonSchema + 'static>() -> std::sync::Arc<JsonObject> {
    rmcp::handler::server::common::schema_for_input::<T>()
        .unwrap_or_else(|e| panic!("the input schema of {}: {e}", std::any::type_name::<T>()))
}

/// A call's arguments read as `T`: what does not read is the caller's mistake, a JSON-RPC
/// `invalid_params` that says what the tool takes.
fn arguments<T: serde::de::DeserializeOwned>(tool: &str, args: JsonObject) -> Result<T, McpError> {
    serde_json::from_value(serde_json::Value::Object(args)).map_err(|e| {
        McpError::invalid_params(
            format!("bad arguments for `{tool}`: {e} (see the tool's input schema)"),
            None,
        )
    })
}

fn text(s: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(s)])
}

fn to_usize(n: Option<u64>, what: &str) -> Result<Option<usize>, McpError> {
    n.map(|n| {
        usize::try_from(n)
            .map_err(|_| McpError::invalid_params(format!("{what} {n} is too large"), None))
    })
    .transpose()
}

fn ids(ids: impl Iterator<Item = ConversationId>) -> String {
    ids.map(|id| id.to_string()).collect::<Vec<_>>().join(", ")
}

/// A service's failure as a JSON-RPC error: what the request names is missing, the request is
/// wrong, or the server failed.
fn service_error(e: ServiceError) -> McpError {
    match e.code() {
        ErrorCode::NotFound => McpError::resource_not_found(e.to_string(), None),
        ErrorCode::InvalidInput => McpError::invalid_params(e.to_string(), None),
        _ => McpError::internal_error(e.to_string(), None),
    }
}
