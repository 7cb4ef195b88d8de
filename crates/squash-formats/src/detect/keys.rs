//! A tolerant scan of the top-level keys of the JSON object a text starts with. It reads as far
//! as the text goes and skips values without building them, so the first record of a session
//! tells its format even when the line is far longer than what detection reads of it.

/// The top-level keys seen, with the values of those whose value is a string.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct KeyScan {
    pub keys: Vec<(String, Option<String>)>,
    /// The object ended within the text.
    pub complete: bool,
    /// Where the text goes on after the object, when it ended.
    pub end: usize,
}

impl KeyScan {
    pub fn has(&self, key: &str) -> bool {
        self.keys.iter().any(|(k, _)| k == key)
    }

    pub fn string(&self, key: &str) -> Option<&str> {
        self.keys
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.as_deref())
    }
}

struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
}

/// A scan step that ran out of text (`None`) or met something that is not JSON (`Err`).
type Step<T> = Result<Option<T>, NotJson>;

/// The text is not a JSON object (as far as it goes).
#[derive(Debug)]
pub(crate) struct NotJson;

impl Cursor<'_> {
    fn skip_ws(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    /// A string starting at the cursor (at its quote); its decoded text.
    fn string(&mut self) -> Step<String> {
        let start = self.at;
        self.at += 1;
        loop {
            match self.peek() {
                None => return Ok(None),
                Some(b'\\') => self.at += 2,
                Some(b'"') => {
                    self.at += 1;
                    let raw = &self.text[start..self.at];
                    return serde_json::from_slice(raw).map(Some).map_err(|_| NotJson);
                }
                Some(_) => self.at += 1,
            }
        }
    }

    /// Skips the value at the cursor (not a string), up to the `,` or `}` that ends it.
    fn skip_value(&mut self) -> Step<()> {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                None => return Ok(None),
                Some(b'"') => {
                    if self.string()?.is_none() {
                        return Ok(None);
                    }
                    continue;
                }
                Some(b'{' | b'[') => depth += 1,
                Some(b'}' | b']') if depth == 0 => return Ok(Some(())),
                Some(b'}' | b']') => depth -= 1,
                Some(b',') if depth == 0 => return Ok(Some(())),
                Some(_) => {}
            }
            self.at += 1;
        }
    }

    /// One `"key": value` pair; `false` when the text ends inside the value.
    fn pair(&mut self) -> Step<(String, Option<String>, bool)> {
        if self.peek() != Some(b'"') {
            return Err(NotJson);
        }
        let Some(key) = self.string()? else {
            return Ok(None);
        };
        self.skip_ws();
        match self.peek() {
            None => return Ok(None),
            Some(b':') => self.at += 1,
            Some(_) => return Err(NotJson),
        }
        self.skip_ws();
        Ok(Some(match self.peek() {
            None => (key, None, false),
            Some(b'"') => match self.string()? {
                Some(value) => (key, Some(value), true),
                None => (key, None, false),
            },
            Some(_) => {
                let ended = self.skip_value()?.is_some();
                (key, None, ended)
            }
        }))
    }
}

/// Scans the object `text` starts with (after white space).
pub(crate) fn scan_keys(text: &str) -> Result<KeyScan, NotJson> {
    let mut c = Cursor {
        text: text.as_bytes(),
        at: 0,
    };
    c.skip_ws();
    if c.peek() != Some(b'{') {
        return Err(NotJson);
    }
    c.at += 1;
    let mut scan = KeyScan::default();
    loop {
        c.skip_ws();
        match c.peek() {
            None => return Ok(scan),
            Some(b'}') => {
                scan.complete = true;
                scan.end = c.at + 1;
                return Ok(scan);
            }
            Some(b',') if !scan.keys.is_empty() => {
                c.at += 1;
                continue;
            }
            Some(_) => {}
        }
        match c.pair()? {
            Some((key, value, true)) => scan.keys.push((key, value)),
            Some((key, value, false)) => {
                scan.keys.push((key, value));
                return Ok(scan);
            }
            None => return Ok(scan),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_whole_and_cut_objects() {
        let scan =
            scan_keys(r#" {"a": {"x": [1, "}"]}, "type": "user", "n": -1.5e3} tail"#).unwrap();
        let keys: Vec<&str> = scan.keys.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["a", "type", "n"]);
        assert_eq!(scan.string("type"), Some("user"));
        assert!(scan.complete);
        assert_eq!(
            &r#" {"a": {"x": [1, "}"]}, "type": "user", "n": -1.5e3} tail"#[scan.end..],
            " tail"
        );

        let cut = scan_keys(r#"{"type":"user","message":{"content":"aaaa\"aa"#).unwrap();
        assert_eq!(cut.string("type"), Some("user"));
        assert!(cut.has("message"), "a key whose value is cut is still seen");
        assert!(!cut.complete);
        assert!(scan_keys("hello").is_err());
        assert!(scan_keys("{1: 2}").is_err());
        assert!(scan_keys("").is_err());
        assert_eq!(
            scan_keys(r#"{"k\u00e9y": "v\n"}"#).unwrap().string("kéy"),
            Some("v\n")
        );
    }
}
