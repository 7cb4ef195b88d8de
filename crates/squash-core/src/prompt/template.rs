//! Filling the prompt templates (the `.txt` files beside this module).

/// Fills `{{name}}` placeholders in one pass, so that a value containing `{{messages}}` is
/// never expanded again. A line holding only a placeholder whose value is empty is dropped, so
/// optional sections leave no stray blank line.
pub(super) fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let lookup = |name: &str| values.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    for line in template.split_inclusive('\n') {
        let bare = line.trim();
        if let Some(name) = bare.strip_prefix("{{").and_then(|s| s.strip_suffix("}}")) {
            if lookup(name) == Some("") {
                continue;
            }
        }
        let mut rest = line;
        while let Some(start) = rest.find("{{") {
            let Some(len) = rest[start + 2..].find("}}") else {
                break;
            };
            let name = &rest[start + 2..start + 2 + len];
            out.push_str(&rest[..start]);
            match lookup(name) {
                Some(value) => out.push_str(value),
                None => out.push_str(&rest[start..start + 2 + len + 2]),
            }
            rest = &rest[start + 2 + len + 2..];
        }
        out.push_str(rest);
    }
    out
}
