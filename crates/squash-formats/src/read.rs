//! Runs the reader of a format over a file or a stream.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sha2::{Digest, Sha256};
use squash_core::SourceFormat;

use crate::claude_code::ClaudeCodeParser;
use crate::codex::CodexParser;
use crate::hash::{hex_digest, sha256_hex};
use crate::{
    anthropic_json, chatgpt, claude_ai, gemini, gromozeka, openai_json, opencode, squash_json,
    FormatError, Parsed,
};

/// Bytes between progress reports.
const PROGRESS_STEP: u64 = 1 << 20;

/// The file at `path`, its error named after the source.
fn open(path: &Path, source_name: &str) -> Result<std::fs::File, FormatError> {
    std::fs::File::open(path).map_err(|error| FormatError::Io {
        path: source_name.to_owned(),
        error,
    })
}

/// Reads the file at `path` as `format`; `advanced` is told how many more bytes were read, now
/// and then. `now` is the time given to what the source does not date.
pub fn read_file(
    path: &Path,
    source_name: &str,
    format: SourceFormat,
    now: DateTime<Utc>,
    advanced: &mut dyn FnMut(u64),
) -> Result<Parsed, FormatError> {
    if format == SourceFormat::Gromozeka {
        return gromozeka::read_database(path, source_name, now);
    }
    if format == SourceFormat::Opencode && opencode::is_opencode_database(path) {
        return opencode::read_database(path, source_name, now);
    }
    let file = open(path, source_name)?;
    read_stream(file, source_name, format, now, advanced)
}

/// Reads the file at `path` as [`read_file`] does, except that a Claude Code session is read
/// in streaming mode: its conversations keep only their structure, and their messages are
/// made (by reading the file again) when they are stored; see
/// [`DeferredMessages`](crate::claude_code::DeferredMessages). Memory then stays bounded by
/// the number of lines, not their size.
pub fn read_file_streaming(
    path: &Path,
    source_name: &str,
    format: SourceFormat,
    now: DateTime<Utc>,
    advanced: &mut dyn FnMut(u64),
) -> Result<Parsed, FormatError> {
    if format != SourceFormat::ClaudeCode {
        return read_file(path, source_name, format, now, advanced);
    }
    let file = open(path, source_name)?;
    let parser = ClaudeCodeParser::streaming(path.to_path_buf(), source_name, now);
    read_lines(
        file,
        source_name,
        LineParser::Claude(Box::new(parser)),
        advanced,
    )
}

/// Reads a file of Claude Code sub-agent runs (`<session>/subagents/agent-*.jsonl`) as runs of
/// `parent`, whose `Task` calls started them.
pub fn read_claude_subagents(
    path: &Path,
    source_name: &str,
    parent: crate::claude_code::ParentSession,
    now: DateTime<Utc>,
) -> Result<Parsed, FormatError> {
    let file = open(path, source_name)?;
    let parser = ClaudeCodeParser::new(source_name, now).with_parent(parent);
    read_lines(
        file,
        source_name,
        LineParser::Claude(Box::new(parser)),
        &mut |_| {},
    )
}

/// Reads a stream as `format`. JSONL formats are read line by line; whole documents are read
/// at once (they are small). A Gromozeka database is a file, not a stream.
pub fn read_stream(
    reader: impl Read,
    source_name: &str,
    format: SourceFormat,
    now: DateTime<Utc>,
    advanced: &mut dyn FnMut(u64),
) -> Result<Parsed, FormatError> {
    match format {
        SourceFormat::ClaudeCode => {
            let parser = LineParser::Claude(Box::new(ClaudeCodeParser::new(source_name, now)));
            read_lines(reader, source_name, parser, advanced)
        }
        SourceFormat::Codex => {
            let parser = LineParser::Codex(Box::new(CodexParser::new(source_name, now)));
            read_lines(reader, source_name, parser, advanced)
        }
        SourceFormat::ChatGpt => chatgpt::EXPORT.read(reader, source_name, now, advanced),
        SourceFormat::ClaudeAi => claude_ai::EXPORT.read(reader, source_name, now, advanced),
        SourceFormat::Gemini => {
            let (data, hash) = read_all(reader, source_name, advanced)?;
            let text = String::from_utf8_lossy(&data);
            gemini::parse_str(source_name, &text, &hash, now)
        }
        SourceFormat::OpenAi
        | SourceFormat::Anthropic
        | SourceFormat::Squash
        | SourceFormat::Opencode => read_document(reader, source_name, format, now, advanced),
        SourceFormat::Gromozeka => Err(FormatError::invalid(
            source_name,
            "a Gromozeka database must be imported from a file",
        )),
    }
}

