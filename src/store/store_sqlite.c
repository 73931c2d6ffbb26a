/* store_sqlite.c -- store.h on SQLite.
 *
 * One connection per store, in WAL mode, used by one thread. Every
 * statement the store runs is prepared once in store_open and kept in
 * s->st[] (community.h's in s->fst[] and s->cst[], their files' own); a
 * function takes its statements with use() or fresh(), which reset them,
 * and resets them again before returning, so no statement holds a read
 * transaction between calls (that would stop WAL checkpoints).
 *
 * A function that writes one row runs one statement in autocommit mode; a
 * function that writes several opens BEGIN IMMEDIATE and either commits
 * all of it or rolls all of it back. Either way the change is committed
 * when the function returns 0.
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
 * chat_lines, reports and audit_log (store_forum.c, store_community.c).
 *
 * The invariant: games.nmoves equals the number of rows in moves for that
 * game, which are plies 0 .. nmoves-1; store_move_add keeps it with one
 * guarded UPDATE (status live and nmoves == ply) in the same transaction
 * as the INSERT.
 */
#include <assert.h>
#include <stdlib.h>
#include <time.h>

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
};

#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

#define PLAYER_COLS "id, name, is_bot, is_guest, bot_spec, created"
#define GAME_COLS                                                                  \
    "id, variant, start, base_ms, inc_ms, move_limit, rated, nsides, created, "    \
    "started, status, winner, reason, sterile, ended, nmoves"

static const char *const sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_SAVEPOINT] = "SAVEPOINT w",
    [ST_RELEASE] = "RELEASE w",
    [ST_ROLLBACK_TO] = "ROLLBACK TO w",

    [ST_PLAYER_ADD] = "INSERT INTO players (name, pass_hash, is_bot, is_guest, bot_spec, "
                      "created) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    [ST_PLAYER_BY_NAME] = "SELECT " PLAYER_COLS ", pass_hash FROM players WHERE name = ?1",
    [ST_PLAYER_BY_ID] = "SELECT " PLAYER_COLS " FROM players WHERE id = ?1",
    [ST_BOTS] = "SELECT " PLAYER_COLS " FROM players WHERE is_bot = 1 ORDER BY id LIMIT ?1",

    [ST_SESSION_PURGE] = "DELETE FROM sessions WHERE expires <= ?1",
    [ST_SESSION_ADD] = "INSERT INTO sessions (token, player, created, expires) "
                       "VALUES (?1, ?2, ?3, ?4)",
    [ST_SESSION_PLAYER] = "SELECT player FROM sessions WHERE token = ?1 AND expires > ?2",
    [ST_SESSION_DEL] = "DELETE FROM sessions WHERE token = ?1",

    [ST_RATING_GET] = "SELECT rating, games FROM ratings WHERE player = ?1 AND variant = ?2",
    [ST_RATINGS] = "SELECT variant, rating, games FROM ratings WHERE player = ?1 "
                   "ORDER BY variant LIMIT ?2",
    [ST_HISTORY] = "SELECT game, time, before, after FROM rating_history "
                   "WHERE player = ?1 AND variant = ?2 "
                   "ORDER BY time DESC, game DESC LIMIT ?3",
    [ST_LADDER] = "SELECT r.player, p.name, p.is_bot, r.rating, r.games "
                  "FROM ratings r JOIN players p ON p.id = r.player "
                  "WHERE r.variant = ?1 AND r.games > 0 AND p.is_guest = 0 "
                  "ORDER BY r.rating DESC, r.games DESC, r.player LIMIT ?2",

    [ST_GAME_ADD] = "INSERT INTO games (variant, start, base_ms, inc_ms, move_limit, rated, "
                    "nsides, created, started) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    [ST_SIDE_ADD] = "INSERT INTO game_players (game, side, player) VALUES (?1, ?2, ?3)",
    [ST_GAME_GET] = "SELECT " GAME_COLS " FROM games WHERE id = ?1",
    [ST_SIDES] = "SELECT side, player FROM game_players WHERE game = ?1 ORDER BY side",

    [ST_GAME_ADVANCE] = "UPDATE games SET nmoves = nmoves + 1, "
                        "started = CASE WHEN ?3 != 0 THEN ?3 ELSE started END "
                        "WHERE id = ?1 AND status = 0 AND nmoves = ?2",
    [ST_GAME_STATE] = "SELECT status, nmoves, variant, rated FROM games WHERE id = ?1",
    [ST_MOVE_ADD] = "INSERT INTO moves (game, ply, text, clock_ms, time) "
                    "VALUES (?1, ?2, ?3, ?4, ?5)",
    [ST_MOVES] = "SELECT ply, text, clock_ms, time FROM moves WHERE game = ?1 "
                 "ORDER BY ply LIMIT ?2",

    [ST_GAME_END] = "UPDATE games SET status = ?2, winner = ?3, reason = ?4, sterile = ?5, "
                    "ended = ?6 WHERE id = ?1 AND status = 0",
    [ST_RATING_SET] = "INSERT INTO ratings (player, variant, rating, games) "
                      "SELECT id, ?2, ?3, 1 FROM players WHERE id = ?1 AND is_guest = 0 "
                      "ON CONFLICT (player, variant) "
                      "DO UPDATE SET rating = excluded.rating, games = games + 1",
    [ST_HISTORY_ADD] = "INSERT INTO rating_history (player, variant, game, time, before, "
                       "after) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",

    [ST_LIVE] = "SELECT id FROM games WHERE status = 0 ORDER BY id LIMIT ?1",
    [ST_PLAYER_GAMES] = "SELECT " GAME_COLS " FROM games WHERE id IN "
                        "(SELECT game FROM game_players WHERE player = ?1) "
                        "ORDER BY id DESC LIMIT ?2 OFFSET ?3",

    [ST_KV_PUT] = "INSERT INTO kv (player, key, value) VALUES (?1, ?2, ?3) "
                  "ON CONFLICT (player, key) DO UPDATE SET value = excluded.value",
    [ST_KV_GET] = "SELECT value FROM kv WHERE player = ?1 AND key = ?2",
    [ST_KV_DEL] = "DELETE FROM kv WHERE player = ?1 AND key = ?2",
    /* keys from ?2 up to (not including) ?3: a prefix and its successor */
    [ST_KV_LIST] = "SELECT key, value FROM kv WHERE player = ?1 AND key >= ?2 AND key < ?3 "
                   "ORDER BY key LIMIT ?4",
    [ST_GAME_SET_START] = "UPDATE games SET start = ?2, started = ?3 "
                          "WHERE id = ?1 AND status = 0 AND nmoves = 0",
