-- A server's own card pack per ruleset (../008_rule_packs.sql).
CREATE TABLE IF NOT EXISTS rule_packs (
    guild_id BIGINT NOT NULL,
    ruleset  TEXT NOT NULL,
    pack     TEXT NOT NULL,
    hash     TEXT NOT NULL,
    set_by   BIGINT NOT NULL,
    set_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, ruleset)
);