enum LineParser {
    Claude(Box<ClaudeCodeParser>),
    Codex(Box<CodexParser>),
}

fn read_lines(
    reader: impl Read,
    source_name: &str,
    mut parser: LineParser,
    advanced: &mut dyn FnMut(u64),
) -> Result<Parsed, FormatError> {
    let io = |error| FormatError::Io {
        path: source_name.to_owned(),
        error,
    };
    let mut reader = BufReader::with_capacity(1 << 20, reader);
    let mut hash = Sha256::new();
    let mut buf = Vec::with_capacity(64 * 1024);
    let mut no = 0usize;
    let mut records = 0usize;
    let mut since_report = 0u64;
    let mut offset = 0u64;
    let mut skipped_utf8 = Vec::new();
    loop {
        buf.clear();
        let n = reader.read_until(b'\n', &mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        no += 1;
        let at = offset;
        offset += n as u64;
        hash.update(&buf);
        since_report += n as u64;
        if since_report >= PROGRESS_STEP {
            advanced(since_report);
            since_report = 0;
        }
        // A blank line holds nothing to keep: it is no record, and the readers never see it;
        // the line numbers still count it.
        if buf.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        records += 1;
        match std::str::from_utf8(&buf) {
            Ok(line) => match &mut parser {
                LineParser::Claude(p) => p.push_line_at(no, at, line),
                LineParser::Codex(p) => p.push_line(no, line),
            },
            Err(e) => skipped_utf8.push((no, e.to_string())),
        }
    }
    advanced(since_report);
    let digest = hex_digest(hash.finalize().as_slice());
    let mut parsed = match parser {
        LineParser::Claude(p) => p.finish(&digest),
        LineParser::Codex(p) => p.finish(&digest),
    };
    parsed.records.lines = records;
    for (line, e) in skipped_utf8 {
        parsed.skip_record(source_name, Some(line), format!("not UTF-8: {e}"));
    }
    parsed.skipped.sort_by_key(|s| s.line);
    Ok(parsed)
}

/// A whole source in memory, and its hash.
fn read_all(
    mut reader: impl Read,
    source_name: &str,
    advanced: &mut dyn FnMut(u64),
) -> Result<(Vec<u8>, String), FormatError> {
    let mut data = Vec::new();
    reader
        .read_to_end(&mut data)
        .map_err(|error| FormatError::Io {
            path: source_name.to_owned(),
            error,
        })?;
    advanced(data.len() as u64);
    let hash = sha256_hex(&data);
    Ok((data, hash))
}

fn read_document(
    reader: impl Read,
    source_name: &str,
    format: SourceFormat,
    now: DateTime<Utc>,
    advanced: &mut dyn FnMut(u64),
) -> Result<Parsed, FormatError> {
    let (data, hash) = read_all(reader, source_name, advanced)?;
    let doc: Value = serde_json::from_slice(&data)
        .map_err(|e| FormatError::invalid(source_name, format!("invalid JSON: {e}")))?;
    drop(data);
    match format {
        SourceFormat::OpenAi => openai_json::parse(source_name, doc, &hash, now),
        SourceFormat::Anthropic => anthropic_json::parse(source_name, doc, &hash, now),
        SourceFormat::Opencode => opencode::parse_document(source_name, doc, &hash, now),
        _ => squash_json::parse(source_name, doc, &hash),
    }
}

#[cfg(test)]
mod blank_line_tests {
    use super::*;

    /// Blank lines are no records, whatever the reader: the counts still add up, and the line
    /// numbers of what is skipped are the file's.
    #[test]
    fn blank_lines_are_no_records_and_keep_line_numbers() {
        let claude = "\n{\"type\":\"user\",\"uuid\":\"a\",\"parentUuid\":null,\"sessionId\":\"s\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n   \n{not json\n\n";
        let codex = "\n{\"timestamp\":\"2025-01-01T00:00:00Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"x\"}}\n\n{not json\n";
        for (format, text) in [
            (SourceFormat::ClaudeCode, claude),
            (SourceFormat::Codex, codex),
        ] {
            let parsed =
                read_stream(text.as_bytes(), "f", format, Utc::now(), &mut |_| {}).expect("reads");
            assert!(parsed.records.balanced(), "{format}: {:?}", parsed.records);
            assert_eq!(parsed.records.lines, 2, "{format}");
            assert_eq!(parsed.records.skipped, 1, "{format}");
            let lines: Vec<_> = parsed.skipped.iter().map(|s| s.line).collect();
            assert!(lines.contains(&Some(4)), "{format}: {:?}", parsed.skipped);
        }
    }
}
