/* store.c -- store.h's front: store_open picks the backend by the name it
 * is given (a postgresql:// or postgres:// URI is PostgreSQL, store_pg.c;
 * anything else a SQLite file, store_sqlite.c), prepares the statements,
 * and holds the queries of players, sessions and ratings and the batches
 * of group commit. The queries of games are in store_games.c, those of the
 * community in store_forum.c and store_community.c; all of them run
 * through db.h, so both backends run the same code.
 *
 * A function that writes one row runs one statement in autocommit mode; a
 * function that writes several opens a transaction (BEGIN IMMEDIATE on
 * SQLite) and either commits all of it or rolls all of it back. Either way
 * the change is committed when the function returns 0; in a batch
 * (store_batch_begin) each write is a savepoint of the batch's one
 * transaction instead.
 *
 * The invariant: games.nmoves equals the number of rows in moves for that
 * game, which are plies 0 .. nmoves-1; store_move_add keeps it with one
 * guarded UPDATE (status live and nmoves == ply) in the same transaction
 * as the INSERT.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_int.h"

#define PLAYER_COLS "id, name, is_bot, is_guest, bot_spec, created, api_bot"
#define GAME_COLS                                                                  \
    "id, variant, start, base_ms, inc_ms, move_limit, rated, nsides, created, "    \
    "started, status, winner, reason, sterile, ended, nmoves, imported"

static const char *const sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_SAVEPOINT] = "SAVEPOINT w",
    [ST_RELEASE] = "RELEASE w",
    [ST_ROLLBACK_TO] = "ROLLBACK TO w",

    [ST_PLAYER_ADD] = "INSERT INTO players (name, pass_hash, is_bot, is_guest, bot_spec, "
                      "created) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
    [ST_PLAYER_BY_NAME] = "SELECT " PLAYER_COLS ", pass_hash FROM players WHERE name = ?1",
    [ST_PLAYER_BY_ID] = "SELECT " PLAYER_COLS " FROM players WHERE id = ?1",
    [ST_BOTS] = "SELECT " PLAYER_COLS " FROM players WHERE is_bot = 1 ORDER BY id LIMIT ?1",

    [ST_SESSION_PURGE] = "DELETE FROM sessions WHERE expires <= ?1",
    [ST_SESSION_ADD] = "INSERT INTO sessions (token, player, created, expires) "
                       "VALUES (?1, ?2, ?3, ?4)",
    [ST_SESSION_PLAYER] = "SELECT player FROM sessions WHERE token = ?1 AND expires > ?2",
    [ST_SESSION_DEL] = "DELETE FROM sessions WHERE token = ?1",
    [ST_PASSWORD_SET] = "UPDATE players SET pass_hash = ?2 WHERE id = ?1 AND is_guest = 0",
    [ST_SESSIONS_DEL_OTHERS] = "DELETE FROM sessions WHERE player = ?1 AND token <> ?2",

    [ST_RATING_GET] = "SELECT rating, games FROM ratings WHERE player = ?1 AND variant = ?2",
    [ST_RATINGS] = "SELECT variant, rating, games FROM ratings WHERE player = ?1 "
                   "ORDER BY variant LIMIT ?2",
    [ST_HISTORY] = "SELECT game, time, before, after FROM rating_history "
                   "WHERE player = ?1 AND variant = ?2 "
                   "ORDER BY time DESC, game DESC LIMIT ?3",
    [ST_LADDER] = "SELECT r.player, p.name, "
                  "CASE WHEN p.is_bot = 1 OR p.api_bot = 1 THEN 1 ELSE 0 END, r.rating, r.games "
                  "FROM ratings r JOIN players p ON p.id = r.player "
                  "WHERE r.variant = ?1 AND r.games > 0 AND p.is_guest = 0 "
                  "ORDER BY r.rating DESC, r.games DESC, r.player LIMIT ?2",

    [ST_GAME_ADD] = "INSERT INTO games (variant, start, base_ms, inc_ms, move_limit, rated, "
                    "nsides, created, started, owner) "
                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) "
                    "RETURNING id",
    [ST_SIDE_ADD] = "INSERT INTO game_players (game, side, player) VALUES (?1, ?2, ?3)",
    [ST_GAME_IMPORT] = "INSERT INTO games (variant, start, base_ms, inc_ms, move_limit, rated, "
                       "nsides, created, started, owner, status, winner, reason, ended, "
                       "nmoves, imported) "
                       "VALUES (?1, ?2, 0, 0, ?3, 0, ?4, ?5, ?5, 0, 1, ?6, ?7, ?5, ?8, 1) "
                       "RETURNING id",
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
                      "DO UPDATE SET rating = excluded.rating, games = ratings.games + 1",
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
    [ST_PLAYER_LOCK] = "SELECT 1 FROM players WHERE id = ?1",  /* PostgreSQL's locks */
    [ST_GAME_SET_START] = "UPDATE games SET start = ?2, started = ?3 "
                          "WHERE id = ?1 AND status = 0 AND nmoves = 0",
