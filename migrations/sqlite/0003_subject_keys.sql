-- Per-user data keys for crypto-shredding (docs/privacy.md). Personal
-- fields of events are sealed with their subject's key; erasing an account
-- sets data_key to NULL, which leaves the fields unreadable and keeps a
-- tombstone so no new key is ever made for that subject.
CREATE TABLE subject_keys (
    subject    TEXT    PRIMARY KEY,
    data_key   BLOB,
    -- microseconds since the Unix epoch
    created_at INTEGER NOT NULL,
    erased_at  INTEGER
) WITHOUT ROWID;
