//! The YAML a Spring Boot `application.yml` is written in, read into [`Yaml`] values.
//!
//! Read: block mappings and sequences by indentation (a sequence may sit at its key's own
//! indentation, and `- key: value` opens a mapping inside an entry), flow `[...]` and `{...}`
//! collections (over several lines too), plain, single- and double-quoted scalars, comments,
//! and documents split by `---`. Plain scalars are typed as yaml-rust2 types them (YAML 1.2's
//! core schema): nothing, `~` and `null` are null, `true`/`false` (also `True`, `TRUE`) are
//! booleans, integers (also `0x`, `0o`, `+`) are integers, and reals are kept as written.
//!
//! Refused, with the line they are on: anchors and aliases, tags, block scalars (`|`, `>`),
//! complex keys (`?`), plain scalars or quoted strings continued on a later line, tabs in
//! indentation, and duplicated keys. A configuration can always be written without them.
//!
//! Why not a YAML crate: this is all the playground reads, and yaml-rust2 added about 25 KB
//! gzipped to the page's wasm. yaml-rust2 remains the oracle in `tests/yaml_reader.rs`.

use std::fmt;

/// One YAML node.
#[derive(Debug, Clone, PartialEq)]
pub enum Yaml {
    /// A real number, as written (`0.5`, `1e3`, `.inf`).
    Real(String),
    /// A whole number.
    Integer(i64),
    /// A string: quoted, or a plain scalar that is no other type.
    String(String),
    /// `true` or `false`.
    Boolean(bool),
    /// A sequence.
    Array(Vec<Yaml>),
    /// A mapping, its entries in the order written.
    Hash(Vec<(Yaml, Yaml)>),
    /// Nothing, `~` or `null`.
    Null,
}

/// Why a text is not YAML this reader takes, and on which line (from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for YamlError {}

type Parsed<T> = Result<T, YamlError>;

fn error<T>(line: usize, message: impl Into<String>) -> Parsed<T> {
    Err(YamlError {
        line,
        message: message.into(),
    })
}

impl Yaml {
    /// The entries, if this is a mapping.
    pub fn as_hash(&self) -> Option<&[(Yaml, Yaml)]> {
        match self {
            Yaml::Hash(entries) => Some(entries),
            _ => None,
        }
    }

    /// The text, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Yaml::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if this is an integer.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Yaml::Integer(i) => Some(*i),
            _ => None,
        }
    }

    /// The number, if this is an integer or a real (`.inf` and `.nan` included).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Yaml::Integer(i) => Some(*i as f64),
            Yaml::Real(r) => r.parse().ok(),
            _ => None,
        }
    }

    /// Whether this is null.
    pub fn is_null(&self) -> bool {
        matches!(self, Yaml::Null)
    }

    /// The value under the string key `key`, if this is a mapping that has one.
    pub fn get(&self, key: &str) -> Option<&Yaml> {
        self.as_hash()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// A plain (unquoted) scalar, typed.
    fn plain(text: &str) -> Yaml {
        let radix = |digits: &str, radix| i64::from_str_radix(digits, radix).ok();
        let special = if let Some(hex) = text.strip_prefix("0x") {
            radix(hex, 16)
        } else if let Some(octal) = text.strip_prefix("0o") {
            radix(octal, 8)
        } else if let Some(positive) = text.strip_prefix('+') {
            positive.parse().ok()
        } else {
            None
        };
        if let Some(i) = special {
            return Yaml::Integer(i);
        }
        match text {
            "" | "~" | "null" => Yaml::Null,
            "true" | "True" | "TRUE" => Yaml::Boolean(true),
            "false" | "False" | "FALSE" => Yaml::Boolean(false),
            _ => {
                if let Ok(i) = text.parse() {
                    Yaml::Integer(i)
                } else if is_real(text) {
                    Yaml::Real(text.to_string())
                } else {
                    Yaml::String(text.to_string())
                }
            }
        }
    }
}

fn is_real(text: &str) -> bool {
    matches!(
        text,
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
    ) || matches!(text, ".nan" | ".NaN" | ".NAN")
        || (text.bytes().any(|b| b.is_ascii_digit()) && text.parse::<f64>().is_ok())
}

