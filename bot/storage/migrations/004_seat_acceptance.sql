-- A lobby of three or more starts when every invited player has accepted, not at the first click:
-- each seat remembers whether its player has accepted. The challenger accepts by challenging.
ALTER TABLE seats ADD COLUMN accepted INTEGER NOT NULL DEFAULT 0;

UPDATE seats SET accepted = 1
WHERE user_id = (SELECT created_by FROM games WHERE games.id = seats.game_id)
   OR game_id IN (SELECT id FROM games WHERE status != 'lobby');
