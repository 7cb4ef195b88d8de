//! Codex's code mode: a call of its `exec` tool is a JavaScript script, and what ran is the
//! tools it calls (`text(await tools.exec_command({cmd: "cargo test"}))`,
//! `tools.apply_patch("*** Begin Patch…")`). The script is read, never evaluated: only literal
//! arguments are known, so a command the script builds at run time stays unknown rather than
//! guessed.

use serde_json::{Map, Number, Value};

/// A tool the script calls, with what is literal of its argument: a string, or an object of
/// its literal fields (a field whose value is computed is left out).
#[derive(Debug, PartialEq)]
pub(crate) struct NestedCall {
    pub name: String,
    pub input: Value,
}

const PREFIX: &str = "tools.";

/// The tool calls of a code-mode script, in the order they are written.
pub(crate) fn nested_calls(script: &str) -> Vec<NestedCall> {
    let mut calls = Vec::new();
    let mut from = 0;
    while let Some(at) = script[from..].find(PREFIX) {
        let start = from + at + PREFIX.len();
        from = start;
        // `mytools.x(` is not the global `tools`.
        let before = script[..start - PREFIX.len()].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.') {
            continue;
        }
        let mut reader = Reader {
            text: script,
            at: start,
        };
        let name = reader.identifier();
        if name.is_empty() {
            continue;
        }
        reader.skip_space();
        if !reader.eat('(') {
            continue;
        }
        reader.skip_space();
        let input = reader.value().unwrap_or(Value::Null);
        from = reader.at.max(from);
        calls.push(NestedCall {
            name: name.to_owned(),
            input,
        });
    }
    calls
}

