-- The searchable text and the search terms are as large as the message's words, and written
-- with every message: with pglz, compressing them was about a fifth of the server's time in a
-- PostgreSQL import (perf, after 0004 had moved the bodies to lz4). lz4 as in 0004, only where
-- the server was built with it.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings
               WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        ALTER TABLE messages ALTER COLUMN search_text SET COMPRESSION lz4;
        ALTER TABLE messages ALTER COLUMN search_terms SET COMPRESSION lz4;
    END IF;
END
$$;
