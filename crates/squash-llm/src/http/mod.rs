//! What the HTTP providers share: the client and how a request is sent and its failure
//! classified ([`client`], [`status`]), bounded retries ([`retry`]), server-sent events
//! ([`sse`]), and the one chat call built from them ([`chat`]), so that a provider module
//! supplies only its wire format.

pub(crate) mod chat;
pub(crate) mod client;
pub(crate) mod retry;
pub(crate) mod sse;
pub(crate) mod status;