/* a guest nobody can use: no session left (expired ones are gone first) and
 * no game that names it */
#define GUEST_UNUSED                                                                  \
    "is_guest = 1 AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.player = players.id) " \
    "AND NOT EXISTS (SELECT 1 FROM game_players g WHERE g.player = players.id) "
#define USELESS_GUEST GUEST_UNUSED "AND id NOT IN (SELECT value FROM json_each(?1))"
#define USELESS_GUEST_PG                                                               \
    GUEST_UNUSED "AND id NOT IN (SELECT value::bigint FROM json_array_elements_text(?1::json))"
    [ST_GUESTS_PURGE_KV] = "DELETE FROM kv WHERE player IN "
                           "(SELECT id FROM players WHERE " USELESS_GUEST ")",
    [ST_GUESTS_PURGE] = "DELETE FROM players WHERE " USELESS_GUEST,
    [ST_REVIEW_PUT] = "INSERT INTO reviews (game, requester, requested, status, depth, scores) "
                      "VALUES (?1, NULLIF(?2, 0), ?3, ?4, ?5, ?6) ON CONFLICT (game) DO UPDATE "
                      "SET requester = excluded.requester, requested = excluded.requested, "
                      "status = excluded.status, depth = excluded.depth, "
                      "scores = excluded.scores",
    [ST_REVIEW_GET] = "SELECT COALESCE(requester, 0), requested, status, depth, scores "
                      "FROM reviews WHERE game = ?1",
    [ST_REVIEWS_WAITING] = "SELECT game FROM reviews WHERE status = 0 "
                           "ORDER BY requested, game LIMIT ?1",
    [ST_REVIEWS_ASKED] = "SELECT COUNT(*) FROM reviews WHERE requester = ?1 AND requested >= ?2",

#define TOKEN_COLS "id, player, scopes, description, created, used"
    [ST_TOKEN_ADD] = "INSERT INTO api_tokens (player, hash, scopes, description, created) "
                     "VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
    [ST_TOKEN_BY_HASH] = "SELECT " TOKEN_COLS " FROM api_tokens WHERE hash = ?1",
    [ST_TOKENS] = "SELECT " TOKEN_COLS " FROM api_tokens WHERE player = ?1 ORDER BY id "
                  "LIMIT ?2",
    [ST_TOKEN_DEL] = "DELETE FROM api_tokens WHERE id = ?1 AND player = ?2",
    [ST_TOKEN_USED] = "UPDATE api_tokens SET used = ?2 WHERE id = ?1 AND used < ?2 - 60000",
    [ST_TOKEN_COUNT] = "SELECT COUNT(*) FROM api_tokens WHERE player = ?1",
    [ST_PLAYER_API_BOT] = "UPDATE players SET api_bot = 1 WHERE id = ?1 AND is_bot = 0 "
                          "AND is_guest = 0 AND (api_bot = 1 OR NOT EXISTS "
                          "(SELECT 1 FROM game_players g WHERE g.player = players.id))",
};

