-- Acknowledgements booked ahead (bot/ratebudget.py): a process whose acknowledgements found the
-- current slot spent books their number on the next slot, which background requests of every
-- process then leave free, so an acknowledgement waits one slot at most. Only PostgreSQL's shard
-- processes use it; SQLite keeps the column so that both schemas stay the same.
ALTER TABLE rate_budget ADD COLUMN booked INTEGER NOT NULL DEFAULT 0;
