/* db_sqlite.c -- db.h on SQLite: each call is the SQLite call of the same
 * name, statements are prepared persistent, and text is bound without a
 * copy (the caller keeps it alive until q_done, as db.h says).
 *
 * The invariant: q_step's DB_UNIQUE is exactly SQLite's unique and primary
 * key constraint errors, DB_FOREIGN its foreign key errors; every other
 * failure is DB_ERROR.
 */
#include <sqlite3.h>
#include <stdlib.h>

#include "db.h"

typedef struct {
    db head;
    sqlite3 *conn;
} lite;

typedef struct {
    dbq head;
    sqlite3_stmt *st;
} liteq;

#define CONN(d) (((lite *)(d))->conn)
#define ST(q) (((liteq *)(q))->st)

static dbq *prepare(db *d, const char *text)
{
    liteq *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->head.d = d;
    if (sqlite3_prepare_v3(CONN(d), text, -1, SQLITE_PREPARE_PERSISTENT, &q->st, NULL) !=
        SQLITE_OK) {
        free(q);
        return NULL;
    }
    return &q->head;
}

static void finalize(dbq *q)
{
    sqlite3_finalize(ST(q));
    free(q);
}

static void reset(dbq *q)
{
    sqlite3_reset(ST(q));
    sqlite3_clear_bindings(ST(q));
}

static void bind_int64(dbq *q, int i, int64_t v) { sqlite3_bind_int64(ST(q), i, v); }
static void bind_double(dbq *q, int i, double v) { sqlite3_bind_double(ST(q), i, v); }

static void bind_text(dbq *q, int i, const char *text)
{
    if (text)
        sqlite3_bind_text(ST(q), i, text, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(ST(q), i);
}

static int step(dbq *q)
{
    int rc = sqlite3_step(ST(q));
    if (rc == SQLITE_ROW)
        return DB_ROW;
    if (rc == SQLITE_DONE)
        return DB_DONE;
    if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        return DB_UNIQUE;
    if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
        return DB_FOREIGN;
    return DB_ERROR;
}

static int col_null(dbq *q, int i) { return sqlite3_column_type(ST(q), i) == SQLITE_NULL; }
static int64_t col_int64(dbq *q, int i) { return sqlite3_column_int64(ST(q), i); }
static double col_double(dbq *q, int i) { return sqlite3_column_double(ST(q), i); }

static const char *col_text(dbq *q, int i, size_t *len)
{
    const char *text = (const char *)sqlite3_column_text(ST(q), i);
    *len = text ? (size_t)sqlite3_column_bytes(ST(q), i) : 0;
    return text;
}

static long changes(db *d) { return sqlite3_changes(CONN(d)); }
static int txn(db *d) { return sqlite3_get_autocommit(CONN(d)) ? DB_TXN_NONE : DB_TXN_OPEN; }
static const char *errmsg(db *d) { return sqlite3_errmsg(CONN(d)); }
static int lost(db *d) { (void)d; return 0; }

static int exec(db *d, const char *script)
{
    return sqlite3_exec(CONN(d), script, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static void close_db(db *d)
{
    sqlite3_close(CONN(d));
    free(d);
}

static const db_ops ops = {
    prepare, finalize, reset, bind_int64, bind_double, bind_text, step,
    col_null, col_int64, col_double, col_text, changes, txn, exec, errmsg, lost, close_db,
};

db *db_sqlite(struct sqlite3 *conn)
{
    lite *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->head.ops = &ops;
    d->head.kind = DB_SQLITE;
    d->conn = conn;
    return &d->head;
}
