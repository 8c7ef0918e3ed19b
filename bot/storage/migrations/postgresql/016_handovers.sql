-- Seats handed to a substitute mid-game, and seats offered for one (../016_handovers.sql).
CREATE TABLE IF NOT EXISTS handovers (
    game_id   TEXT COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    turn      INTEGER NOT NULL,
    seat      TEXT COLLATE "C" NOT NULL,
    from_user BIGINT  NOT NULL,
    from_name TEXT    NOT NULL,
    to_user   BIGINT  NOT NULL,
    to_name   TEXT    NOT NULL,
    by_user   BIGINT,
    digest    TEXT    NOT NULL,
    at        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS handovers_from ON handovers (from_user);

CREATE TABLE IF NOT EXISTS seat_offers (
    game_id    TEXT COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       TEXT COLLATE "C" NOT NULL,
    user_id    BIGINT NOT NULL,
    offered_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
