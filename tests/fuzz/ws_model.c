/* ws_model.c -- fuzz_ws.c's reading of what the server sent: it learns from
 * every message what a client would (its player, its games, their plies and
 * legal moves, seeks, tables, tokens) and checks each against the store and
 * the protocol, as fuzz_ws.c's opening comment lists.
 *
 * The invariant: a message is read once, in the order it was sent; a check
 * that fails aborts with what it found (fake_fail).
 */
#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/store/store_int.h"
#include "ws_model.h"

ws_state S;

/* the Stratego setups of GET /api/setups/stratego, learned once */
char setups[24][128];
int nsetups;

void remember(int64_t *list, int *n, int64_t id)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == id)
            return;
    if (*n == MAXKNOWN) {
        memmove(list, list + 1, (MAXKNOWN - 1) * sizeof *list);
        (*n)--;
    }
    list[(*n)++] = id;
}

/* newest first; -1 if none */
int64_t pick(const int64_t *list, int n, unsigned b)
{
    return n ? list[n - 1 - (int)(b % (unsigned)n)] : -1;
}

void add_session(const char *cookie, int64_t player)
{
    int k = S.nses < MAXSES ? S.nses++ : (int)(player % MAXSES);
    snprintf(S.ses[k].cookie, sizeof S.ses[k].cookie, "%s", cookie);
    S.ses[k].player = player;
}

cgame *cg_find(slot *s, int64_t id, int make)
{
    for (int i = 0; i < s->ng; i++)
        if (s->g[i].id == id)
            return &s->g[i];
    if (!make)
        return NULL;
    if (s->ng == MAXG) {
        s->forgot = 1;  /* its later messages can no longer be checked */
        json_decref(s->g[0].legal);
        memmove(s->g, s->g + 1, (MAXG - 1) * sizeof s->g[0]);
        s->ng--;
    }
    cgame *g = &s->g[s->ng++];
    memset(g, 0, sizeof *g);
    g->id = id;
    return g;
}

void slot_forget_games(slot *s)
{
    for (int i = 0; i < s->ng; i++)
        json_decref(s->g[i].legal);
    s->ng = 0;
}

static unsigned sides_mask(json_t *a)
{
    unsigned m = 0;
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < 32)
            m |= 1u << json_integer_value(v);
    }
    return m;
}

int64_t jint(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? json_integer_value(v) : -1;
}

/* --- reading what the server sent ---------------------------------------------------- */

replay replays[8];
static int next_replay;

/* The stored moves of a game from ply ?2 up to ?3, on the store's own
 * connection (kept from input to input, as is this statement). */
static sqlite3_stmt *moves_from(store *st)
{
    static sqlite3 *db;
    static sqlite3_stmt *stmt;
    if (db != st->lite) {
        sqlite3_finalize(stmt);
        db = st->lite;
        if (sqlite3_prepare_v2(db,
                               "SELECT ply, text FROM moves WHERE game = ?1 AND ply >= ?2 "
                               "AND ply < ?3 ORDER BY ply",
                               -1, &stmt, NULL) != SQLITE_OK)
            fake_fail("moves_from: %s", sqlite3_errmsg(db));
    }
    return stmt;
}

static const game_variant *stored_pos(int k, int64_t gid, int ply, void *pos, store_game *sg,
                                      const char *what)
{
    store_err e;
    if (store_game_get(S.w.st, gid, sg, &e) != 0)
        fake_fail("client %d was sent %s of game %lld, which the store does not have", k, what,
                  (long long)gid);
    const game_variant *v = game_variant_find(sg->variant);
    if (!v)
        fake_fail("game %lld is stored with variant '%s'", (long long)gid, sg->variant);
    if (!sg->start[0])
        return NULL;
    if (ply < 0 || sg->nmoves < ply)
        fake_fail("client %d was sent %s of game %lld at ply %d, but the store has %d moves "
                  "(shown before stored)",
                  k, what, (long long)gid, ply, sg->nmoves);
    const game_ops *ops = v->ops;
    game_error ge;
    replay *r = NULL;
    for (int i = 0; i < 8; i++)
        if (replays[i].gid == gid)
            r = &replays[i];
    if (!r || r->ply > ply || strcmp(r->start, sg->start) != 0) {
        if (!r) {
            r = &replays[next_replay];
            next_replay = (next_replay + 1) % 8;
        }
        r->gid = gid;
        r->ply = 0;
        snprintf(r->start, sizeof r->start, "%s", sg->start);
        if (ops->parse(v, r->pos, sg->start, &ge) != 0)
            fake_fail("game %lld: stored start '%s': %s", (long long)gid, sg->start, ge.msg);
        for (const game_option *o = v->options; o && o->name; o++)
            if (strcmp(o->name, "MoveLimit") == 0)
                ops->set_option(r->pos, "MoveLimit", sg->move_limit, &ge);
    }
    if (r->ply < ply) {
        /* only the moves not yet replayed (store_moves reads them all: a
         * long game read whole at every ply was a fifth of an input's time) */
        sqlite3_stmt *st = moves_from(S.w.st);
        sqlite3_bind_int64(st, 1, gid);
        sqlite3_bind_int(st, 2, r->ply);
        sqlite3_bind_int(st, 3, ply);
        for (int i = r->ply; i < ply; i++) {
            if (sqlite3_step(st) != SQLITE_ROW || sqlite3_column_int(st, 0) != i)
                fake_fail("game %lld: stored move %d cannot be read", (long long)gid, i);
            const char *text = (const char *)sqlite3_column_text(st, 1);
            game_move m;
            _Alignas(16) unsigned char undo[GAME_POS_MAX];
            if (ops->parse_move(r->pos, text ? text : "", &m, &ge) != 0)
                fake_fail("game %lld: stored move %d '%s': %s", (long long)gid, i,
                          text ? text : "", ge.msg);
            ops->make(r->pos, m, undo);
        }
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        r->ply = ply;
    }
    memcpy(pos, r->pos, ops->pos_size);
    return v;
}

