/* store_sqlite.c -- the store on SQLite: opening a file, the schema, and
 * the checkpointer (the queries are store.c's and the others', through
 * db.h and db_sqlite.c).
 *
 * One connection per store, in WAL mode, used by one thread. Every
 * statement the store runs is prepared once in store_open and kept in
 * s->st[] (community.h's in s->fst[] and s->cst[], their files' own); a
 * function takes its statements with use() or q_fresh(), which reset them,
 * and resets them again before returning, so no statement holds a read
 * transaction between calls (that would stop WAL checkpoints).
 *
 * The schema is built by the migrations in migrations[], numbered from 1;
 * PRAGMA user_version is the number of the last one applied, and each is
 * applied in its own transaction together with the bump of user_version.
 *
 * Tables (schema 1):
 *   players        id, name (unique, NOCASE), pass_hash, is_bot, is_guest,
 *                  bot_spec, created
 *   sessions       token -> player, created, expires
 *   games          id, variant, start, clock, move_limit, rated, nsides,
 *                  created, started, status, winner, reason, sterile,
 *                  ended, nmoves (the count of its rows in moves)
 *   game_players   (game, side) -> player
 *   moves          (game, ply) -> text, clock_ms, time
 *   ratings        (player, variant) -> rating, games
 *   rating_history one row per player per rated game: before, after, time
 *   kv             (player, key) -> value
 * Schema 2 adds an index of the guests, for purging those nobody can use;
 * schema 3 makes players' ids AUTOINCREMENT, so a purged id is never given
 * again; schema 4 adds players' role, mute and closed flag, and the tables
 * of community.h: forum_threads, forum_posts and their search index
 * forum_search, notifications, tickets, ticket_messages, mail_queue,
 * chat_lines, reports and audit_log (store_forum.c, store_community.c);
 * schema 5 the servers of a cluster, 6 the computer reviews, 7 the Bot
 * API's tokens and players' api_bot flag, 8 games' imported flag.
 *
 * The invariant: the schema is at user_version's migration, each applied
 * whole or not at all; store_pg.c builds the same tables under the same
 * numbers in PostgreSQL's dialect.
 */
#include <assert.h>
#include <stdlib.h>
#include <time.h>

#include <sqlite3.h>

#include "store_int.h"

#define BUSY_MS 250            /* longest a write waits for a lock */
#define BUSY_COOLDOWN_MS 1000  /* after a wait that failed, writes do not wait */

/* --- schema ------------------------------------------------------------- */

