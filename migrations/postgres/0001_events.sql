-- The event store. A stream's current version lives in streams; every append
-- updates that row first, which both serialises writers of one stream and
-- makes a later version of a stream belong to a later transaction id.

CREATE TABLE streams (
    stream_id text   PRIMARY KEY,
    version   bigint NOT NULL CHECK (version > 0)
);

-- The log is ordered by (tx_id, seq): seq alone is handed out before commit,
-- so concurrent transactions can commit it out of order, whereas a reader
-- that only takes rows whose tx_id is below the xmin of its snapshot never
-- sees a later commit land before what it has already read.
-- stream_id is not a foreign key: the append writes the stream row and its
-- events in one statement, and the check would cost a lookup per event.
CREATE TABLE events (
    tx_id          xid8        NOT NULL DEFAULT pg_current_xact_id(),
    seq            bigint      GENERATED ALWAYS AS IDENTITY,
    event_id       text        NOT NULL,
    stream_id      text        NOT NULL,
    version        bigint      NOT NULL CHECK (version > 0),
    type           text        NOT NULL,
    -- json, not jsonb: the payload comes back byte for byte as written.
    data           json        NOT NULL,
    author         text        NOT NULL DEFAULT '',
    correlation_id text        NOT NULL DEFAULT '',
    causation_id   text        NOT NULL DEFAULT '',
    occurred_at    timestamptz NOT NULL,
    CONSTRAINT events_log_pkey PRIMARY KEY (tx_id, seq),
    CONSTRAINT events_event_id_unique UNIQUE (event_id),
    CONSTRAINT events_stream_version_unique UNIQUE (stream_id, version)
);
