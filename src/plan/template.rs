//! `{{name}}` placeholders filled in one pass, so a value that itself contains
//! `{{…}}` is never expanded again. Unknown names are left as they are. Pure.

pub fn fill(template: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len() + 1024);
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            out.push_str(&rest[open..]);
            return out;
        };
        match value(&after[..close]) {
            Some(v) => out.push_str(&v),
            None => out.push_str(&rest[open..open + 2 + close + 2]),
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_once_and_keeps_unknown_names() {
        let v = |n: &str| (n == "a").then(|| "{{a}}!".to_string());
        assert_eq!(fill("x {{a}} {{b}} {{", v), "x {{a}}! {{b}} {{");
    }
}
