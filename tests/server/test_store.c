/* test_store.c -- store.h on SQLite, first half: opening, the schema and
 * its migrations, players, sessions and guests, games and moves, and the
 * writes it must refuse (leaving nothing changed). test_store_results.c has
 * the rest. */

#include "store_fixture.h"

/* --- open, schema --------------------------------------------------------- */

static void test_open_memory(void **state)
{
    (void)state;
    store *s = open_memory();
    assert_true(store_schema_version(s) >= 1);
    store_close(s);
    store_close(NULL);
}

static void test_open_bad_path(void **state)
{
    SQLITE_ONLY();
    (void)state;
    store_err err = { "" };
    assert_null(store_open("/nonexistent-dir/sub/citadel.db", 0, &err));
    assert_true(err.msg[0] != '\0');
    assert_null(strchr(err.msg, '\n'));
}

static void test_reopen_keeps_data(void **state)
{
    SQLITE_ONLY();
    (void)state;
    tmpdb t;
    tmpdb_make(&t);
    store_err err = { "" };
    store *s = store_open(t.path, 1, &err);
    if (!s)
        fail_msg("store_open: %s", err.msg);
    int version = store_schema_version(s);
    int64_t alice = add_player(s, "Alice", 0, 0), bob = add_player(s, "Bob", 0, 0);
    int64_t game = add_game(s, alice, bob, 1);
    add_move(s, game, 0, T0);
    add_move(s, game, 1, 0);
    assert_int_equal(store_kv_put(s, alice, "setup:stratego:1", "abc", &err), 0);
    store_close(s);

    for (int round = 0; round < 2; round++) {  /* migrations run once only */
        s = store_open(t.path, 0, &err);
        if (!s)
            fail_msg("reopen: %s", err.msg);
        assert_int_equal(store_schema_version(s), version);
        store_player p;
        assert_int_equal(store_player_by_name(s, "alice", &p, NULL, &err), 0);
        assert_int_equal(p.id, alice);
        store_game g;
        assert_int_equal(store_game_get(s, game, &g, &err), 0);
        assert_int_equal(g.nmoves, 2);
        assert_int_equal(g.started, T0);
        char value[16];
        assert_int_equal(store_kv_get(s, alice, "setup:stratego:1", value, sizeof value, &err),
                         0);
        assert_string_equal(value, "abc");
        store_close(s);
    }

    /* The file is in WAL mode, and user_version is what the store says. */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(t.path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), version);
    sqlite3_finalize(st);
    sqlite3_close(db);
    tmpdb_remove(&t);
}

