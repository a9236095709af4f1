-- The event store. Appends are serialised (one writer, BEGIN IMMEDIATE), so
-- the rowid seq alone orders the log; commit_id numbers the appends.

CREATE TABLE streams (
    stream_id TEXT    PRIMARY KEY,
    version   INTEGER NOT NULL CHECK (version > 0)
) WITHOUT ROWID;

-- stream_id is not a foreign key: the append writes the stream row and its
-- events in one transaction, and the check would cost a lookup per event.
CREATE TABLE events (
    seq            INTEGER PRIMARY KEY,
    commit_id      INTEGER NOT NULL,
    event_id       TEXT    NOT NULL UNIQUE,
    stream_id      TEXT    NOT NULL,
    version        INTEGER NOT NULL CHECK (version > 0),
    type           TEXT    NOT NULL,
    data           TEXT    NOT NULL,
    author         TEXT    NOT NULL DEFAULT '',
    correlation_id TEXT    NOT NULL DEFAULT '',
    causation_id   TEXT    NOT NULL DEFAULT '',
    -- microseconds since the Unix epoch
    occurred_at    INTEGER NOT NULL,
    UNIQUE (stream_id, version)
);
