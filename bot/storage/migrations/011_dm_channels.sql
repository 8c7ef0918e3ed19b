-- A user's DM channel, found from the DMs already sent to them (its id never changes): every
-- shard process, and the bot after a restart, reads it here instead of asking Discord again.
CREATE INDEX IF NOT EXISTS outbox_dm_target ON outbox (target_id, id) WHERE kind = 'dm' AND status = 'sent';
