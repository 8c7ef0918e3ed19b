-- Discord's global limit shared by the processes of one token (../009_rate_budget.sql).
CREATE TABLE IF NOT EXISTS rate_budget (
    token   TEXT NOT NULL,
    ring    INTEGER NOT NULL,
    slot    BIGINT NOT NULL,
    used    INTEGER NOT NULL,
    granted INTEGER NOT NULL,
    PRIMARY KEY (token, ring)
);