/// Whether a tool input is a code-mode script: a string that calls the global `tools` (a
/// patch given as the whole input may quote such a script, but is a patch).
pub(crate) fn is_script(input: &Value) -> bool {
    input
        .as_str()
        .is_some_and(|s| s.contains(PREFIX) && !s.trim_start().starts_with("*** Begin Patch"))
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek().filter(|c| c.is_whitespace()) {
            self.at += c.len_utf8();
        }
    }

    fn identifier(&mut self) -> &'a str {
        let start = self.at;
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        {
            self.at += c.len_utf8();
        }
        &self.text[start..self.at]
    }

    /// A literal value, or `None` (the reader then stands past it) when it is computed.
    fn value(&mut self) -> Option<Value> {
        let literal = match self.peek()? {
            '"' | '\'' | '`' => self.string().map(Value::String),
            '{' => return self.object(),
            c if c.is_ascii_digit() || c == '-' => self.number(),
            _ => {
                let word = self.identifier();
                match word {
                    "true" => Some(Value::Bool(true)),
                    "false" => Some(Value::Bool(false)),
                    "null" => Some(Value::Null),
                    _ => None,
                }
            }
        };
        // `"git " + branch` is built at run time: not a literal.
        self.skip_space();
        match self.peek() {
            Some(',' | '}' | ')' | ']') | None => literal,
            _ => {
                self.skip_value();
                None
            }
        }
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.at;
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        {
            self.at += c.len_utf8();
        }
        let digits = self.text[start..self.at].replace('_', "");
        match digits.parse::<i64>() {
            Ok(n) => Some(Value::Number(n.into())),
            Err(_) => Number::from_f64(digits.parse().ok()?).map(Value::Number),
        }
    }

    /// An object literal of literal fields; `None` when it is not closed.
    fn object(&mut self) -> Option<Value> {
        self.eat('{');
        let mut fields = Map::new();
        loop {
            self.skip_space();
            if self.eat('}') {
                return Some(Value::Object(fields));
            }
            let key = match self.peek()? {
                '"' | '\'' => self.string(),
                _ => Some(self.identifier().to_owned()).filter(|k| !k.is_empty()),
            };
            self.skip_space();
            match key {
                Some(key) if self.eat(':') => {
                    self.skip_space();
                    if let Some(value) = self.value() {
                        fields.insert(key, value);
                    }
                }
                // `{cmd}`, `...rest`, a computed key: nothing literal.
                _ => self.skip_value(),
            }
            self.skip_space();
            if !self.eat(',') && self.peek() != Some('}') {
                return None;
            }
        }
    }

    /// A string literal, unescaped; a template with `${…}` in it is computed (`None`).
    fn string(&mut self) -> Option<String> {
        let quote = self.peek()?;
        self.at += 1;
        let mut out = String::new();
        let mut computed = false;
        let mut chars = self.text[self.at..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                c if c == quote => {
                    self.at += i + 1;
                    return (!computed).then_some(out);
                }
                '$' if quote == '`' && self.text[self.at + i..].starts_with("${") => {
                    computed = true;
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, '0')) => out.push('\0'),
                    Some((j, 'u')) => {
                        let rest = &self.text[self.at + j + 1..];
                        let (hex, len) = match rest.strip_prefix('{') {
                            Some(braced) => {
                                let end = braced.find('}').unwrap_or(braced.len());
                                (&braced[..end], end + 2)
                            }
                            None => (rest.get(..4).unwrap_or(rest), 4),
                        };
                        let code = u32::from_str_radix(hex, 16).ok();
                        out.extend(code.and_then(char::from_u32));
                        for _ in 0..len {
                            chars.next();
                        }
                    }
                    Some((_, '\n')) => {}
                    Some((_, other)) => out.push(other),
                    None => break,
                },
                c => out.push(c),
            }
        }
        self.at = self.text.len();
        None
    }

    /// Past a value this reader does not read: up to the `,` or the closing bracket that
    /// ends it, over nested brackets and strings.
    fn skip_value(&mut self) {
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                '"' | '\'' | '`' => {
                    self.string();
                    continue;
                }
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth == 0 => return,
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => return,
                _ => {}
            }
            self.at += c.len_utf8();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn calls(script: &str) -> Vec<(String, Value)> {
        nested_calls(script)
            .into_iter()
            .map(|c| (c.name, c.input))
            .collect()
    }

    #[test]
    fn a_scripts_literal_command_is_what_ran() {
        let script = r#"text(await tools.exec_command({cmd:"cargo test -p config 2>&1 | tail -20",max_output_tokens:1000}));"#;
        assert_eq!(
            calls(script),
            [(
                "exec_command".to_owned(),
                json!({"cmd": "cargo test -p config 2>&1 | tail -20", "max_output_tokens": 1000})
            )]
        );
        let quoted = "const r = await tools.exec_command({\"cmd\":\"pwd && rg --files\",\"workdir\":\"/tmp\"});\ntext(r.output);";
        assert_eq!(
            calls(quoted)[0].1,
            json!({"cmd": "pwd && rg --files", "workdir": "/tmp"})
        );
    }

    #[test]
    fn escapes_quotes_and_templates_are_read_as_javascript_reads_them() {
        let script = r#"await tools.exec_command({ cmd: 'grep -n "a\'b" x.rs\n', tty: true }); await tools.exec_command({cmd: `ls
  -la`});"#;
        let got = calls(script);
        assert_eq!(got[0].1["cmd"], "grep -n \"a'b\" x.rs\n");
        assert_eq!(got[0].1["tty"], true);
        assert_eq!(got[1].1["cmd"], "ls\n  -la");
        let unicode = calls(r#"tools.exec_command({cmd: "echo \u00e9\u{1F600}!"})"#);
        assert_eq!(unicode[0].1["cmd"], "echo \u{e9}\u{1F600}!");
    }

    #[test]
    fn a_command_built_at_run_time_is_not_guessed() {
        let script = r#"for (const f of files) { await tools.exec_command({cmd: "wc -l " + f, workdir: `/repo/${d}`}); } await tools.exec_command({cmd}); await tools.exec_command(`git ${sub}`);"#;
        let got = calls(script);
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].1, json!({}));
        assert_eq!(got[1].1, json!({}));
        assert_eq!(got[2].1, Value::Null);
    }

    #[test]
    fn a_patch_passed_as_a_string_is_its_text() {
        let script = "await tools.apply_patch(\"*** Begin Patch\\n*** Update File: src/a.rs\\n@@\\n-x\\n+y\\n*** End Patch\\n\");";
        let got = calls(script);
        assert_eq!(got[0].0, "apply_patch");
        assert!(got[0]
            .1
            .as_str()
            .unwrap()
            .contains("\n*** Update File: src/a.rs\n"));
    }

    #[test]
    fn only_the_global_tools_object_and_unclosed_scripts_end_cleanly() {
        assert!(calls("mytools.exec_command({cmd: 'x'})").is_empty());
        assert!(calls("a.tools.exec_command({cmd: 'x'})").is_empty());
        let cut = calls("await tools.exec_command({cmd: \"cargo te");
        assert_eq!(cut.len(), 1);
        assert!(is_script(&json!("tools.exec_command({})")));
        assert!(!is_script(&json!({"cmd": "tools.x"})));
        assert!(!is_script(&json!(
            "*** Begin Patch\n+tools.exec_command({})\n"
        )));
    }
}
