/* shapes.c -- games, challenges and players as the Bot API shows them
 * (docs/bot-api.md): lichess's names, types and units for every field a
 * lichess bot client reads, and Citadel's own fields beside them.
 *
 * lichess's words, in a two-sided game: `white` is the side that moves
 * first (side 0), `black` the other; clocks are milliseconds (no clock:
 * 2147483647, as lichess sends for a game without one); ids are strings
 * (a game's: its number in decimal; a player's: the name in lower case,
 * which is unique in any case); a game's status is lichess's word
 * (shape_status), Citadel's own reason beside it as `reason`. A game of
 * more than two sides keeps Citadel's own shape: no white, black, wtime
 * or winner, only the fields that mean the same for any number of sides.
 *
 * The invariant: nothing here changes a game or writes; it reads the game,
 * the seek and the store's ratings only.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botapi_inside.h"
#include "../play/seeds.h"

#define NO_CLOCK_MS 2147483647  /* lichess's time left in a game without a clock */

const char *shape_color(int side)
{
    return side == 0 ? "white" : "black";
}

const char *shape_speed(int64_t base_ms, int64_t inc_ms)
{
    if (base_ms <= 0)
        return "correspondence";
    int64_t est = base_ms / 1000 + 40 * (inc_ms / 1000);  /* lichess's estimate of a game */
    return est < 30    ? "ultraBullet"
         : est < 180   ? "bullet"
         : est < 480   ? "blitz"
         : est < 1500  ? "rapid"
                       : "classical";
}

const char *shape_status(const live *g)
{
    if (!g->over)
        return "started";
    const char *r = g->g.reason;
    if (strcmp(r, "resign") == 0)
        return "resign";
    if (strcmp(r, "time") == 0)
        return "outoftime";
    if (strcmp(r, "abandoned") == 0)
        return "timeout";
    if (strcmp(r, "aborted") == 0 || g->g.status == STORE_GAME_ABORTED)
        return "aborted";
    if (g->g.winner < 0)
        return "draw";  /* agreement, the move limit, and the games' own draws */
    return "variantEnd";  /* a game's own end with a winner (R7, a Flag, the Kings) */
}

int shape_status_id(const char *status)
{
    static const struct {
        const char *name;
        int id;
    } ids[] = {{"created", 10},  {"started", 20},   {"aborted", 25}, {"mate", 30},
               {"resign", 31},   {"stalemate", 32}, {"timeout", 33}, {"draw", 34},
               {"outoftime", 35}, {"variantEnd", 60}};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (strcmp(ids[i].name, status) == 0)
            return ids[i].id;
    return 38;  /* unknownFinish */
}

json_t *shape_variant(const game_variant *v)
{
    return json_pack("{s:s, s:s, s:s}", "key", v->name, "name", v->title, "short", v->title);
}

void shape_user_id(const char *name, char *out, size_t size)
{
    size_t i = 0;
    for (; name[i] && i + 1 < size; i++)
        out[i] = (char)tolower((unsigned char)name[i]);
    out[i] = 0;
}

/* The rating lichess shows beside a name: the stored one in the variant,
 * a built-in bot's seed until it has played rated (seeds.c); -1 for
 * guests, who have none. */
static int rating_of(srv *s, const ident *p, const game_variant *v, int *provisional)
{
    *provisional = 0;
    if (p->guest || p->id <= 0)
        return -1;
    store_rating r;
    store_err e;
    if (store_rating_get(s->st, p->id, v->name, &r, &e) != 0)
        return -1;
    if (r.games == 0) {
        *provisional = !p->bot || p->api_bot;
        return (int)(seed_rating(p, v->name) + 0.5);
    }
    return (int)(r.rating + 0.5);
}

/* A player; `null_title`: a game's players carry "title": null when they
 * have none, a challenge's leave it out (lichess's two shapes). */