/* A position and legal moves sent to a client that plays `you` (a mask)
 * are what docs/api.md says: the full position, or in a hidden game the
 * view of the receiver's side (a spectator's when it plays none, the side
 * to move's when it plays several), as the stored game has it at `ply`;
 * the legal moves of that position, and only for who plays its side to
 * move. */
static void check_position(int k, int64_t gid, int ply, json_t *position, unsigned you,
                           json_t *legal, int over, const char *what, const char *text)
{
    store_game sg;
    _Alignas(16) unsigned char pos[GAME_POS_MAX], view[GAME_POS_MAX];
    const game_variant *v = stored_pos(k, gid, ply, pos, &sg, what);
    if (!v)
        return;
    const game_ops *ops = v->ops;
    int stm = ops->side_to_move(pos);
    if (json_is_string(position)) {
        int side = !you ? -1 : (you & (you - 1)) ? stm : __builtin_ctz(you);
        ops->view(pos, side, view);
        char want[2048];
        ops->format(over ? (const void *)pos : (const void *)view, want, sizeof want);  /* over: public */
        if (strcmp(want, json_string_value(position)) != 0)
            fake_fail("client %d (sides 0x%x) was sent %s of game %lld showing\n  %s\nbut the "
                      "stored game at ply %d shows it\n  %s\n%.300s",
                      k, you, what, (long long)gid, json_string_value(position), ply, want,
                      text);
    }
    if (legal) {
        if (!(you & (1u << stm)))
            fake_fail("client %d (sides 0x%x) was sent the legal moves of game %lld, whose "
                      "side %d is to move: %.300s",
                      k, you, (long long)gid, stm, text);
        game_move list[GAME_MAX_MOVES];
        int n = ops->moves(pos, list);
        int bad = (size_t)n != json_array_size(legal);
        for (int i = 0; !bad && i < n; i++) {
            char t[32];
            ops->format_move(pos, list[i], t, sizeof t);
            const char *got = json_string_value(json_array_get(legal, (size_t)i));
            bad = !got || strcmp(got, t) != 0;
        }
        if (bad)
            fake_fail("client %d was sent legal moves of game %lld at ply %d that are not the "
                      "position's (%d of them): %.300s",
                      k, (long long)gid, ply, n, text);
    }
}

static void learn_game(slot *s, json_t *game)
{
    int64_t id = jint(game, "id");
    if (id <= 0)
        fake_fail("a game message without an id");
    remember(S.games, &S.ngames, id);
    cgame *g = cg_find(s, id, 1);
    g->ply = (int)jint(game, "ply");
    json_decref(g->legal);
    json_t *legal = json_object_get(game, "legal");
    g->legal = json_is_array(legal) ? json_incref(legal) : NULL;
    const char *phase = json_string_value(json_object_get(game, "phase"));
    g->setup = phase && strcmp(phase, "setup") == 0;
    g->ready = sides_mask(json_object_get(game, "ready"));
    g->you = sides_mask(json_object_get(game, "you"));
    const char *status = json_string_value(json_object_get(game, "status"));
    g->ended = status && strcmp(status, "over") == 0;
    g->nsides = (int)json_array_size(json_object_get(game, "players"));
    /* `you`: the sides this client's player plays */
    unsigned mine = 0;
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(game, "players"), i, p) {
        if (s->player > 0 && jint(p, "id") == s->player && i < 32)
            mine |= 1u << i;
    }
    if (s->player > 0 && mine != g->you)
        fake_fail("a game message says the client plays sides 0x%x of game %lld; its player "
                  "%lld plays 0x%x",
                  g->you, (long long)id, (long long)s->player, mine);
    if (!g->setup && !g->ended && (g->you & (1u << jint(game, "to_move"))) && !g->legal)
        fake_fail("a game message without the legal moves to the client that is to move in game "
                  "%lld",
                  (long long)id);
}

