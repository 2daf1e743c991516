"""The schema: numbered migrations, one list per engine, and the tables a copy moves.

Migration ``n`` (counting from 1) takes a database from schema version ``n - 1`` to
``n``; both lists have the same length and the same tables, columns and rules. SQLite
keeps the version in ``PRAGMA user_version``, PostgreSQL in the one-row table
``shax_schema``. SQLite keeps moments as seconds since the epoch (REAL) and flags as
0/1; PostgreSQL as ``timestamptz`` and ``boolean``, and Discord ids as ``bigint``.
"""

from __future__ import annotations

SQLITE_MIGRATIONS: tuple[str, ...] = (
    # 1: games, challenges, personal tallies and series.
    """
    CREATE TABLE games (
        id                INTEGER PRIMARY KEY,
        guild_id          INTEGER,
        channel_id        INTEGER NOT NULL,
        parent_channel_id INTEGER,
        variant           TEXT    NOT NULL,
        record            TEXT    NOT NULL DEFAULT '',
        white_id          INTEGER NOT NULL,
        white_name        TEXT    NOT NULL,
        black_id          INTEGER NOT NULL,
        black_name        TEXT    NOT NULL,
        ai_level          TEXT,
        ai_color          TEXT CHECK (ai_color IN ('white', 'black')),
        status            TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'over')),
        result            TEXT CHECK (result IN ('white', 'black', 'draw')),
        termination       TEXT,
        version           INTEGER NOT NULL DEFAULT 0,
        draw_offered_by   INTEGER,
        warned            INTEGER NOT NULL DEFAULT 0,
        board_message_id  INTEGER,
        rematch_of        INTEGER REFERENCES games (id),
        created_at        REAL    NOT NULL,
        updated_at        REAL    NOT NULL,
        turn_started_at   REAL    NOT NULL,
        ended_at          REAL
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)
        WHERE status = 'active';
    CREATE INDEX games_status ON games (status);

    CREATE TABLE challenges (
        id                INTEGER PRIMARY KEY,
        guild_id          INTEGER,
        channel_id        INTEGER NOT NULL,
        parent_channel_id INTEGER,
        challenger_id     INTEGER NOT NULL,
        challenger_name   TEXT    NOT NULL,
        opponent_id       INTEGER NOT NULL,
        opponent_name     TEXT    NOT NULL,
        variant           TEXT    NOT NULL,
        status            TEXT    NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
        rematch_of        INTEGER REFERENCES games (id),
        game_id           INTEGER REFERENCES games (id),
        message_id        INTEGER,
        created_at        REAL    NOT NULL,
        expires_at        REAL    NOT NULL,
        resolved_at       REAL
    );
    CREATE INDEX challenges_open ON challenges (status, expires_at);

    CREATE TABLE tallies (
        guild_id  INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        kind      TEXT    NOT NULL,
        name      TEXT    NOT NULL,
        wins      INTEGER NOT NULL DEFAULT 0,
        losses    INTEGER NOT NULL DEFAULT 0,
        draws     INTEGER NOT NULL DEFAULT 0,
        streak    INTEGER NOT NULL DEFAULT 0,
        best      INTEGER NOT NULL DEFAULT 0,
        gal       INTEGER NOT NULL DEFAULT 0,
        gabad     INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, user_id, kind)
    );

    CREATE TABLE series (
        guild_id    INTEGER NOT NULL,
        a           TEXT    NOT NULL,
        b           TEXT    NOT NULL,
        holder      TEXT,
        stones      INTEGER NOT NULL DEFAULT 0,
        last_white  TEXT,
        last_winner TEXT,
        games       INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, a, b),
        CHECK (a < b)
    );
    """,
    # 2: the version each game's shown board displays (to reconcile after a crash), the
    # bot's own facts (the command hash), per-server settings and per-player preferences.
    """
    ALTER TABLE games ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET shown_version = version;
    CREATE INDEX games_unshown ON games (status, shown_version, version);

    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );

    CREATE TABLE guild_settings (
        guild_id INTEGER NOT NULL,
        key      TEXT    NOT NULL,
        value    TEXT    NOT NULL,
        PRIMARY KEY (guild_id, key)
    );

    CREATE TABLE player_prefs (
        user_id INTEGER NOT NULL,
        key     TEXT    NOT NULL,
        value   TEXT    NOT NULL,
        PRIMARY KEY (user_id, key)
    );
    """,
    # 3: the hints a player has taken in a game against the bot.
    """
    CREATE TABLE hints (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        used    INTEGER NOT NULL DEFAULT 0
    );
    """,
)

