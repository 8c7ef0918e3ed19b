-- Hidden information (../005_hidden_information.sql): the secret stream and its block counter,
-- each stream's step label, withheld orders, the typed result, departures, a step's own deadline.
-- PostgreSQL changes a CHECK in place (SQLite rebuilt the table).
ALTER TABLE dice_streams DROP CONSTRAINT dice_streams_phase;
ALTER TABLE dice_streams ADD CONSTRAINT dice_streams_phase
    CHECK (phase IN ('pre', 'resolve', 'secret'));
ALTER TABLE dice_streams ADD COLUMN blocks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE dice_streams ADD COLUMN step TEXT;

ALTER TABLE orders ADD COLUMN withheld BOOLEAN NOT NULL DEFAULT FALSE;

ALTER TABLE games ADD COLUMN result TEXT;

ALTER TABLE seats ADD COLUMN left_turn INTEGER;

ALTER TABLE games ADD COLUMN step_seconds INTEGER;
UPDATE games SET step_seconds = turn_seconds WHERE deadline_at IS NOT NULL;
