/* store_games.c -- store.h on either backend (db.h): games, their moves and ends,
 * and each player's key/value texts (store.c tells the design).
 */
#include <assert.h>
#include <stdlib.h>

#include "store_int.h"

/* --- games -------------------------------------------------------------- */

/* Fills g from a row of GAME_COLS, and its sides from game_players. */
static int read_game(store *s, dbq *row, store_game *g, store_err *err)
{
    memset(g, 0, sizeof *g);
    g->id = q_col_int64(row, 0);
    column_text(row, 1, g->variant, sizeof g->variant);
    column_text(row, 2, g->start, sizeof g->start);
    g->base_ms = q_col_int64(row, 3);
    g->inc_ms = q_col_int64(row, 4);
    g->move_limit = q_col_int(row, 5);
    g->rated = q_col_int(row, 6);
    g->nsides = q_col_int(row, 7);
    g->created = q_col_int64(row, 8);
    g->started = q_col_int64(row, 9);
    g->status = q_col_int(row, 10);
    g->winner = q_col_int(row, 11);
    column_text(row, 12, g->reason, sizeof g->reason);
    g->sterile = q_col_int(row, 13);
    g->ended = q_col_int64(row, 14);
    g->nmoves = q_col_int(row, 15);
    g->imported = q_col_int(row, 16);
    dbq *st = use(s, ST_SIDES);
    q_int64(st, 1, g->id);
    int rc;
    while ((rc = q_step(st)) == DB_ROW) {
        int side = q_col_int(st, 0);
        if (side >= 0 && side < STORE_MAX_SIDES)
            g->players[side] = q_col_int64(st, 1);
    }
    q_done(st);
    return rc == DB_DONE ? 0 : db_fail(s, err, "read the players of a game");
}

/* The rows of g's players, side by side, for game `id` (in the caller's
 * transaction): 0, or -1 with why in err. */
static int add_sides(store *s, int64_t id, const store_game *g, const char *what, store_err *err)
{
    for (int side = 0; side < g->nsides; side++) {
        dbq *st = use(s, ST_SIDE_ADD);
        q_int64(st, 1, id);
        q_int(st, 2, side);
        q_int64(st, 3, g->players[side]);
        int rc = q_step(st);
        q_done(st);
        if (rc == DB_FOREIGN)
            return fail(err, "%s: side %d: no player %lld", what, side,
                        (long long)g->players[side]);
        if (rc != DB_DONE)
            return db_fail(s, err, what);
    }
    return 0;
}

int store_game_add(store *s, store_game *g, store_err *err)
{
    assert(s && g);
    if (!g->variant[0] || !fits(g->variant, VARIANT_MAX))
        return fail(err, "a variant name has 1 to %zu bytes", VARIANT_MAX);
    if (!fits(g->start, STORE_TEXT_MAX - 1))
        return fail(err, "start position longer than %d bytes", STORE_TEXT_MAX - 1);
    if (g->nsides < 1 || g->nsides > STORE_MAX_SIDES)
        return fail(err, "a game has 1 to %d sides, not %d", STORE_MAX_SIDES, g->nsides);
    store_write_begin(s, "add game");
    if (begin(s, err, "add game") != 0)
        return -1;
    dbq *st = use(s, ST_GAME_ADD);
    q_text(st, 1, g->variant);
    q_text(st, 2, g->start);
    q_int64(st, 3, g->base_ms);
    q_int64(st, 4, g->inc_ms);
    q_int(st, 5, g->move_limit);
    q_int(st, 6, g->rated != 0);
    q_int(st, 7, g->nsides);
    q_int64(st, 8, g->created);
    q_int64(st, 9, g->started);
    q_int64(st, 10, s->server);
    int rc = q_step(st);
    int64_t id = rc == DB_ROW ? q_col_int64(st, 0) : 0;
    q_done(st);
    if (rc != DB_ROW) {
        db_fail(s, err, "add game");
        return rollback(s);
    }
    if (add_sides(s, id, g, "add game", err) != 0)
        return rollback(s);
    if (commit(s, err, "add game") != 0)
        return -1;
    g->id = id;
    g->status = STORE_GAME_LIVE;
    g->nmoves = 0;
    return 0;
}