/* PostgreSQL's own texts, where SQLite's do not serve. */
static const char *const sql_pg[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN",
    /* SQLite's names compare with NOCASE; PostgreSQL's through lower() */
    [ST_PLAYER_BY_NAME] = "SELECT " PLAYER_COLS ", pass_hash FROM players "
                          "WHERE lower(name) = lower(?1)",
    /* SQLite's writers take turns (BEGIN IMMEDIATE); PostgreSQL's run at
     * once, so what a write reads to decide is locked until it commits: the
     * game's row (two ends of one game: the second finds it over), and the
     * players' rows before their ratings are read, by a statement of its
     * own so that the read that follows sees what the lock waited for (two
     * servers ending two games of one player: the second reads the first's
     * result). end_game locks the game first, then the players in the
     * order of their ids, so two ends never wait on each other in a
     * circle. */
    [ST_GAME_STATE] = "SELECT status, nmoves, variant, rated FROM games WHERE id = ?1 "
                      "FOR UPDATE",
    [ST_PLAYER_LOCK] = "SELECT 1 FROM players WHERE id = ?1 FOR UPDATE",
    /* store_move_add in one statement: one round trip to the server, and
     * atomic by itself, so a batch needs no savepoint around it (SQLite
     * has no UPDATE inside WITH, and no round trips to save) */
    [ST_MOVE_ONE] = "WITH g AS (UPDATE games SET nmoves = nmoves + 1, "
                    "started = CASE WHEN ?6 != 0 THEN ?6 ELSE started END "
                    "WHERE id = ?1 AND status = 0 AND nmoves = ?2 RETURNING id) "
                    "INSERT INTO moves (game, ply, text, clock_ms, time) "
                    "SELECT id, ?2, ?3, ?4, ?5 FROM g",
    [ST_GUESTS_PURGE_KV] = "DELETE FROM kv WHERE player IN "
                           "(SELECT id FROM players WHERE " USELESS_GUEST_PG ")",
    [ST_GUESTS_PURGE] = "DELETE FROM players WHERE " USELESS_GUEST_PG,
};

/* --- open and close ----------------------------------------------------- */

static int is_pg(const char *path)
{
    return strncmp(path, "postgresql://", 13) == 0 || strncmp(path, "postgres://", 11) == 0;
}

store *store_open(const char *path, int sync_full, store_err *err)
{
    assert(path);
    store *s = calloc(1, sizeof *s);
    if (!s) {
        fail(err, "out of memory");
        return NULL;
    }
    int rc = is_pg(path) ? store_pg_open(s, path, sync_full, err)
                         : store_sqlite_open(s, path, sync_full, err);
    if (rc != 0 || prepare_each(s, sql, sql_pg, s->st, ST_COUNT, "store", err) != 0 ||
        store_forum_prepare(s, err) != 0 || store_community_prepare(s, err) != 0 ||
        store_servers_prepare(s, err) != 0) {
        store_close(s);
        return NULL;
    }
    if (s->lite)
        store_sqlite_started(s, path, sync_full);
    return s;
}

void store_close(store *s)
{
    if (!s)
        return;
    if (s->lite)
        store_sqlite_stop(s);
    for (int i = 0; i < ST_COUNT; i++)
        q_finalize(s->st[i]);
    for (int i = 0; i < FS_COUNT; i++)
        q_finalize(s->fst[i]);
    for (int i = 0; i < CS_COUNT; i++)
        q_finalize(s->cst[i]);
    for (int i = 0; i < SV_COUNT; i++)
        q_finalize(s->sst[i]);
    db_close(s->db);
    free(s->path);
    free(s);
}

int store_schema_version(store *s)
{
    return s->version;
}

void store_leave_checkpoints(store *s)
{
    if (s->lite)
        store_sqlite_checkpointer_stop(s);
}

int store_is_pg(store *s)
{
    return s->db->kind == DB_POSTGRES;
}

int store_lost(store *s)
{
    return s->evicted || db_lost(s->db);
}

void store_path_shown(const char *path, char *out, size_t size)
{
    snprintf(out, size, "%s", path);
    char *scheme = strstr(out, "://");
    if (!is_pg(path) || !scheme)
        return;
    char *user = scheme + 3, *at = strchr(user, '@'), *colon = strchr(user, ':');
    if (at && colon && colon < at) {
        char rest[512];
        snprintf(rest, sizeof rest, "%s", at);
        snprintf(colon, size - (size_t)(colon - out), ":***%s", rest);
    }
}

/* --- group commit ------------------------------------------------------- */

int store_batch_begin(store *s, store_err *err)
{
    assert(s && !s->batch);
    store_write_begin(s, "begin batch");
    if (db_txn(s->db) != DB_TXN_NONE)  /* a failed one left behind: never build on it */
        step_done(s, use(s, ST_ROLLBACK), NULL, "");
    if (step_done(s, use(s, ST_BEGIN), err, "begin batch") != 0)
        return -1;
    if (store_server_hold(s, err) != 0) {
        step_done(s, use(s, ST_ROLLBACK), NULL, "");
        return -1;
    }
    s->batch = 1;
    return 0;
}

int store_batch_intact(store *s)
{
    return s->batch && db_txn(s->db) == DB_TXN_OPEN;
}

int store_batch_commit(store *s, store_err *err)
{
    assert(s && s->batch);
    s->batch = 0;
    if (db_txn(s->db) != DB_TXN_OPEN) {
        rollback(s);
        return fail(err, "commit batch: the transaction was lost to an earlier error");
    }
    return commit(s, err, "commit batch");
}

