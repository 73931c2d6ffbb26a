/* fake_store.c -- the store of the server's fuzz targets: one in-memory
 * SQLite store for every input, emptied between inputs, and what an input
 * asks to find in it before the server starts (fake_populate).
 *
 * The invariant: after fake_fresh_store the store holds what a new one
 * would hold once srv_new has made its bots' accounts, and nothing an
 * earlier input left (rows, ids, the search index), so that an input does
 * the same thing alone as after any other.
 */
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "../../src/store/community.h"
#include "../../src/store/store_int.h"
#include "server_fake.h"

/* --- what the store holds before the server starts ------------------------------------------- */

int fake_every_role;

static char pw_hash[STORE_TEXT_MAX];

void fake_store_init(void)
{
    if (crypto_pwhash_str(pw_hash, FAKE_PASSWORD, strlen(FAKE_PASSWORD), 1, 8192) != 0)
        fake_fail("crypto_pwhash_str failed");
}
_Static_assert(sizeof FAKE_COOKIE_ALICE == 16 + 64 + 1 && sizeof FAKE_COOKIE_BOB == 16 + 64 + 1 &&
                   sizeof FAKE_COOKIE_CAROL == 16 + 64 + 1 &&
                   sizeof FAKE_COOKIE_GUEST == 16 + 64 + 1,
               "a session token is 64 hex digits");

static int64_t player_id(store *st, const char *name)
{
    store_player p;
    store_err e;
    if (store_player_by_name(st, name, &p, NULL, &e) != 0)
        fake_fail("populate: no player %s", name);
    return p.id;
}

/* A game between players, `moves` moves in (chosen by a fixed rule), or in
 * its setup phase (setups NULL for a variant with private setups). */
static int64_t put_game(store *st, const char *variant, const int64_t *players, int moves,
                        int rated, const char *const *setups, int limit)
{
    const game_variant *v = game_variant_find(variant);
    if (!v)
        fake_fail("populate: no variant %s", variant);
    const game_ops *ops = v->ops;
    store_game g;
    store_err e;
    memset(&g, 0, sizeof g);
    snprintf(g.variant, sizeof g.variant, "%s", v->name);
    g.base_ms = 60000;
    g.inc_ms = 1000;
    g.rated = rated;
    g.nsides = v->nsides;
    for (int i = 0; i < v->nsides; i++)
        g.players[i] = players[i];
    g.created = g.started = net_wall_ms() - 60000;
    _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    game_error ge;
    int setup_phase = ops->setup && !setups;
    if (ops->setup && setups) {
        if (ops->setup->start(v, pos, setups, &ge) != 0)
            fake_fail("populate: %s", ge.msg);
    } else {
        ops->start(v, pos, 7);
    }
    for (const game_option *o = v->options; o && o->name; o++)
        if (strcmp(o->name, "MoveLimit") == 0) {
            g.move_limit = limit >= 0 ? limit : o->offered ? o->offer_def : o->def;
            if (ops->set_option(pos, "MoveLimit", g.move_limit, &ge) != 0)
                fake_fail("populate: %s", ge.msg);
        }
    if (setup_phase)
        g.started = 0;
    else
        ops->format(pos, g.start, sizeof g.start);
    if (store_game_add(st, &g, &e) != 0)
        fake_fail("populate: %s", e.msg);
    for (int i = 0; i < moves && !setup_phase; i++) {
        game_move list[GAME_MAX_MOVES];
        int n = ops->moves(pos, list);
        if (n == 0)
            break;
        game_move m = list[(i * 7 + 3) % n];
        store_move sm = {.ply = i, .clock_ms = 55000, .time = net_wall_ms() - 50000 + i};
        ops->format_move(pos, m, sm.text, sizeof sm.text);
        if (store_move_add(st, g.id, &sm, 0, &e) != 0)
            fake_fail("populate: %s", e.msg);
        ops->make(pos, m, undo);
    }
    return g.id;
}

/* A Bot API token of `player`, stored as the server stores one: its
 * SHA-256 in hex. */
