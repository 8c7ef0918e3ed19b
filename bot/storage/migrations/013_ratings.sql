-- Players' ratings (issue 33): one OpenSkill rating per player per ruleset per server, kept
-- across leagues (seasons). Every finished league game updates its players' rows in the same
-- transaction that records the result (cogs/league/service.py), so a game is rated once.
-- ``player`` is the Discord user id as text, as in the roster ledger.
CREATE TABLE IF NOT EXISTS ratings (
    guild_id   INTEGER NOT NULL,
    ruleset    TEXT NOT NULL,
    player     TEXT NOT NULL,
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL,
    games      INTEGER NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (guild_id, ruleset, player)
);
