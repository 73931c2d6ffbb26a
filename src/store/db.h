/* db.h -- the store's one seam to its database: a connection, statements
 * prepared once and run many times, and the rows they return, on SQLite
 * (db_sqlite.c) or PostgreSQL (db_pg.c). The store's queries (store_*.c)
 * are written against this and nothing else, so both backends run the same
 * code; only the opening, the schema and a few statements' texts differ
 * (store_sqlite.c, store_pg.c).
 *
 * Statement texts are written with numbered parameters, ?1 ?2 ...: SQLite
 * reads them as they are, and db_pg.c turns them into $1 $2 ....
 *
 * The invariant: a statement holds no result and no lock between the
 * store's calls. A caller takes it with q_fresh (reset, no bindings), binds,
 * steps, reads, and ends with q_done; text bound with q_text stays the
 * caller's and must live until q_done.
 */
#ifndef CITADEL_DB_H
#define CITADEL_DB_H

#include <stddef.h>
#include <stdint.h>

typedef struct db db;
typedef struct dbq dbq;

/* What q_step returns. */
enum {
    DB_ERROR = -1,  /* the statement failed: db_errmsg says why */
    DB_DONE = 0,    /* no (more) rows */
    DB_ROW = 1,     /* a row to read with q_col_* */
    DB_UNIQUE = 2,  /* a unique or primary key would have been broken */
    DB_FOREIGN = 3, /* a foreign key would lead nowhere */
};

typedef enum { DB_SQLITE, DB_POSTGRES } db_kind;

/* What each backend provides (db_sqlite.c, db_pg.c). */
typedef struct db_ops {
    dbq *(*prepare)(db *d, const char *text);
    void (*finalize)(dbq *q);
    void (*reset)(dbq *q);  /* drops the result and the bindings */
    void (*bind_int64)(dbq *q, int i, int64_t v);
    void (*bind_double)(dbq *q, int i, double v);
    void (*bind_text)(dbq *q, int i, const char *text);  /* NULL binds NULL */
    int (*step)(dbq *q);
    int (*col_null)(dbq *q, int i);
    int64_t (*col_int64)(dbq *q, int i);
    double (*col_double)(dbq *q, int i);
    const char *(*col_text)(dbq *q, int i, size_t *len);
    long (*changes)(db *d);
    int (*txn)(db *d);
    int (*exec)(db *d, const char *script);
    const char *(*errmsg)(db *d);
    int (*lost)(db *d);
    void (*close)(db *d);
} db_ops;

/* The head of each backend's connection and statement. */
struct db {
    const db_ops *ops;
    db_kind kind;
};
struct dbq {
    db *d;
};

/* The connections, opened by store_sqlite.c and store_pg.c; each takes the
 * handle it is given (a sqlite3 *, a PGconn *) and closes it in db_close. */
struct sqlite3;
struct pg_conn;
db *db_sqlite(struct sqlite3 *conn);
db *db_pg(struct pg_conn *conn);

/* A statement of text, prepared once; NULL when it cannot be (db_errmsg). */
static inline dbq *db_prepare(db *d, const char *text) { return d->ops->prepare(d, text); }
static inline void q_finalize(dbq *q) { if (q) q->d->ops->finalize(q); }

/* q, reset and without bindings, ready to bind and step. */
static inline dbq *q_fresh(dbq *q) { q->d->ops->reset(q); return q; }
/* The end of a use: the result is dropped (the bindings stay until the next q_fresh). */
static inline void q_done(dbq *q) { q->d->ops->reset(q); }

static inline void q_int64(dbq *q, int i, int64_t v) { q->d->ops->bind_int64(q, i, v); }
static inline void q_int(dbq *q, int i, int v) { q->d->ops->bind_int64(q, i, v); }
static inline void q_double(dbq *q, int i, double v) { q->d->ops->bind_double(q, i, v); }
static inline void q_text(dbq *q, int i, const char *text) { q->d->ops->bind_text(q, i, text); }
static inline void q_null(dbq *q, int i) { q->d->ops->bind_text(q, i, NULL); }

/* Runs the statement (the first call) or moves to its next row. */
static inline int q_step(dbq *q) { return q->d->ops->step(q); }

/* Column i of the current row: NULL reads as 0 or "" (q_col_text's len 0). */
static inline int q_col_null(dbq *q, int i) { return q->d->ops->col_null(q, i); }
static inline int64_t q_col_int64(dbq *q, int i) { return q->d->ops->col_int64(q, i); }
static inline int q_col_int(dbq *q, int i) { return (int)q->d->ops->col_int64(q, i); }
static inline double q_col_double(dbq *q, int i) { return q->d->ops->col_double(q, i); }
static inline const char *q_col_text(dbq *q, int i, size_t *len)
{
    return q->d->ops->col_text(q, i, len);
}

/* Rows the last statement that wrote changed. */
static inline long db_changes(db *d) { return d->ops->changes(d); }
/* The transaction: DB_TXN_NONE, DB_TXN_OPEN, or DB_TXN_FAILED (open, but
 * only a rollback may follow: PostgreSQL's state after an error). */
enum { DB_TXN_NONE, DB_TXN_OPEN, DB_TXN_FAILED };
static inline int db_txn(db *d) { return d->ops->txn(d); }
/* Runs statements that need no parameters (a migration); 0 or -1. */
static inline int db_exec(db *d, const char *script) { return d->ops->exec(d, script); }
static inline const char *db_errmsg(db *d) { return d->ops->errmsg(d); }
/* Is the connection gone (PostgreSQL: the database server went away)? */
static inline int db_lost(db *d) { return d->ops->lost(d); }
static inline void db_close(db *d) { if (d) d->ops->close(d); }

#endif
