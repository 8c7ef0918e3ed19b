-- Background work claimed by one process at a time (bot/storage/claims.py): an outbox row being
-- posted, a game whose deadline or reminder is being handled, a named singleton job (league
-- maintenance). `claimed_by` names the holder, `lease_until` (the table's clock) when the claim
-- lapses if the holder dies. SQLite has one process, but records the leases all the same.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN lease_until REAL;
ALTER TABLE games ADD COLUMN claimed_by TEXT;
ALTER TABLE games ADD COLUMN lease_until REAL;
CREATE TABLE IF NOT EXISTS leases (
    name TEXT PRIMARY KEY,
    claimed_by TEXT NOT NULL,
    lease_until REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_pending_game ON outbox (game_id, id) WHERE status = 'pending';
