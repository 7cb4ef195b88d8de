use super::*;
use squash_core::{ConversationId, MessageId, ProjectId, Role, ThreadId, ThreadOrigin};
use uuid::{NoContext, Timestamp, Uuid};

/// An id made at the same millisecond as every other one of the test.
fn same_ms() -> Uuid {
    Uuid::new_v7(Timestamp::from_unix(NoContext, 1_762_097_521, 123_000_000))
}

#[test]
fn ids_made_in_one_millisecond_get_labels_of_their_own() {
    let conversation_id = ConversationId::from_uuid(same_ms());
    let text = |text: &str| Message {
        id: MessageId::from_uuid(same_ms()),
        ..Message::text(conversation_id, Role::User, text).unwrap()
    };
    let sources: Vec<Message> = ["a", "b", "c"].into_iter().map(text).collect();
    let mut result = text("a, b and c");
    let op = SquashOperation {
        created_at: result.created_at,
        ..SquashOperation::new(
            SquashOperationId::from_uuid(same_ms()),
            conversation_id,
            sources.iter().map(|m| m.id).collect(),
            result.id,
            squash_core::OperationKind::Manual,
            None,
        )
    };
    result.squash_operation_id = Some(op.id);
    let thread = Thread {
        id: ThreadId::from_uuid(same_ms()),
        conversation_id,
        original_thread_id: None,
        origin: ThreadOrigin::Initial,
        revision: 1,
        message_count: 2,
        created_at: result.created_at,
        updated_at: result.created_at,
    };
    let conversation = Conversation {
        id: conversation_id,
        project_id: ProjectId::new(),
        display_name: "same millisecond".into(),
        current_thread_id: thread.id,
        created_at: result.created_at,
        updated_at: result.created_at,
    };
    let messages = [sources[0].clone(), result];
    let operations = HashMap::from([(op.id, op.clone())]);
    let text = render(&Transcript {
        conversation: &conversation,
        project: "/p",
        thread: &thread,
        messages: &messages,
        operations: &operations,
    });
    // The 8-character prefixes are all the same: the old labels named nothing.
    let first8: Vec<String> = sources
        .iter()
        .map(|m| m.id.to_string()[..8].to_owned())
        .collect();
    assert!(first8.iter().all(|p| *p == first8[0]));
    let line = text
        .lines()
        .find(|l| l.contains("Squashed from 3 messages"))
        .unwrap_or_else(|| panic!("no provenance line in:\n{text}"));
    let labels: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
    // The operation, then the three sources (the first one with its position).
    assert_eq!(labels.len(), 4, "{line}");
    let named: Vec<String> = [op.id.to_string()]
        .into_iter()
        .chain(sources.iter().map(|m| m.id.to_string()))
        .collect();
    let every_id: Vec<String> = messages
        .iter()
        .map(|m| m.id.to_string())
        .chain(named.clone())
        .collect();
    for (label, id) in labels.iter().zip(named) {
        assert!(
            id.starts_with(label) && label.len() >= MIN_LABEL,
            "{label} of {id}"
        );
        let mut matching = every_id.iter().filter(|other| other.starts_with(label));
        assert!(
            matching.all(|other| *other == id),
            "{label} names several ids"
        );
    }
    let mut unique = labels.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), labels.len(), "labels are not unique: {line}");
    assert!(line.contains(&format!("#1 `{}`", labels[1])), "{line}");
}

#[test]
fn fences_outgrow_the_content() {
    assert_eq!(fence("plain"), "```");
    assert_eq!(fence("a ```` b"), "`````");
    assert!(block("", "x ``` y").starts_with("````\n"));
}
