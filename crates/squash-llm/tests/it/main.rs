//! The providers over the wire they use in production: loopback HTTP servers, a scripted CLI, the embedded model.
//!
//! One test binary for the whole crate (each module was a binary of its own): the stack is
//! compiled and linked once. Shared support comes from `squash-testkit`.

mod anthropic;
mod claude_cli;
mod local_model;
mod openai;
mod wire;