/// Every document in `text`, in order.
pub fn load(text: &str) -> Parsed<Vec<Yaml>> {
    let mut documents = Vec::new();
    for lines in documents_of(text)? {
        let mut reader = Reader { lines, at: 0 };
        documents.push(reader.document()?);
    }
    Ok(documents)
}

/// A line with its comment and indentation taken off; blank lines are dropped.
#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    number: usize,
    indent: usize,
    text: &'a str,
}

/// The lines of each document. An explicit `---` starts one even if nothing follows.
fn documents_of(text: &str) -> Parsed<Vec<Vec<Line<'_>>>> {
    let mut documents = Vec::new();
    let mut current: Option<Vec<Line>> = None;
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let body = raw.trim_start_matches(' ');
        let indent = raw.len() - body.len();
        let content = without_comment(body).trim_end();
        if content.trim_start().is_empty() {
            continue;
        }
        if content.starts_with('\t') {
            return error(number, "a tab in indentation (YAML indents with spaces)");
        }
        if indent == 0 && (content == "---" || content.starts_with("--- ")) {
            documents.extend(current.take());
            let mut lines = Vec::new();
            let rest = content[3..].trim_start();
            if !rest.is_empty() {
                lines.push(Line {
                    number,
                    indent: content.len() - rest.len(),
                    text: rest,
                });
            }
            current = Some(lines);
        } else if indent == 0 && content == "..." {
            documents.extend(current.take());
        } else if indent == 0 && content.starts_with('%') && current.is_none() {
            // A directive (`%YAML 1.2`) before a document says nothing this reader needs.
        } else {
            current.get_or_insert_with(Vec::new).push(Line {
                number,
                indent,
                text: content,
            });
        }
    }
    documents.extend(current);
    Ok(documents)
}

/// `text` up to a comment: a `#` at its start or after a space, outside quoted scalars. A
/// quote or a bracket opens something only where a value can start (at the line's start,
/// after `: ` or `- `, and inside brackets after `[`, `{` or `,`); elsewhere it is part of a
/// plain scalar, as in `it's`.
fn without_comment(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut quote: Option<u8> = None;
    let mut flow_depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(b'"') if b == b'\\' => i += 1,
            Some(b'\'') if b == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => {
                if b == b'#' && (i == 0 || bytes[i - 1] == b' ') {
                    return &text[..i];
                }
                let opens = value_starts_at(bytes, i, flow_depth > 0);
                match b {
                    b'"' | b'\'' if opens => quote = Some(b),
                    b'[' | b'{' if opens || flow_depth > 0 => flow_depth += 1,
                    b']' | b'}' if flow_depth > 0 => flow_depth -= 1,
                    _ => {}
                }
            }
        }
        i += 1;
    }
    text
}

/// Whether a value can start at `i`: the line's start, after `: `, `- ` or `? `, or (inside
/// brackets) after `[`, `{` or `,`.
fn value_starts_at(bytes: &[u8], i: usize, in_flow: bool) -> bool {
    let before = &bytes[..i];
    let trimmed = before.len() - before.iter().rev().take_while(|&&b| b == b' ').count();
    if trimmed == 0 {
        return true;
    }
    let spaced = trimmed < i;
    match bytes[trimmed - 1] {
        b':' => spaced,
        b'-' | b'?' => spaced && (trimmed == 1 || bytes[trimmed - 2] == b' '),
        b'[' | b'{' | b',' => in_flow,
        _ => false,
    }
}

/// Whether a line opens a sequence entry (`-` alone or followed by a space).
fn is_entry(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

struct Reader<'a> {
    lines: Vec<Line<'a>>,
    at: usize,
}

impl<'a> Reader<'a> {
    fn document(&mut self) -> Parsed<Yaml> {
        let Some(first) = self.lines.first().copied() else {
            return Ok(Yaml::Null);
        };
        let root = self.node(first.indent)?;
        match self.lines.get(self.at) {
            Some(line) => error(
                line.number,
                "bad indentation: this line lines up with no key above it",
            ),
            None => Ok(root),
        }
    }