/* a guest nobody can use: no session left (expired ones are gone first) and
 * no game that names it */
#define USELESS_GUEST                                                                 \
    "is_guest = 1 AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.player = players.id) " \
    "AND NOT EXISTS (SELECT 1 FROM game_players g WHERE g.player = players.id) "        \
    "AND id NOT IN (SELECT value FROM json_each(?1))"
    [ST_GUESTS_PURGE_KV] = "DELETE FROM kv WHERE player IN "
                           "(SELECT id FROM players WHERE " USELESS_GUEST ")",
    [ST_GUESTS_PURGE] = "DELETE FROM players WHERE " USELESS_GUEST,
};

/* --- open and close ----------------------------------------------------- */

static int exec(sqlite3 *db, const char *text, store_err *err, const char *what)
{
    char *msg = NULL;
    if (sqlite3_exec(db, text, NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    fail(err, "%s: %s", what, msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
}

/* One text value from a PRAGMA, into out. */
static int pragma_text(sqlite3 *db, const char *text, char *out, size_t size, store_err *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, text, -1, &st, NULL) != SQLITE_OK)
        return fail(err, "%s: %s", text, sqlite3_errmsg(db));
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        column_text(st, 0, out, size);
    else
        fail(err, "%s: %s", text, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

static int migrate(store *s, store_err *err)
{
    char buf[32];
    if (pragma_text(s->db, "PRAGMA user_version", buf, sizeof buf, err) != 0)
        return -1;
    int version = atoi(buf);
    if (version < 0 || version > SCHEMA_VERSION)
        return fail(err, "the database is at schema %d, newer than this program's %d",
                    version, SCHEMA_VERSION);
    for (; version < SCHEMA_VERSION; version++) {
        char bump[48];
        snprintf(bump, sizeof bump, "PRAGMA user_version = %d", version + 1);
        snprintf(buf, sizeof buf, "migration %d", version + 1);
        if (exec(s->db, "BEGIN IMMEDIATE", err, buf) != 0)
            return -1;
        if (exec(s->db, migrations[version], err, buf) != 0 ||
            exec(s->db, bump, err, buf) != 0 || exec(s->db, "COMMIT", err, buf) != 0) {
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
    /* the migrations ran without foreign keys; none may be left dangling */
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "PRAGMA foreign_key_check", -1, &st, NULL) != SQLITE_OK)
        return fail(err, "foreign key check: %s", sqlite3_errmsg(s->db));
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
    if (sqlite3_busy_handler(s->db, busy_wait, s) != SQLITE_OK)
        return db_fail(s, err, "busy handler");
    if (pragma_text(s->db, "PRAGMA journal_mode = WAL", mode, sizeof mode, err) != 0)
        return -1;
    if (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0)
        return fail(err, "cannot switch the database to WAL (journal mode is %s)", mode);
    /* foreign keys come on after the migrations (store_open) */
    if (exec(s->db, sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL",
             err, "synchronous") != 0)
        return -1;
    return 0;
}

static void *checkpointer(void *arg)
{
    store *s = arg;
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(s->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) ==
        SQLITE_OK) {
        sqlite3_busy_timeout(db, 5000);  /* its own thread: waiting stops nobody */
        sqlite3_exec(db, s->sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL",
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
        if (db) {
            int log = 0, done = 0;
            sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
            /* Under steady writing a passive checkpoint never catches the
             * writer, and the WAL only restarts once one does: past
             * WAL_RESTART_FRAMES, a restarting checkpoint holds the writer
             * back for the moment it takes to finish. */
            if (log > WAL_RESTART_FRAMES)
                sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_RESTART, NULL, NULL);
        }
        pthread_mutex_lock(&s->ckpt_lock);
    }
    pthread_mutex_unlock(&s->ckpt_lock);
    sqlite3_close(db);
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
        sqlite3_exec(s->db, "PRAGMA wal_autocheckpoint = 0", NULL, NULL, NULL);
    }
}

store *store_open(const char *path, int sync_full, store_err *err)
{
    assert(path);
    store *s = calloc(1, sizeof *s);
    if (!s) {
        fail(err, "out of memory");
        return NULL;
    }
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &s->db, flags, store_faults_vfs()) != SQLITE_OK) {
        fail(err, "cannot open %s: %s", path,
             s->db ? sqlite3_errmsg(s->db) : "out of memory");
        store_close(s);
        return NULL;
    }
    sqlite3_extended_result_codes(s->db, 1);
    if (configure(s, sync_full, err) != 0 || migrate(s, err) != 0 ||
        exec(s->db, "PRAGMA foreign_keys = ON", err, "foreign keys") != 0) {
        store_close(s);
        return NULL;
    }
    for (int i = 0; i < ST_COUNT; i++) {
        if (sqlite3_prepare_v3(s->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
                               NULL) != SQLITE_OK) {
            fail(err, "cannot prepare statement %d: %s", i, sqlite3_errmsg(s->db));
            store_close(s);
            return NULL;
        }
    }
    if (store_forum_prepare(s, err) != 0 || store_community_prepare(s, err) != 0) {
        store_close(s);
        return NULL;
    }
    checkpointer_start(s, path, sync_full);
    return s;
}

