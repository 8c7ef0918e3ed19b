-- Reminders each player chooses (issue 34).
-- ``reminder_settings``: a row per player who changed anything (no row: the defaults, half time
-- and 10 % left, by a ping in the game's channel). ``leads`` as the player writes them ("50% 10%",
-- "24h 1h 10m"); ``via`` 'channel' or 'dm'; ``digest`` 1 when a daily digest DM replaces every
-- reminder but the last, ``digest_hour`` its local hour and ``digest_next`` when it is next due
-- (compare-and-set by whoever sends it); ``zone`` an IANA name (NULL: UTC); quiet hours as local
-- minutes after midnight, the end excluded (both NULL: none).
CREATE TABLE IF NOT EXISTS reminder_settings (
    user_id     INTEGER PRIMARY KEY,
    leads       TEXT    NOT NULL,
    via         TEXT    NOT NULL,
    digest      INTEGER NOT NULL DEFAULT 0,
    digest_hour INTEGER NOT NULL DEFAULT 9,
    zone        TEXT,
    quiet_start INTEGER,
    quiet_end   INTEGER,
    digest_next REAL,
    updated_at  REAL    NOT NULL
);
CREATE INDEX IF NOT EXISTS reminder_settings_digest ON reminder_settings (digest_next);

-- Each reminder sent: inserted in the transaction that enqueues it, so a reminder goes out once
-- across restarts and processes. ``slot`` names the reminder ("50%", "1h"); ``turn`` the step.
CREATE TABLE IF NOT EXISTS reminder_marks (
    game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn    INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    slot    TEXT    NOT NULL,
    sent_at REAL    NOT NULL,
    PRIMARY KEY (game_id, turn, user_id, slot)
);

-- Per game, the step whose reminders were planned, when (``planned_at``) and when the next one
-- is due (the deadline when none is left). A game whose open step has no plan is due at once
-- (bot/storage/claims.py), so each step is planned by the first tick after it opens; a player's
-- new settings drop the plans of their games, and a seat handed over since ``planned_at``
-- (``handovers.at``) makes the plan count as none (the newcomer has settings of their own).
CREATE TABLE IF NOT EXISTS reminder_plans (
    game_id    TEXT    PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    next_at    REAL    NOT NULL,
    planned_at REAL    NOT NULL
);
