//! A file's size and SHA-256, computed as it is written or read.

use std::io::{self, Write};

use sha2::{Digest, Sha256};

use super::catalog::CatalogModel;
use super::error::ModelError;

/// A file's size and SHA-256.
pub(super) struct Digested {
    pub(super) size: u64,
    pub(super) sha256: String,
}

impl Digested {
    /// Whether these are the size and SHA-256 of `model`'s file.
    pub(super) fn check(self, model: &CatalogModel) -> Result<(), ModelError> {
        if self.size != model.size_bytes {
            return Err(ModelError::Size {
                expected: model.size_bytes,
                actual: self.size,
            });
        }
        if self.sha256 != model.sha256 {
            return Err(ModelError::Checksum {
                expected: model.sha256.to_owned(),
                actual: self.sha256,
            });
        }
        Ok(())
    }
}

/// Passes bytes on to `inner` while hashing and counting them.
pub(super) struct HashingWriter<W: Write> {
    inner: W,
    hasher: Sha256,
    size: u64,
}

impl<W: Write> HashingWriter<W> {
    pub(super) fn new(inner: W) -> HashingWriter<W> {
        HashingWriter {
            inner,
            hasher: Sha256::new(),
            size: 0,
        }
    }

    pub(super) fn finish(self) -> Digested {
        Digested {
            size: self.size,
            sha256: hex(&self.hasher.finalize()),
        }
    }

    /// Flushes `inner` first, so that a failed final write is an error and not a short file.
    pub(super) fn finish_checked(mut self) -> io::Result<Digested> {
        self.inner.flush()?;
        Ok(self.finish())
    }
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.size += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn hashing_writer_matches_a_known_digest() {
        let mut w = HashingWriter::new(Vec::new());
        w.write_all(b"abc").unwrap();
        let d = w.finish();
        assert_eq!(d.size, 3);
        assert_eq!(
            d.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
