//! Who may talk to the server, and from where.
//!
//! * **Token.** When the server has one (required by `squash serve` for any address other than
//!   loopback), every request must carry it: `Authorization: Bearer TOKEN`, or the
//!   `squash_token` cookie that visiting any page with `?token=TOKEN` sets (HttpOnly,
//!   SameSite=Strict), so a browser needs the token once.
//! * **DNS rebinding.** Without a token the server is only for this machine: a request whose
//!   `Host` is not a loopback name is refused, so a web page cannot reach it through a domain
//!   that resolves to 127.0.0.1.
//! * **Cross-site requests.** A state-changing request (anything but GET, HEAD, OPTIONS) must
//!   carry `X-Squash-Csrf: 1`, which a cross-site form cannot send and a cross-site script can
//!   only send after a CORS preflight that this server never grants; `Origin` and
//!   `Sec-Fetch-Site`, when present, must say same-origin. A request authenticated by its
//!   `Authorization` header needs no such header: browsers never attach that one by
//!   themselves.

use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, COOKIE, HOST, LOCATION, ORIGIN, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::state::AppState;
use token::Security;

pub(crate) mod token;

/// The header the web UI's script sends with every state-changing request.
pub const CSRF_HEADER: &str = "x-squash-csrf";
/// The cookie that carries the token for browsers.
pub const TOKEN_COOKIE: &str = "squash_token";

/// Whether `host` (an address or name, without port) only ever means this machine.
pub fn is_loopback_host(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The middleware enforcing the rules above on every request.
pub async fn guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let security = state.security();
    let headers = req.headers();
    let is_api = req.uri().path().starts_with("/api/");

    let bearer = bearer_token(headers);
    let by_header = bearer.is_some_and(|t| security.matches(t));
    if security.has_token() {
        let by_cookie = cookie(headers, TOKEN_COOKIE).is_some_and(|t| security.matches(t));
        if !by_header && !by_cookie {
            if let Some(response) = token_login(security, &req) {
                return response;
            }
            return refuse(ApiError::unauthorized(), is_api);
        }
    } else if let Some(host) = host_name(headers) {
        if !is_loopback_host(host) {
            return refuse(
                ApiError::forbidden(format!(
                    "this server only answers requests for localhost, not `{host}`; start it \
                     with a token to serve other names"
                )),
                is_api,
            );
        }
    }

    if !is_safe(req.method()) && !by_header {
        if let Err(e) = check_same_origin(headers) {
            return refuse(e, is_api);
        }
    }
    next.run(req).await
}

/// `GET /anything?token=TOKEN`: sets the cookie and redirects to the same address without the
/// token, so it does not linger in the address bar or the history.
fn token_login(security: &Security, req: &Request) -> Option<Response> {
    if req.method() != Method::GET {
        return None;
    }
    let query = req.uri().query()?;
    let mut token = None;
    let mut rest = Vec::new();
    for pair in query.split('&') {
        match pair.strip_prefix("token=") {
            Some(value) => token = Some(value),
            None if !pair.is_empty() => rest.push(pair),
            None => {}
        }
    }
    let token = token?;
    if !security.matches(token) {
        return None;
    }
    let mut location = req.uri().path().to_owned();
    if !rest.is_empty() {
        location.push('?');
        location.push_str(&rest.join("&"));
    }
    let cookie = format!("{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict");
    let mut response = StatusCode::SEE_OTHER.into_response();
    let headers = response.headers_mut();
    headers.insert(
        LOCATION,
        HeaderValue::from_str(&location).unwrap_or(HeaderValue::from_static("/")),
    );
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        headers.insert(SET_COOKIE, value);
    }
    Some(response)
}

fn check_same_origin(headers: &HeaderMap) -> Result<(), ApiError> {
    if headers.get(CSRF_HEADER).is_none() {
        return Err(ApiError::forbidden(
            "state-changing requests need the header `X-Squash-Csrf: 1` (requests from other \
             sites are refused)",
        ));
    }
    if let Some(site) = header_str(headers, "sec-fetch-site") {
        if !matches!(site, "same-origin" | "none") {
            return Err(ApiError::forbidden(format!(
                "requests from other sites are refused (Sec-Fetch-Site: {site})"
            )));
        }
    }
    if let Some(origin) = header_str(headers, ORIGIN.as_str()) {
        let host = header_str(headers, HOST.as_str()).unwrap_or("");
        let same = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .is_some_and(|authority| !host.is_empty() && authority.eq_ignore_ascii_case(host));
        if !same {
            return Err(ApiError::forbidden(format!(
                "requests from other sites are refused (Origin: {origin})"
            )));
        }
    }
    Ok(())
}

fn refuse(error: ApiError, is_api: bool) -> Response {
    if is_api {
        error.into_response()
    } else {
        crate::views::errors::error_page(error.status(), &error.message)
    }
}

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The token of `Authorization: Bearer TOKEN`. The scheme is case-insensitive (RFC 9110
/// §11.1), so `bearer` and `BEARER` count too.
fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = header_str(headers, AUTHORIZATION.as_str())?.trim_start();
    let (scheme, token) = value.split_once(|c: char| c.is_ascii_whitespace())?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The `Host` header without its port.
fn host_name(headers: &HeaderMap) -> Option<&str> {
    let host = header_str(headers, HOST.as_str())?;
    Some(if host.starts_with('[') {
        // [::1]:7878
        host.find(']').map_or(host, |i| &host[..=i])
    } else {
        host.rsplit_once(':').map_or(host, |(h, _)| h)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names() {
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "::1"] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in [
            "example.com",
            "0.0.0.0",
            "192.168.1.2",
            "localhost.evil.com",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }

    #[test]
    fn host_without_port() {
        let mut h = HeaderMap::new();
        h.insert(HOST, HeaderValue::from_static("[::1]:7878"));
        assert_eq!(host_name(&h), Some("[::1]"));
        assert!(is_loopback_host(host_name(&h).unwrap_or_default()));
        h.insert(HOST, HeaderValue::from_static("localhost:7878"));
        assert_eq!(host_name(&h), Some("localhost"));
    }

    #[test]
    fn the_bearer_scheme_is_case_insensitive() {
        let mut h = HeaderMap::new();
        for (value, token) in [
            ("Bearer abc", Some("abc")),
            ("bearer abc", Some("abc")),
            ("BEARER  abc ", Some("abc")),
            ("Basic abc", None),
            ("Bearer", None),
            ("Bearer   ", None),
            ("Bearerabc", None),
        ] {
            h.insert(AUTHORIZATION, HeaderValue::from_static(value));
            assert_eq!(bearer_token(&h), token, "{value:?}");
        }
    }
}
