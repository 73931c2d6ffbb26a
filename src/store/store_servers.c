/* store_servers.c -- several servers on one database: each server's lease
 * (its row in `servers`, renewed by beats), which server owns each live
 * game, and the taking over of a lapsed server's games (store.h).
 *
 * The invariant: a live game's owner is a server whose row exists, or a
 * server nobody has buried yet (its lease may have lapsed), or 0. A
 * server's row is removed only by its own leave or by its burial in
 * store_games_adopt (its lease lapsed, or on PostgreSQL the connection
 * that holds its lock is gone), in the same transaction that gives
 * its games to the adopter; and the owner's writes hold its row (FOR KEY
 * SHARE, which beats do not wait for) inside their batch, so a buried
 * server's writes after the burial fail, and those before it are seen by
 * the adopter when it loads the games. A game is adopted by one server:
 * adopters take turns (SV_ADOPT_LOCK), and an adopter that waited on a
 * row another took meanwhile leaves it.
 */
#include <assert.h>
#include <inttypes.h>

#include "store_int.h"

/* On PostgreSQL a server also holds a session advisory lock while its
 * loop's connection lives (key 71104 << 32 | its id): a server whose
 * process died is dead at once, not only when its lease lapses. */
#define HELD_PG                                                                       \
    "EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted "    \
    "AND l.classid = 71104 AND l.objid::bigint = servers.id AND l.objsubid = 1)"

/* The database's clock in ms since 1970: one clock for every server. */
#define NOW_LITE "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"
#define NOW_PG "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"

static const char *const sql[SV_COUNT] = {
    [SV_JOIN] = "INSERT INTO servers (label, started, beat) VALUES (?1, " NOW_LITE ", "
                NOW_LITE ") RETURNING id",
    [SV_BEAT] = "UPDATE servers SET beat = " NOW_LITE " WHERE id = ?1",
    [SV_LEAVE] = "DELETE FROM servers WHERE id = ?1",
    [SV_ALIVE] = "SELECT id FROM servers WHERE beat >= " NOW_LITE " - ?1 ORDER BY id LIMIT ?2",
    [SV_BURY] = "DELETE FROM servers WHERE beat < " NOW_LITE " - ?1",
    /* the outer test again: a row another adopter took meanwhile (PostgreSQL
     * re-reads a row it waited for, not the list it picked it from) stays its */
    [SV_ADOPT] = "UPDATE games SET owner = ?1 WHERE id IN (SELECT id FROM games "
                 "WHERE status = 0 AND owner NOT IN (SELECT id FROM servers) "
                 "ORDER BY id LIMIT ?2) AND status = 0 "
                 "AND owner NOT IN (SELECT id FROM servers) RETURNING id",
    [SV_ADOPT_LOCK] = NULL,  /* SQLite's writers take turns already */
    [SV_JOIN_LOCK] = NULL,
    [SV_HOLD] = "SELECT 1 FROM servers WHERE id = ?1",
    [SV_OWNER] = "SELECT owner FROM games WHERE id = ?1 AND status = 0",
    [SV_PLAYER_LIVE] = "SELECT g.id FROM games g JOIN game_players p ON p.game = g.id "
                       "WHERE p.player = ?1 AND g.status = 0 ORDER BY g.id LIMIT ?2",
    [SV_BUS_SENDERS] = NULL,  /* SQLite: one server, no bus */
};

static const char *const sql_pg[SV_COUNT] = {
    [SV_JOIN] = "INSERT INTO servers (label, started, beat) VALUES (?1, " NOW_PG ", " NOW_PG
                ") RETURNING id",
    [SV_BEAT] = "UPDATE servers SET beat = " NOW_PG " WHERE id = ?1",
    [SV_JOIN_LOCK] = "SELECT CASE WHEN pg_try_advisory_lock((71104::bigint << 32) | ?1) "
                     "THEN 1 ELSE 0 END",
    [SV_ALIVE] = "SELECT id FROM servers WHERE beat >= " NOW_PG " - ?1 AND " HELD_PG
                 " ORDER BY id LIMIT ?2",
    [SV_BURY] = "DELETE FROM servers WHERE beat < " NOW_PG " - ?1 OR NOT " HELD_PG,
    /* adopters take turns, so no game is adopted twice over */
    [SV_ADOPT_LOCK] = "SELECT pg_advisory_xact_lock(7110433)",
    /* a beat (an UPDATE of no key) does not wait for this; a burial does */
    [SV_HOLD] = "SELECT 1 FROM servers WHERE id = ?1 FOR KEY SHARE",
    /* each server's bus connection holds (STORE_BUS_LOCK << 32 | its id) */
    [SV_BUS_SENDERS] = "SELECT pid, objid::bigint FROM pg_locks WHERE locktype = 'advisory' "
                       "AND granted AND classid = 71105 AND objsubid = 1 ORDER BY objid "
                       "LIMIT ?1",
};

int store_servers_prepare(store *s, store_err *err)
{
    return prepare_each(s, sql, sql_pg, s->sst, SV_COUNT, "servers", err);
}

static dbq *sv(store *s, int id)
{
    return q_fresh(s->sst[id]);
}

