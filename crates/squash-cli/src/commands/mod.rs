pub mod conversation;
pub mod message;
pub mod provenance;
pub mod squash;
pub mod thread;
