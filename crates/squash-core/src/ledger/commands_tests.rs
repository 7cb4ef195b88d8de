use super::*;

#[test]
fn anchors_name_program_and_subcommand() {
    assert_eq!(anchor_of("cargo test -p config"), "cargo test");
    assert_eq!(anchor_of("cd crates/x && npm run build"), "npm run");
    assert_eq!(
        anchor_of("python3 scripts/move_fn.py a b"),
        "scripts/move_fn.py"
    );
    assert_eq!(anchor_of("RUST_LOG=debug cargo run"), "cargo run");
    assert_eq!(anchor_of("ls -la"), "ls");
}

#[test]
fn plumbing_is_shown_but_not_part_of_the_command() {
    let (display, cut) = display_of("cargo test -p config 2>&1 | tail -20");
    assert_eq!(
        (display.as_str(), cut),
        ("cargo test -p config 2>&1 | tail -20", false)
    );
    assert_eq!(key_of(&display), "cargo test -p config");
    assert_eq!(
        key_of(&display_of("make 2>&1 | head -n 5\nsecond line").0),
        "make"
    );
    let (long, cut) = display_of(&"x".repeat(300));
    assert_eq!((long.len(), cut), (DISPLAY_MAX_CHARS, true));
    assert_eq!(key_of("bd show x 2>/dev/null"), "bd show x");
}