static const char *const migrations[] = {
    /* 1: the first schema. */
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
    "  PRIMARY KEY (player, key)) WITHOUT ROWID;",

    /* 2: guests are purged once they have no session and no game. */
    "CREATE INDEX players_guests ON players(id) WHERE is_guest = 1;",

    /* 3: a purged player's id is never given again (AUTOINCREMENT): a
     * connection still holding a purged guest's id must not become the
     * next player. SQLite's way of changing a table: a new one, the rows
     * copied, the old one dropped, the new one renamed (foreign keys are
     * off while migrations run, and checked after). */
    "CREATE TABLE players_v3 ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  name TEXT NOT NULL COLLATE NOCASE UNIQUE"
    "    CHECK (length(CAST(name AS BLOB)) BETWEEN 1 AND 32),"
    "  pass_hash TEXT NOT NULL DEFAULT '',"
    "  is_bot INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),"
    "  is_guest INTEGER NOT NULL DEFAULT 0 CHECK (is_guest IN (0, 1)),"
    "  bot_spec TEXT NOT NULL DEFAULT '',"
    "  created INTEGER NOT NULL);"
    "INSERT INTO players_v3 (id, name, pass_hash, is_bot, is_guest, bot_spec, created)"
    "  SELECT id, name, pass_hash, is_bot, is_guest, bot_spec, created FROM players;"
    "DROP TABLE players;"
    "ALTER TABLE players_v3 RENAME TO players;"
    "CREATE INDEX players_bots ON players(id) WHERE is_bot = 1;"
    "CREATE INDEX players_guests ON players(id) WHERE is_guest = 1;",

    /* 4: the community (community.h, store_forum.c, store_community.c).
     * A column naming a player is NULL for none, and becomes NULL when a
     * guest is purged (each has an index, so the purge finds its rows);
     * a guest's notifications go with the guest. The search index holds
     * one row per post, its body and, for a thread's opening post, the
     * thread's title, read through the view forum_text. */
    "ALTER TABLE players ADD COLUMN role INTEGER NOT NULL DEFAULT 0 CHECK (role IN (0, 1, 2));"
    "ALTER TABLE players ADD COLUMN muted_until INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE players ADD COLUMN closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1));"
    "CREATE INDEX players_staff ON players(role) WHERE role > 0;"

    "CREATE TABLE forum_threads ("
    "  id INTEGER PRIMARY KEY,"
    "  category TEXT NOT NULL CHECK (length(CAST(category AS BLOB)) BETWEEN 1 AND 15),"
    "  title TEXT NOT NULL,"
    "  author INTEGER REFERENCES players(id) ON DELETE SET NULL,"
    "  created INTEGER NOT NULL,"
    "  last_post INTEGER NOT NULL,"
    "  posts INTEGER NOT NULL DEFAULT 0,"
    "  locked INTEGER NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),"
    "  hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),"
    "  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),"
    "  first_post INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX forum_threads_category ON forum_threads(category, last_post, id)"
    "  WHERE hidden = 0 AND deleted = 0;"
    "CREATE INDEX forum_threads_recent ON forum_threads(last_post, id)"
    "  WHERE hidden = 0 AND deleted = 0;"
    "CREATE INDEX forum_threads_author ON forum_threads(author);"

    "CREATE TABLE forum_posts ("
    "  id INTEGER PRIMARY KEY,"
    "  thread INTEGER NOT NULL REFERENCES forum_threads(id),"
    "  author INTEGER REFERENCES players(id) ON DELETE SET NULL,"
    "  created INTEGER NOT NULL,"
    "  edited INTEGER NOT NULL DEFAULT 0,"
    "  hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),"
    "  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),"
    "  body TEXT NOT NULL);"
    "CREATE INDEX forum_posts_thread ON forum_posts(thread, id) WHERE hidden = 0 AND deleted = 0;"
    "CREATE INDEX forum_posts_author ON forum_posts(author);"

    "CREATE VIEW forum_text AS SELECT p.id AS id,"
    "  CASE WHEN t.first_post = p.id THEN t.title ELSE '' END AS title, p.body AS body"
    "  FROM forum_posts p JOIN forum_threads t ON t.id = p.thread;"
    "CREATE VIRTUAL TABLE forum_search USING fts5(title, body,"
    "  content = 'forum_text', content_rowid = 'id');"

    "CREATE TABLE notifications ("
    "  id INTEGER PRIMARY KEY,"
    "  player INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,"
    "  kind TEXT NOT NULL,"
    "  sender INTEGER REFERENCES players(id) ON DELETE SET NULL,"
    "  thread INTEGER NOT NULL DEFAULT 0,"
    "  post INTEGER NOT NULL DEFAULT 0,"
    "  ticket INTEGER NOT NULL DEFAULT 0,"
    "  title TEXT NOT NULL DEFAULT '',"
    "  created INTEGER NOT NULL,"
    "  is_read INTEGER NOT NULL DEFAULT 0 CHECK (is_read IN (0, 1)));"
    "CREATE INDEX notifications_player ON notifications(player, id);"
    "CREATE INDEX notifications_unread ON notifications(player, id) WHERE is_read = 0;"
    "CREATE INDEX notifications_sender ON notifications(sender);"

    "CREATE TABLE tickets ("
    "  id INTEGER PRIMARY KEY,"
    "  player INTEGER REFERENCES players(id) ON DELETE SET NULL,"
    "  email TEXT NOT NULL DEFAULT '',"
    "  kind TEXT NOT NULL,"
    "  subject TEXT NOT NULL,"
    "  created INTEGER NOT NULL,"
    "  updated INTEGER NOT NULL,"
    "  status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1)),"
    "  messages INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX tickets_player ON tickets(player, updated, id);"
    "CREATE INDEX tickets_status ON tickets(status, updated, id);"
    "CREATE INDEX tickets_updated ON tickets(updated, id);"

    "CREATE TABLE ticket_messages ("
    "  id INTEGER PRIMARY KEY,"
    "  ticket INTEGER NOT NULL REFERENCES tickets(id),"
    "  author INTEGER REFERENCES players(id) ON DELETE SET NULL,"
    "  staff INTEGER NOT NULL DEFAULT 0 CHECK (staff IN (0, 1)),"
    "  created INTEGER NOT NULL,"
    "  body TEXT NOT NULL);"
    "CREATE INDEX ticket_messages_ticket ON ticket_messages(ticket, id);"
    "CREATE INDEX ticket_messages_author ON ticket_messages(author);"

    "CREATE TABLE mail_queue ("
    "  id INTEGER PRIMARY KEY,"
    "  to_addr TEXT NOT NULL,"
    "  reply_to TEXT NOT NULL DEFAULT '',"
    "  subject TEXT NOT NULL,"
    "  body TEXT NOT NULL,"
    "  created INTEGER NOT NULL,"
    "  attempts INTEGER NOT NULL DEFAULT 0,"
    "  next_try INTEGER NOT NULL,"
    "  sent INTEGER NOT NULL DEFAULT 0,"
    "  error TEXT NOT NULL DEFAULT '');"
    "CREATE INDEX mail_queue_due ON mail_queue(sent, next_try);"

    "CREATE TABLE chat_lines ("
    "  id INTEGER PRIMARY KEY,"
    "  game INTEGER NOT NULL REFERENCES games(id),"
    "  room INTEGER NOT NULL CHECK (room IN (0, 1)),"
    "  author INTEGER REFERENCES players(id) ON DELETE SET NULL,"
    "  time INTEGER NOT NULL,"
    "  hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),"
    "  text TEXT NOT NULL);"
    "CREATE INDEX chat_lines_room ON chat_lines(game, room, id);"
    "CREATE INDEX chat_lines_author ON chat_lines(author);"

    "CREATE TABLE reports ("
    "  id INTEGER PRIMARY KEY,"
    "  reporter INTEGER REFERENCES players(id) ON DELETE SET NULL,"
    "  kind TEXT NOT NULL,"
    "  target INTEGER NOT NULL,"
    "  reason TEXT NOT NULL DEFAULT '',"
    "  created INTEGER NOT NULL,"
    "  status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1)),"
    "  resolved_by INTEGER REFERENCES players(id) ON DELETE SET NULL,"
    "  resolved_at INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX reports_status ON reports(status, id);"
    "CREATE INDEX reports_reporter ON reports(reporter);"
    "CREATE INDEX reports_resolver ON reports(resolved_by);"

    "CREATE TABLE audit_log ("
    "  id INTEGER PRIMARY KEY,"
    "  actor INTEGER REFERENCES players(id) ON DELETE SET NULL,"
    "  action TEXT NOT NULL,"
    "  target_kind TEXT NOT NULL,"
    "  target INTEGER NOT NULL,"
    "  detail TEXT NOT NULL DEFAULT '',"
    "  created INTEGER NOT NULL);"
    "CREATE INDEX audit_log_actor ON audit_log(actor);",

    /* 5: several servers on one database (store_servers.c): each server's
     * row, its lease renewed by beats; each live game's owner (0: none) */
    "CREATE TABLE servers ("
    "  id INTEGER PRIMARY KEY,"
    "  label TEXT NOT NULL DEFAULT '',"
    "  started INTEGER NOT NULL,"
    "  beat INTEGER NOT NULL);"
    "ALTER TABLE games ADD COLUMN owner INTEGER NOT NULL DEFAULT 0;"
    "CREATE INDEX games_owner ON games(owner) WHERE status = 0;",

    /* 6: the server's computer reviews of finished games (store.h,
     * store_review_put): asked for, then the score of every position */
    "CREATE TABLE reviews ("
    "  game INTEGER PRIMARY KEY REFERENCES games(id),"
    "  requester INTEGER REFERENCES players(id) ON DELETE SET NULL,"
    "  requested INTEGER NOT NULL,"
    "  status INTEGER NOT NULL CHECK (status IN (0, 1, 2)),"
    "  depth INTEGER NOT NULL,"
    "  scores TEXT NOT NULL DEFAULT '');"
    "CREATE INDEX reviews_waiting ON reviews(requested) WHERE status = 0;"
    "CREATE INDEX reviews_requester ON reviews(requester, requested);",

    /* 7: the Bot API (store_tokens.c): personal API tokens, kept as their
     * SHA-256, and accounts that play only through the API */
    "CREATE TABLE api_tokens ("
    "  id INTEGER PRIMARY KEY,"
    "  player INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,"
    "  hash TEXT NOT NULL UNIQUE,"
    "  scopes TEXT NOT NULL,"
    "  description TEXT NOT NULL DEFAULT '',"
    "  created INTEGER NOT NULL,"
    "  used INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX api_tokens_player ON api_tokens(player, id);"
    "ALTER TABLE players ADD COLUMN api_bot INTEGER NOT NULL DEFAULT 0 "
    "  CHECK (api_bot IN (0, 1));",

    /* 8: games imported from PGN records (store_game_import): over from
     * the start, never rated, their importer in every seat */
    "ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0 "
    "  CHECK (imported IN (0, 1));",
};

