-- /roll draws on a chain of committed seeds, one chain per channel (or per user in DMs): each
-- reply reveals the seed its commitment was published for in the previous reply, and publishes
-- the commitment of the seed the next roll will use. So the bot fixes a seed before it can know
-- the expression it will be used for.
CREATE TABLE roll_streams (
    scope_id    INTEGER PRIMARY KEY,
    next_number INTEGER NOT NULL,  -- the number of the roll the stored seed is for (1, 2, …)
    seed        TEXT    NOT NULL,  -- hex, secret until that roll is made
    commitment  TEXT    NOT NULL   -- sha256(seed), already published
);