int store_game_import(store *s, store_game *g, const store_move *moves, int n, store_err *err)
{
    assert(s && g && (moves || n == 0));
    const char *what = "import game";
    if (!g->variant[0] || !fits(g->variant, VARIANT_MAX))
        return fail(err, "a variant name has 1 to %zu bytes", VARIANT_MAX);
    if (!fits(g->start, STORE_TEXT_MAX - 1))
        return fail(err, "start position longer than %d bytes", STORE_TEXT_MAX - 1);
    if (g->nsides < 1 || g->nsides > STORE_MAX_SIDES)
        return fail(err, "a game has 1 to %d sides, not %d", STORE_MAX_SIDES, g->nsides);
    if (!fits(g->reason, FIELD_MAX(store_game, reason)))
        return fail(err, "%s: reason longer than %zu bytes", what, FIELD_MAX(store_game, reason));
    if (n < 0)
        return fail(err, "%s: negative count of moves (%d)", what, n);
    for (int i = 0; i < n; i++)
        if (!moves[i].text[0] || !memchr(moves[i].text, '\0', sizeof moves[i].text))
            return fail(err, "%s: move %d: the move text has 1 to %zu bytes", what, i,
                        sizeof moves[i].text - 1);
    store_write_begin(s, what);
    if (begin(s, err, what) != 0)
        return -1;
    dbq *st = use(s, ST_GAME_IMPORT);
    q_text(st, 1, g->variant);
    q_text(st, 2, g->start);
    q_int(st, 3, g->move_limit);
    q_int(st, 4, g->nsides);
    q_int64(st, 5, g->created);
    q_int(st, 6, g->winner);
    q_text(st, 7, g->reason);
    q_int(st, 8, n);
    int rc = q_step(st);
    int64_t id = rc == DB_ROW ? q_col_int64(st, 0) : 0;
    q_done(st);
    if (rc != DB_ROW) {
        db_fail(s, err, what);
        return rollback(s);
    }
    if (add_sides(s, id, g, what, err) != 0)
        return rollback(s);
    for (int i = 0; i < n; i++) {
        st = use(s, ST_MOVE_ADD);
        q_int64(st, 1, id);
        q_int(st, 2, i);
        q_text(st, 3, moves[i].text);
        q_int64(st, 4, moves[i].clock_ms);
        q_int64(st, 5, moves[i].time);
        if (step_done(s, st, err, what) != 0)
            return rollback(s);
    }
    if (commit(s, err, what) != 0)
        return -1;
    g->id = id;
    g->status = STORE_GAME_OVER;
    g->rated = 0;
    g->base_ms = g->inc_ms = 0;
    g->started = g->ended = g->created;
    g->sterile = 0;
    g->nmoves = n;
    g->imported = 1;
    return 0;
}

int store_game_get(store *s, int64_t id, store_game *g, store_err *err)
{
    assert(s && g);
    dbq *st = use(s, ST_GAME_GET);
    q_int64(st, 1, id);
    int rc = q_step(st);
    int ret = 0;
    if (rc == DB_ROW)
        ret = read_game(s, st, g, err);
    q_done(st);
    if (rc == DB_DONE) {
        fail(err, "no game %lld", (long long)id);
        return STORE_NOT_FOUND;
    }
    return rc == DB_ROW ? ret : db_fail(s, err, "read game");
}

/* Why a guarded update of a game found no row: says so in err. */
static int not_live(store *s, int64_t game, int ply, store_err *err, const char *what)
{
    dbq *st = use(s, ST_GAME_STATE);
    q_int64(st, 1, game);
    int rc = q_step(st);
    int status = rc == DB_ROW ? q_col_int(st, 0) : 0;
    int nmoves = rc == DB_ROW ? q_col_int(st, 1) : 0;
    q_done(st);
    if (rc == DB_DONE)
        return fail(err, "%s: no game %lld", what, (long long)game);
    if (rc != DB_ROW)
        return db_fail(s, err, what);
    if (status != STORE_GAME_LIVE)
        return fail(err, "%s: game %lld is over", what, (long long)game);
    return fail(err, "%s: game %lld has %d moves stored, not %d", what, (long long)game,
                nmoves, ply);
}

