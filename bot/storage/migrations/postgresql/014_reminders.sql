-- Reminders each player chooses (../014_reminders.sql).
CREATE TABLE IF NOT EXISTS reminder_settings (
    user_id     BIGINT PRIMARY KEY,
    leads       TEXT    NOT NULL,
    via         TEXT    NOT NULL,
    digest      INTEGER NOT NULL DEFAULT 0,
    digest_hour INTEGER NOT NULL DEFAULT 9,
    zone        TEXT,
    quiet_start INTEGER,
    quiet_end   INTEGER,
    digest_next DOUBLE PRECISION,
    updated_at  DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS reminder_settings_digest ON reminder_settings (digest_next);

CREATE TABLE IF NOT EXISTS reminder_marks (
    game_id TEXT COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn    INTEGER NOT NULL,
    user_id BIGINT  NOT NULL,
    slot    TEXT COLLATE "C" NOT NULL,
    sent_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, turn, user_id, slot)
);

CREATE TABLE IF NOT EXISTS reminder_plans (
    game_id    TEXT COLLATE "C" PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    next_at    DOUBLE PRECISION NOT NULL,
    planned_at DOUBLE PRECISION NOT NULL
);
