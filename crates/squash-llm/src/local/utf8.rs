//! Token pieces to text. A token is a few bytes that may end inside a multi-byte character
//! (an emoji or a CJK character often spans two tokens), so pieces are buffered until they form
//! whole characters before anything is streamed.

/// Bytes that do not yet end on a character boundary.
#[derive(Debug, Default)]
pub(super) struct Utf8Stream {
    pending: Vec<u8>,
}

impl Utf8Stream {
    /// Adds a token's bytes and returns the text that is now complete. Bytes that can never be
    /// UTF-8 become U+FFFD, as `String::from_utf8_lossy` would make them.
    pub(super) fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let mut out = String::new();
        loop {
            match std::str::from_utf8(&self.pending) {
                Ok(text) => {
                    out.push_str(text);
                    self.pending.clear();
                    return out;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    // `valid_up_to` marks a boundary, so this prefix is UTF-8.
                    out.push_str(&String::from_utf8_lossy(&self.pending[..valid]));
                    match e.error_len() {
                        // An incomplete character at the end: wait for the next token.
                        None => {
                            self.pending.drain(..valid);
                            return out;
                        }
                        Some(bad) => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            self.pending.drain(..valid + bad);
                        }
                    }
                }
            }
        }
    }

    /// What is left when the answer ends: an incomplete character, shown as U+FFFD.
    pub(super) fn finish(&mut self) -> String {
        let rest = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_passes_through() {
        let mut s = Utf8Stream::default();
        assert_eq!(s.push(b"hello"), "hello");
        assert_eq!(s.finish(), "");
    }

    #[test]
    fn a_character_split_across_tokens_is_held_back() {
        let crab = "🦀".as_bytes();
        let mut s = Utf8Stream::default();
        assert_eq!(s.push(&[b'a', crab[0], crab[1]]), "a");
        assert_eq!(s.push(&crab[2..]), "🦀");
        assert_eq!(s.push(b"!"), "!");
    }

    #[test]
    fn invalid_bytes_become_replacement_characters() {
        let mut s = Utf8Stream::default();
        assert_eq!(s.push(&[b'a', 0xff, b'b']), "a\u{fffd}b");
        assert_eq!(s.push(&[0xe2, 0x82]), "");
        assert_eq!(s.finish(), "\u{fffd}");
    }
}
