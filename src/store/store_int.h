/* store_int.h -- what the files of the store share: the store's insides,
 * its statements by number, and the helpers every function uses
 * (store_sqlite.c tells the design, db.h the seam to the database under
 * it). Nothing outside src/store includes it.
 */
#ifndef CITADEL_STORE_INT_H
#define CITADEL_STORE_INT_H

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "store.h"

struct sqlite3;

/* The longest text a char array field of a struct holds. */
#define FIELD_MAX(type, field) (sizeof ((type *)0)->field - 1)

#define KV_VALUE_MAX 4096   /* bytes of one kv value */
#define WAL_RESTART_FRAMES 20000  /* about 80 MB of WAL */
#define VARIANT_MAX FIELD_MAX(store_rating, variant)

/* --- statements --------------------------------------------------------- */

enum {
    ST_BEGIN, ST_COMMIT, ST_ROLLBACK, ST_SAVEPOINT, ST_RELEASE, ST_ROLLBACK_TO,
    ST_PLAYER_ADD, ST_PLAYER_BY_NAME, ST_PLAYER_BY_ID, ST_BOTS,
    ST_SESSION_PURGE, ST_SESSION_ADD, ST_SESSION_PLAYER, ST_SESSION_DEL,
    ST_PASSWORD_SET, ST_SESSIONS_DEL_OTHERS,
    ST_RATING_GET, ST_RATINGS, ST_HISTORY, ST_LADDER,
    ST_GAME_ADD, ST_SIDE_ADD, ST_GAME_GET, ST_SIDES,
    ST_GAME_ADVANCE, ST_GAME_STATE, ST_MOVE_ADD, ST_MOVES,
    ST_GAME_END, ST_RATING_SET, ST_HISTORY_ADD,
    ST_LIVE, ST_PLAYER_GAMES,
    ST_KV_PUT, ST_KV_GET, ST_KV_DEL, ST_KV_LIST, ST_PLAYER_LOCK, ST_GAME_SET_START,
    ST_MOVE_ONE,
    ST_GUESTS_PURGE_KV, ST_GUESTS_PURGE,
    ST_REVIEW_PUT, ST_REVIEW_GET, ST_REVIEWS_WAITING, ST_REVIEWS_ASKED,
    ST_TOKEN_ADD, ST_TOKEN_BY_HASH, ST_TOKENS, ST_TOKEN_DEL, ST_TOKEN_USED, ST_TOKEN_COUNT,
    ST_PLAYER_API_BOT,
    ST_GAME_IMPORT,
    ST_COUNT
};

/* The statements of community.h: the message board's (store_forum.c) and
 * the rest (store_community.c), each file keeping the text of its own. */
enum {
    FS_THREAD_ADD, FS_POST_ADD, FS_THREAD_FIRST, FS_INDEX_ADD, FS_INDEX_DEL,
    FS_THREAD_BUMP, FS_POST_EDIT, FS_THREAD_FIRST_OF, FS_THREAD_RETITLE,
    FS_POST_UNCOUNT, FS_POST_DELETE, FS_THREAD_DELETE_IF_FIRST,
    FS_POST_RECOUNT, FS_POST_HIDE, FS_THREAD_HIDE, FS_THREAD_LOCK,
    FS_THREAD_GET, FS_POST_GET, FS_THREADS_ALL, FS_THREADS_CAT,
    FS_THREADS_ALL_COUNT, FS_THREADS_CAT_COUNT, FS_POSTS, FS_POSTS_COUNT,
    FS_POST_INDEX, FS_CATEGORY, FS_SEARCH, FS_SEARCH_COUNT,
    FS_COUNT
};

