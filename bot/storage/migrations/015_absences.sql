-- Players' absences (``/away``), a server's absence setting, and every deadline a seat let pass
-- (issue 34).
-- ``absences``: one row per absence of a player, numbered per player (``seq`` 1, 2, …). It starts
-- when set (``starts_at``) and ends at ``ends_at``, or at ``ended_at`` when ``/away end`` ended it
-- early. ``reason`` is the player's private note: only they are shown it. ``guild_id``: the server
-- it was set in (NULL: by DM).
CREATE TABLE IF NOT EXISTS absences (
    user_id   INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    guild_id  INTEGER,
    starts_at REAL    NOT NULL,
    ends_at   REAL    NOT NULL,
    reason    TEXT    NOT NULL DEFAULT '',
    ended_at  REAL,
    PRIMARY KEY (user_id, seq)
);

-- ``/away limit``: a server's bound on absences outside a league and what its games do when a
-- deadline falls inside one (``wait`` or ``defaults``). No row: the defaults (14 days, wait).
CREATE TABLE IF NOT EXISTS away_settings (
    guild_id   INTEGER PRIMARY KEY,
    max_days   INTEGER NOT NULL,
    mode       TEXT    NOT NULL,
    updated_at REAL    NOT NULL
);

-- Every deadline a seat let pass: once per (game, step, seat, deadline), written in the
-- transaction that played the seat's default or moved the step's deadline for its absence
-- (``waited_until``: where the deadline went; NULL: the default played). ``excused``: the seat's
-- player was away at the deadline (``absence_seq`` names the absence). ``user_id`` is the seat's
-- player then (a substitute's misses are their own).
CREATE TABLE IF NOT EXISTS missed_deadlines (
    game_id      TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL,
    seat         TEXT    NOT NULL,
    deadline_at  REAL    NOT NULL,
    user_id      INTEGER NOT NULL,
    excused      INTEGER NOT NULL,
    absence_seq  INTEGER,
    waited_until REAL,
    at           REAL    NOT NULL,
    PRIMARY KEY (game_id, turn, seat, deadline_at)
);
CREATE INDEX IF NOT EXISTS missed_deadlines_user ON missed_deadlines (user_id);