int store_move_add(store *s, int64_t game, const store_move *m, int64_t started,
                   store_err *err)
{
    assert(s && m);
    if (m->ply < 0)
        return fail(err, "store move: negative ply %d", m->ply);
    if (!m->text[0] || !memchr(m->text, '\0', sizeof m->text))
        return fail(err, "store move: the move text has 1 to %zu bytes",
                    sizeof m->text - 1);
    store_write_begin(s, "store move");
    if (s->st[ST_MOVE_ONE]) {  /* PostgreSQL: one statement (store.c) */
        dbq *one = use(s, ST_MOVE_ONE);
        q_int64(one, 1, game);
        q_int(one, 2, m->ply);
        q_text(one, 3, m->text);
        q_int64(one, 4, m->clock_ms);
        q_int64(one, 5, m->time);
        q_int64(one, 6, started);
        if (step_done(s, one, err, "store move") != 0)
            return -1;
        if (db_changes(s->db) != 1)
            return not_live(s, game, m->ply, err, "store move");
        return 0;
    }
    if (begin(s, err, "store move") != 0)
        return -1;
    dbq *st = use(s, ST_GAME_ADVANCE);
    q_int64(st, 1, game);
    q_int(st, 2, m->ply);
    q_int64(st, 3, started);
    if (step_done(s, st, err, "store move") != 0)
        return rollback(s);
    if (db_changes(s->db) != 1) {
        not_live(s, game, m->ply, err, "store move");
        return rollback(s);
    }
    st = use(s, ST_MOVE_ADD);
    q_int64(st, 1, game);
    q_int(st, 2, m->ply);
    q_text(st, 3, m->text);
    q_int64(st, 4, m->clock_ms);
    q_int64(st, 5, m->time);
    if (step_done(s, st, err, "store move") != 0)
        return rollback(s);
    return commit(s, err, "store move");
}

int store_moves(store *s, int64_t game, store_move *out, int max, store_err *err)
{
    assert(s && (out || max <= 0));
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    dbq *st = use(s, ST_MOVES);
    q_int64(st, 1, game);
    q_int(st, 2, max);
    int n = 0, rc;
    while ((rc = q_step(st)) == DB_ROW && n < max) {
        store_move *m = &out[n++];
        memset(m, 0, sizeof *m);
        m->ply = q_col_int(st, 0);
        column_text(st, 1, m->text, sizeof m->text);
        m->clock_ms = q_col_int64(st, 2);
        m->time = q_col_int64(st, 3);
    }
    q_done(st);
    return rc == DB_DONE || rc == DB_ROW ? n : db_fail(s, err, "read moves");
}

/* The rating changes of store_game_end, inside its transaction. */
static int write_ratings(store *s, int64_t game, const char *variant, int64_t ended,
                         const store_rating_change *changes, int n, store_err *err)
{
    for (int i = 0; i < n; i++) {
        const store_rating_change *c = &changes[i];
        dbq *st = use(s, ST_RATING_SET);
        q_int64(st, 1, c->player);
        q_text(st, 2, variant);
        q_double(st, 3, c->after);
        if (step_done(s, st, err, "end game: rating") != 0)
            return -1;
        if (db_changes(s->db) != 1)
            return fail(err, "end game: player %lld does not exist or is a guest",
                        (long long)c->player);
        st = use(s, ST_HISTORY_ADD);
        q_int64(st, 1, c->player);
        q_text(st, 2, variant);
        q_int64(st, 3, game);
        q_int64(st, 4, ended);
        q_double(st, 5, c->before);
        q_double(st, 6, c->after);
        int rc = q_step(st);
        q_done(st);
        if (rc == DB_UNIQUE)
            return fail(err, "end game: player %lld has two rating changes",
                        (long long)c->player);
        if (rc != DB_DONE)
            return db_fail(s, err, "end game: rating history");
    }
    return 0;
}

/* store_game_end, and with `update` store_game_end_rated: then each
 * change's before and after are worked out here, from the ratings as they
 * stand inside the transaction, and side i scored score[i]; a player not
 * yet rated in the variant stands at start[i] (1500 if start is NULL). */