void store_close(store *s)
{
    if (!s)
        return;
    if (s->ckpt_running) {
        pthread_mutex_lock(&s->ckpt_lock);
        s->ckpt_stop = 1;
        pthread_cond_signal(&s->ckpt_wake);
        pthread_mutex_unlock(&s->ckpt_lock);
        pthread_join(s->ckpt, NULL);
        pthread_mutex_destroy(&s->ckpt_lock);
        pthread_cond_destroy(&s->ckpt_wake);
        store_faults_end();
        /* the last of the WAL, now that nothing else writes */
        sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    }
    free(s->path);
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->st[i]);
    for (int i = 0; i < FS_COUNT; i++)
        sqlite3_finalize(s->fst[i]);
    for (int i = 0; i < CS_COUNT; i++)
        sqlite3_finalize(s->cst[i]);
    sqlite3_close(s->db);
    free(s);
}

int store_schema_version(store *s)
{
    return s->version;
}

/* --- group commit ------------------------------------------------------- */

int store_batch_begin(store *s, store_err *err)
{
    assert(s && !s->batch);
    store_write_begin(s, "begin batch");
    if (step_done(s, use(s, ST_BEGIN), err, "begin batch") != 0)
        return -1;
    s->batch = 1;
    return 0;
}

int store_batch_intact(store *s)
{
    return s->batch && !sqlite3_get_autocommit(s->db);
}