static int token_add(store *st, int64_t player, const char *token, const char *scopes,
                     int64_t *id, store_err *e)
{
    unsigned char h[crypto_hash_sha256_BYTES];
    char hex[2 * sizeof h + 1];
    crypto_hash_sha256(h, (const unsigned char *)token, strlen(token));
    sodium_bin2hex(hex, sizeof hex, h, sizeof h);
    return store_token_add(st, player, hex, scopes, "fuzz", net_wall_ms() - 1000, id, e);
}

void fake_populate(store *st, unsigned what)
{
    store_err e;
    if (!what)
        return;
    int64_t now = net_wall_ms(), old = now - 1000000, until = now + SRV_SESSION_MS;
    int64_t alice, bob;
    if (store_player_add(st, "alice", pw_hash, 0, 0, "", old, &alice, &e) != 0 ||
        store_player_add(st, "bob", pw_hash, 0, 0, "", old, &bob, &e) != 0 ||
        store_session_add(st, &FAKE_COOKIE_ALICE[16], alice, now, until, &e) != 0 ||
        store_session_add(st, &FAKE_COOKIE_BOB[16], bob, now, until, &e) != 0 ||
        /* staff, so that the moderation routes are reached too */
        store_role_set(st, alice, STORE_ROLE_ADMIN, &e) != 0 ||
        store_role_set(st, bob, STORE_ROLE_MODERATOR, &e) != 0)
        fake_fail("populate: %s", e.msg);
    /* every other kind of account: a player, a guest, a Bot API bot; and
     * Bot API tokens, alice's for the board and challenges, dave's to play */
    int64_t carol, dave, guest, tok;
    if (fake_every_role &&
        (store_player_add(st, "carol", pw_hash, 0, 0, "", old, &carol, &e) != 0 ||
         store_player_add(st, "dave", pw_hash, 0, 0, "", old, &dave, &e) != 0 ||
         store_player_api_bot(st, dave, &e) != 0 ||
         store_player_add(st, "guest-fuzz", "", 0, 1, "", now - 1000, &guest, &e) != 0 ||
         store_session_add(st, &FAKE_COOKIE_CAROL[16], carol, now, until, &e) != 0 ||
         store_session_add(st, &FAKE_COOKIE_GUEST[16], guest, now, until, &e) != 0 ||
         token_add(st, alice, FAKE_TOKEN_ALICE, "board:play challenge:write", &tok, &e) != 0 ||
         token_add(st, dave, FAKE_TOKEN_DAVE, "bot:play challenge:write", &tok, &e) != 0))
        fake_fail("populate: %s", e.msg);
    int64_t ab[GAME_MAX_SIDES] = {alice, bob}, ba[GAME_MAX_SIDES] = {bob, alice};
    const game_variant *sv = game_variant_find("stratego");
    const char *lib[2] = {sv->ops->setup->library_text(0), sv->ops->setup->library_text(3)};
    if (what & FAKE_POP_RAMPART)
        {
        put_game(st, "rampart", ab, 5, 0, NULL, -1);
        /* over on the board, but stopped before its end was stored */
        put_game(st, "rampart-mini", ba, 2, 0, NULL, 1);
    }
    if (what & FAKE_POP_OVER) {
        int64_t id = put_game(st, "rampart", ba, 8, 1, NULL, -1);
        store_rating_change ch[2] = {{bob, 1500, 1516}, {alice, 1500, 1484}};
        if (store_game_end(st, id, STORE_GAME_OVER, 0, "resign", 0, net_wall_ms() - 1000, ch, 2,
                           &e) != 0)
            fake_fail("populate: %s", e.msg);
    }
    if (what & FAKE_POP_SETUP) {
        int64_t id = put_game(st, "stratego", ab, 0, 0, NULL, -1);
        char key[64];
        snprintf(key, sizeof key, "game-setup:%lld:0", (long long)id);
        if (store_kv_put(st, alice, key, lib[0], &e) != 0)
            fake_fail("populate: %s", e.msg);
    }
    if (what & FAKE_POP_STRATEGO)
        put_game(st, "stratego", ba, 3, 0, lib, -1);
    if (what & FAKE_POP_KM) {
        int64_t four[GAME_MAX_SIDES] = {alice, bob, player_id(st, "bot-capture"),
                                        player_id(st, "bot-random")};
        put_game(st, "keeps-moats", four, 2, 0, NULL, -1);
    }
    if (what & FAKE_POP_BOT) {
        int64_t vs[GAME_MAX_SIDES] = {player_id(st, "bot-random"), alice};
        put_game(st, "rampart-mini", vs, 0, 0, NULL, -1);
    }
}