static json_t *player_json(srv *s, const ident *p, const game_variant *v, int null_title)
{
    char id[sizeof p->name];
    shape_user_id(p->name, id, sizeof id);
    json_t *j = json_pack("{s:s, s:s, s:b, s:b}", "id", id, "name", p->name, "bot",
                          p->bot || p->api_bot, "guest", p->guest);
    if (p->bot || p->api_bot)
        json_object_set_new(j, "title", json_string("BOT"));
    else if (null_title)
        json_object_set_new(j, "title", json_null());
    int provisional, rating = rating_of(s, p, v, &provisional);
    if (rating >= 0) {
        json_object_set_new(j, "rating", json_integer(rating));
        if (provisional)
            json_object_set_new(j, "provisional", json_true());
    }
    return j;
}

json_t *shape_player(srv *s, const ident *p, const game_variant *v)
{
    return player_json(s, p, v, 1);
}

static int my_side(const live *g, const client *c)
{
    unsigned m = live_sides_of(g, c);
    return m ? (m & (m - 1) ? live_to_move(g) : __builtin_ctz(m)) : -1;
}

void shape_state_said(const live *g, char *out, size_t size)
{
    snprintf(out, size, "%d/%d/%u/%u/%d", g->nmoves, g->over, g->draw_offer, g->ready,
             g->setting_up);
}

/* The side that won a two-sided game, or -1 (a draw, not over, or more
 * than two sides). */
static int winning_side(const live *g)
{
    if (!g->over || g->g.winner < 0 || g->v->nsides != 2)
        return -1;
    for (int i = 0; i < 2; i++)
        if (g->v->ops->team_of(g->pos, i) == g->g.winner)
            return i;
    return -1;
}

json_t *shape_game_state(live *g, const client *c)
{
    size_t len = 1;
    for (int i = 0; i < g->nmoves; i++)
        len += strlen(g->moves[i].text) + 1;
    char *moves = malloc(len);
    if (!moves)
        return NULL;
    moves[0] = 0;
    for (int i = 0, at = 0; i < g->nmoves; i++)
        at += sprintf(moves + at, "%s%s", i ? " " : "", g->moves[i].text);
    json_t *clocks = live_clocks_json(g);
    json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:o, s:i, s:i, s:o, s:I, s:o}", "type",
                          "gameState", "moves", moves, "status", shape_status(g), "reason",
                          g->over ? g->g.reason : "started", "position",
                          live_position_json(g, c), "ply", g->nmoves, "to_move",
                          g->over ? -1 : live_to_move(g), "clocks", clocks, "inc_ms",
                          (json_int_t)g->g.inc_ms, "draw_offer",
                          live_sides_json(g, g->draw_offer));
    free(moves);
    if (g->v->nsides == 2) {
        for (int i = 0; i < 2; i++) {
            json_int_t left = g->g.base_ms > 0 ? json_integer_value(json_array_get(clocks, (size_t)i))
                                               : NO_CLOCK_MS;
            json_object_set_new(j, i ? "btime" : "wtime", json_integer(left));
            json_object_set_new(j, i ? "binc" : "winc", json_integer(g->g.inc_ms));
            if (g->draw_offer & (1u << i))
                json_object_set_new(j, i ? "bdraw" : "wdraw", json_true());
        }
        int w = winning_side(g);
        if (w >= 0)
            json_object_set_new(j, "winner", json_string(shape_color(w)));
    }
    if (g->over && g->g.winner >= 0) {
        json_t *w = json_array();
        for (int i = 0; i < g->v->nsides; i++)
            if (g->v->ops->team_of(g->pos, i) == g->g.winner)
                json_array_append_new(w, json_string(g->v->ops->side_name(g->pos, i)));
        json_object_set_new(j, "winners", w);
    }
    if (g->v->ops->setup) {
        json_object_set_new(j, "phase", json_string(g->setting_up ? "setup" : "play"));
        json_object_set_new(j, "ready", live_sides_json(g, g->ready));
    }
    return j;
}

/* "startpos" if the game began where the variant begins with the game's
 * settings (lichess's word for the standard start), else its start in
 * `citadel uci`'s notation; "" while a hidden setup is still secret. */
