pub mod ai;
pub mod chat;
pub mod conversation;
pub mod doctor;
pub mod message;
pub mod provenance;
pub mod squash;
pub mod thread;
