-- Seats handed to a substitute mid-game, and seats offered for one (issue 34).
-- ``handovers``: one row per handover, numbered per game (``seq`` 1, 2, …) in the transaction that
-- changed the seat's player in ``seats`` (which always holds the seat's current player). ``turn``
-- is the step open at the handover (the record's ``handovers[i].step``); ``from_name`` and
-- ``to_name`` are the display names as the record names players; ``digest`` is the record's
-- handover digest, chained from the players digest (bot/record/handovers.py).
CREATE TABLE IF NOT EXISTS handovers (
    game_id   TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    turn      INTEGER NOT NULL,
    seat      TEXT    NOT NULL,
    from_user INTEGER NOT NULL,
    from_name TEXT    NOT NULL,
    to_user   INTEGER NOT NULL,
    to_name   TEXT    NOT NULL,
    by_user   INTEGER,                  -- the moderator who handed it
    digest    TEXT    NOT NULL,
    at        REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS handovers_from ON handovers (from_user);

-- ``/game replace-me``: a seated player offers their seat for a moderator to fill (one offer per
-- seat; gone when the seat is handed over, or withdrawn).
CREATE TABLE IF NOT EXISTS seat_offers (
    game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    offered_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
