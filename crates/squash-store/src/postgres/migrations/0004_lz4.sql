-- Message bodies are JSON text, often tens of kilobytes (tool outputs). PostgreSQL compresses
-- large values with pglz by default, which made compression most of an import's server time
-- (measured: 2.1 s of 2.7 s for a 50 MB Claude Code session); lz4 compresses about as well for
-- this text at a fraction of the cost. Only where the server was built with lz4: elsewhere the
-- default stays and nothing else changes.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings
               WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        ALTER TABLE messages ALTER COLUMN content SET COMPRESSION lz4;
        ALTER TABLE messages ALTER COLUMN metadata SET COMPRESSION lz4;
        ALTER TABLE squash_operations ALTER COLUMN prompt SET COMPRESSION lz4;
        ALTER TABLE imports ALTER COLUMN metadata SET COMPRESSION lz4;
    END IF;
END
$$;