static json_t *initial_fen(const live *g)
{
    if (g->v->hidden && !g->over)
        return json_string("");
    if (!g->v->ops->setup) {
        _Alignas(16) unsigned char pos[GAME_POS_MAX];
        char buf[STORE_TEXT_MAX];
        g->v->ops->start(g->v, pos, 0);
        int ok = 1;
        for (int i = 0; i < g->set.nopts && ok; i++) {
            game_error ge;
            ok = g->v->ops->set_option(pos, g->set.opts[i].name, g->set.opts[i].value, &ge) == 0;
        }
        if (ok && live_set_limit(g->v, pos, g->g.move_limit) == 0) {
            g->v->ops->format(pos, buf, sizeof buf);
            if (strcmp(buf, g->g.start) == 0)
                return json_string("startpos");
        }
    }
    return json_string(g->g.start);
}

static json_t *players_of(const live *g)
{
    json_t *a = json_array();
    for (int i = 0; i < g->v->nsides; i++)
        json_array_append_new(a, ident_json(&g->players[i]));
    return a;
}

static char *id_text(int64_t id, char *buf, size_t size)
{
    snprintf(buf, size, "%lld", (long long)id);
    return buf;
}

json_t *shape_game_full(srv *s, live *g, const client *c)
{
    char id[24];
    json_t *sides = json_array(), *options = json_object();
    for (int i = 0; i < g->v->nsides; i++)
        json_array_append_new(sides, json_string(g->v->ops->side_name(g->pos, i)));
    for (const game_option *o = g->v->options; o && o->name; o++) {
        int value;
        if (g->v->ops->get_option && g->v->ops->get_option(g->pos, o->name, &value) == 0)
            json_object_set_new(options, o->name, json_integer(value));
    }
    json_t *state = shape_game_state(g, c);
    json_t *j = json_pack(
        "{s:s, s:s, s:o, s:s, s:{s:s}, s:b, s:I, s:o, s:o, s:i, s:o, s:o, s:o, s:i, s:I}",
        "type", "gameFull", "id", id_text(g->id, id, sizeof id), "variant", shape_variant(g->v),
        "speed", shape_speed(g->g.base_ms, g->g.inc_ms), "perf", "name", g->v->title, "rated",
        g->g.rated, "createdAt", (json_int_t)g->g.created, "initialFen", initial_fen(g),
        "state", state ? state : json_null(), "move_limit", g->g.move_limit, "options", options,
        "players", players_of(g), "sides", sides, "you", my_side(g, c), "created",
        (json_int_t)g->g.created);
    if (g->g.base_ms > 0)
        json_object_set_new(j, "clock", json_pack("{s:I, s:I}", "initial",
                                                  (json_int_t)g->g.base_ms, "increment",
                                                  (json_int_t)g->g.inc_ms));
    if (g->v->nsides == 2) {
        json_object_set_new(j, "white", shape_player(s, &g->players[0], g->v));
        json_object_set_new(j, "black", shape_player(s, &g->players[1], g->v));
    }
    return j;
}

json_t *shape_game_info(srv *s, live *g, const client *c)
{
    char id[24];
    int me = my_side(g, c);
    const char *status = shape_status(g);
    json_t *fen = live_position_json(g, c);
    json_t *j = json_pack("{s:s, s:s, s:s, s:o, s:{s:i, s:s}, s:o, s:s, s:s, s:b, s:s, s:b, "
                          "s:{s:b, s:b}, s:o, s:i}",
                          "id", id_text(g->id, id, sizeof id), "gameId", id, "fullId", id, "fen",
                          fen, "status", "id", shape_status_id(status), "name", status,
                          "variant", shape_variant(g->v), "speed",
                          shape_speed(g->g.base_ms, g->g.inc_ms), "perf",
                          shape_speed(g->g.base_ms, g->g.inc_ms), "rated", g->g.rated,
                          "source", "friend", "isMyTurn", !g->over && me >= 0 && live_to_move(g) == me, "compat",
                          "bot", 1, "board", 1, "players", players_of(g), "you", me);
    json_object_set_new(j, "lastMove",
                        json_string(g->nmoves ? g->moves[g->nmoves - 1].text : ""));
    int moved = 0;
    for (int i = 0; me >= 0 && i < g->nmoves; i++)
        moved |= g->v->nsides == 2 && i % 2 == me;
    json_object_set_new(j, "hasMoved", json_boolean(moved));
    if (g->v->nsides == 2 && me >= 0) {
        const ident *o = &g->players[me ^ 1];
        json_t *opp = shape_player(s, o, g->v);
        json_t *them = json_pack("{s:O, s:s, s:i}", "id", json_object_get(opp, "id"),
                                 "username", o->name, "rating",
                                 (int)json_integer_value(json_object_get(opp, "rating")));
        if (!json_object_get(opp, "rating"))
            json_object_set_new(them, "rating", json_integer(1500));  /* guests: none */
        json_decref(opp);
        json_object_set_new(j, "opponent", them);
        json_object_set_new(j, "color", json_string(shape_color(me)));
        json_t *clocks = live_clocks_json(g);
        json_object_set_new(j, "secondsLeft",
                            json_integer(g->g.base_ms > 0
                                             ? json_integer_value(json_array_get(clocks, (size_t)me)) / 1000
                                             : NO_CLOCK_MS / 1000));
        json_decref(clocks);
        int w = winning_side(g);
        if (w >= 0)
            json_object_set_new(j, "winner", json_string(shape_color(w)));
    }
    return j;
}

