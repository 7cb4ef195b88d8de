-- A new message's terms are written to `message_terms` by the store's one insert of a message
-- (src/sqlite/write.rs), from the terms made with the row (src/new_row.rs): an import makes
-- them on the thread that reads its source, where the trigger made them again on the writer,
-- which every chunk of an import waits for. The fill of old rows and the delete stay triggers.
-- SQLite's alone: PostgreSQL writes its terms with the row and has no 0011.
DROP TRIGGER messages_terms_insert;
