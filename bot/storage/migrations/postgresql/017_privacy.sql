-- A player's own data (issue 37; ../017_privacy.sql): the published players digest of a game
-- whose players were forgotten, and the roster ledger's one exception to append-only.
CREATE TABLE IF NOT EXISTS forgotten_players (
    game_id        TEXT COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    label          TEXT NOT NULL,
    players_digest TEXT NOT NULL,
    at             DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, label)
);

-- An UPDATE may only replace a user id in ``player`` or ``by`` by a pseudonym (a negative
-- number), once; every other change is refused as before (DELETE and TRUNCATE still are).
CREATE FUNCTION roster_ledger_forget_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.seq = OLD.seq AND NEW.league_id = OLD.league_id AND NEW.unit = OLD.unit
       AND NEW.kind = OLD.kind AND NEW.at = OLD.at AND NEW.ref = OLD.ref AND NEW.note = OLD.note
       AND (NEW.player = OLD.player OR (OLD.player NOT LIKE '-%' AND NEW.player ~ '^-[0-9]+$'))
       AND (NEW."by" = OLD."by" OR (OLD."by" NOT LIKE '-%' AND NEW."by" ~ '^-[0-9]+$')) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'the roster ledger is append-only' USING ERRCODE = 'restrict_violation';
END
$$;
DROP TRIGGER IF EXISTS roster_ledger_no_update ON roster_ledger;
CREATE TRIGGER roster_ledger_no_update BEFORE UPDATE ON roster_ledger
    FOR EACH ROW EXECUTE FUNCTION roster_ledger_forget_only();