/* One in-memory store for every input, emptied before each: as a new one
 * would be to the server once srv_new has made its bots' accounts (no
 * other rows, ids from 1, no lock waits), without the migrations and the
 * statements' preparing, which were most of the time of a short input.
 *
 * The bots' accounts are kept rather than deleted and made again: the
 * players' rows cost a dozen foreign-key checks each to delete, two
 * milliseconds an input. The first input's server makes them; their rows
 * are copied then into temp.fuzz_bots, and each reset puts them back as
 * they were (an input may have changed, closed or deleted one), with the
 * same ids and the same next id, so srv_new finds them as it made them. */
static store *kept;
static int bots_kept;

/* The script that empties the store: each table's rows deleted before
 * those of the tables it references, so that foreign keys stay on (turning
 * them off and on again would expire every prepared statement). The search
 * index (an FTS5 table over the posts) is emptied through its own
 * 'delete-all' command: deleting the rows of its shadow tables, as of a
 * plain table, leaves it without its structure, and every post made after
 * that failed as a malformed database. */
static void reset_script(sqlite3 *db, char *script, size_t size)
{
    enum { MAX_TABLES = 32 };
    char name[MAX_TABLES][64], refs[MAX_TABLES][512];
    int n = 0, done[MAX_TABLES] = {0};
    sqlite3_stmt *st;
    size_t len = (size_t)snprintf(script, size, "BEGIN;");
    if (sqlite3_prepare_v2(db,
                           "SELECT name FROM sqlite_master WHERE type = 'table'"
                           " AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'",
                           -1, &st, NULL) != SQLITE_OK)
        fake_fail("store reset: %s", sqlite3_errmsg(db));
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        len += (size_t)snprintf(script + len, size - len,
                                "INSERT INTO \"%s\"(\"%s\") VALUES('delete-all');", v, v);
        if (len >= size)
            fake_fail("store reset: script too long");
    }
    sqlite3_finalize(st);
    /* the tables, but neither the virtual ones nor their shadows */
    if (sqlite3_prepare_v2(db,
                           "SELECT m.name, ifnull((SELECT group_concat('|' || \"table\" || '|', '')"
                           " FROM pragma_foreign_key_list(m.name)), '') FROM sqlite_master m"
                           " WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'"
                           " AND m.sql NOT LIKE 'CREATE VIRTUAL TABLE%'"
                           " AND NOT EXISTS (SELECT 1 FROM sqlite_master v WHERE v.type = 'table'"
                           " AND v.sql LIKE 'CREATE VIRTUAL TABLE%'"
                           " AND substr(m.name, 1, length(v.name) + 1) = v.name || '_')",
                           -1, &st, NULL) != SQLITE_OK)
        fake_fail("store reset: %s", sqlite3_errmsg(db));
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == MAX_TABLES)
            fake_fail("store reset: too many tables");
        snprintf(name[n], sizeof name[n], "%s", (const char *)sqlite3_column_text(st, 0));
        snprintf(refs[n], sizeof refs[n], "%s", (const char *)sqlite3_column_text(st, 1));
        n++;
    }
    sqlite3_finalize(st);
    for (int emitted = 0; emitted < n; emitted++) {
        int pick = -1;
        for (int i = 0; i < n && pick < 0; i++) {
            if (done[i])
                continue;
            char bar[70];
            snprintf(bar, sizeof bar, "|%s|", name[i]);
            int referenced = 0;
            for (int j = 0; j < n; j++)
                if (!done[j] && j != i && strstr(refs[j], bar))
                    referenced = 1;
            if (!referenced)
                pick = i;
        }
        if (pick < 0)
            fake_fail("store reset: tables reference each other in a circle");
        done[pick] = 1;
        if (strcmp(name[pick], "players") == 0 && bots_kept)
            len += (size_t)snprintf(script + len, size - len,
                                    "DELETE FROM players WHERE id NOT IN"
                                    " (SELECT id FROM temp.fuzz_bots);");
        else
            len += (size_t)snprintf(script + len, size - len, "DELETE FROM \"%s\";",
                                    name[pick]);
        if (len >= size)
            fake_fail("store reset: script too long");
    }
    len += (size_t)snprintf(script + len, size - len, "DELETE FROM sqlite_sequence;");
    if (bots_kept) {
        /* the bots' rows as they were made: each column set back, a row
         * deleted made again, and the next id after theirs */
        len += (size_t)snprintf(script + len, size - len, "UPDATE players SET ");
        if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info('players') WHERE pk = 0",
                               -1, &st, NULL) != SQLITE_OK)
            fake_fail("store reset: %s", sqlite3_errmsg(db));
        for (int k = 0; sqlite3_step(st) == SQLITE_ROW; k++) {
            const char *c = (const char *)sqlite3_column_text(st, 0);
            len += (size_t)snprintf(script + len, size - len, "%s\"%s\" = b.\"%s\"",
                                    k ? ", " : "", c, c);
            if (len >= size)
                fake_fail("store reset: script too long");
        }
        sqlite3_finalize(st);
        len += (size_t)snprintf(script + len, size - len,
                                " FROM temp.fuzz_bots b WHERE players.id = b.id;"
                                "INSERT INTO players SELECT * FROM temp.fuzz_bots b"
                                " WHERE b.id NOT IN (SELECT id FROM players);"
                                "INSERT INTO sqlite_sequence (name, seq)"
                                " SELECT 'players', max(id) FROM temp.fuzz_bots"
                                " HAVING count(*) > 0;");
    }
    len += (size_t)snprintf(script + len, size - len, "COMMIT;");
    if (len >= size)
        fake_fail("store reset: script too long");
}

