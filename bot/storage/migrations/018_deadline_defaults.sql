-- A server's deadline defaults (``/config deadlines``, issue 35): what a game or league created
-- without its time options takes. ``preset``: ``play_by_post`` (``step_minutes`` a step, Esper's
-- objections and reactions as long as a step) or ``live`` (each ruleset's real-time values of the
-- seeds). No row: play-by-post at 24 hours a step. A table of its own, not a column of
-- ``guild_settings``, whose ``language`` is required: a server may set one without the other.
CREATE TABLE IF NOT EXISTS deadline_settings (
    guild_id     INTEGER PRIMARY KEY,
    preset       TEXT    NOT NULL,
    step_minutes INTEGER NOT NULL,
    updated_at   REAL    NOT NULL
);
