-- A player's own data (issue 37): /privacy forget.
--
-- A finished game keeps a forgotten player's seat under a label ("Player A") in place of their
-- name; the game's players digest as its first post published it is kept here, so its match
-- record still names the digest the post shows (bot.record.forgotten).
CREATE TABLE IF NOT EXISTS forgotten_players (
    game_id        TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    label          TEXT NOT NULL,
    players_digest TEXT NOT NULL,
    at             REAL NOT NULL,
    PRIMARY KEY (game_id, label)
);

-- The roster ledger stays append-only, with one exception: a forgotten player's user id in
-- ``player`` or ``by`` may be replaced by their pseudonym (a negative number, never a Discord
-- id), once, and nothing else in the row may change.
DROP TRIGGER IF EXISTS roster_ledger_no_update;
CREATE TRIGGER roster_ledger_no_update BEFORE UPDATE ON roster_ledger
WHEN NOT (
    NEW.seq = OLD.seq AND NEW.league_id = OLD.league_id AND NEW.unit = OLD.unit
    AND NEW.kind = OLD.kind AND NEW.at = OLD.at AND NEW.ref = OLD.ref AND NEW.note = OLD.note
    AND (NEW.player = OLD.player OR (OLD.player NOT LIKE '-%' AND NEW.player GLOB '-[0-9]*'))
    AND (NEW.by = OLD.by OR (OLD.by NOT LIKE '-%' AND NEW.by GLOB '-[0-9]*'))
)
BEGIN
    SELECT RAISE(ABORT, 'the roster ledger is append-only');
END;
