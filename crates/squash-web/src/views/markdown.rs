//! Markdown for assistant and user text, safe for untrusted input: raw HTML is shown as text,
//! links keep only harmless schemes, and images become links (nothing loads by itself).

use pulldown_cmark::{html, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};

/// Renders `text` as HTML that cannot run script or load anything.
pub fn render(text: &str) -> String {
    render_with(text, false)
}

/// A person's own message: like [`render`], but every line break is kept. People type
/// prompts line by line and mean each break; markdown would join the lines into one.
pub fn render_user(text: &str) -> String {
    render_with(text, true)
}

fn render_with(text: &str, keep_line_breaks: bool) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    let events = Parser::new_ext(text, options).map(|event| match event {
        // Raw HTML in a message is data, not markup: escape it like any other text.
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Link {
            link_type,
            dest_url: safe_url(dest_url),
            title,
            id,
        }),
        // An image would be fetched by the browser as soon as the message is shown.
        Event::Start(Tag::Image {
            dest_url,
            title,
            id,
            ..
        }) => Event::Start(Tag::Link {
            link_type: LinkType::Inline,
            dest_url: safe_url(dest_url),
            title,
            id,
        }),
        Event::End(TagEnd::Image) => Event::End(TagEnd::Link),
        Event::SoftBreak if keep_line_breaks => Event::HardBreak,
        other => other,
    });
    let mut out = String::with_capacity(text.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

/// Keeps http, https and mailto links and relative ones; anything else (`javascript:`,
/// `data:`, `vbscript:`, ...) becomes `#`.
fn safe_url(url: CowStr<'_>) -> CowStr<'_> {
    if is_safe_url(&url) {
        url
    } else {
        CowStr::Borrowed("#")
    }
}

pub fn is_safe_url(url: &str) -> bool {
    // Browsers ignore control characters and whitespace inside a scheme ("java\nscript:").
    let cleaned: String = url
        .chars()
        .filter(|c| !c.is_ascii_control() && !c.is_whitespace())
        .collect();
    match cleaned.find(':') {
        None => true,
        Some(colon) => {
            let before = &cleaned[..colon];
            // A colon after a path, query or fragment start is not a scheme separator.
            if before.contains(['/', '?', '#']) {
                return true;
            }
            matches!(
                before.to_ascii_lowercase().as_str(),
                "http" | "https" | "mailto"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_escaped() {
        let out = render("hi <script>alert(1)</script> <img src=x onerror=alert(1)>");
        assert!(!out.contains("<script"), "{out}");
        assert!(!out.contains("<img"), "{out}");
        assert!(out.contains("&lt;script&gt;"), "{out}");
    }

    #[test]
    fn html_blocks_are_escaped() {
        let out = render("<div onclick=\"x()\">\n\n**bold**\n\n</div>");
        assert!(!out.contains("<div"), "{out}");
        assert!(out.contains("<strong>bold</strong>"), "{out}");
    }

    #[test]
    fn dangerous_links_are_neutralised() {
        let out =
            render("[a](javascript:alert(1)) [b](JaVa\tScRiPt:alert(1)) [c](https://x.dev/a:b)");
        assert!(!out.to_ascii_lowercase().contains("javascript"), "{out}");
        assert!(out.contains("href=\"https://x.dev/a:b\""), "{out}");
    }

    #[test]
    fn images_become_links() {
        let out = render("![diagram](https://x.dev/d.png)");
        assert!(!out.contains("<img"), "{out}");
        assert!(
            out.contains("<a href=\"https://x.dev/d.png\">diagram</a>"),
            "{out}"
        );
    }

    #[test]
    fn markdown_still_renders() {
        let out = render("# Title\n\n- `src/main.rs`\n- **fixed**\n\n```rust\nfn main() {}\n```");
        assert!(out.contains("<h1>Title</h1>"));
        assert!(out.contains("<code>src/main.rs</code>"));
        assert!(out.contains("<pre><code class=\"language-rust\">"));
    }

    #[test]
    fn user_text_keeps_its_line_breaks_and_stays_inert() {
        let out = render_user("## Task\nfix `src/a.rs`\nthen run <script>x()</script>");
        assert!(out.contains("<h2>Task</h2>"), "{out}");
        assert!(out.contains("<code>src/a.rs</code><br />"), "{out}");
        assert!(!out.contains("<script"), "{out}");
        assert!(
            render("a\nb").contains("a\nb"),
            "assistant text joins lines as markdown does"
        );
    }

    #[test]
    fn url_schemes() {
        for ok in [
            "https://a.b",
            "http://a",
            "mailto:x@y",
            "/rel",
            "#frag",
            "a/b:c",
            "?q=a:b",
        ] {
            assert!(is_safe_url(ok), "{ok}");
        }
        for bad in [
            "javascript:x",
            "data:text/html,x",
            "vbscript:x",
            " javascript:x",
            "file:///etc",
        ] {
            assert!(!is_safe_url(bad), "{bad}");
        }
    }
}
