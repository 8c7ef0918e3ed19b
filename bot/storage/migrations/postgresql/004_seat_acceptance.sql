-- Each seat remembers whether its player has accepted the lobby (../004_seat_acceptance.sql).
ALTER TABLE seats ADD COLUMN accepted BOOLEAN NOT NULL DEFAULT FALSE;

UPDATE seats SET accepted = TRUE
WHERE user_id = (SELECT created_by FROM games WHERE games.id = seats.game_id)
   OR game_id IN (SELECT id FROM games WHERE status != 'lobby');
