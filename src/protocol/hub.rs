//! Hub lines, in and out: `command key=value key="quoted value" flag`. Pure functions.
//!
//! A value is quoted when it contains a space or `=` or is empty; there is no escape for `"`,
//! so formatted values never contain one.

use crate::bail;
use crate::error::Result;

/// Longest line accepted (a `moves=` list of a long game fits many times over).
pub const MAX_LINE: usize = 1 << 20;

/// One argument: `key=value`, or a bare `flag` (no value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The key (or the flag).
    pub key: String,
    /// The value, if the argument had one.
    pub value: Option<String>,
}

/// A parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The command word.
    pub command: String,
    /// Its arguments in order.
    pub args: Vec<Arg>,
}

impl Line {
    /// The value of the first argument named `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.args.iter().find(|a| a.key == key).and_then(|a| a.value.as_deref())
    }

    /// True when `key` appears as a bare flag.
    pub fn has_flag(&self, key: &str) -> bool {
        self.args.iter().any(|a| a.key == key && a.value.is_none())
    }
}

/// Parses one line. `Ok(None)` for a blank line.
pub fn parse(text: &str) -> Result<Option<Line>> {
    if text.len() > MAX_LINE {
        bail!("line too long ({} bytes)", text.len());
    }
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.is_empty() {
        return Ok(None);
    }
    let mut tokens: Vec<Arg> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i >= chars.len() {
            break;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '=' {
            if chars[i] == '"' {
                bail!("unexpected quote");
            }
            i += 1;
        }
        let key: String = chars[start..i].iter().collect();
        if i < chars.len() && chars[i] == '=' {
            if key.is_empty() {
                bail!("missing name before '='");
            }
            i += 1;
            let value: String = if i < chars.len() && chars[i] == '"' {
                let open = i;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += 1;
                }
                if i >= chars.len() {
                    bail!("unterminated quote");
                }
                let v = chars[open + 1..i].iter().collect();
                i += 1;
                v
            } else {
                let s = i;
                while i < chars.len() && !chars[i].is_whitespace() {
                    if chars[i] == '"' {
                        bail!("unexpected quote");
                    }
                    i += 1;
                }
                chars[s..i].iter().collect()
            };
            tokens.push(Arg { key, value: Some(value) });
        } else {
            tokens.push(Arg { key, value: None });
        }
    }
    let mut it = tokens.into_iter();
    match it.next() {
        Some(Arg { key, value: None }) => Ok(Some(Line { command: key, args: it.collect() })),
        _ => bail!("a line starts with a command"),
    }
}

/// True when `value` must be quoted.
fn needs_quotes(value: &str) -> bool {
    value.is_empty() || value.contains(|c: char| c.is_whitespace() || c == '=')
}

/// Formats a line; values are quoted where needed (and `"` is replaced by `'`).
pub fn format(command: &str, args: &[(&str, String)]) -> String {
    let mut out = command.to_string();
    for (key, value) in args {
        let value = value.replace('"', "'");
        out.push(' ');
        out.push_str(key);
        out.push('=');
        if needs_quotes(&value) {
            out.push('"');
            out.push_str(&value);
            out.push('"');
        } else {
            out.push_str(&value);
        }
    }
    out
}

/// Formats `key="value"` with the value always quoted (for `pv`, which clients strip).
pub fn quoted(key: &str, value: &str) -> String {
    format!("{key}=\"{}\"", value.replace('"', "'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_values_quotes_and_flags() {
        let l = parse(r#"pos pos=Wbbb moves="32-28 19-23"  start"#).unwrap().unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(l.get("pos"), Some("Wbbb"));
        assert_eq!(l.get("moves"), Some("32-28 19-23"));
        assert!(l.has_flag("start"));
        assert_eq!(parse("   ").unwrap(), None);
        assert_eq!(parse(r#"x a="""#).unwrap().unwrap().get("a"), Some(""));
    }

    #[test]
    fn malformed_lines_are_errors() {
        for bad in [r#"pos moves="32-28"#, "=3", r#"a"b"#, r#"x a=b"c"#, "x =1"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert!(parse(&"x".repeat(MAX_LINE + 1)).is_err());
    }

    #[test]
    fn formats_with_quotes_where_needed() {
        let s = format("error", &[("message", "bad value \"x\"".into()), ("n", "3".into())]);
        assert_eq!(s, r#"error message="bad value 'x'" n=3"#);
        assert_eq!(format("id", &[("name", "kondavo".into())]), "id name=kondavo");
        assert_eq!(parse(&s).unwrap().unwrap().get("message"), Some("bad value 'x'"));
    }
}