void store_batch_abandon(store *s)
{
    assert(s && s->batch);
    s->batch = 0;
    rollback(s);
}

/* --- players ------------------------------------------------------------ */

static void read_player(dbq *st, store_player *p)
{
    memset(p, 0, sizeof *p);
    p->id = q_col_int64(st, 0);
    column_text(st, 1, p->name, sizeof p->name);
    p->is_bot = q_col_int(st, 2);
    p->is_guest = q_col_int(st, 3);
    column_text(st, 4, p->bot_spec, sizeof p->bot_spec);
    p->created = q_col_int64(st, 5);
    p->is_api_bot = q_col_int(st, 6);
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
    /* a transaction of its own (in a batch, a savepoint): on PostgreSQL a
     * name taken would otherwise fail the whole batch */
    if (begin(s, err, "add player") != 0)
        return -1;
    dbq *st = use(s, ST_PLAYER_ADD);
    q_text(st, 1, name);
    q_text(st, 2, pass_hash ? pass_hash : "");
    q_int(st, 3, is_bot != 0);
    q_int(st, 4, is_guest != 0);
    q_text(st, 5, bot_spec ? bot_spec : "");
    q_int64(st, 6, now);
    int rc = q_step(st);
    if (rc == DB_ROW)
        *id = q_col_int64(st, 0);
    q_done(st);
    if (rc == DB_UNIQUE) {
        rollback(s);
        fail(err, "the name %s is taken", name);
        return STORE_TAKEN;
    }
    if (rc != DB_ROW) {
        db_fail(s, err, "add player");
        return rollback(s);
    }
    return commit(s, err, "add player");
}

int store_player_by_name(store *s, const char *name, store_player *p, char *pass_hash,
                         store_err *err)
{
    assert(s && name && p);
    if (!fits(name, STORE_NAME_MAX)) {
        fail(err, "no player by that name");
        return STORE_NOT_FOUND;
    }
    dbq *st = use(s, ST_PLAYER_BY_NAME);
    q_text(st, 1, name);
    int rc = q_step(st);
    if (rc == DB_ROW) {
        read_player(st, p);
        if (pass_hash)
            column_text(st, 7, pass_hash, STORE_TEXT_MAX);
    }
    q_done(st);
    if (rc == DB_DONE) {
        fail(err, "no player named %s", name);
        return STORE_NOT_FOUND;
    }
    return rc == DB_ROW ? 0 : db_fail(s, err, "find player");
}

int store_player_by_id(store *s, int64_t id, store_player *p, store_err *err)
{
    assert(s && p);
    dbq *st = use(s, ST_PLAYER_BY_ID);
    q_int64(st, 1, id);
    int rc = q_step(st);
    if (rc == DB_ROW)
        read_player(st, p);
    q_done(st);
    if (rc == DB_DONE) {
        fail(err, "no player %lld", (long long)id);
        return STORE_NOT_FOUND;
    }
    return rc == DB_ROW ? 0 : db_fail(s, err, "find player");
}

