-- Copy-on-write that costs what changed (see src/layout.rs): a thread's positions are its
-- segments (runs of links it shares with the thread that stored them) followed by its tail (its
-- own links). `thread_messages` becomes each thread's own storage, `position` an offset in it.
-- Every thread stored before this migration holds all its links itself: it is all tail, which
-- the defaults say, so nothing is copied (a constant default adds no row versions).
ALTER TABLE threads
    ADD COLUMN tail_start BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN tail_offset BIGINT NOT NULL DEFAULT 0;

CREATE TABLE thread_segments (
    thread_key         BIGINT NOT NULL,
    start              BIGINT NOT NULL,   -- the thread's position of the run's first link
    length             BIGINT NOT NULL CHECK (length > 0),
    source_thread_key  BIGINT NOT NULL,   -- whose own storage holds the run
    source_offset      BIGINT NOT NULL,
    PRIMARY KEY (thread_key, start)
);

-- Where a stored link lies in a thread: the last segment of its source starting at or before
-- its offset (one probe per link, whatever the thread's length).
CREATE INDEX thread_segments_by_source
    ON thread_segments(thread_key, source_thread_key, source_offset) INCLUDE (start, length);