static int end_game(store *s, int64_t game, int status, int winner, const char *reason,
                    int sterile, int64_t ended, store_rating_change *changes, int n,
                    store_rating_update update, const double *score, const double *start,
                    store_err *err)
{
    assert(s && (changes || n <= 0));
    const char *what = "end game";
    if (status != STORE_GAME_OVER && status != STORE_GAME_ABORTED)
        return fail(err, "%s: %d is not an end status", what, status);
    if (!fits(reason, FIELD_MAX(store_game, reason)))
        return fail(err, "%s: reason longer than %zu bytes", what, FIELD_MAX(store_game, reason));
    if (n < 0)
        return fail(err, "%s: negative count of rating changes (%d)", what, n);
    store_write_begin(s, what);
    if (begin(s, err, what) != 0)
        return -1;
    dbq *st = use(s, ST_GAME_STATE);
    q_int64(st, 1, game);
    int rc = q_step(st);
    char variant[VARIANT_MAX + 1] = "";
    int live = 0, rated = 0;
    if (rc == DB_ROW) {
        live = q_col_int(st, 0) == STORE_GAME_LIVE;
        column_text(st, 2, variant, sizeof variant);
        rated = q_col_int(st, 3);
    }
    q_done(st);
    if (rc == DB_DONE)
        fail(err, "%s: no game %lld", what, (long long)game);
    else if (rc != DB_ROW)
        db_fail(s, err, what);
    else if (!live)
        fail(err, "%s: game %lld is not live", what, (long long)game);
    else if (n > 0 && !rated)
        fail(err, "%s: game %lld is not rated", what, (long long)game);
    if (rc != DB_ROW || !live || (n > 0 && !rated))
        return rollback(s);
    if (update) {
        store_rating r[2];
        /* the players' rows locked (on PostgreSQL) in the order of their
         * ids, then their ratings read */
        int swap = n == 2 && changes[1].player < changes[0].player;
        for (int k = 0; k < n; k++) {
            st = use(s, ST_PLAYER_LOCK);
            q_int64(st, 1, changes[swap ? n - 1 - k : k].player);
            rc = q_step(st);
            q_done(st);
            if (rc != DB_ROW && rc != DB_DONE) {
                db_fail(s, err, what);
                return rollback(s);
            }
        }
        for (int i = 0; i < n; i++) {
            if (store_rating_get(s, changes[i].player, variant, &r[i], err) != 0)
                return rollback(s);
            if (r[i].games == 0 && start)
                r[i].rating = start[i];  /* no row yet: this game makes it */
        }
        for (int i = 0; i < n; i++) {
            changes[i].before = r[i].rating;
            changes[i].after = update(r[i].rating, r[i].games, r[i ^ 1].rating, score[i]);
        }
    }
    st = use(s, ST_GAME_END);
    q_int64(st, 1, game);
    q_int(st, 2, status);
    q_int(st, 3, winner);
    q_text(st, 4, reason ? reason : "");
    q_int(st, 5, sterile != 0);
    q_int64(st, 6, ended);
    if (step_done(s, st, err, what) != 0 ||
        write_ratings(s, game, variant, ended, changes, n, err) != 0)
        return rollback(s);
    return commit(s, err, what);
}

int store_game_end(store *s, int64_t game, int status, int winner, const char *reason,
                   int sterile, int64_t ended, const store_rating_change *changes, int n,
                   store_err *err)
{
    if (n > STORE_MAX_SIDES)
        return fail(err, "end game: %d rating changes", n);
    store_rating_change ch[STORE_MAX_SIDES];
    if (n > 0)
        memcpy(ch, changes, (size_t)n * sizeof *ch);
    return end_game(s, game, status, winner, reason, sterile, ended, ch, n, NULL, NULL, NULL,
                    err);
}

int store_game_end_rated(store *s, int64_t game, int winner, const char *reason,
                         int64_t ended, const int64_t players[2], const double score[2],
                         const double start[2], store_rating_update update,
                         store_rating_change out[2], store_err *err)
{
    assert(players && score && update && out);
    for (int i = 0; i < 2; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].player = players[i];
    }
    return end_game(s, game, STORE_GAME_OVER, winner, reason, 0, ended, out, 2, update, score,
                    start, err);
}

