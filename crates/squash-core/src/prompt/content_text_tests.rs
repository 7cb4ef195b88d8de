use super::*;
use serde_json::json;

#[test]
fn results_name_the_tool_and_the_outcome() {
    let names = ToolNames(HashMap::from([("t1", "Grep")]));
    let ok = ContentItem::tool_result("t1", String::new(), "Found 2 files\n", false);
    assert_eq!(
        item_for_model(&ok, &names, Cut::Prompt).unwrap(),
        "Grep returned: Found 2 files"
    );
    let failed = ContentItem::ToolResult {
        tool_use_id: "t9".into(),
        tool_name: "Bash".into(),
        result: vec![],
        is_error: true,
    };
    assert_eq!(
        item_for_model(&failed, &names, Cut::Prompt).unwrap(),
        "Bash failed with no output."
    );
    let unknown = ContentItem::ToolResult {
        tool_use_id: "zz".into(),
        tool_name: String::new(),
        result: vec![ToolResultData::Base64 {
            media_type: "image/png".into(),
            data: "AAAA".into(),
        }],
        is_error: false,
    };
    assert_eq!(
        item_for_model(&unknown, &names, Cut::Prompt).unwrap(),
        "The tool returned: [image/png, 4 bytes base64]"
    );
}

#[test]
fn placeholders_for_images_and_unknown_content() {
    let names = ToolNames(HashMap::new());
    let image = ContentItem::Image {
        source: ImageSource::Base64 {
            media_type: "image/png".into(),
            data: "A".repeat(10_000),
        },
    };
    assert_eq!(
        item_for_model(&image, &names, Cut::Prompt).unwrap(),
        "[image]"
    );
    let file = ContentItem::Image {
        source: ImageSource::File {
            path: "docs/screenshot.png".into(),
        },
    };
    assert_eq!(
        item_for_model(&file, &names, Cut::Prompt).unwrap(),
        "[image: docs/screenshot.png]"
    );
    let unknown = ContentItem::UnknownJson {
        json: json!({"type": "server_tool_use", "payload": "x".repeat(5_000)}),
    };
    assert_eq!(
        item_for_model(&unknown, &names, Cut::Prompt).unwrap(),
        "[unrecognised content of type \"server_tool_use\"]"
    );
    let untyped = ContentItem::UnknownJson {
        json: json!([1, 2]),
    };
    assert_eq!(
        item_for_model(&untyped, &names, Cut::Prompt).unwrap(),
        "[unrecognised content]"
    );
}

#[test]
fn blank_items_are_skipped() {
    let names = ToolNames(HashMap::new());
    let redacted = ContentItem::Thinking {
        signature: "sig".into(),
        thinking: "  ".into(),
    };
    assert_eq!(item_for_model(&redacted, &names, Cut::Prompt), None);
}
