-- Hidden information (shared/spec/dice-and-receipts.md, "Secret stream" and "Withheld orders").
-- A game may have one secret stream (turn 0, phase 'secret') whose block counter runs over the
-- whole game: `blocks` keeps where it stopped. Each stream remembers the ruleset's name for its
-- step (`step`, "turn 3", "deploy"), which the match record carries. SQLite cannot change a CHECK,
-- so the table is rebuilt.
CREATE TABLE dice_streams_new (
    game_id       TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn          INTEGER NOT NULL,
    phase         TEXT    NOT NULL CHECK (phase IN ('pre', 'resolve', 'secret')),
    seed          TEXT    NOT NULL,        -- hex, secret until revealed
    commitment    TEXT    NOT NULL,
    orders_digest TEXT,
    drawn         TEXT    NOT NULL DEFAULT '[]',
    revealed      INTEGER NOT NULL DEFAULT 0,
    blocks        INTEGER NOT NULL DEFAULT 0,  -- blocks drawn so far (the secret stream resumes)
    step          TEXT,                        -- the ruleset's label of the step
    PRIMARY KEY (game_id, turn, phase)
);
INSERT INTO dice_streams_new (game_id, turn, phase, seed, commitment, orders_digest, drawn, revealed)
    SELECT game_id, turn, phase, seed, commitment, orders_digest, drawn, revealed FROM dice_streams;
DROP TABLE dice_streams;
ALTER TABLE dice_streams_new RENAME TO dice_streams;

-- An order withheld after its step: the channel shows its receipt only, until a reveal event or
-- the end of the game (then 0 again).
ALTER TABLE orders ADD COLUMN withheld INTEGER NOT NULL DEFAULT 0;

-- The typed outcome (bot.ruleset.Outcome as JSON): several winners, grades, the reason. `outcome`
-- keeps the legacy single winner ('A', 'draw', 'party'…) for records and leagues.
ALTER TABLE games ADD COLUMN result TEXT;

-- A seat that left while the game went on for the others (resigned, eliminated): the table step
-- during which it left, so the match record can replay the departure where it happened.
ALTER TABLE seats ADD COLUMN left_turn INTEGER;

-- The open step's own deadline length (a ruleset may give a step its own: a two-minute pick in a
-- game of ten-minute turns); reminders fall at fractions of it. NULL: the step has no deadline.
ALTER TABLE games ADD COLUMN step_seconds INTEGER;
UPDATE games SET step_seconds = turn_seconds WHERE deadline_at IS NOT NULL;