static void test_newer_schema_refused(void **state)
{
    SQLITE_ONLY();
    (void)state;
    tmpdb t;
    tmpdb_make(&t);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(t.path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    store_err err = { "" };
    assert_null(store_open(t.path, 0, &err));
    assert_non_null(strstr(err.msg, "999"));
    tmpdb_remove(&t);
}

/* The first schema, as a database made before schema 2 holds it (a copy
 * kept here on purpose: it must not follow the store's changes). */
static const char schema1[] =
    "CREATE TABLE players ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL COLLATE NOCASE UNIQUE"
    "    CHECK (length(CAST(name AS BLOB)) BETWEEN 1 AND 32),"
    "  pass_hash TEXT NOT NULL DEFAULT '',"
    "  is_bot INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),"
    "  is_guest INTEGER NOT NULL DEFAULT 0 CHECK (is_guest IN (0, 1)),"
    "  bot_spec TEXT NOT NULL DEFAULT '',"
    "  created INTEGER NOT NULL);"
    "CREATE INDEX players_bots ON players(id) WHERE is_bot = 1;"

    "CREATE TABLE sessions ("
    "  token TEXT PRIMARY KEY,"
    "  player INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,"
    "  created INTEGER NOT NULL,"
    "  expires INTEGER NOT NULL) WITHOUT ROWID;"
    "CREATE INDEX sessions_expires ON sessions(expires);"
    "CREATE INDEX sessions_player ON sessions(player);"

    "CREATE TABLE games ("
    "  id INTEGER PRIMARY KEY,"
    "  variant TEXT NOT NULL,"
    "  start TEXT NOT NULL,"
    "  base_ms INTEGER NOT NULL,"
    "  inc_ms INTEGER NOT NULL,"
    "  move_limit INTEGER NOT NULL,"
    "  rated INTEGER NOT NULL CHECK (rated IN (0, 1)),"
    "  nsides INTEGER NOT NULL CHECK (nsides BETWEEN 1 AND 4),"
    "  created INTEGER NOT NULL,"
    "  started INTEGER NOT NULL DEFAULT 0,"
    "  status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),"
    "  winner INTEGER NOT NULL DEFAULT -1,"
    "  reason TEXT NOT NULL DEFAULT '',"
    "  sterile INTEGER NOT NULL DEFAULT 0,"
    "  ended INTEGER NOT NULL DEFAULT 0,"
    "  nmoves INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX games_status ON games(status);"

    "CREATE TABLE game_players ("
    "  game INTEGER NOT NULL REFERENCES games(id),"
    "  side INTEGER NOT NULL CHECK (side BETWEEN 0 AND 3),"
    "  player INTEGER NOT NULL REFERENCES players(id),"
    "  PRIMARY KEY (game, side)) WITHOUT ROWID;"
    "CREATE INDEX game_players_player ON game_players(player, game);"

    "CREATE TABLE moves ("
    "  game INTEGER NOT NULL REFERENCES games(id),"
    "  ply INTEGER NOT NULL,"
    "  text TEXT NOT NULL,"
    "  clock_ms INTEGER NOT NULL,"
    "  time INTEGER NOT NULL,"
    "  PRIMARY KEY (game, ply)) WITHOUT ROWID;"

    "CREATE TABLE ratings ("
    "  player INTEGER NOT NULL REFERENCES players(id),"
    "  variant TEXT NOT NULL,"
    "  rating REAL NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  PRIMARY KEY (player, variant)) WITHOUT ROWID;"
    "CREATE INDEX ratings_ladder ON ratings(variant, rating DESC, games DESC);"

    "CREATE TABLE rating_history ("
    "  id INTEGER PRIMARY KEY,"
    "  player INTEGER NOT NULL REFERENCES players(id),"
    "  variant TEXT NOT NULL,"
    "  game INTEGER NOT NULL REFERENCES games(id),"
    "  time INTEGER NOT NULL,"
    "  before REAL NOT NULL,"
    "  after REAL NOT NULL,"
    "  UNIQUE (player, game));"
    "CREATE INDEX rating_history_player ON rating_history(player, variant, time, game);"

    "CREATE TABLE kv ("
    "  player INTEGER NOT NULL REFERENCES players(id),"
    "  key TEXT NOT NULL,"
    "  value TEXT NOT NULL,"
    "  PRIMARY KEY (player, key)) WITHOUT ROWID;";

/* A database at schema 1, with a player in a game, a session and a rating,
 * is brought up to date: every row kept, foreign keys whole, and ids never
 * given again. */
static void test_old_schema_migrates(void **state)
{
    SQLITE_ONLY();
    (void)state;
    tmpdb t;
    tmpdb_make(&t);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(t.path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, schema1, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db,
                     "INSERT INTO players (id, name, is_guest, created) VALUES (5, 'ann', 0, 1),"
                     " (7, 'guest-x', 1, 1);"
                     "INSERT INTO sessions VALUES ('tok', 5, 1, 9000000000000);"
                     "INSERT INTO games (id, variant, start, base_ms, inc_ms, move_limit, rated,"
                     " nsides, created, nmoves) VALUES (3, 'rampart', 's', 0, 0, 0, 0, 2, 1, 1);"
                     "INSERT INTO game_players VALUES (3, 0, 5), (3, 1, 7);"
                     "INSERT INTO moves VALUES (3, 0, 'c2c3', 0, 1);"
                     "INSERT INTO ratings VALUES (5, 'rampart', 1520, 1);"
                     "PRAGMA user_version = 1;",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    store_err err = { "" };
    store *s = store_open(t.path, 0, &err);
    if (!s)
        fail_msg("store_open: %s", err.msg);
    assert_true(store_schema_version(s) >= 3);
    store_player p;
    assert_int_equal(store_player_by_name(s, "ann", &p, NULL, &err), 0);
    assert_int_equal(p.id, 5);
    int64_t who = 0;
    assert_int_equal(store_session_player(s, "tok", 2, &who, &err), 0);
    assert_int_equal(who, 5);
    store_game g;
    assert_int_equal(store_game_get(s, 3, &g, &err), 0);
    assert_int_equal(g.players[1], 7);
    assert_int_equal(g.nmoves, 1);
    store_rating r;
    assert_int_equal(store_rating_get(s, 5, "rampart", &r, &err), 0);
    assert_true(r.rating > 1519.0 && r.games == 1);
    /* the foreign keys hold: a session for nobody is refused */
    assert_int_equal(store_session_add(s, "tok2", 99, 1, 2, &err), -1);
    int64_t id = add_player(s, "bea", 0, 0);
    assert_true(id > 7);
    store_close(s);
    tmpdb_remove(&t);
}

/* --- players ------------------------------------------------------------ */

static void test_players(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t alice = add_player(s, "Alice", 0, 0);
    int64_t bot = add_player(s, "Rampart-3", 1, 0);
    int64_t guest = add_player(s, "guest-17", 0, 1);
    assert_true(alice != bot && bot != guest);

    store_player p;
    char hash[STORE_TEXT_MAX];
    assert_int_equal(store_player_by_name(s, "aLiCe", &p, hash, &err), 0);
    assert_int_equal(p.id, alice);
    assert_string_equal(p.name, "Alice");  /* as written when created */
    assert_string_equal(hash, "$argon2id$v=19$hash");
    assert_int_equal(p.is_bot, 0);
    assert_int_equal(p.is_guest, 0);
    assert_string_equal(p.bot_spec, "");
    assert_int_equal(p.created, T0);

    assert_int_equal(store_player_by_id(s, bot, &p, &err), 0);
    assert_string_equal(p.name, "Rampart-3");
    assert_int_equal(p.is_bot, 1);
    assert_string_equal(p.bot_spec, "level=3");
    assert_int_equal(store_player_by_id(s, guest, &p, &err), 0);
    assert_int_equal(p.is_guest, 1);

    assert_int_equal(store_player_by_name(s, "nobody", &p, NULL, &err), STORE_NOT_FOUND);
    assert_int_equal(store_player_by_id(s, 9999, &p, &err), STORE_NOT_FOUND);
    store_close(s);
}

static void test_player_names(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t id = 0;
    add_player(s, "Alice", 0, 0);
    assert_int_equal(store_player_add(s, "ALICE", "", 0, 0, "", T0, &id, &err), STORE_TAKEN);
    assert_non_null(strstr(err.msg, "taken"));
    assert_int_equal(store_player_add(s, "alice", "", 1, 0, "", T0, &id, &err), STORE_TAKEN);

    /* Exactly STORE_NAME_MAX bytes is fine, one more is refused. */
    char name[STORE_NAME_MAX + 2];
    memset(name, 'n', STORE_NAME_MAX);
    name[STORE_NAME_MAX] = '\0';
    assert_int_equal(store_player_add(s, name, "", 0, 0, "", T0, &id, &err), 0);
    store_player p;
    assert_int_equal(store_player_by_name(s, name, &p, NULL, &err), 0);
    assert_string_equal(p.name, name);
    name[STORE_NAME_MAX] = 'n';
    name[STORE_NAME_MAX + 1] = '\0';
    assert_int_equal(store_player_add(s, name, "", 0, 0, "", T0, &id, &err), -1);
    assert_int_equal(store_player_by_name(s, name, &p, NULL, &err), STORE_NOT_FOUND);
    assert_int_equal(store_player_add(s, "", "", 0, 0, "", T0, &id, &err), -1);

    char longtext[STORE_TEXT_MAX + 1];
    memset(longtext, 'h', STORE_TEXT_MAX);
    longtext[STORE_TEXT_MAX] = '\0';
    assert_int_equal(store_player_add(s, "Carol", longtext, 0, 0, "", T0, &id, &err), -1);
    char spec[65];
    memset(spec, 's', 64);
    spec[64] = '\0';
    assert_int_equal(store_player_add(s, "Carol", "", 1, 0, spec, T0, &id, &err), -1);
    assert_int_equal(store_player_by_name(s, "Carol", &p, NULL, &err), STORE_NOT_FOUND);
    store_close(s);
}

static void test_bots(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    add_player(s, "Alice", 0, 0);
    int64_t b1 = add_player(s, "Bot-1", 1, 0);
    add_player(s, "guest-1", 0, 1);
    int64_t b2 = add_player(s, "Bot-2", 1, 0);
    int64_t b3 = add_player(s, "Bot-3", 1, 0);
    store_player out[4];
    assert_int_equal(store_bots(s, out, 4, &err), 3);
    assert_int_equal(out[0].id, b1);
    assert_int_equal(out[1].id, b2);
    assert_int_equal(out[2].id, b3);
    assert_int_equal(out[2].is_bot, 1);
    assert_int_equal(store_bots(s, out, 2, &err), 2);
    assert_int_equal(out[1].id, b2);
    assert_int_equal(store_bots(s, out, 0, &err), 0);
    store_close(s);
}

/* --- sessions ----------------------------------------------------------- */

static void test_sessions(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t alice = add_player(s, "Alice", 0, 0), player = 0;
    assert_int_equal(store_session_add(s, "tok-a", alice, T0, T0 + 1000, &err), 0);
    assert_int_equal(store_session_player(s, "tok-a", T0 + 999, &player, &err), 0);
    assert_int_equal(player, alice);
    /* Expired at `expires` itself. */
    assert_int_equal(store_session_player(s, "tok-a", T0 + 1000, &player, &err),
                     STORE_NOT_FOUND);
    assert_int_equal(store_session_player(s, "nope", T0, &player, &err), STORE_NOT_FOUND);

    assert_int_equal(store_session_add(s, "tok-a", alice, T0, T0 + 5000, &err), STORE_TAKEN);
    assert_int_equal(store_session_add(s, "tok-x", 9999, T0, T0 + 5000, &err), -1);
    assert_int_equal(store_session_player(s, "tok-x", T0, &player, &err), STORE_NOT_FOUND);

    assert_int_equal(store_session_add(s, "tok-b", alice, T0, T0 + 5000, &err), 0);
    assert_int_equal(store_session_del(s, "tok-b", &err), 0);
    assert_int_equal(store_session_player(s, "tok-b", T0, &player, &err), STORE_NOT_FOUND);
    assert_int_equal(store_session_del(s, "tok-b", &err), 0);  /* already gone: fine */

    /* Adding a session clears the expired ones; tok-a can then be reused. */
    assert_int_equal(store_session_add(s, "tok-a", alice, T0 + 2000, T0 + 9000, &err), 0);
    assert_int_equal(store_session_player(s, "tok-a", T0 + 8000, &player, &err), 0);

    char longtok[STORE_TEXT_MAX + 1];
    memset(longtok, 't', STORE_TEXT_MAX);
    longtok[STORE_TEXT_MAX] = '\0';
    assert_int_equal(store_session_add(s, longtok, alice, T0, T0 + 5000, &err), -1);
    assert_int_equal(store_session_player(s, longtok, T0, &player, &err), STORE_NOT_FOUND);
    store_close(s);
}

/* Guests nobody can use (no session left, no game) are purged with their
 * values; guests with a live session or a game, and accounts, stay. */
static void test_guests_purge(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t gone = add_player(s, "guest-aaaaaa", 0, 1), live = add_player(s, "guest-bbbbbb", 0, 1);
    int64_t played = add_player(s, "guest-cccccc", 0, 1), alice = add_player(s, "Alice", 0, 0);
    int64_t bare = add_player(s, "guest-dddddd", 0, 1), id = 0;
    assert_int_equal(store_session_add(s, "t-gone", gone, T0, T0 + 1000, &err), 0);
    assert_int_equal(store_session_add(s, "t-live", live, T0, T0 + 100000, &err), 0);
    assert_int_equal(store_kv_put(s, gone, "k", "v", &err), 0);
    store_game g = game_of(played, alice, 0);
    assert_int_equal(store_game_add(s, &g, &err), 0);
    assert_int_equal(store_guests_purge(s, T0 + 5000, NULL, 0, &err), 2);  /* gone and bare */
    store_player p;
    assert_int_equal(store_player_by_id(s, gone, &p, &err), STORE_NOT_FOUND);
    assert_int_equal(store_player_by_id(s, bare, &p, &err), STORE_NOT_FOUND);
    assert_int_equal(store_player_by_id(s, live, &p, &err), 0);
    assert_int_equal(store_player_by_id(s, played, &p, &err), 0);
    assert_int_equal(store_player_by_id(s, alice, &p, &err), 0);
    assert_int_equal(store_session_player(s, "t-live", T0 + 5000, &id, &err), 0);
    /* once the last session has expired, the guest without a game goes,
     * unless it is still connected (kept) */
    int64_t keep[] = { alice, live };
    assert_int_equal(store_guests_purge(s, T0 + 200000, keep, 2, &err), 0);
    assert_int_equal(store_player_by_id(s, live, &p, &err), 0);
    assert_int_equal(store_guests_purge(s, T0 + 200000, NULL, 0, &err), 1);
    assert_int_equal(store_player_by_id(s, live, &p, &err), STORE_NOT_FOUND);
    assert_int_equal(store_guests_purge(s, T0 + 300000, NULL, 0, &err), 0);
    /* a purged guest's id is never given again: a connection still
     * holding it must not become someone else */
    int64_t next = add_player(s, "guest-eeeeee", 0, 1);
    assert_true(next > bare && next > live);
    store_close(s);
}

/* --- games and moves ---------------------------------------------------- */

static void test_game_add_get(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    store_game g = game_of(a, b, 1);
    g.status = 7;  /* ignored */
    g.nmoves = 9;
    assert_int_equal(store_game_add(s, &g, &err), 0);
    store_game r;
    assert_int_equal(store_game_get(s, g.id, &r, &err), 0);
    assert_int_equal(r.id, g.id);
    assert_string_equal(r.variant, "classic");
    assert_string_equal(r.start, g.start);
    assert_int_equal(r.base_ms, 300000);
    assert_int_equal(r.inc_ms, 2000);
    assert_int_equal(r.move_limit, 60);
    assert_int_equal(r.rated, 1);
    assert_int_equal(r.nsides, 2);
    assert_int_equal(r.players[0], a);
    assert_int_equal(r.players[1], b);
    assert_int_equal(r.players[2], 0);
    assert_int_equal(r.created, T0);
    assert_int_equal(r.started, 0);
    assert_int_equal(r.status, STORE_GAME_LIVE);
    assert_int_equal(r.winner, -1);
    assert_string_equal(r.reason, "");
    assert_int_equal(r.nmoves, 0);
    assert_int_equal(store_game_get(s, g.id + 100, &r, &err), STORE_NOT_FOUND);

    /* Four sides, one player on two of them. */
    store_game four = game_of(a, b, 0);
    four.nsides = 4;
    four.players[2] = a;
    four.players[3] = b;
    assert_int_equal(store_game_add(s, &four, &err), 0);
    assert_int_equal(store_game_get(s, four.id, &r, &err), 0);
    assert_int_equal(r.nsides, 4);
    assert_int_equal(r.players[2], a);
    assert_int_equal(r.players[3], b);
    store_close(s);
}

static void test_game_add_refused(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0);
    store_game g = game_of(a, 9999, 1);  /* no player 9999 */
    assert_int_equal(store_game_add(s, &g, &err), -1);
    assert_non_null(strstr(err.msg, "9999"));
    g = game_of(a, a, 0);
    g.nsides = 5;
    assert_int_equal(store_game_add(s, &g, &err), -1);
    g.nsides = 0;
    assert_int_equal(store_game_add(s, &g, &err), -1);
    g = game_of(a, a, 0);
    memset(g.variant, 'v', sizeof g.variant);  /* not terminated */
    assert_int_equal(store_game_add(s, &g, &err), -1);
    g.variant[0] = '\0';
    assert_int_equal(store_game_add(s, &g, &err), -1);
    g = game_of(a, a, 0);
    memset(g.start, 's', sizeof g.start);  /* not terminated */
    assert_int_equal(store_game_add(s, &g, &err), -1);
    int64_t live[4];
    assert_int_equal(store_live_games(s, live, 4, &err), 0);
    /* Nothing was left behind: the next game is the only one (on SQLite
     * the first id, too; PostgreSQL's ids, from a sequence, may skip). */
    int64_t id = add_game(s, a, a, 0);
    if (!pg_under_test())
        assert_int_equal(id, 1);
    assert_int_equal(store_live_games(s, live, 4, &err), 1);
    assert_int_equal(live[0], id);
    store_close(s);
}

static void test_moves(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    int64_t game = add_game(s, a, b, 1);
    add_move(s, game, 0, 0);
    store_game g;
    assert_int_equal(store_game_get(s, game, &g, &err), 0);
    assert_int_equal(g.started, 0);
    add_move(s, game, 1, T0 + 5);  /* the clocks start with the second move */
    for (int ply = 2; ply < 10; ply++)
        add_move(s, game, ply, 0);
    assert_int_equal(store_game_get(s, game, &g, &err), 0);
    assert_int_equal(g.started, T0 + 5);
    assert_int_equal(g.nmoves, 10);

    store_move out[16];
    assert_int_equal(store_moves(s, game, out, 16, &err), 10);
    for (int ply = 0; ply < 10; ply++) {
        store_move m = move_of(ply);
        assert_int_equal(out[ply].ply, ply);
        assert_string_equal(out[ply].text, m.text);
        assert_int_equal(out[ply].clock_ms, m.clock_ms);
        assert_int_equal(out[ply].time, m.time);
    }
    assert_int_equal(store_moves(s, game, out, 3, &err), 3);
    assert_int_equal(out[2].ply, 2);
    assert_int_equal(store_moves(s, game + 50, out, 16, &err), 0);
    store_close(s);
}

static void test_move_refused(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    int64_t game = add_game(s, a, b, 1);
    add_move(s, game, 0, 0);
    add_move(s, game, 1, 0);

    store_move m = move_of(1);  /* already there */
    assert_int_equal(store_move_add(s, game, &m, T0 + 77, &err), -1);
    assert_non_null(strstr(err.msg, "2 moves"));
    m = move_of(3);  /* a gap */
    assert_int_equal(store_move_add(s, game, &m, T0 + 77, &err), -1);
    m = move_of(0);
    assert_int_equal(store_move_add(s, game, &m, T0 + 77, &err), -1);
    m = move_of(2);
    m.ply = -1;
    assert_int_equal(store_move_add(s, game, &m, T0 + 77, &err), -1);
    m = move_of(2);
    m.text[0] = '\0';
    assert_int_equal(store_move_add(s, game, &m, T0 + 77, &err), -1);
    m = move_of(2);
    memset(m.text, 'x', sizeof m.text);  /* not terminated */
    assert_int_equal(store_move_add(s, game, &m, T0 + 77, &err), -1);
    m = move_of(0);
    assert_int_equal(store_move_add(s, game + 1, &m, T0 + 77, &err), -1);
    assert_non_null(strstr(err.msg, "no game"));

    /* Nothing changed: not the moves, nor `started`. */
    store_game g;
    assert_int_equal(store_game_get(s, game, &g, &err), 0);
    assert_int_equal(g.nmoves, 2);
    assert_int_equal(g.started, 0);
    store_move out[8];
    assert_int_equal(store_moves(s, game, out, 8, &err), 2);
    assert_string_equal(out[1].text, move_of(1).text);

    /* A game that is over takes no more moves. */
    assert_int_equal(store_game_end(s, game, STORE_GAME_OVER, 0, "resign", 0, T0 + 9, NULL, 0,
                                    &err),
                     0);
    m = move_of(2);
    assert_int_equal(store_move_add(s, game, &m, 0, &err), -1);
    assert_non_null(strstr(err.msg, "over"));
    assert_int_equal(store_moves(s, game, out, 8, &err), 2);
    store_close(s);
}

static void test_live_and_player_games(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    int64_t c = add_player(s, "Carol", 0, 0);
    int64_t g1 = add_game(s, a, b, 0), g2 = add_game(s, b, c, 0);
    int64_t g3 = add_game(s, c, a, 0), g4 = add_game(s, a, a, 0);
    assert_int_equal(store_game_end(s, g2, STORE_GAME_ABORTED, -1, "aborted", 0, T0, NULL, 0,
                                    &err),
                     0);
    int64_t live[8];
    assert_int_equal(store_live_games(s, live, 8, &err), 3);
    assert_int_equal(live[0], g1);
    assert_int_equal(live[1], g3);
    assert_int_equal(live[2], g4);
    assert_int_equal(store_live_games(s, live, 2, &err), 2);
    assert_int_equal(live[1], g3);

    store_game out[8];
    /* Alice: g4 (on both sides, listed once), g3, g1, newest first. */
    assert_int_equal(store_player_games(s, a, 0, out, 8, &err), 3);
    assert_int_equal(out[0].id, g4);
    assert_int_equal(out[1].id, g3);
    assert_int_equal(out[2].id, g1);
    assert_int_equal(out[1].players[0], c);
    assert_int_equal(out[1].players[1], a);
    assert_int_equal(store_player_games(s, a, 1, out, 1, &err), 1);
    assert_int_equal(out[0].id, g3);
    assert_int_equal(store_player_games(s, a, 3, out, 8, &err), 0);
    assert_int_equal(store_player_games(s, b, 0, out, 8, &err), 2);
    assert_int_equal(out[0].id, g2);
    assert_int_equal(out[0].status, STORE_GAME_ABORTED);
    assert_string_equal(out[0].reason, "aborted");
    assert_int_equal(store_player_games(s, a, -1, out, 8, &err), -1);
    store_close(s);
}

/* --- the Bot API's tokens and bot accounts (store_tokens.c) ------------ */

static void test_tokens(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t alice = add_player(s, "Alice", 0, 0), bob = add_player(s, "Bob", 0, 0);
    char hash[65];
    memset(hash, 'a', 64);
    hash[64] = 0;
    int64_t id = 0, id2 = 0;
    assert_int_equal(store_token_add(s, alice, hash, "bot:play", "my bot", T0, &id, &err), 0);
    store_token t;
    assert_int_equal(store_token_by_hash(s, hash, &t, &err), 0);
    assert_int_equal(t.id, id);
    assert_int_equal(t.player, alice);
    assert_string_equal(t.scopes, "bot:play");
    assert_string_equal(t.description, "my bot");
    assert_int_equal(t.created, T0);
    assert_int_equal(t.used, 0);
    /* a hash is one token's: the same hash again is refused */
    assert_int_equal(store_token_add(s, bob, hash, "bot:play", "", T0, &id2, &err), -1);
    assert_int_equal(store_token_add(s, alice, "short", "bot:play", "", T0, &id2, &err), -1);

    /* use is noted at most once a minute */
    assert_int_equal(store_token_used(s, id, T0 + 120000, &err), 0);
    assert_int_equal(store_token_used(s, id, T0 + 150000, &err), 0);
    assert_int_equal(store_token_by_hash(s, hash, &t, &err), 0);
    assert_int_equal(t.used, T0 + 120000);

    /* STORE_TOKENS_PER_PLAYER at most, and only the owner revokes */
    for (int i = 1; i < STORE_TOKENS_PER_PLAYER; i++) {
        hash[0] = (char)('b' + i % 5);
        hash[1] = (char)('a' + i / 5);
        assert_int_equal(store_token_add(s, alice, hash, "board:play", "", T0, &id2, &err), 0);
    }
    hash[0] = 'z';
    assert_int_equal(store_token_add(s, alice, hash, "bot:play", "", T0, &id2, &err),
                     STORE_TAKEN);
    store_token list[STORE_TOKENS_PER_PLAYER + 1];
    assert_int_equal(store_tokens(s, alice, list, STORE_TOKENS_PER_PLAYER + 1, &err),
                     STORE_TOKENS_PER_PLAYER);
    assert_int_equal(list[0].id, id);
    assert_int_equal(store_tokens(s, bob, list, 4, &err), 0);
    assert_int_equal(store_token_del(s, bob, id, &err), STORE_NOT_FOUND);
    assert_int_equal(store_token_del(s, alice, id, &err), 0);
    memset(hash, 'a', 64);
    assert_int_equal(store_token_by_hash(s, hash, &t, &err), STORE_NOT_FOUND);
    assert_int_equal(store_token_del(s, alice, id, &err), STORE_NOT_FOUND);
    store_close(s);
}

static void test_api_bot(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t alice = add_player(s, "Alice", 0, 0), bob = add_player(s, "Bob", 0, 0);
    int64_t bot = add_player(s, "Bot-1", 1, 0), guest = add_player(s, "guest-1", 0, 1);
    store_player p;
    assert_int_equal(store_player_by_id(s, alice, &p, &err), 0);
    assert_int_equal(p.is_api_bot, 0);
    assert_int_equal(store_player_api_bot(s, alice, &err), 0);
    assert_int_equal(store_player_by_name(s, "alice", &p, NULL, &err), 0);
    assert_int_equal(p.is_api_bot, 1);
    assert_int_equal(store_player_api_bot(s, alice, &err), 0);  /* once is enough */
    /* an account that has played a game, a server bot or a guest never becomes one */
    add_game(s, bob, bot, 0);
    assert_int_equal(store_player_api_bot(s, bob, &err), STORE_NOT_FOUND);
    assert_int_equal(store_player_api_bot(s, bot, &err), STORE_NOT_FOUND);
    assert_int_equal(store_player_api_bot(s, guest, &err), STORE_NOT_FOUND);
    assert_int_equal(store_player_by_id(s, bob, &p, &err), 0);
    assert_int_equal(p.is_api_bot, 0);
    store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_memory),
        cmocka_unit_test(test_open_bad_path),
        cmocka_unit_test(test_reopen_keeps_data),
        cmocka_unit_test(test_newer_schema_refused),
        cmocka_unit_test(test_old_schema_migrates),
        cmocka_unit_test(test_players),
        cmocka_unit_test(test_player_names),
        cmocka_unit_test(test_bots),
        cmocka_unit_test(test_sessions),
        cmocka_unit_test(test_game_add_get),
        cmocka_unit_test(test_game_add_refused),
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_move_refused),
        cmocka_unit_test(test_live_and_player_games),
        cmocka_unit_test(test_guests_purge),
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_api_bot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
