-- Leagues: each league is one versioned JSON document (players, draft, masters, matches, antes:
-- the pure value of cogs/league/season.py) beside an append-only roster ledger.
CREATE TABLE leagues (
    id         TEXT    PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'closed')),
    version    INTEGER NOT NULL DEFAULT 1,
    data       TEXT    NOT NULL,
    next_due   REAL,                  -- when the league's clock next has work (a pick, an ante)
    created_at REAL    NOT NULL,
    updated_at REAL    NOT NULL,
    UNIQUE (guild_id, name)
);
CREATE INDEX leagues_due ON leagues (status, next_due);

-- Which games are league matches, and whether their result has reached the league yet.
CREATE TABLE league_matches (
    game_id   TEXT    PRIMARY KEY REFERENCES games (id),
    league_id TEXT    NOT NULL REFERENCES leagues (id),
    recorded  INTEGER NOT NULL DEFAULT 0
);

-- Every roster change, never rewritten: rosters as of any date and every unit's provenance.
CREATE TABLE roster_ledger (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id TEXT    NOT NULL REFERENCES leagues (id),
    player    TEXT    NOT NULL,
    unit      TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    at        REAL    NOT NULL,
    by        TEXT    NOT NULL,
    ref       TEXT    NOT NULL DEFAULT '',
    note      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX roster_ledger_league ON roster_ledger (league_id, seq);
CREATE TRIGGER roster_ledger_no_update BEFORE UPDATE ON roster_ledger
BEGIN
    SELECT RAISE(ABORT, 'the roster ledger is append-only');
END;
CREATE TRIGGER roster_ledger_no_delete BEFORE DELETE ON roster_ledger
BEGIN
    SELECT RAISE(ABORT, 'the roster ledger is append-only');
END;
