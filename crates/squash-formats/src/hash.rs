//! Content hashes of sources: a changed hash is how a re-import knows the source changed.

use sha2::{Digest, Sha256};

/// Hex SHA-256, the content hash of sources.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex_digest(Sha256::digest(bytes).as_slice())
}

pub(crate) fn hex_digest(digest: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(digest.len() * 2);
    for b in digest {
        let _ = write!(out, "{b:02x}");
    }
    out
}