int store_live_games(store *s, int64_t *out, int max, store_err *err)
{
    assert(s && (out || max <= 0));
    if (max < 0)
        return fail(err, "negative room (%d)", max);
    dbq *st = use(s, ST_LIVE);
    q_int(st, 1, max);
    int n = 0, rc;
    while ((rc = q_step(st)) == DB_ROW && n < max)
        out[n++] = q_col_int64(st, 0);
    q_done(st);
    return rc == DB_DONE || rc == DB_ROW ? n : db_fail(s, err, "list live games");
}

int store_player_games(store *s, int64_t player, int offset, store_game *out, int max,
                       store_err *err)
{
    assert(s && (out || max <= 0));
    if (max < 0 || offset < 0)
        return fail(err, "negative room (%d) or offset (%d)", max, offset);
    dbq *st = use(s, ST_PLAYER_GAMES);
    q_int64(st, 1, player);
    q_int(st, 2, max);
    q_int(st, 3, offset);
    int n = 0, rc;
    while ((rc = q_step(st)) == DB_ROW && n < max) {
        if (read_game(s, st, &out[n++], err) != 0) {
            q_done(st);
            return -1;
        }
    }
    q_done(st);
    return rc == DB_DONE || rc == DB_ROW ? n : db_fail(s, err, "list games");
}

/* --- key/value ---------------------------------------------------------- */

int store_kv_put(store *s, int64_t player, const char *key, const char *value,
                 store_err *err)
{
    assert(s && key && value);
    if (!key[0] || !fits(key, STORE_TEXT_MAX - 1))
        return fail(err, "a key has 1 to %d bytes", STORE_TEXT_MAX - 1);
    if (!fits(value, KV_VALUE_MAX))
        return fail(err, "value of %s longer than %d bytes", key, KV_VALUE_MAX);
    store_write_begin(s, "store value");
    dbq *st = use(s, ST_KV_PUT);
    q_int64(st, 1, player);
    q_text(st, 2, key);
    q_text(st, 3, value);
    return step_done(s, st, err, "store value");
}

int store_kv_get(store *s, int64_t player, const char *key, char *value, size_t size,
                 store_err *err)
{
    assert(s && key && value && size > 0);
    if (!fits(key, STORE_TEXT_MAX - 1)) {
        fail(err, "no value for that key");
        return STORE_NOT_FOUND;
    }
    dbq *st = use(s, ST_KV_GET);
    q_int64(st, 1, player);
    q_text(st, 2, key);
    int rc = q_step(st), ret = 0;
    if (rc == DB_ROW) {
        size_t len;
        q_col_text(st, 0, &len);
        if (len < size)
            column_text(st, 0, value, size);
        else
            ret = fail(err, "value of %s has %zu bytes, more than the room given", key, len);
    }
    q_done(st);
    if (rc == DB_DONE) {
        fail(err, "no value for %s", key);
        return STORE_NOT_FOUND;
    }
    return rc == DB_ROW ? ret : db_fail(s, err, "read value");
}

int store_kv_del(store *s, int64_t player, const char *key, store_err *err)
{
    assert(s && key);
    if (!fits(key, STORE_TEXT_MAX - 1))
        return 0;
    store_write_begin(s, "delete value");
    dbq *st = use(s, ST_KV_DEL);
    q_int64(st, 1, player);
    q_text(st, 2, key);
    return step_done(s, st, err, "delete value");
}

int store_kv_list(store *s, int64_t player, const char *prefix, store_kv *out, int max,
                  store_err *err)
{
    assert(s && prefix && out && max >= 0);
    size_t n = strlen(prefix);
    if (!n || n >= STORE_TEXT_MAX - 1)
        return fail(err, "a prefix has 1 to %d bytes", STORE_TEXT_MAX - 2);
    char high[STORE_TEXT_MAX];
    memcpy(high, prefix, n + 1);
    high[n - 1] = (char)(high[n - 1] + 1);  /* the first key past the prefix */
    dbq *st = use(s, ST_KV_LIST);
    q_int64(st, 1, player);
    q_text(st, 2, prefix);
    q_text(st, 3, high);
    q_int(st, 4, max);
    int count = 0, rc;
    while ((rc = q_step(st)) == DB_ROW && count < max) {
        column_text(st, 0, out[count].key, sizeof out[count].key);
        column_text(st, 1, out[count].value, sizeof out[count].value);
        count++;
    }
    q_done(st);
    return rc == DB_DONE || rc == DB_ROW ? count : db_fail(s, err, "list values");
}

