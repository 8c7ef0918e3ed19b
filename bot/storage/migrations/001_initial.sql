-- Games, seats, versioned states, sealed orders, dice streams, events, the outbox, settings.

CREATE TABLE games (
    id               TEXT PRIMARY KEY,
    ruleset          TEXT    NOT NULL,
    guild_id         INTEGER,
    channel_id       INTEGER,
    status           TEXT    NOT NULL
        CHECK (status IN ('lobby', 'setup', 'active', 'paused', 'finished', 'abandoned')),
    options          TEXT    NOT NULL DEFAULT '{}',
    state            TEXT,                 -- ruleset JSON at `version`
    version          INTEGER NOT NULL DEFAULT 0,
    turn             INTEGER NOT NULL DEFAULT 0,
    outcome          TEXT,                 -- seat, 'draw', or NULL
    end_reason       TEXT,                 -- 'rules', 'resign', 'abandon'
    turn_seconds     INTEGER,              -- length of a turn's deadline; NULL: none
    deadline_at      REAL,                 -- unix seconds; NULL while paused or none
    reminders_sent   INTEGER NOT NULL DEFAULT 0,   -- how many of the reminders went out
    paused_remaining REAL,                 -- seconds left when paused
    prompt_outbox_id INTEGER,              -- the channel message that shows progress
    created_by       INTEGER,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);
CREATE INDEX games_status_deadline ON games (status, deadline_at);
CREATE INDEX games_channel ON games (channel_id, status);

CREATE TABLE seats (
    game_id  TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     TEXT    NOT NULL,
    position INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    dm_open  INTEGER,                      -- NULL unknown, 0 closed, 1 open
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_user ON seats (user_id);

CREATE TABLE states (
    game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    turn    INTEGER NOT NULL,
    state   TEXT    NOT NULL,
    PRIMARY KEY (game_id, version)
);

CREATE TABLE orders (
    game_id      TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL,
    seat         TEXT    NOT NULL,
    text         TEXT    NOT NULL,         -- canonical order text (what is sealed)
    salt         TEXT    NOT NULL,         -- hex
    receipt      TEXT    NOT NULL,         -- sha256(salt + text) hex
    user_id      INTEGER,
    defaulted    INTEGER NOT NULL DEFAULT 0,
    revisions    INTEGER NOT NULL DEFAULT 1,
    submitted_at REAL    NOT NULL,
    PRIMARY KEY (game_id, turn, seat)
);

CREATE TABLE dice_streams (
    game_id       TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn          INTEGER NOT NULL,
    phase         TEXT    NOT NULL CHECK (phase IN ('pre', 'resolve')),
    seed          TEXT    NOT NULL,        -- hex, secret until revealed
    commitment    TEXT    NOT NULL,
    orders_digest TEXT,
    drawn         TEXT    NOT NULL DEFAULT '[]',
    revealed      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, turn, phase)
);

CREATE TABLE events (
    game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn    INTEGER NOT NULL,
    seq     INTEGER NOT NULL,
    data    TEXT    NOT NULL,
    PRIMARY KEY (game_id, turn, seq)
);

CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     TEXT,
    kind        TEXT    NOT NULL CHECK (kind IN ('channel', 'dm', 'edit')),
    target_id   INTEGER,                   -- channel id, or user id for a DM
    ref_id      INTEGER,                   -- for 'edit': the outbox id of the message to edit
    payload     TEXT    NOT NULL,
    nonce       TEXT    NOT NULL UNIQUE,
    status      TEXT    NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'sent', 'failed', 'superseded')),
    message_id  INTEGER,
    channel_id  INTEGER,
    attempts    INTEGER NOT NULL DEFAULT 0,
    not_before  REAL    NOT NULL DEFAULT 0,
    last_error  TEXT,
    created_at  REAL    NOT NULL,
    sent_at     REAL
);
CREATE INDEX outbox_pending ON outbox (status, id);

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    language TEXT NOT NULL
);

CREATE TABLE user_settings (
    user_id INTEGER PRIMARY KEY,
    locale  TEXT NOT NULL
);
