-- A user's DM channel, found from the DMs already sent to them (../011_dm_channels.sql).
CREATE INDEX IF NOT EXISTS outbox_dm_target ON outbox (target_id, id) WHERE kind = 'dm' AND status = 'sent';
