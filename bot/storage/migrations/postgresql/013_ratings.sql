-- Players' ratings per ruleset per server (../013_ratings.sql).
CREATE TABLE IF NOT EXISTS ratings (
    guild_id   BIGINT NOT NULL,
    ruleset    TEXT NOT NULL,
    player     TEXT COLLATE "C" NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, ruleset, player)
);