    fn peek(&self) -> Option<Line<'a>> {
        self.lines.get(self.at).copied()
    }

    /// The block node whose first line is the current one, at `indent`.
    fn node(&mut self, indent: usize) -> Parsed<Yaml> {
        let line = self.peek().expect("a line to read");
        if is_entry(line.text) {
            self.sequence(indent)
        } else if split_key(line)?.is_some() {
            self.mapping(indent)
        } else {
            self.at += 1;
            let value = self.inline(line)?;
            self.no_continuation(indent)?;
            Ok(value)
        }
    }

    /// Refuses a more indented line after a value that ended on its own line.
    fn no_continuation(&self, indent: usize) -> Parsed<()> {
        match self.peek() {
            Some(next) if next.indent > indent => error(
                next.number,
                "a value continued on this line (write it on one line, or quote it)",
            ),
            _ => Ok(()),
        }
    }

    /// What follows a `key:` or `-` with nothing after it: a more indented block, a sequence
    /// at the key's own indentation (`same_level_sequence`), or null.
    fn child(&mut self, indent: usize, same_level_sequence: bool) -> Parsed<Yaml> {
        match self.peek() {
            Some(next) if next.indent > indent => self.node(next.indent),
            Some(next) if same_level_sequence && next.indent == indent && is_entry(next.text) => {
                self.sequence(indent)
            }
            _ => Ok(Yaml::Null),
        }
    }

    fn sequence(&mut self, indent: usize) -> Parsed<Yaml> {
        let mut items = Vec::new();
        while let Some(line) = self.peek() {
            if line.indent != indent || !is_entry(line.text) {
                break;
            }
            let rest = &line.text[1..];
            let content = rest.trim_start();
            if content.is_empty() {
                self.at += 1;
                items.push(self.child(indent, false)?);
            } else {
                // The entry's content is read as a line of its own at the column it starts,
                // so that `- key: value` and the lines under it form one mapping.
                let column = indent + 1 + (rest.len() - content.len());
                self.lines[self.at] = Line {
                    number: line.number,
                    indent: column,
                    text: content,
                };
                items.push(self.node(column)?);
            }
        }
        Ok(Yaml::Array(items))
    }

    fn mapping(&mut self, indent: usize) -> Parsed<Yaml> {
        let mut entries: Vec<(Yaml, Yaml)> = Vec::new();
        while let Some(line) = self.peek() {
            if line.indent != indent {
                break;
            }
            let Some((key, rest)) = split_key(line)? else {
                return error(
                    line.number,
                    if is_entry(line.text) {
                        "a sequence entry where a key of the mapping above was expected"
                    } else {
                        "expected `key: value`, as on the lines above"
                    },
                );
            };
            if entries.iter().any(|(k, _)| *k == key) {
                return error(
                    line.number,
                    format!("the key `{}` appears twice", line_key(line)),
                );
            }
            self.at += 1;
            let value = if rest.is_empty() {
                self.child(indent, true)?
            } else {
                let value = self.inline(Line { text: rest, ..line })?;
                self.no_continuation(indent)?;
                value
            };
            entries.push((key, value));
        }
        Ok(Yaml::Hash(entries))
    }

    /// A value written on its line (after `key:` or `-`): a scalar, or a flow collection that
    /// may go on over the following lines until its brackets close.
    fn inline(&mut self, line: Line<'a>) -> Parsed<Yaml> {
        let text = line.text;
        if is_entry(text) {
            // (`key: - a` is refused by YAML; `: -` reads as a sequence elsewhere: neither is
            // a configuration anyone writes.)
            return error(
                line.number,
                "a sequence cannot start on its key's line: put each `- ` on a line of its own",
            );
        }
        if text.starts_with('[') || text.starts_with('{') {
            let mut joined = text.to_string();
            while !flow_closed(&joined) {
                // A quoted value inside brackets closes on its line: read over the next line,
                // a `#` there would be taken for a comment.
                if flow_state(&joined).1 {
                    return error(line.number, "a quoted value must close on its own line");
                }
                match self.peek() {
                    Some(next) => {
                        joined.push(' ');
                        joined.push_str(next.text);
                        self.at += 1;
                    }
                    None => return error(line.number, "this `[` or `{` is never closed"),
                }
            }
            let mut flow = Flow {
                text: &joined,
                at: 0,
                line: line.number,
            };
            let value = flow.value()?;
            flow.skip_spaces();
            if flow.at < joined.len() {
                return error(line.number, "text after the closing bracket");
            }
            return Ok(value);
        }
        let (value, rest) = scalar(text, line.number, false)?;
        if !rest.trim().is_empty() {
            return error(
                line.number,
                format!("unexpected `{}` after the value", rest.trim()),
            );
        }
        Ok(value)
    }
}