#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

/* --- open and close ----------------------------------------------------- */

static int exec(sqlite3 *conn, const char *text, store_err *err, const char *what)
{
    char *msg = NULL;
    if (sqlite3_exec(conn, text, NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    fail(err, "%s: %s", what, msg ? msg : sqlite3_errmsg(conn));
    sqlite3_free(msg);
    return -1;
}

/* One text value from a PRAGMA, into out. */
static int pragma_text(sqlite3 *conn, const char *text, char *out, size_t size, store_err *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(conn, text, -1, &st, NULL) != SQLITE_OK)
        return fail(err, "%s: %s", text, sqlite3_errmsg(conn));
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        snprintf(out, size, "%s", (const char *)sqlite3_column_text(st, 0));
    else
        fail(err, "%s: %s", text, sqlite3_errmsg(conn));
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

static int migrate(store *s, store_err *err)
{
    char buf[32];
    if (pragma_text(s->lite, "PRAGMA user_version", buf, sizeof buf, err) != 0)
        return -1;
    int version = atoi(buf);
    if (version < 0 || version > SCHEMA_VERSION)
        return fail(err, "the database is at schema %d, newer than this program's %d",
                    version, SCHEMA_VERSION);
    for (; version < SCHEMA_VERSION; version++) {
        char bump[48];
        snprintf(bump, sizeof bump, "PRAGMA user_version = %d", version + 1);
        snprintf(buf, sizeof buf, "migration %d", version + 1);
        if (exec(s->lite, "BEGIN IMMEDIATE", err, buf) != 0)
            return -1;
        if (exec(s->lite, migrations[version], err, buf) != 0 ||
            exec(s->lite, bump, err, buf) != 0 || exec(s->lite, "COMMIT", err, buf) != 0) {
            sqlite3_exec(s->lite, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
    /* the migrations ran without foreign keys; none may be left dangling */
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->lite, "PRAGMA foreign_key_check", -1, &st, NULL) != SQLITE_OK)
        return fail(err, "foreign key check: %s", sqlite3_errmsg(s->lite));
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return fail(err, "the database has rows whose foreign keys lead nowhere");
    s->version = version;
    return 0;
}

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* SQLite's busy handler: called when a lock is held by someone else (the
 * checkpointer, or another process). The store's thread is the server's
 * event loop, so a wait stops every game: wait at most BUSY_MS, and while
 * the lock stays taken (the last wait, under BUSY_COOLDOWN_MS ago, gave
 * up) do not wait at all: each write fails at once, and says so. */
static int busy_wait(void *arg, int count)
{
    store *s = arg;
    int64_t now = mono_ms();
    if (count == 0) {
        s->busy_since = now;
        if (s->busy_failed && now - s->busy_failed < BUSY_COOLDOWN_MS)
            return 0;
    }
    if (now - s->busy_since >= BUSY_MS) {
        s->busy_failed = now;
        return 0;
    }
    struct timespec nap = {0, (count < 10 ? 1 : 5) * 1000000L};
    nanosleep(&nap, NULL);
    return 1;
}

static int configure(store *s, int sync_full, store_err *err)
{
    char mode[16];
    if (sqlite3_busy_handler(s->lite, busy_wait, s) != SQLITE_OK)
        return db_fail(s, err, "busy handler");
    if (pragma_text(s->lite, "PRAGMA journal_mode = WAL", mode, sizeof mode, err) != 0)
        return -1;
    if (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0)
        return fail(err, "cannot switch the database to WAL (journal mode is %s)", mode);
    /* foreign keys come on after the migrations (store_open) */
    if (exec(s->lite, sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL",
             err, "synchronous") != 0)
        return -1;
    return 0;
}

static void *checkpointer(void *arg)
{
    store *s = arg;
    sqlite3 *conn = NULL;
    if (sqlite3_open_v2(s->path, &conn, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) ==
        SQLITE_OK) {
        sqlite3_busy_timeout(conn, 5000);  /* its own thread: waiting stops nobody */
        sqlite3_exec(conn, s->sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL",
                     NULL, NULL, NULL);
    }
    pthread_mutex_lock(&s->ckpt_lock);
    while (!s->ckpt_stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&s->ckpt_wake, &s->ckpt_lock, &until);
        if (s->ckpt_stop)
            break;
        pthread_mutex_unlock(&s->ckpt_lock);
        /* PASSIVE: copies what it can without blocking the writer */
        if (conn) {
            int log = 0, done = 0;
            sqlite3_wal_checkpoint_v2(conn, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
            /* Under steady writing a passive checkpoint never catches the
             * writer, and the WAL only restarts once one does: past
             * WAL_RESTART_FRAMES, a restarting checkpoint holds the writer
             * back for the moment it takes to finish. */
            if (log > WAL_RESTART_FRAMES)
                sqlite3_wal_checkpoint_v2(conn, NULL, SQLITE_CHECKPOINT_RESTART, NULL, NULL);
        }
        pthread_mutex_lock(&s->ckpt_lock);
    }
    pthread_mutex_unlock(&s->ckpt_lock);
    sqlite3_close(conn);
    return NULL;
}

static void checkpointer_start(store *s, const char *path, int sync_full)
{
    if (strcmp(path, ":memory:") == 0 || !(s->path = strdup(path)))
        return;
    s->sync_full = sync_full;
    pthread_mutex_init(&s->ckpt_lock, NULL);
    pthread_cond_init(&s->ckpt_wake, NULL);
    if (pthread_create(&s->ckpt, NULL, checkpointer, s) == 0) {
        s->ckpt_running = 1;
        /* the writer leaves checkpoints to the checkpointer */
        sqlite3_exec(s->lite, "PRAGMA wal_autocheckpoint = 0", NULL, NULL, NULL);
    }
}

int store_sqlite_open(store *s, const char *path, int sync_full, store_err *err)
{
    sqlite3 *conn = NULL;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &conn, flags, store_faults_vfs()) != SQLITE_OK) {
        fail(err, "cannot open %s: %s", path, conn ? sqlite3_errmsg(conn) : "out of memory");
        sqlite3_close(conn);
        return -1;
    }
    if (!(s->db = db_sqlite(conn))) {
        sqlite3_close(conn);
        return fail(err, "out of memory");
    }
    s->lite = conn;
    sqlite3_extended_result_codes(conn, 1);
    if (configure(s, sync_full, err) != 0 || migrate(s, err) != 0 ||
        exec(conn, "PRAGMA foreign_keys = ON", err, "foreign keys") != 0)
        return -1;
    return 0;
}

void store_sqlite_started(store *s, const char *path, int sync_full)
{
    checkpointer_start(s, path, sync_full);
}

void store_sqlite_checkpointer_stop(store *s)
{
    if (!s->ckpt_running)
        return;
    pthread_mutex_lock(&s->ckpt_lock);
    s->ckpt_stop = 1;
    pthread_cond_signal(&s->ckpt_wake);
    pthread_mutex_unlock(&s->ckpt_lock);
    pthread_join(s->ckpt, NULL);
    pthread_mutex_destroy(&s->ckpt_lock);
    pthread_cond_destroy(&s->ckpt_wake);
    s->ckpt_running = 0;
}

void store_sqlite_stop(store *s)
{
    if (!s->ckpt_running)
        return;
    store_sqlite_checkpointer_stop(s);
    store_faults_end();
    /* the last of the WAL, now that nothing else writes */
    sqlite3_wal_checkpoint_v2(s->lite, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
}
