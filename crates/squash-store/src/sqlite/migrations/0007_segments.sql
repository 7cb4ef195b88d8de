-- Copy-on-write that costs what changed (see src/layout.rs): a thread's positions are its
-- segments (runs of links it shares with the thread that stored them) followed by its tail (its
-- own links). `thread_messages` becomes each thread's own storage, `position` an offset in it.
-- Every thread stored before this migration holds all its links itself: it is all tail, which
-- the defaults say, so nothing is copied.
ALTER TABLE threads ADD COLUMN tail_start INTEGER NOT NULL DEFAULT 0;
ALTER TABLE threads ADD COLUMN tail_offset INTEGER NOT NULL DEFAULT 0;

CREATE TABLE thread_segments (
    thread_key         INTEGER NOT NULL,
    start              INTEGER NOT NULL,   -- the thread's position of the run's first link
    length             INTEGER NOT NULL CHECK (length > 0),
    source_thread_key  INTEGER NOT NULL,   -- whose own storage holds the run
    source_offset      INTEGER NOT NULL,
    PRIMARY KEY (thread_key, start)
) WITHOUT ROWID;

-- Where a stored link lies in a thread: the last segment of its source starting at or before
-- its offset (one probe per link, whatever the thread's length).
CREATE INDEX thread_segments_by_source
    ON thread_segments(thread_key, source_thread_key, source_offset);
