/* store_int.h -- what the files of the SQLite store share: the store's
 * insides, its statements by number, and the helpers every function uses
 * (store_sqlite.c tells the design). Nothing outside src/store includes it.
 */
#ifndef CITADEL_STORE_INT_H
#define CITADEL_STORE_INT_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "store.h"

/* The longest text a char array field of a struct holds. */
#define FIELD_MAX(type, field) (sizeof ((type *)0)->field - 1)

#define KV_VALUE_MAX 4096   /* bytes of one kv value */
#define WAL_RESTART_FRAMES 20000  /* about 80 MB of WAL */
#define VARIANT_MAX FIELD_MAX(store_rating, variant)

/* --- statements --------------------------------------------------------- */

enum {
    ST_BEGIN, ST_COMMIT, ST_ROLLBACK,
    ST_PLAYER_ADD, ST_PLAYER_BY_NAME, ST_PLAYER_BY_ID, ST_BOTS,
    ST_SESSION_PURGE, ST_SESSION_ADD, ST_SESSION_PLAYER, ST_SESSION_DEL,
    ST_RATING_GET, ST_RATINGS, ST_HISTORY, ST_LADDER,
    ST_GAME_ADD, ST_SIDE_ADD, ST_GAME_GET, ST_SIDES,
    ST_GAME_ADVANCE, ST_GAME_STATE, ST_MOVE_ADD, ST_MOVES,
    ST_GAME_END, ST_RATING_SET, ST_HISTORY_ADD,
    ST_LIVE, ST_PLAYER_GAMES,
    ST_KV_PUT, ST_KV_GET, ST_KV_DEL, ST_KV_LIST, ST_GAME_SET_START,
    ST_GUESTS_PURGE_KV, ST_GUESTS_PURGE,
    ST_COUNT
};

struct store {
    sqlite3 *db;
    int version;
    sqlite3_stmt *st[ST_COUNT];
    /* The checkpointer: a thread with a connection of its own that copies
     * the WAL into the database every second, so that the writer (the
     * server's event loop) never waits on the disk flushes a checkpoint
     * makes. Not started for ":memory:". */
    pthread_t ckpt;
    int ckpt_running;
    int ckpt_stop;
    int sync_full;
    pthread_mutex_t ckpt_lock;
    pthread_cond_t ckpt_wake;
    char *path;
    /* Lock waits: a write finding the database locked waits at most
     * BUSY_MS, and none at all while the last such wait, less than
     * BUSY_COOLDOWN_MS ago, failed (store_sqlite.c, busy_wait). */
    int64_t busy_since, busy_failed;
    long writes;         /* write calls so far (store_write_begin) */
};

/* --- helpers ------------------------------------------------------------ */

__attribute__((format(printf, 2, 3))) static inline int fail(store_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* A failure of SQLite itself: what we were doing, and SQLite's reason. */
static inline int db_fail(store *s, store_err *err, const char *what)
{
    return fail(err, "%s: %s", what, sqlite3_errmsg(s->db));
}

/* Statement `id`, reset and without bindings, ready to bind and step. */
static inline sqlite3_stmt *use(store *s, int id)
{
    sqlite3_stmt *st = s->st[id];
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return st;
}

static inline void done(sqlite3_stmt *st)
{
    sqlite3_reset(st);
}

/* Binds a string the caller keeps alive until the statement is done. */
static inline void bind_text(sqlite3_stmt *st, int i, const char *text)
{
    sqlite3_bind_text(st, i, text, -1, SQLITE_STATIC);
}

/* Copies column i into dst (room for size bytes), cut to fit. Input checks
 * keep stored text within the fields, so the cut happens only to a
 * database edited by hand. */
static inline void column_text(sqlite3_stmt *st, int i, char *dst, size_t size)
{
    const char *text = (const char *)sqlite3_column_text(st, i);
    size_t len = text ? (size_t)sqlite3_column_bytes(st, i) : 0;
    if (len >= size)
        len = size - 1;
    if (len)
        memcpy(dst, text, len);
    dst[len] = '\0';
}

/* Is text (NULL counts as "") at most max bytes long? */
static inline int fits(const char *text, size_t max)
{
    return text == NULL || strnlen(text, max + 1) <= max;
}

/* Runs a statement that returns no rows (BEGIN, COMMIT, INSERT, ...). */
static inline int step_done(store *s, sqlite3_stmt *st, store_err *err, const char *what)
{
    int rc = sqlite3_step(st);
    done(st);
    return rc == SQLITE_DONE ? 0 : db_fail(s, err, what);
}

static inline int begin(store *s, store_err *err, const char *what)
{
    return step_done(s, use(s, ST_BEGIN), err, what);
}

/* Undoes the open transaction. Keeps the error already in err. */
static inline int rollback(store *s)
{
    if (!sqlite3_get_autocommit(s->db))
        step_done(s, use(s, ST_ROLLBACK), NULL, "");
    return -1;
}

static inline int commit(store *s, store_err *err, const char *what)
{
    if (step_done(s, use(s, ST_COMMIT), err, what) != 0)
        return rollback(s);
    return 0;
}

/* Every function that writes calls this first: it counts the write, and in
 * builds with fault injection (store_faults.c) may make it fail. */
void store_write_begin(store *s, const char *what);
/* Fault injection (CITADEL_FAULTS builds): the name of the VFS to open the
 * database with, or NULL for SQLite's own; store_faults_end stops any
 * fault still active (the store is closing). */
const char *store_faults_vfs(void);
void store_faults_end(void);

#endif
