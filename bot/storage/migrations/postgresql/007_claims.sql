-- Claims and leases of background work (../007_claims.sql).
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN lease_until DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN claimed_by TEXT;
ALTER TABLE games ADD COLUMN lease_until DOUBLE PRECISION;
CREATE TABLE IF NOT EXISTS leases (
    name TEXT PRIMARY KEY,
    claimed_by TEXT NOT NULL,
    lease_until DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_pending_game ON outbox (game_id, id) WHERE status = 'pending';
