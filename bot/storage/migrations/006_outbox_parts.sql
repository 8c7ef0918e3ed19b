-- A message whose content is too long for one is posted as several (bot/limits.py). `parts_sent`
-- counts the parts Discord has accepted, so a retry (after a failure or a restart) resumes with the
-- next part instead of posting the first ones again. The row is marked sent after its last part.
ALTER TABLE outbox ADD COLUMN parts_sent INTEGER NOT NULL DEFAULT 0;