POSTGRES_MIGRATIONS: tuple[str, ...] = (
    # 1: games, challenges, personal tallies and series.
    """
    CREATE TABLE games (
        id                BIGINT  GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id          BIGINT,
        channel_id        BIGINT  NOT NULL,
        parent_channel_id BIGINT,
        variant           TEXT    NOT NULL,
        record            TEXT    NOT NULL DEFAULT '',
        white_id          BIGINT  NOT NULL,
        white_name        TEXT    NOT NULL,
        black_id          BIGINT  NOT NULL,
        black_name        TEXT    NOT NULL,
        ai_level          TEXT,
        ai_color          TEXT CHECK (ai_color IN ('white', 'black')),
        status            TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'over')),
        result            TEXT CHECK (result IN ('white', 'black', 'draw')),
        termination       TEXT,
        version           INTEGER NOT NULL DEFAULT 0,
        draw_offered_by   BIGINT,
        warned            BOOLEAN NOT NULL DEFAULT FALSE,
        board_message_id  BIGINT,
        rematch_of        BIGINT REFERENCES games (id),
        created_at        TIMESTAMPTZ NOT NULL,
        updated_at        TIMESTAMPTZ NOT NULL,
        turn_started_at   TIMESTAMPTZ NOT NULL,
        ended_at          TIMESTAMPTZ
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)
        WHERE status = 'active';
    CREATE INDEX games_status ON games (status);

    CREATE TABLE challenges (
        id                BIGINT  GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id          BIGINT,
        channel_id        BIGINT  NOT NULL,
        parent_channel_id BIGINT,
        challenger_id     BIGINT  NOT NULL,
        challenger_name   TEXT    NOT NULL,
        opponent_id       BIGINT  NOT NULL,
        opponent_name     TEXT    NOT NULL,
        variant           TEXT    NOT NULL,
        status            TEXT    NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
        rematch_of        BIGINT REFERENCES games (id),
        game_id           BIGINT REFERENCES games (id),
        message_id        BIGINT,
        created_at        TIMESTAMPTZ NOT NULL,
        expires_at        TIMESTAMPTZ NOT NULL,
        resolved_at       TIMESTAMPTZ
    );
    CREATE INDEX challenges_open ON challenges (status, expires_at);

    CREATE TABLE tallies (
        guild_id  BIGINT  NOT NULL,
        user_id   BIGINT  NOT NULL,
        kind      TEXT    NOT NULL,
        name      TEXT    NOT NULL,
        wins      INTEGER NOT NULL DEFAULT 0,
        losses    INTEGER NOT NULL DEFAULT 0,
        draws     INTEGER NOT NULL DEFAULT 0,
        streak    INTEGER NOT NULL DEFAULT 0,
        best      INTEGER NOT NULL DEFAULT 0,
        gal       INTEGER NOT NULL DEFAULT 0,
        gabad     INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, user_id, kind)
    );

    CREATE TABLE series (
        guild_id    BIGINT  NOT NULL,
        a           TEXT    NOT NULL,
        b           TEXT    NOT NULL,
        holder      TEXT,
        stones      INTEGER NOT NULL DEFAULT 0,
        last_white  TEXT,
        last_winner TEXT,
        games       INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, a, b),
        CHECK (a < b)
    );
    """,
    # 2: as SQLite's 2.
    """
    ALTER TABLE games ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET shown_version = version;
    CREATE INDEX games_unshown ON games (status, shown_version, version);

    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );

    CREATE TABLE guild_settings (
        guild_id BIGINT NOT NULL,
        key      TEXT   NOT NULL,
        value    TEXT   NOT NULL,
        PRIMARY KEY (guild_id, key)
    );

    CREATE TABLE player_prefs (
        user_id BIGINT NOT NULL,
        key     TEXT   NOT NULL,
        value   TEXT   NOT NULL,
        PRIMARY KEY (user_id, key)
    );
    """,
    # 3: as SQLite's 3.
    """
    CREATE TABLE hints (
        game_id BIGINT  PRIMARY KEY REFERENCES games (id),
        used    INTEGER NOT NULL DEFAULT 0
    );
    """,
)
SCHEMA_VERSION = len(SQLITE_MIGRATIONS)
assert len(POSTGRES_MIGRATIONS) == SCHEMA_VERSION, "each engine needs every migration"
MIGRATIONS = SQLITE_MIGRATIONS

TABLES: dict[str, tuple[str, ...]] = {
    # Every table and its key columns (the order a copy reads and compares rows in).
    "games": ("id",),
    "challenges": ("id",),
    "tallies": ("guild_id", "user_id", "kind"),
    "series": ("guild_id", "a", "b"),
    "meta": ("key",),
    "guild_settings": ("guild_id", "key"),
    "player_prefs": ("user_id", "key"),
    "hints": ("game_id",),
}
MOMENT_COLUMNS = frozenset(
    {"created_at", "updated_at", "turn_started_at", "ended_at", "expires_at", "resolved_at"}
)
FLAG_COLUMNS = frozenset({"warned"})
