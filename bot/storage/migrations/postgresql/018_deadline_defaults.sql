-- A server's deadline defaults (../018_deadline_defaults.sql).
CREATE TABLE IF NOT EXISTS deadline_settings (
    guild_id     BIGINT PRIMARY KEY,
    preset       TEXT COLLATE "C" NOT NULL,
    step_minutes INTEGER NOT NULL,
    updated_at   DOUBLE PRECISION NOT NULL
);
