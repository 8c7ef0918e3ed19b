-- Acknowledgements booked ahead on the next slot (../012_rate_bookings.sql).
ALTER TABLE rate_budget ADD COLUMN IF NOT EXISTS booked INTEGER NOT NULL DEFAULT 0;