int store_batch_commit(store *s, store_err *err)
{
    assert(s && s->batch);
    s->batch = 0;
    if (sqlite3_get_autocommit(s->db))
        return fail(err, "commit batch: the transaction was lost to an earlier error");
    return commit(s, err, "commit batch");
}

void store_batch_abandon(store *s)
{
    assert(s && s->batch);
    s->batch = 0;
    rollback(s);
}

/* --- players ------------------------------------------------------------ */

static void read_player(sqlite3_stmt *st, store_player *p)
{
    memset(p, 0, sizeof *p);
    p->id = sqlite3_column_int64(st, 0);
    column_text(st, 1, p->name, sizeof p->name);
    p->is_bot = sqlite3_column_int(st, 2);
    p->is_guest = sqlite3_column_int(st, 3);
    column_text(st, 4, p->bot_spec, sizeof p->bot_spec);
    p->created = sqlite3_column_int64(st, 5);
}

int store_player_add(store *s, const char *name, const char *pass_hash, int is_bot,
                     int is_guest, const char *bot_spec, int64_t now, int64_t *id,
                     store_err *err)
{
    assert(s && name && id);
    if (!name[0] || !fits(name, STORE_NAME_MAX))
        return fail(err, "a player name has 1 to %d bytes", STORE_NAME_MAX);
    if (!fits(pass_hash, STORE_TEXT_MAX - 1))
        return fail(err, "password hash longer than %d bytes", STORE_TEXT_MAX - 1);
    if (!fits(bot_spec, FIELD_MAX(store_player, bot_spec)))
        return fail(err, "bot spec longer than %zu bytes", FIELD_MAX(store_player, bot_spec));
    store_write_begin(s, "add player");
    sqlite3_stmt *st = use(s, ST_PLAYER_ADD);
    bind_text(st, 1, name);
    bind_text(st, 2, pass_hash ? pass_hash : "");
    sqlite3_bind_int(st, 3, is_bot != 0);
    sqlite3_bind_int(st, 4, is_guest != 0);
    bind_text(st, 5, bot_spec ? bot_spec : "");
    sqlite3_bind_int64(st, 6, now);
    int rc = sqlite3_step(st);
    done(st);
    if (rc == SQLITE_CONSTRAINT_UNIQUE) {
        fail(err, "the name %s is taken", name);
        return STORE_TAKEN;
    }
    if (rc != SQLITE_DONE)
        return db_fail(s, err, "add player");
    *id = sqlite3_last_insert_rowid(s->db);
    return 0;
}

int store_player_by_name(store *s, const char *name, store_player *p, char *pass_hash,
                         store_err *err)
{
    assert(s && name && p);
    if (!fits(name, STORE_NAME_MAX)) {
        fail(err, "no player by that name");
        return STORE_NOT_FOUND;
    }
    sqlite3_stmt *st = use(s, ST_PLAYER_BY_NAME);
    bind_text(st, 1, name);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        read_player(st, p);
        if (pass_hash)
            column_text(st, 6, pass_hash, STORE_TEXT_MAX);
    }
    done(st);
    if (rc == SQLITE_DONE) {
        fail(err, "no player named %s", name);
        return STORE_NOT_FOUND;
    }
    return rc == SQLITE_ROW ? 0 : db_fail(s, err, "find player");
}