int store_bots(store *s, store_player *out, int max, store_err *err)
{
    assert(s && (out || max <= 0));
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    dbq *st = use(s, ST_BOTS);
    q_int(st, 1, max);
    int n = 0, rc;
    while ((rc = q_step(st)) == DB_ROW && n < max)
        read_player(st, &out[n++]);
    q_done(st);
    return rc == DB_DONE || rc == DB_ROW ? n : db_fail(s, err, "list bots");
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
    dbq *st = use(s, ST_SESSION_PURGE);
    q_int64(st, 1, now);
    if (step_done(s, st, err, "purge sessions") != 0)
        return rollback(s);
    st = use(s, ST_SESSION_ADD);
    q_text(st, 1, token);
    q_int64(st, 2, player);
    q_int64(st, 3, now);
    q_int64(st, 4, expires);
    int rc = q_step(st);
    q_done(st);
    if (rc == DB_UNIQUE) {
        rollback(s);
        fail(err, "the session token is taken");
        return STORE_TAKEN;
    }
    if (rc != DB_DONE) {
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
    dbq *st = use(s, ST_SESSION_PLAYER);
    q_text(st, 1, token);
    q_int64(st, 2, now);
    int rc = q_step(st);
    if (rc == DB_ROW)
        *player = q_col_int64(st, 0);
    q_done(st);
    if (rc == DB_DONE) {
        fail(err, "no such session, or it has expired");
        return STORE_NOT_FOUND;
    }
    return rc == DB_ROW ? 0 : db_fail(s, err, "find session");
}

int store_session_del(store *s, const char *token, store_err *err)
{
    assert(s && token);
    store_write_begin(s, "delete session");
    dbq *st = use(s, ST_SESSION_DEL);
    q_text(st, 1, token);
    return step_done(s, st, err, "delete session");
}

int store_password_set(store *s, int64_t player, const char *pass_hash, const char *keep,
                       store_err *err)
{
    assert(s && pass_hash && keep);
    if (!pass_hash[0] || !fits(pass_hash, STORE_TEXT_MAX - 1))
        return fail(err, "a password hash has 1 to %d bytes", STORE_TEXT_MAX - 1);
    store_write_begin(s, "set password");
    if (begin(s, err, "set password") != 0)
        return -1;
    dbq *st = use(s, ST_PASSWORD_SET);
    q_int64(st, 1, player);
    q_text(st, 2, pass_hash);
    if (step_done(s, st, err, "set password") != 0)
        return rollback(s);
    if (db_changes(s->db) != 1) {
        rollback(s);
        fail(err, "no such account");
        return STORE_NOT_FOUND;
    }
    st = use(s, ST_SESSIONS_DEL_OTHERS);
    q_int64(st, 1, player);
    q_text(st, 2, keep);
    if (step_done(s, st, err, "end the other sessions") != 0)
        return rollback(s);
    return commit(s, err, "set password");
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
    dbq *st = use(s, ST_SESSION_PURGE);
    q_int64(st, 1, now);
    int bad = step_done(s, st, err, "purge guests: sessions") != 0;
    for (int k = 0; !bad && k < 2; k++) {
        st = use(s, k == 0 ? ST_GUESTS_PURGE_KV : ST_GUESTS_PURGE);
        q_text(st, 1, ids);
        bad = step_done(s, st, err, k == 0 ? "purge guests: values" : "purge guests") != 0;
    }
    free(ids);
    if (bad)
        return rollback(s);
    int n = (int)db_changes(s->db);
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
    dbq *st = use(s, ST_RATING_GET);
    q_int64(st, 1, player);
    q_text(st, 2, variant);
    int rc = q_step(st);
    if (rc == DB_ROW) {
        r->rating = q_col_double(st, 0);
        r->games = q_col_int(st, 1);
    }
    q_done(st);
    return rc == DB_ROW || rc == DB_DONE ? 0 : db_fail(s, err, "read rating");
}

int store_ratings(store *s, int64_t player, store_rating *out, int max, store_err *err)
{
    assert(s && (out || max <= 0));
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    dbq *st = use(s, ST_RATINGS);
    q_int64(st, 1, player);
    q_int(st, 2, max);
    int n = 0, rc;
    while ((rc = q_step(st)) == DB_ROW && n < max) {
        store_rating *r = &out[n++];
        memset(r, 0, sizeof *r);
        column_text(st, 0, r->variant, sizeof r->variant);
        r->rating = q_col_double(st, 1);
        r->games = q_col_int(st, 2);
    }
    q_done(st);
    return rc == DB_DONE || rc == DB_ROW ? n : db_fail(s, err, "list ratings");
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
    dbq *st = use(s, ST_HISTORY);
    q_int64(st, 1, player);
    q_text(st, 2, variant);
    q_int(st, 3, max);
    int n = 0, rc;
    while ((rc = q_step(st)) == DB_ROW && n < max) {
        store_rating_point *p = &out[n++];
        p->game = q_col_int64(st, 0);
        p->time = q_col_int64(st, 1);
        p->before = q_col_double(st, 2);
        p->after = q_col_double(st, 3);
    }
    q_done(st);
    if (rc != DB_DONE && rc != DB_ROW)
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
    dbq *st = use(s, ST_LADDER);
    q_text(st, 1, variant);
    q_int(st, 2, max);
    int n = 0, rc;
    while ((rc = q_step(st)) == DB_ROW && n < max) {
        store_ladder_row *r = &out[n++];
        memset(r, 0, sizeof *r);
        r->player = q_col_int64(st, 0);
        column_text(st, 1, r->name, sizeof r->name);
        r->is_bot = q_col_int(st, 2);
        r->rating = q_col_double(st, 3);
        r->games = q_col_int(st, 4);
    }
    q_done(st);
    return rc == DB_DONE || rc == DB_ROW ? n : db_fail(s, err, "read ladder");
}
