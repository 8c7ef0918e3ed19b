-- Players' absences, a server's absence setting, and every deadline a seat let pass
-- (../015_absences.sql).
CREATE TABLE IF NOT EXISTS absences (
    user_id   BIGINT  NOT NULL,
    seq       INTEGER NOT NULL,
    guild_id  BIGINT,
    starts_at DOUBLE PRECISION NOT NULL,
    ends_at   DOUBLE PRECISION NOT NULL,
    reason    TEXT    NOT NULL DEFAULT '',
    ended_at  DOUBLE PRECISION,
    PRIMARY KEY (user_id, seq)
);

CREATE TABLE IF NOT EXISTS away_settings (
    guild_id   BIGINT PRIMARY KEY,
    max_days   INTEGER NOT NULL,
    mode       TEXT COLLATE "C" NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE IF NOT EXISTS missed_deadlines (
    game_id      TEXT COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL,
    seat         TEXT COLLATE "C" NOT NULL,
    deadline_at  DOUBLE PRECISION NOT NULL,
    user_id      BIGINT  NOT NULL,
    excused      BOOLEAN NOT NULL,
    absence_seq  INTEGER,
    waited_until DOUBLE PRECISION,
    at           DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, turn, seat, deadline_at)
);
CREATE INDEX IF NOT EXISTS missed_deadlines_user ON missed_deadlines (user_id);
