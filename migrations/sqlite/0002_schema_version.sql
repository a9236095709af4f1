-- The version of its type's data shape each event was written in. Events
-- stored before versions were recorded are all version 1.
ALTER TABLE events ADD COLUMN schema_version INTEGER NOT NULL DEFAULT 1 CHECK (schema_version > 0);
