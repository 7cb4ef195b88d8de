//! Credentials out of URLs before they reach a message, a log line or `squash doctor`: the one
//! redaction every crate uses for database and API addresses.

/// Query parameters whose value is a credential, matched as a part of the name, ignoring case
/// (`api_key`, `access_token`, `X-Amz-Signature`, `sslpassword`).
const SECRET_PARAMS: [&str; 7] = ["key", "token", "secret", "pass", "pwd", "sig", "auth"];

/// `url` with the password of its user info (`scheme://user:***@host`) and the values of its
/// credential-like query parameters (`?api_key=***`) replaced. The user name, host, path and
/// other parameters stay, so the message still says where. Text that is no URL is returned as
/// it is.
pub fn redact_url(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_owned();
    };
    let rest = &url[scheme_end..];
    let authority_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_len];
    let mut out = String::with_capacity(url.len());
    out.push_str(&url[..scheme_end]);
    // The last `@` ends the user info: a password may itself hold one.
    match authority.rfind('@') {
        Some(at) => {
            let userinfo = &authority[..at];
            match userinfo.split_once(':') {
                Some((user, _password)) => {
                    out.push_str(user);
                    out.push_str(":***");
                }
                None => out.push_str(userinfo),
            }
            out.push_str(&authority[at..]);
        }
        None => out.push_str(authority),
    }
    let tail = &rest[authority_len..];
    match tail.split_once('?') {
        Some((path, query)) => {
            let (query, fragment) = match query.split_once('#') {
                Some((q, f)) => (q, Some(f)),
                None => (query, None),
            };
            out.push_str(path);
            out.push('?');
            out.push_str(&redact_query(query));
            if let Some(fragment) = fragment {
                out.push('#');
                out.push_str(fragment);
            }
        }
        None => out.push_str(tail),
    }
    out
}

fn redact_query(query: &str) -> String {
    query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _value)) if is_secret(name) => format!("{name}=***"),
            _ => pair.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

fn is_secret(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    SECRET_PARAMS.iter().any(|s| lower.contains(s))
}

#[cfg(test)]
mod tests {
    use super::redact_url;

    #[test]
    fn passwords_are_hidden_and_user_names_kept() {
        assert_eq!(
            redact_url("postgres://u:s3cret@db:5432/x?sslmode=require"),
            "postgres://u:***@db:5432/x?sslmode=require"
        );
        assert_eq!(
            redact_url("postgres://u:p@ss@db/x"),
            "postgres://u:***@db/x"
        );
        assert_eq!(
            redact_url("https://user:pw@host:1/v1"),
            "https://user:***@host:1/v1"
        );
        assert_eq!(redact_url("postgres://u@db/x"), "postgres://u@db/x");
    }

    #[test]
    fn credential_parameters_are_hidden() {
        assert_eq!(redact_url("http://h/v1?key=abc"), "http://h/v1?key=***");
        assert_eq!(
            redact_url("postgres://h/db?sslmode=require&password=x#frag"),
            "postgres://h/db?sslmode=require&password=***#frag"
        );
        assert_eq!(
            redact_url("https://h/v1?api-version=2&API_KEY=s"),
            "https://h/v1?api-version=2&API_KEY=***"
        );
    }

    #[test]
    fn other_text_is_unchanged() {
        for plain in [
            "http://127.0.0.1:11434/v1",
            "/tmp/x.db",
            "not a url",
            "sqlite://",
        ] {
            assert_eq!(redact_url(plain), plain);
        }
    }
}