int store_game_set_start(store *s, int64_t game, const char *start, int64_t started,
                         store_err *err)
{
    assert(s && start);
    if (!fits(start, STORE_TEXT_MAX - 1))
        return fail(err, "a start position of at most %d bytes", STORE_TEXT_MAX - 1);
    store_write_begin(s, "set the start");
    dbq *st = use(s, ST_GAME_SET_START);
    q_int64(st, 1, game);
    q_text(st, 2, start);
    q_int64(st, 3, started);
    int rc = q_step(st);
    q_done(st);
    if (rc != DB_DONE)
        return db_fail(s, err, "set the start");
    if (db_changes(s->db) != 1)
        return fail(err, "game %lld is not live before its first move", (long long)game);
    return 0;
}

/* --- computer reviews ---------------------------------------------------- */

int store_review_put(store *s, const store_review *r, const char *scores, store_err *err)
{
    assert(s && r && scores);
    if (!fits(scores, STORE_REVIEW_MAX))
        return fail(err, "a review of more than %d bytes", STORE_REVIEW_MAX);
    if (r->status < STORE_REVIEW_QUEUED || r->status > STORE_REVIEW_FAILED)
        return fail(err, "no review status %d", r->status);
    store_write_begin(s, "store review");
    dbq *st = use(s, ST_REVIEW_PUT);
    q_int64(st, 1, r->game);
    q_int64(st, 2, r->requester);
    q_int64(st, 3, r->requested);
    q_int64(st, 4, r->status);
    q_int64(st, 5, r->depth);
    q_text(st, 6, scores);
    return step_done(s, st, err, "store review");
}

int store_review_get(store *s, int64_t game, store_review *r, char *scores, size_t size,
                     store_err *err)
{
    assert(s && r && (!scores || size > 0));
    dbq *st = use(s, ST_REVIEW_GET);
    q_int64(st, 1, game);
    int rc = q_step(st), ret = 0;
    if (rc == DB_ROW) {
        *r = (store_review){
            .game = game,
            .requester = q_col_int64(st, 0),
            .requested = q_col_int64(st, 1),
            .status = q_col_int(st, 2),
            .depth = q_col_int(st, 3),
        };
        size_t len;
        q_col_text(st, 4, &len);
        if (!scores)
            ;  /* the row alone was wanted */
        else if (len < size)
            column_text(st, 4, scores, size);
        else
            ret = fail(err, "review of game %lld has %zu bytes, more than the room given",
                       (long long)game, len);
    }
    q_done(st);
    if (rc == DB_DONE) {
        fail(err, "no review of game %lld", (long long)game);
        return STORE_NOT_FOUND;
    }
    return rc == DB_ROW ? ret : db_fail(s, err, "read review");
}

int store_reviews_waiting(store *s, int64_t *games, int max, store_err *err)
{
    assert(s && games && max >= 0);
    dbq *st = use(s, ST_REVIEWS_WAITING);
    q_int64(st, 1, max);
    int n = 0, rc;
    while ((rc = q_step(st)) == DB_ROW && n < max)
        games[n++] = q_col_int64(st, 0);
    q_done(st);
    return rc == DB_DONE || rc == DB_ROW ? n : db_fail(s, err, "read waiting reviews");
}

int store_reviews_asked(store *s, int64_t player, int64_t since, store_err *err)
{
    assert(s);
    dbq *st = use(s, ST_REVIEWS_ASKED);
    q_int64(st, 1, player);
    q_int64(st, 2, since);
    int rc = q_step(st), n = rc == DB_ROW ? q_col_int(st, 0) : 0;
    q_done(st);
    return rc == DB_ROW ? n : db_fail(s, err, "count reviews");
}