int store_player_by_id(store *s, int64_t id, store_player *p, store_err *err)
{
    assert(s && p);
    sqlite3_stmt *st = use(s, ST_PLAYER_BY_ID);
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        read_player(st, p);
    done(st);
    if (rc == SQLITE_DONE) {
        fail(err, "no player %lld", (long long)id);
        return STORE_NOT_FOUND;
    }
    return rc == SQLITE_ROW ? 0 : db_fail(s, err, "find player");
}

int store_bots(store *s, store_player *out, int max, store_err *err)
{
    assert(s && (out || max <= 0));
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    sqlite3_stmt *st = use(s, ST_BOTS);
    sqlite3_bind_int(st, 1, max);
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max)
        read_player(st, &out[n++]);
    done(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : db_fail(s, err, "list bots");
}

/* --- sessions ----------------------------------------------------------- */

int store_session_add(store *s, const char *token, int64_t player, int64_t now,
                      int64_t expires, store_err *err)
{
    assert(s && token);
    if (!token[0] || !fits(token, STORE_TEXT_MAX - 1))
        return fail(err, "a session token has 1 to %d bytes", STORE_TEXT_MAX - 1);
    store_write_begin(s, "add session");
    if (begin(s, err, "add session") != 0)
        return -1;
    /* Expired sessions go here, so the table holds only live ones. */
    sqlite3_stmt *st = use(s, ST_SESSION_PURGE);
    sqlite3_bind_int64(st, 1, now);
    if (step_done(s, st, err, "purge sessions") != 0)
        return rollback(s);
    st = use(s, ST_SESSION_ADD);
    bind_text(st, 1, token);
    sqlite3_bind_int64(st, 2, player);
    sqlite3_bind_int64(st, 3, now);
    sqlite3_bind_int64(st, 4, expires);
    int rc = sqlite3_step(st);
    done(st);
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY) {
        rollback(s);
        fail(err, "the session token is taken");
        return STORE_TAKEN;
    }
    if (rc != SQLITE_DONE) {
        db_fail(s, err, "add session");
        return rollback(s);
    }
    return commit(s, err, "add session");
}

int store_session_player(store *s, const char *token, int64_t now, int64_t *player,
                         store_err *err)
{
    assert(s && token && player);
    if (!fits(token, STORE_TEXT_MAX - 1)) {
        fail(err, "no such session");
        return STORE_NOT_FOUND;
    }
    sqlite3_stmt *st = use(s, ST_SESSION_PLAYER);
    bind_text(st, 1, token);
    sqlite3_bind_int64(st, 2, now);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *player = sqlite3_column_int64(st, 0);
    done(st);
    if (rc == SQLITE_DONE) {
        fail(err, "no such session, or it has expired");
        return STORE_NOT_FOUND;
    }
    return rc == SQLITE_ROW ? 0 : db_fail(s, err, "find session");
}

int store_session_del(store *s, const char *token, store_err *err)
{
    assert(s && token);
    store_write_begin(s, "delete session");
    sqlite3_stmt *st = use(s, ST_SESSION_DEL);
    bind_text(st, 1, token);
    return step_done(s, st, err, "delete session");
}

