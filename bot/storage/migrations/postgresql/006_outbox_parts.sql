-- How many parts of a long message are out (../006_outbox_parts.sql).
ALTER TABLE outbox ADD COLUMN parts_sent INTEGER NOT NULL DEFAULT 0;