static unsigned answer_bit(const char *type)
{
    static const struct {
        const char *type;
        unsigned bit;
    } t[] = {{"error", A_ERROR},          {"pong", A_PONG},   {"seek_created", A_SEEK},
             {"challenge_created", A_CHALLENGE}, {"table_created", A_TABLE}, {"game", A_GAME},
             {"lobby", A_LOBBY},          {"setup_ok", A_SETUP_OK}, {"chat", A_CHAT}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(type, t[i].type) == 0)
            return t[i].bit;
    return 0;
}

static void read_message(slot *s, int k, const char *text, size_t len)
{
    json_error_t jerr;
    json_t *m = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    const char *type = json_string_value(json_object_get(m, "type"));
    if (!m || !json_is_object(m) || !type)
        fake_fail("client %d was sent something that is no message (%s): %.300s", k,
                  m ? "no type" : jerr.text, text);
    S.got |= answer_bit(type);
    int64_t gid = jint(m, "game");
    if (strcmp(type, "hello") == 0) {
        s->player = jint(json_object_get(m, "player"), "id");
        const char *name = json_string_value(json_object_get(json_object_get(m, "player"), "name"));
        snprintf(s->name, sizeof s->name, "%s", name ? name : "");
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(m, "games"), i, v) {
            if (json_is_integer(v))
                remember(S.games, &S.ngames, json_integer_value(v));
        }
    } else if (strcmp(type, "game") == 0) {
        json_t *game = json_object_get(m, "game");
        learn_game(s, game);
        cgame *g = cg_find(s, jint(game, "id"), 0);
        const char *room = json_string_value(json_object_get(json_object_get(game, "chat"), "room"));
        if (g && room && (g->you != 0) != (strcmp(room, "players") == 0))
            fake_fail("client %d was shown the %s' chat of game %lld, which it %s: %.300s", k, room,
                      (long long)g->id, g->you ? "plays" : "watches", text);
        if (g && !g->setup)
            check_position(k, g->id, g->ply, json_object_get(game, "position"), g->you, g->legal,
                           strcmp(json_string_value(json_object_get(game, "status")), "over") == 0,
                           "a game", text);
    } else if (strcmp(type, "move") == 0) {
        int64_t ply = jint(m, "ply");
        cgame *g = cg_find(s, gid, s->lost);
        if (s->lost)
            g->ply = (int)ply, g->ended = 0;
        if (!g && s->forgot) {
            json_decref(m);
            return;
        }
        if (!g)
            fake_fail("client %d was sent move %lld of game %lld, of which it was sent no game: "
                      "%.300s",
                      k, (long long)ply, (long long)gid, text);
        if (g->ended)
            fake_fail("client %d was sent a move of game %lld after its end: %.300s", k,
                      (long long)gid, text);
        if (ply != g->ply)
            fake_fail("client %d was sent move %lld of game %lld, which it knew at ply %d "
                      "(a move lost or sent twice): %.300s",
                      k, (long long)ply, (long long)gid, g->ply, text);
        g->ply = (int)ply + 1;
        json_decref(g->legal);
        json_t *legal = json_object_get(m, "legal");
        g->legal = json_is_array(legal) ? json_incref(legal) : NULL;
        check_position(k, gid, g->ply, json_object_get(m, "position"), g->you, g->legal, 0,
                       "a move", text);
    } else if (strcmp(type, "end") == 0) {
        cgame *g = cg_find(s, gid, s->lost);
        if (s->lost)
            g->ended = 0;
        if (!g && s->forgot) {
            json_decref(m);
            return;
        }
        if (!g)
            fake_fail("client %d was sent the end of game %lld, of which it was sent no game",
                      k, (long long)gid);
        if (g->ended)
            fake_fail("client %d was sent the end of game %lld twice: %.300s", k,
                      (long long)gid, text);
        g->ended = 1;
        json_decref(g->legal);
        g->legal = NULL;
        /* a hidden game's end makes it public: the whole position and start */
        json_t *position = json_object_get(m, "position");
        if (position) {
            store_game sg;
            _Alignas(16) unsigned char pos[GAME_POS_MAX];
            if (stored_pos(k, gid, 0, pos, &sg, "the end") &&
                stored_pos(k, gid, sg.nmoves, pos, &sg, "the end")) {
                char want[2048];
                game_variant_find(sg.variant)->ops->format(pos, want, sizeof want);
                const char *start = json_string_value(json_object_get(m, "start"));
                if (strcmp(want, json_string_value(position) ? json_string_value(position) : "") ||
                    !start || strcmp(start, sg.start) != 0)
                    fake_fail("client %d was sent the end of game %lld with a position or start "
                              "that is not the stored game's (%s): %.300s",
                              k, (long long)gid, want, text);
            }
        }
    } else if (strcmp(type, "ready") == 0) {
        cgame *g = cg_find(s, gid, 0);
        if (g)
            g->ready = sides_mask(json_object_get(m, "sides"));
    } else if (strcmp(type, "seek_created") == 0) {
        remember(S.seeks, &S.nseeks, jint(m, "seek"));
    } else if (strcmp(type, "challenge_created") == 0) {
        const char *tok = json_string_value(json_object_get(m, "token"));
        if (!tok)
            fake_fail("challenge_created without a token");
        int t = S.ntokens < 8 ? S.ntokens++ : 7;
        snprintf(S.tokens[t], sizeof S.tokens[t], "%s", tok);
    } else if (strcmp(type, "table_created") == 0) {
        remember(S.tables, &S.ntables, jint(m, "table"));
    } else if (strcmp(type, "lobby") == 0) {
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(m, "seeks"), i, v) {
            if (json_object_get(v, "seats"))
                remember(S.tables, &S.ntables, jint(v, "id"));
            else
                remember(S.seeks, &S.nseeks, jint(v, "id"));
        }
        json_array_foreach(json_object_get(m, "games"), i, v)
            remember(S.games, &S.ngames, jint(v, "id"));
    } else if (strcmp(type, "chat") == 0) {
        /* the players' room reaches players only, the spectators' room
         * spectators only (docs/api.md, "Chat") */
        cgame *g = cg_find(s, gid, 0);
        const char *room = json_string_value(json_object_get(m, "room"));
        int players = room && strcmp(room, "players") == 0;
        if (!room || (!players && strcmp(room, "spectators") != 0))
            fake_fail("client %d was sent a chat line of no room: %.300s", k, text);
        if (g && !g->setup && (g->you != 0) != players)
            fake_fail("client %d, %s game %lld, was sent its %s' chat: %.300s", k,
                      g->you ? "a player of" : "a spectator of", (long long)gid, room, text);
    } else if (strcmp(type, "error") == 0 || strcmp(type, "pong") == 0 ||
               strcmp(type, "draw_offer") == 0 || strcmp(type, "rematch_offer") == 0 ||
               strcmp(type, "setup_ok") == 0 || strcmp(type, "chat_hidden") == 0 ||
               strcmp(type, "notify") == 0) {
        /* nothing to learn */
    } else {
        fake_fail("client %d was sent a message of unknown type '%s'", k, type);
    }
    json_decref(m);
}