/* lichess's time control of settings: {type: "clock", limit, increment
 * (seconds), show} or {type: "unlimited"}. */
static json_t *time_control(const game_settings *set)
{
    if (set->base_ms <= 0)
        return json_pack("{s:s}", "type", "unlimited");
    char show[48];
    int64_t limit = set->base_ms / 1000;
    if (limit % 60 == 0)
        snprintf(show, sizeof show, "%lld+%lld", (long long)(limit / 60),
                 (long long)(set->inc_ms / 1000));
    else
        snprintf(show, sizeof show, "%lld s+%lld", (long long)limit,
                 (long long)(set->inc_ms / 1000));
    return json_pack("{s:s, s:I, s:I, s:s}", "type", "clock", "limit", (json_int_t)limit,
                     "increment", (json_int_t)(set->inc_ms / 1000), "show", show);
}

json_t *shape_challenge(srv *s, const seek *k, const char *status, const live *g,
                        const char *site)
{
    char url[300];
    const game_variant *v = k->set.v;
    if (g)
        snprintf(url, sizeof url, "%s/game/%lld", site, (long long)g->id);
    else
        snprintf(url, sizeof url, "%s/play/%s", site, k->token);  /* the page's challenge link */
    const char *color = k->asked == 1 ? "white" : k->asked == 2 ? "black" : "random";
    json_t *j = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:b, s:s, s:o, s:s, s:{s:s, s:s}, "
                          "s:i, s:o}",
                          "id", k->token, "url", url, "status", status, "challenger",
                          player_json(s, &k->by, v, 0), "destUser",
                          k->to.id ? player_json(s, &k->to, v, 0) : json_null(), "variant",
                          shape_variant(v), "rated", k->set.rated, "speed",
                          shape_speed(k->set.base_ms, k->set.inc_ms), "timeControl",
                          time_control(&k->set), "color", color, "perf", "icon", "", "name",
                          v->title, "move_limit", k->set.move_limit, "options", json_object());
    for (int i = 0; i < k->set.nopts; i++)
        json_object_set_new(json_object_get(j, "options"), k->set.opts[i].name,
                            json_integer(k->set.opts[i].value));
    if (k->color)  /* settled when it was made */
        json_object_set_new(j, "finalColor", json_string(shape_color(k->color - 1)));
    if (g) {
        char id[24];
        json_object_set_new(j, "game", json_string(id_text(g->id, id, sizeof id)));
        for (int i = 0; i < g->v->nsides; i++)
            if (g->players[i].id == k->by.id)
                json_object_set_new(j, "finalColor", json_string(shape_color(i)));
    }
    return j;
}

json_t *shape_account(srv *s, const ident *me, const char *site)
{
    char id[sizeof me->name], url[300];
    (void)s;
    shape_user_id(me->name, id, sizeof id);
    snprintf(url, sizeof url, "%s/players/%s", site, me->name);
    json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:b, s:b, s:I}", "id", id, "username", me->name,
                          "name", me->name, "url", url, "bot", me->bot || me->api_bot, "guest", me->guest,
                          "player", (json_int_t)me->id);
    if (me->api_bot || me->bot)
        json_object_set_new(j, "title", json_string("BOT"));
    return j;
}
