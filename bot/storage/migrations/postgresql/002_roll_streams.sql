-- /roll's chains of committed seeds, one per channel (or per user in DMs): ../002_roll_streams.sql.
CREATE TABLE roll_streams (
    scope_id    BIGINT  PRIMARY KEY,
    next_number INTEGER NOT NULL,
    seed        TEXT    NOT NULL,
    commitment  TEXT    NOT NULL
);