/// The key as written on its line, for messages.
fn line_key(line: Line<'_>) -> &str {
    line.text
        .split_once(':')
        .map(|(k, _)| k.trim())
        .unwrap_or(line.text)
}

/// Splits `key: value` (or `key:`) into the key and the rest; `None` if the line is no
/// mapping entry.
fn split_key(line: Line<'_>) -> Parsed<Option<(Yaml, &str)>> {
    let text = line.text;
    if is_entry(text) || text.starts_with('[') || text.starts_with('{') {
        return Ok(None);
    }
    if text == "?" || text.starts_with("? ") {
        return error(line.number, "complex keys (`? `) are not read here");
    }
    if text.starts_with('"') || text.starts_with('\'') {
        let (key, rest) = scalar(text, line.number, false)?;
        let rest = rest.trim_start();
        return Ok(match rest.strip_prefix(':') {
            Some(value) if value.is_empty() || value.starts_with(' ') => {
                Some((key, value.trim_start()))
            }
            _ => None,
        });
    }
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b':' && (i + 1 == bytes.len() || bytes[i + 1] == b' ') {
            let key = text[..i].trim_end();
            check_plain_start(key, line.number)?;
            return Ok(Some((Yaml::plain(key), text[i + 1..].trim_start())));
        }
    }
    Ok(None)
}

/// Refuses the YAML features this reader leaves out where a plain scalar would start.
fn check_plain_start(text: &str, line: usize) -> Parsed<()> {
    let unsupported = match text.as_bytes().first() {
        Some(b'&') | Some(b'*') => "anchors and aliases (`&`, `*`) are not read here",
        Some(b'!') => "tags (`!`) are not read here",
        Some(b'|') | Some(b'>') => {
            "block scalars (`|`, `>`) are not read here: write the text on one line"
        }
        Some(b'@') | Some(b'`') => "`@` and `` ` `` cannot start a plain value (quote it)",
        _ => return Ok(()),
    };
    error(line, unsupported)
}

/// A scalar at the start of `text`: quoted, or plain up to where the context ends it (in a
/// flow collection, at `,`, `]`, `}` or `: `). Returns it with the text after it.
fn scalar(text: &str, line: usize, in_flow: bool) -> Parsed<(Yaml, &str)> {
    if let Some(rest) = text.strip_prefix('"') {
        return double_quoted(rest, line);
    }
    if let Some(rest) = text.strip_prefix('\'') {
        return single_quoted(rest, line);
    }
    check_plain_start(text, line)?;
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    for (i, &b) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied();
        let ends_key = b == b':' && matches!(next, None | Some(b' '));
        let ends_flow_key = b == b':' && matches!(next, Some(b',' | b']' | b'}'));
        if in_flow && (matches!(b, b',' | b']' | b'}' | b'[' | b'{') || ends_key || ends_flow_key) {
            end = i;
            break;
        }
        if !in_flow && ends_key {
            return error(
                line,
                "a `: ` inside a value (quote the value, or put the mapping on its own lines)",
            );
        }
    }
    let plain = text[..end].trim_end();
    Ok((Yaml::plain(plain), &text[end..]))
}