int store_guests_purge(store *s, int64_t now, const int64_t *keep, size_t nkeep,
                       store_err *err)
{
    assert(s && (keep || nkeep == 0));
    /* the ids to keep, as a JSON array for json_each */
    size_t cap = 3 + nkeep * 21;
    char *ids = malloc(cap), *at = ids;
    if (!ids)
        return fail(err, "purge guests: out of memory");
    *at++ = '[';
    for (size_t i = 0; i < nkeep; i++)
        at += snprintf(at, cap - (size_t)(at - ids), "%s%lld", i ? "," : "", (long long)keep[i]);
    snprintf(at, cap - (size_t)(at - ids), "]");
    store_write_begin(s, "purge guests");
    if (begin(s, err, "purge guests") != 0) {
        free(ids);
        return -1;
    }
    sqlite3_stmt *st = use(s, ST_SESSION_PURGE);
    sqlite3_bind_int64(st, 1, now);
    int bad = step_done(s, st, err, "purge guests: sessions") != 0;
    for (int k = 0; !bad && k < 2; k++) {
        st = use(s, k == 0 ? ST_GUESTS_PURGE_KV : ST_GUESTS_PURGE);
        sqlite3_bind_text(st, 1, ids, -1, SQLITE_TRANSIENT);
        bad = step_done(s, st, err, k == 0 ? "purge guests: values" : "purge guests") != 0;
    }
    free(ids);
    if (bad)
        return rollback(s);
    int n = sqlite3_changes(s->db);
    return commit(s, err, "purge guests") != 0 ? -1 : n;
}

/* --- ratings ------------------------------------------------------------ */

#define VARIANT_MAX FIELD_MAX(store_rating, variant)

int store_rating_get(store *s, int64_t player, const char *variant, store_rating *r,
                     store_err *err)
{
    assert(s && variant && r);
    if (!fits(variant, VARIANT_MAX))
        return fail(err, "variant name longer than %zu bytes", VARIANT_MAX);
    memset(r, 0, sizeof *r);
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    r->rating = 1500;
    sqlite3_stmt *st = use(s, ST_RATING_GET);
    sqlite3_bind_int64(st, 1, player);
    bind_text(st, 2, variant);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        r->rating = sqlite3_column_double(st, 0);
        r->games = sqlite3_column_int(st, 1);
    }
    done(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_fail(s, err, "read rating");
}

int store_ratings(store *s, int64_t player, store_rating *out, int max, store_err *err)
{
    assert(s && (out || max <= 0));
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    sqlite3_stmt *st = use(s, ST_RATINGS);
    sqlite3_bind_int64(st, 1, player);
    sqlite3_bind_int(st, 2, max);
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max) {
        store_rating *r = &out[n++];
        memset(r, 0, sizeof *r);
        column_text(st, 0, r->variant, sizeof r->variant);
        r->rating = sqlite3_column_double(st, 1);
        r->games = sqlite3_column_int(st, 2);
    }
    done(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : db_fail(s, err, "list ratings");
}

int store_rating_history(store *s, int64_t player, const char *variant,
                         store_rating_point *out, int max, store_err *err)
{
    assert(s && variant && (out || max <= 0));
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    if (!fits(variant, VARIANT_MAX))
        return fail(err, "variant name longer than %zu bytes", VARIANT_MAX);
    /* The latest `max`, newest first; turned round below. */
    sqlite3_stmt *st = use(s, ST_HISTORY);
    sqlite3_bind_int64(st, 1, player);
    bind_text(st, 2, variant);
    sqlite3_bind_int(st, 3, max);
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max) {
        store_rating_point *p = &out[n++];
        p->game = sqlite3_column_int64(st, 0);
        p->time = sqlite3_column_int64(st, 1);
        p->before = sqlite3_column_double(st, 2);
        p->after = sqlite3_column_double(st, 3);
    }
    done(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return db_fail(s, err, "read rating history");
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        store_rating_point t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return n;
}

int store_ladder(store *s, const char *variant, store_ladder_row *out, int max,
                 store_err *err)
{
    assert(s && variant && (out || max <= 0));
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    if (!fits(variant, VARIANT_MAX))
        return fail(err, "variant name longer than %zu bytes", VARIANT_MAX);
    sqlite3_stmt *st = use(s, ST_LADDER);
    bind_text(st, 1, variant);
    sqlite3_bind_int(st, 2, max);
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max) {
        store_ladder_row *r = &out[n++];
        memset(r, 0, sizeof *r);
        r->player = sqlite3_column_int64(st, 0);
        column_text(st, 1, r->name, sizeof r->name);
        r->is_bot = sqlite3_column_int(st, 2);
        r->rating = sqlite3_column_double(st, 3);
        r->games = sqlite3_column_int(st, 4);
    }
    done(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : db_fail(s, err, "read ladder");
}
