-- Foreign keys off the two tables a fit writes in bulk, as the link tables never had them
-- (0001). The store writes a message only under its conversation's lock, with the key of the
-- row it locked (or just created), and an operation only with references it resolved to keys
-- of that conversation (src/postgres/operations.rs: a result, base or result thread the
-- conversation does not hold leaves the operation out, and the commit fails). The foreign keys
-- checked the same again, one trigger per reference and row: a fit of 100,000 messages writes
-- 26,000 messages and 26,000 operations, and the checks were a third of the operations'
-- statement (0.57 of 1.7 s, EXPLAIN ANALYZE) and 15-20% of the messages' inserts (0.6 of
-- 3.4-4.0 s, the same rows with and without, on a loaded machine). A conversation is deleted
-- operations first, then messages, then threads, as before.
ALTER TABLE squash_operations
    DROP CONSTRAINT squash_operations_conversation_key_fkey,
    DROP CONSTRAINT squash_operations_result_message_key_fkey,
    DROP CONSTRAINT squash_operations_base_thread_key_fkey,
    DROP CONSTRAINT squash_operations_result_thread_key_fkey;
ALTER TABLE messages DROP CONSTRAINT messages_conversation_key_fkey;
