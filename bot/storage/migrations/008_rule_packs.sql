-- A server's own card pack for a ruleset (Apeiron's `/apeiron pack`): one current pack per
-- (server, ruleset), as its canonical JSON with its hash, who set it and when. A replaced pack is
-- simply replaced: a game already started carries its own copy of the pack in its options.
CREATE TABLE IF NOT EXISTS rule_packs (
    guild_id INTEGER NOT NULL,
    ruleset  TEXT NOT NULL,
    pack     TEXT NOT NULL,
    hash     TEXT NOT NULL,
    set_by   INTEGER NOT NULL,
    set_at   REAL NOT NULL,
    PRIMARY KEY (guild_id, ruleset)
);
