-- Discord's global limit (50 requests a second per bot token) shared by the processes of one
-- token (bot/ratebudget.py): a row per token and slot of time, counted up atomically by whoever
-- sends. The rows form a ring (slot number modulo its size, the slot kept beside): a new slot
-- reuses an old slot's row, so the table never grows. Only PostgreSQL's shard processes use it;
-- SQLite's one process counts its slots in memory, and has the table so that both backends
-- keep the same schema, number for number.
CREATE TABLE IF NOT EXISTS rate_budget (
    token   TEXT NOT NULL,
    ring    INTEGER NOT NULL,
    slot    INTEGER NOT NULL,
    used    INTEGER NOT NULL,
    granted INTEGER NOT NULL,
    PRIMARY KEY (token, ring)
);