enum {
    CS_STANDING_GET, CS_ROLE_SET, CS_ROLE_COUNT, CS_MUTE_SET, CS_CLOSE, CS_CLOSE_SESSIONS,
    CS_NOTE_ADD, CS_NOTES, CS_NOTES_UNREAD, CS_NOTES_READ,
    CS_TICKET_ADD, CS_TICKET_MSG_ADD, CS_TICKET_GET, CS_TICKET_TOUCH, CS_TICKET_STATUS,
    CS_TICKET_MESSAGES,
    /* by player and status, by player, by status, all: in this order */
    CS_TICKETS_PS, CS_TICKETS_P, CS_TICKETS_S, CS_TICKETS_A,
    CS_TICKETS_COUNT_PS, CS_TICKETS_COUNT_P, CS_TICKETS_COUNT_S, CS_TICKETS_COUNT_A,
    CS_MAIL_ADD, CS_MAIL_DUE, CS_MAIL_GET, CS_MAIL_SENT, CS_MAIL_FAILED, CS_MAIL_WAITING,
    CS_CHAT_ADD, CS_CHAT_LINES, CS_CHAT_GET, CS_CHAT_HIDE,
    CS_REPORT_ADD, CS_REPORT_GET, CS_REPORTS_OLDEST, CS_REPORTS_NEWEST, CS_REPORTS_ANY,
    CS_REPORTS_COUNT, CS_REPORTS_COUNT_ANY, CS_REPORT_RESOLVE,
    CS_AUDIT_ADD, CS_AUDIT, CS_AUDIT_COUNT,
    CS_COUNT
};

/* store_servers.c's */
enum {
    SV_JOIN, SV_JOIN_LOCK, SV_BEAT, SV_LEAVE, SV_ALIVE, SV_BURY, SV_ADOPT, SV_ADOPT_LOCK, SV_HOLD,
    SV_OWNER, SV_PLAYER_LIVE, SV_BUS_SENDERS,
    SV_COUNT
};

