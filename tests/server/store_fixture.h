/* store_fixture.h -- what the store's tests share: a new, empty store of
 * the backend under test (SQLite in memory, or the PostgreSQL database
 * CITADEL_TEST_PG names, emptied first: tests/pg.sh makes one), players,
 * games and moves made in one call (failing the test if the store
 * refuses), and a temporary folder for a SQLite database file.
 *
 * The invariant: every helper either succeeds or fails the test; none
 * leaves a half-made row behind for the test to trip on.
 */
#ifndef CITADEL_STORE_FIXTURE_H
#define CITADEL_STORE_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "../../src/store/store.h"

#define T0 1700000000000LL  /* a time in ms */

/* The PostgreSQL database under test, or NULL when the backend is SQLite. */
static inline const char *pg_under_test(void)
{
    const char *uri = getenv("CITADEL_TEST_PG");
    return uri && uri[0] ? uri : NULL;
}

/* A test of SQLite's own (its files, its pragmas) skips itself when the
 * backend under test is PostgreSQL. */
#define SQLITE_ONLY()            \
    do {                         \
        if (pg_under_test())     \
            skip();              \
    } while (0)

/* Empties the PostgreSQL database uri: its tables, and all in them. */
static inline void pg_empty(const char *uri)
{
    PGconn *conn = PQconnectdb(uri);
    if (PQstatus(conn) != CONNECTION_OK)
        fail_msg("PostgreSQL %s: %s", uri, PQerrorMessage(conn));
    PGresult *res = PQexec(conn, "SET client_min_messages = warning;"
                                 "DROP SCHEMA public CASCADE; CREATE SCHEMA public");
    if (PQresultStatus(res) != PGRES_COMMAND_OK)
        fail_msg("emptying %s: %s", uri, PQerrorMessage(conn));
    PQclear(res);
    PQfinish(conn);
}

/* A new, empty store of the backend under test. */
static inline store *open_memory(void)
{
    store_err err = { "" };
    const char *pg = pg_under_test();
    if (pg)
        pg_empty(pg);
    store *s = store_open(pg ? pg : ":memory:", 0, &err);
    if (!s)
        fail_msg("store_open: %s", err.msg);
    return s;
}

static inline int64_t add_player(store *s, const char *name, int is_bot, int is_guest)
{
    store_err err = { "" };
    int64_t id = 0;
    if (store_player_add(s, name, is_bot || is_guest ? "" : "$argon2id$v=19$hash", is_bot,
                         is_guest, is_bot ? "level=3" : "", T0, &id, &err) != 0)
        fail_msg("store_player_add %s: %s", name, err.msg);
    assert_true(id > 0);
    return id;
}

static inline store_game game_of(int64_t a, int64_t b, int rated)
{
    store_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.variant, sizeof g.variant, "classic");
    snprintf(g.start, sizeof g.start, "4k/5/5/5/5/5/5/5/K4 b 1");
    g.base_ms = 300000;
    g.inc_ms = 2000;
    g.move_limit = 60;
    g.rated = rated;
    g.nsides = 2;
    g.players[0] = a;
    g.players[1] = b;
    g.created = T0;
    return g;
}

static inline int64_t add_game(store *s, int64_t a, int64_t b, int rated)
{
    store_err err = { "" };
    store_game g = game_of(a, b, rated);
    if (store_game_add(s, &g, &err) != 0)
        fail_msg("store_game_add: %s", err.msg);
    assert_true(g.id > 0);
    return g.id;
}

static inline store_move move_of(int ply)
{
    store_move m;
    memset(&m, 0, sizeof m);
    m.ply = ply;
    snprintf(m.text, sizeof m.text, "a%dc%d", ply % 9 + 1, (ply + 3) % 9 + 1);
    m.clock_ms = 300000 - ply * 100;
    m.time = T0 + ply * 1000;
    return m;
}

static inline void add_move(store *s, int64_t game, int ply, int64_t started)
{
    store_err err = { "" };
    store_move m = move_of(ply);
    if (store_move_add(s, game, &m, started, &err) != 0)
        fail_msg("store_move_add ply %d: %s", ply, err.msg);
}

/* A temporary folder for a database file, removed with its files. */
typedef struct tmpdb {
    char dir[64];
    char path[96];
} tmpdb;

static inline void tmpdb_make(tmpdb *t)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/test_store.XXXXXX");
    assert_non_null(mkdtemp(t->dir));
    snprintf(t->path, sizeof t->path, "%s/citadel.db", t->dir);
}

/* What to open for a database that several stores share: t's file, or on
 * PostgreSQL the database under test, emptied. */
static inline const char *tmpdb_name(tmpdb *t)
{
    const char *pg = pg_under_test();
    if (pg)
        pg_empty(pg);
    return pg ? pg : t->path;
}

static inline void tmpdb_remove(tmpdb *t)
{
    static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
    char file[128];
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        snprintf(file, sizeof file, "%s%s", t->path, suffixes[i]);
        unlink(file);
    }
    rmdir(t->dir);
}

#endif
