-- A server's seasons of a ruleset (../010_seasons.sql).
CREATE TABLE IF NOT EXISTS seasons (
    guild_id   BIGINT NOT NULL,
    ruleset    TEXT NOT NULL,
    number     INTEGER NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    started_by BIGINT NOT NULL,
    PRIMARY KEY (guild_id, ruleset, number)
);
CREATE INDEX IF NOT EXISTS games_guild_ruleset ON games (guild_id, ruleset, created_at);
