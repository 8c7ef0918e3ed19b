-- A server's seasons of a ruleset (Esper's `/esper season start`): each start opens the next
-- numbered season, the highest number being the current one. A season holds no history of its
-- own: who played what this season is read from the ruleset's games in the server created since
-- the season started (each stores its seats' characters in its state), so the table only says
-- when each season began and who began it.
CREATE TABLE IF NOT EXISTS seasons (
    guild_id   INTEGER NOT NULL,
    ruleset    TEXT NOT NULL,
    number     INTEGER NOT NULL,
    started_at REAL NOT NULL,
    started_by INTEGER NOT NULL,
    PRIMARY KEY (guild_id, ruleset, number)
);
-- The games of a ruleset in a server since a time (a season's history), oldest first.
CREATE INDEX IF NOT EXISTS games_guild_ruleset ON games (guild_id, ruleset, created_at);