int store_server_join(store *s, const char *label, int64_t *id, store_err *err)
{
    assert(s && id && !s->batch);
    store_write_begin(s, "join");
    /* the row and the lock together: no server sees the one without the other */
    if (begin(s, err, "join the servers") != 0)
        return -1;
    dbq *st = sv(s, SV_JOIN);
    q_text(st, 1, label ? label : "");
    int rc = q_step(st);
    *id = rc == DB_ROW ? q_col_int64(st, 0) : 0;
    q_done(st);
    if (rc == DB_ROW && s->sst[SV_JOIN_LOCK]) {
        st = sv(s, SV_JOIN_LOCK);
        q_int64(st, 1, *id);
        rc = q_step(st);
        int held = rc == DB_ROW && q_col_int(st, 0) == 1;
        q_done(st);
        if (rc == DB_ROW && !held) {  /* ids are never reused: a database copied under us? */
            fail(err, "join the servers: server %lld's lock is held elsewhere", (long long)*id);
            return rollback(s);
        }
    }
    if (rc != DB_ROW) {
        db_fail(s, err, "join the servers");
        return rollback(s);
    }
    return commit(s, err, "join the servers");
}

void store_set_server(store *s, int64_t id)
{
    s->server = id;
}

int store_server_beat(store *s, int64_t id, store_err *err)
{
    store_write_begin(s, "beat");
    dbq *st = sv(s, SV_BEAT);
    q_int64(st, 1, id);
    if (step_done(s, st, err, "renew the lease") != 0)
        return -1;
    if (db_changes(s->db) == 0) {
        s->evicted = 1;
        fail(err, "another server has taken this server's games over");
        return STORE_NOT_FOUND;
    }
    return 0;
}

int store_server_leave(store *s, int64_t id, store_err *err)
{
    store_write_begin(s, "leave");
    dbq *st = sv(s, SV_LEAVE);
    q_int64(st, 1, id);
    return step_done(s, st, err, "leave the servers");
}

/* The ids a statement returns, bound with `bind` first. */
static int ids_of(store *s, dbq *st, int64_t *out, int max, store_err *err, const char *what)
{
    int n = 0, rc;
    while ((rc = q_step(st)) == DB_ROW)
        if (n < max)
            out[n++] = q_col_int64(st, 0);
    q_done(st);
    return rc == DB_DONE ? n : db_fail(s, err, what);
}

int store_servers_alive(store *s, int64_t *out, int max, store_err *err)
{
    assert(s && (out || max <= 0));
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    dbq *st = sv(s, SV_ALIVE);
    q_int64(st, 1, STORE_LEASE_MS);
    q_int(st, 2, max);
    return ids_of(s, st, out, max, err, "list the servers");
}

int store_games_adopt(store *s, int64_t me, int64_t *out, int max, store_err *err)
{
    assert(s && (out || max <= 0) && !s->batch);
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    store_write_begin(s, "adopt");
    if (begin(s, err, "adopt games") != 0)
        return -1;
    if (s->sst[SV_ADOPT_LOCK]) {
        dbq *lock = sv(s, SV_ADOPT_LOCK);
        int rc = q_step(lock);
        q_done(lock);
        if (rc != DB_ROW) {
            db_fail(s, err, "adopt games");
            return rollback(s);
        }
    }
    dbq *st = sv(s, SV_BURY);
    q_int64(st, 1, STORE_LEASE_MS);
    if (step_done(s, st, err, "bury lapsed servers") != 0)
        return rollback(s);
    st = sv(s, SV_ADOPT);
    q_int64(st, 1, me);
    q_int(st, 2, max);
    int n = ids_of(s, st, out, max, err, "adopt games");
    if (n < 0)
        return rollback(s);
    if (commit(s, err, "adopt games") != 0)
        return -1;
    return n;
}

int store_game_owner(store *s, int64_t game, int64_t *owner, store_err *err)
{
    assert(s && owner);
    dbq *st = sv(s, SV_OWNER);
    q_int64(st, 1, game);
    int rc = q_step(st);
    *owner = rc == DB_ROW ? q_col_int64(st, 0) : 0;
    q_done(st);
    if (rc == DB_ROW)
        return 0;
    if (rc == DB_DONE) {
        fail(err, "no live game %" PRId64, game);
        return STORE_NOT_FOUND;
    }
    return db_fail(s, err, "find the game's server");
}

int store_player_live(store *s, int64_t player, int64_t *out, int max, store_err *err)
{
    assert(s && (out || max <= 0));
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    dbq *st = sv(s, SV_PLAYER_LIVE);
    q_int64(st, 1, player);
    q_int(st, 2, max);
    return ids_of(s, st, out, max, err, "list the player's live games");
}

int store_bus_senders(store *s, int *pids, int64_t *ids, int max, store_err *err)
{
    assert(s && ((pids && ids) || max <= 0));
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    if (!s->sst[SV_BUS_SENDERS])
        return 0;
    dbq *st = sv(s, SV_BUS_SENDERS);
    q_int(st, 1, max);
    int n = 0, rc;
    while ((rc = q_step(st)) == DB_ROW)
        if (n < max) {
            pids[n] = q_col_int(st, 0);
            ids[n++] = q_col_int64(st, 1);
        }
    q_done(st);
    return rc == DB_DONE ? n : db_fail(s, err, "list the servers' buses");
}

int store_server_hold(store *s, store_err *err)
{
    if (s->server <= 0)
        return 0;
    dbq *st = sv(s, SV_HOLD);
    q_int64(st, 1, s->server);
    int rc = q_step(st);
    q_done(st);
    if (rc == DB_ROW)
        return 0;
    if (rc == DB_DONE) {
        s->evicted = 1;
        return fail(err, "another server has taken this server's games over");
    }
    return db_fail(s, err, "hold the server's lease");
}