fn double_quoted(text: &str, line: usize) -> Parsed<(Yaml, &str)> {
    let mut out = String::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((Yaml::String(out), &text[i + 1..])),
            '\\' => {
                let escaped = match chars.next().map(|(_, e)| e) {
                    Some('n') => '\n',
                    Some('t') => '\t',
                    Some('r') => '\r',
                    Some('0') => '\0',
                    Some('a') => '\u{7}',
                    Some('b') => '\u{8}',
                    Some('e') => '\u{1b}',
                    Some('f') => '\u{c}',
                    Some('v') => '\u{b}',
                    Some(' ') => ' ',
                    Some(e @ ('"' | '\\' | '/')) => e,
                    Some(e @ ('x' | 'u' | 'U')) => {
                        let digits = match e {
                            'x' => 2,
                            'u' => 4,
                            _ => 8,
                        };
                        let hex: String = (0..digits)
                            .filter_map(|_| chars.next().map(|(_, h)| h))
                            .collect();
                        match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                            Some(decoded) if hex.len() == digits => decoded,
                            _ => return error(line, format!("`\\{e}{hex}` is no character")),
                        }
                    }
                    Some(other) => {
                        return error(
                            line,
                            format!("unknown escape `\\{other}` in a quoted value"),
                        )
                    }
                    None => break,
                };
                out.push(escaped);
            }
            _ => out.push(c),
        }
    }
    error(line, "a quoted value must close on its own line")
}

fn single_quoted(text: &str, line: usize) -> Parsed<(Yaml, &str)> {
    let mut out = String::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\'' {
            if chars.peek().map(|&(_, n)| n) == Some('\'') {
                chars.next();
                out.push('\'');
            } else {
                return Ok((Yaml::String(out), &text[i + 1..]));
            }
        } else {
            out.push(c);
        }
    }
    error(line, "a quoted value must close on its own line")
}

/// Whether every `[` and `{` in `text` (outside quotes) is closed.
fn flow_closed(text: &str) -> bool {
    flow_state(text).0 <= 0
}

/// How deep `text` leaves its brackets (outside quotes), and whether it ends inside a quote.
fn flow_state(text: &str) -> (i32, bool) {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in text.chars() {
        match quote {
            Some('"') if escaped => escaped = false,
            Some('"') if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '[' | '{' => depth += 1,
                ']' | '}' => depth -= 1,
                '"' | '\'' => quote = Some(c),
                _ => {}
            },
        }
    }
    (depth, quote.is_some())
}

/// A flow collection, read from its text with a cursor.
struct Flow<'t> {
    text: &'t str,
    at: usize,
    line: usize,
}

impl Flow<'_> {
    fn skip_spaces(&mut self) {
        while self.text[self.at..].starts_with(' ') {
            self.at += 1;
        }
    }

    fn next_is(&mut self, c: char) -> bool {
        self.skip_spaces();
        if self.text[self.at..].starts_with(c) {
            self.at += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Parsed<Yaml> {
        self.skip_spaces();
        if self.next_is('[') {
            let mut items = Vec::new();
            while !self.next_is(']') {
                items.push(self.value()?);
                if !self.next_is(',') && !self.text[self.at..].starts_with(']') {
                    return error(self.line, "expected `,` or `]` in a flow sequence");
                }
            }
            return Ok(Yaml::Array(items));
        }
        if self.next_is('{') {
            let mut entries: Vec<(Yaml, Yaml)> = Vec::new();
            while !self.next_is('}') {
                let key = self.value()?;
                let value = if self.next_is(':') {
                    self.value()?
                } else {
                    Yaml::Null
                };
                if entries.iter().any(|(k, _)| *k == key) {
                    return error(self.line, "a key appears twice in a flow mapping");
                }
                entries.push((key, value));
                if !self.next_is(',') && !self.text[self.at..].starts_with('}') {
                    return error(self.line, "expected `,` or `}` in a flow mapping");
                }
            }
            return Ok(Yaml::Hash(entries));
        }
        let rest = &self.text[self.at..];
        if rest.is_empty()
            || rest.starts_with(',')
            || rest.starts_with(']')
            || rest.starts_with('}')
        {
            return error(self.line, "a missing value in a flow collection");
        }
        let (value, after) = scalar(rest, self.line, true)?;
        self.at = self.text.len() - after.len();
        Ok(value)
    }
}
