//! SELECT heads shared by several queries, as macros so that `concat!` can build whole
//! statements at compile time. Each joins the ids of the referenced rows in, so that rows map to
//! domain types without a second round trip.

macro_rules! project_select {
    () => {
        "SELECT p.id, p.path, p.created_at FROM projects p"
    };
}

macro_rules! conversation_columns {
    () => {
        "c.id, p.id AS project_id, c.display_name, t.id AS current_thread_id, \
         c.created_at, c.updated_at"
    };
}

/// The conversation `c` with its project `p` and current thread `t`.
macro_rules! conversation_from {
    () => {
        " FROM conversations c \
          JOIN projects p ON p.key = c.project_key \
          LEFT JOIN threads t ON t.key = c.current_thread_key"
    };
}

macro_rules! conversation_select {
    () => {
        concat!(
            "SELECT ",
            $crate::postgres::sql::conversation_columns!(),
            $crate::postgres::sql::conversation_from!()
        )
    };
}

macro_rules! thread_columns {
    () => {
        "t.id, c.id AS conversation_id, o.id AS original_thread_id, t.origin, t.revision, \
         t.message_count, t.created_at, t.updated_at"
    };
}

/// The thread `t` with its conversation `c` and the thread `o` it derives from.
macro_rules! thread_from {
    () => {
        " FROM threads t \
          JOIN conversations c ON c.key = t.conversation_key \
          LEFT JOIN threads o ON o.key = t.original_thread_key"
    };
}

/// The condition that `t` is the current thread of the conversation whose id is `$1`.
macro_rules! is_current_thread {
    () => {
        "t.key = (SELECT current_thread_key FROM conversations WHERE id = $1)"
    };
}

macro_rules! thread_select {
    () => {
        concat!(
            "SELECT ",
            $crate::postgres::sql::thread_columns!(),
            $crate::postgres::sql::thread_from!()
        )
    };
}

/// A thread with its links in one statement: one snapshot, so the count and the links agree
/// even while another transaction appends.
macro_rules! snapshot_select {
    () => {
        concat!(
            "SELECT ",
            $crate::postgres::sql::thread_columns!(),
            ", ARRAY(SELECT lm.id FROM ",
            $crate::segments::all_thread_links!(postgres, "t.key"),
            " tl JOIN messages lm ON lm.key = tl.message_key ORDER BY tl.position) AS links",
            $crate::postgres::sql::thread_from!()
        )
    };
}

macro_rules! message_columns {
    () => {
        "m.id, c.id AS conversation_id, m.squash_operation_id, m.reply_to, m.role, m.content, \
         m.instructions, m.metadata, m.created_at"
    };
}

macro_rules! operation_select {
    () => {
        "SELECT o.id, c.id AS conversation_id, \
                ARRAY(SELECT sm.id FROM squash_operation_sources s \
                      JOIN messages sm ON sm.key = s.message_key \
                      WHERE s.operation_key = o.key ORDER BY s.position) AS source_message_ids, \
                rm.id AS result_message_id, o.performed_by, \
                bt.id AS base_thread_id, rt.id AS result_thread_id, o.created_at, \
                o.kind, o.prompt, o.model, o.provider, o.custom_instructions, \
                o.input_tokens, o.output_tokens, o.duration_ms, o.style, o.prompt_style, \
                o.recall_ref \
         FROM squash_operations o \
         JOIN conversations c ON c.key = o.conversation_key \
         JOIN messages rm ON rm.key = o.result_message_key \
         LEFT JOIN threads bt ON bt.key = o.base_thread_key \
         LEFT JOIN threads rt ON rt.key = o.result_thread_key"
    };
}

/// Inserts the message ($1–$9, its tokens $12, its search text $13 and terms $14) and its
/// tool ids ($10, $11) in one statement; `m` holds the new key. Parameter $2 is the conversation key.
macro_rules! insert_message_ctes {
    () => {
        "m AS ( \
             INSERT INTO messages (id, conversation_key, squash_operation_id, reply_to, role, \
                                   content, instructions, metadata, created_at, tokens, \
                                   search_text, search_terms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $12, $13, $14::tsvector) RETURNING key \
         ), tools AS ( \
             INSERT INTO message_tools (conversation_key, tool_use_id, message_key, is_result) \
             SELECT $2, u.tool_use_id, m.key, u.is_result \
             FROM m, UNNEST($10::text[], $11::boolean[]) AS u(tool_use_id, is_result) \
             ON CONFLICT DO NOTHING \
         )"
    };
}

/// The estimated tokens of the thread whose key is the expression `$thread_key`, as a
/// correlated subquery (one statement sums one thread or a whole listing's).
macro_rules! thread_tokens_sum {
    ($thread_key:literal) => {
        concat!(
            "(SELECT COALESCE(SUM(m.tokens), 0)::bigint FROM ",
            $crate::segments::all_thread_links!(postgres, $thread_key),
            " tl JOIN messages m ON m.key = tl.message_key)"
        )
    };
}

/// A conversation with the size of its current thread `t` (`message_count`, `tokens`), as
/// `tokens::SummaryRow` reads it; from [`conversation_from`].
macro_rules! summary_columns {
    () => {
        concat!(
            $crate::postgres::sql::conversation_columns!(),
            ", t.message_count, ",
            $crate::postgres::sql::thread_tokens_sum!("t.key"),
            " AS tokens"
        )
    };
}

/// The 0-based position of the message whose key is `$m` in the thread whose key is `$t`, NULL
/// when it is not there: the message's own-storage rows (`thread_messages_by_message`), each
/// mapped through the thread's tail or the last segment of its source that starts at or before
/// it (`thread_segments_by_source`). Two probes per stored copy, whatever the thread's length.
macro_rules! position_in_thread {
    ($m:literal, $t:literal) => {
        concat!(
            "(SELECT min(CASE \
                WHEN tm.thread_key = r.key AND tm.position >= r.tail_offset \
                     AND tm.position < r.tail_offset + r.message_count - r.tail_start \
                THEN r.tail_start + tm.position - r.tail_offset \
                ELSE (SELECT CASE WHEN tm.position < s.source_offset + s.length \
                                  THEN s.start + tm.position - s.source_offset END \
                      FROM thread_segments s \
                      WHERE s.thread_key = r.key AND s.source_thread_key = tm.thread_key \
                        AND s.source_offset <= tm.position \
                      ORDER BY s.source_offset DESC LIMIT 1) \
                END) \
              FROM thread_messages tm JOIN threads r ON r.key = ",
            $t,
            " WHERE tm.message_key = ",
            $m,
            ")"
        )
    };
}

pub(super) use {
    conversation_columns, conversation_from, conversation_select, insert_message_ctes,
    is_current_thread, message_columns, operation_select, position_in_thread, project_select,
    snapshot_select, summary_columns, thread_columns, thread_from, thread_select,
    thread_tokens_sum,
};