struct store {
    db *db;
    struct sqlite3 *lite;  /* SQLite's own handle (db's), or NULL on PostgreSQL */
    int version;
    dbq *st[ST_COUNT];
    dbq *fst[FS_COUNT];   /* store_forum.c */
    dbq *cst[CS_COUNT];   /* store_community.c */
    dbq *sst[SV_COUNT];   /* store_servers.c */
    int64_t server;       /* the server whose games these are (store_set_server) */
    int evicted;          /* its row was gone: its games are another's now */
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
    /* Group commit (store_batch_begin): a transaction is open, and each
     * write's own transaction is a savepoint inside it. */
    int batch;
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

/* A failure of the database itself: what we were doing, and its reason. */
static inline int db_fail(store *s, store_err *err, const char *what)
{
    return fail(err, "%s: %s", what, db_errmsg(s->db));
}

/* Statement `id`, reset and without bindings, ready to bind and step. */
static inline dbq *use(store *s, int id)
{
    return q_fresh(s->st[id]);
}

/* Copies column i into dst (room for size bytes), cut to fit. Input checks
 * keep stored text within the fields, so the cut happens only to a
 * database edited by hand. */
static inline void column_text(dbq *st, int i, char *dst, size_t size)
{
    size_t len;
    const char *text = q_col_text(st, i, &len);
    if (len >= size)
        len = size - 1;
    if (text && len)
        memcpy(dst, text, len);
    dst[len] = '\0';
}

/* Is text (NULL counts as "") at most max bytes long? */
static inline int fits(const char *text, size_t max)
{
    return text == NULL || strnlen(text, max + 1) <= max;
}

/* Runs a statement that returns no rows (BEGIN, COMMIT, INSERT, ...). */
static inline int step_done(store *s, dbq *st, store_err *err, const char *what)
{
    int rc = q_step(st);
    q_done(st);
    return rc == DB_DONE ? 0 : db_fail(s, err, what);
}

/* A write's transaction: its own, or in a batch a savepoint of the
 * batch's (store_batch_begin). */
static inline int begin(store *s, store_err *err, const char *what)
{
    return step_done(s, use(s, s->batch ? ST_SAVEPOINT : ST_BEGIN), err, what);
}

/* Undoes the open transaction (in a batch: the write's savepoint, and the
 * batch stands). Keeps the error already in err. */
static inline int rollback(store *s)
{
    if (db_txn(s->db) == DB_TXN_NONE)
        return -1;
    if (s->batch) {
        step_done(s, use(s, ST_ROLLBACK_TO), NULL, "");
        step_done(s, use(s, ST_RELEASE), NULL, "");
    } else {
        step_done(s, use(s, ST_ROLLBACK), NULL, "");
    }
    return -1;
}

static inline int commit(store *s, store_err *err, const char *what)
{
    if (step_done(s, use(s, s->batch ? ST_RELEASE : ST_COMMIT), err, what) != 0)
        return rollback(s);
    return 0;
}

/* A statement's text in both dialects: pg is NULL where SQLite's serves. */
typedef struct {
    const char *lite, *pg;
} dialects;

/* Prepares the n statements of texts (PostgreSQL's own text where pg has
 * one) into out, once, at store_open (store_close finalizes them). A
 * statement with no text for the backend is left NULL: one that only the
 * other backend has. */
static inline int prepare_each(store *s, const char *const *texts, const char *const *pg,
                               dbq **out, int n, const char *what, store_err *err)
{
    for (int i = 0; i < n; i++) {
        const char *text = s->db->kind == DB_POSTGRES && pg && pg[i] ? pg[i] : texts[i];
        if (!text) {
            out[i] = NULL;
            continue;
        }
        if (!(out[i] = db_prepare(s->db, text)))
            return fail(err, "cannot prepare %s statement %d: %s", what, i, db_errmsg(s->db));
    }
    return 0;
}

/* Binds a player's id, or NULL for none (0): columns that name a player
 * may be empty. */
static inline void bind_player(dbq *st, int i, int64_t player)
{
    if (player > 0)
        q_int64(st, i, player);
    else
        q_null(st, i);
}

/* Runs an UPDATE of one row by its id: STORE_NOT_FOUND if there is none. */
static inline int update_one(store *s, dbq *st, store_err *err, const char *what)
{
    if (step_done(s, st, err, what) != 0)
        return -1;
    if (db_changes(s->db) == 0) {
        fail(err, "%s: no such row", what);
        return STORE_NOT_FOUND;
    }
    return 0;
}

/* Runs a statement that returns one number (a count), into *out. */
static inline int count_of(store *s, dbq *st, int *out, store_err *err,
                           const char *what)
{
    int rc = q_step(st);
    if (rc == DB_ROW)
        *out = q_col_int(st, 0);
    q_done(st);
    return rc == DB_ROW ? 0 : db_fail(s, err, what);
}

/* A page of a list: offset and room may not be negative. */
static inline int page_ok(int offset, int max, store_err *err)
{
    if (offset >= 0 && max >= 0)
        return 1;
    fail(err, "negative offset (%d) or room (%d)", offset, max);
    return 0;
}

/* The backends' halves of store_open and store_close (store_sqlite.c,
 * store_pg.c): open sets s->db (and s->lite for SQLite), migrates the
 * schema, and returns 0 or -1; store_open prepares the statements and then
 * calls store_sqlite_started; store_close calls store_sqlite_stop first. */
int store_sqlite_open(store *s, const char *path, int sync_full, store_err *err);
void store_sqlite_started(store *s, const char *path, int sync_full);
void store_sqlite_stop(store *s);
void store_sqlite_checkpointer_stop(store *s);  /* the thread only */
int store_pg_open(store *s, const char *uri, int sync_full, store_err *err);

/* store_open prepares the statements of community.h with these. */
int store_forum_prepare(store *s, store_err *err);
int store_community_prepare(store *s, store_err *err);
int store_servers_prepare(store *s, store_err *err);
/* store_batch_begin's fence: 0 if s's server still holds its row (or has
 * none), else -1 with s->evicted set. */
int store_server_hold(store *s, store_err *err);

/* Every function that writes calls this first: it counts the write, and in
 * builds with fault injection (store_faults.c) may make it fail. */
void store_write_begin(store *s, const char *what);
/* Fault injection (CITADEL_FAULTS builds): the name of the VFS to open the
 * database with, or NULL for SQLite's own; store_faults_end stops any
 * fault still active (the store is closing). */
const char *store_faults_vfs(void);
void store_faults_end(void);

#endif