/* After the first input's srv_new: its bots' accounts are kept from now
 * on (see `kept`). */
void fake_keep_bots(store *st)
{
    sqlite3 *db = st->lite;
    if (bots_kept)
        return;
    char *err = NULL;
    if (sqlite3_exec(db, "CREATE TEMP TABLE fuzz_bots AS SELECT * FROM main.players", NULL,
                     NULL, &err) != SQLITE_OK)
        fake_fail("store reset: %s", err ? err : "?");
    bots_kept = 1;
}

store *fake_fresh_store(void)
{
    store_err e;
    if (!kept) {
        kept = store_open(":memory:", 0, &e);
        if (!kept)
            fake_fail("store_open: %s", e.msg);
        return kept;
    }
    /* the script's statements, prepared once (parsing it for every input
     * was a tenth of fuzz_ws's time) */
    enum { MAX_STMTS = 48 };
    static sqlite3_stmt *stmts[MAX_STMTS];
    static int nstmts;
    if (!nstmts) {
        static char script[4096];
        reset_script(kept->lite, script, sizeof script);
        for (const char *sql = script; *sql;) {
            if (nstmts == MAX_STMTS)
                fake_fail("store reset: too many statements");
            const char *tail = NULL;
            if (sqlite3_prepare_v2(kept->lite, sql, -1, &stmts[nstmts], &tail) != SQLITE_OK)
                fake_fail("store reset: %s", sqlite3_errmsg(kept->lite));
            if (stmts[nstmts])
                nstmts++;
            sql = tail;
        }
    }
    for (int i = 0; i < nstmts; i++) {
        int rc = sqlite3_step(stmts[i]);
        sqlite3_reset(stmts[i]);
        if (rc != SQLITE_DONE)
            fake_fail("store reset: %s", sqlite3_errmsg(kept->lite));
    }
    kept->busy_since = kept->busy_failed = 0;
    kept->writes = 0;
    return kept;
}