/* Reads what client k was sent, and empties its outbox. */
void read_outbox(int k)
{
    slot *s = &S.sl[k];
    if (s->c->dropped) {
        /* more than the outbox keeps: what it knew is unreliable */
        slot_forget_games(s);
        s->lost = 1;
    }
    for (int i = 0; i < s->c->nout; i++)
        read_message(s, k, s->c->out[i], s->c->outlen[i]);
    fake_outbox_clear(s->c);
}

/* Reads every outbox; delivers the closes the server asked for (as the
 * real net would, on its next turn), then reads again; srv_check. */
void settle(void)
{
    for (int round = 0; round < 8; round++) {
        int closed = 0;
        for (int k = 0; k < NSLOT; k++)
            if (S.sl[k].c)
                read_outbox(k);
        for (int k = 0; k < NSLOT; k++) {
            slot *s = &S.sl[k];
            if (s->c && s->c->closing) {
                fake_ws_close(S.w.n, s->c);
                s->c = NULL;
                slot_forget_games(s);
                closed = 1;
            }
        }
        srv_check(S.w.s);
        if (!closed)
            break;
    }
    /* a connected client's player is in the store, and no other player
     * has its id */
    for (int k = 0; k < NSLOT && !fake_allowed("purged-guest"); k++) {
        slot *s = &S.sl[k];
        store_player p;
        store_err e;
        if (!s->c || s->player <= 0)
            continue;
        if (store_player_by_id(S.w.st, s->player, &p, &e) != 0)
            fake_fail("client %d is connected as player %lld (%s), whom the store no longer has",
                      k, (long long)s->player, s->name);
        if (strcmp(p.name, s->name) != 0)
            fake_fail("client %d is connected as player %lld (%s), but the store gives that id "
                      "to %s",
                      k, (long long)s->player, s->name, p.name);
    }
}
