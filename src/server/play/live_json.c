/* live_json.c -- what a live game looks like to each client: its state, its
 * summary for lists, and sending a message to everyone watching, each
 * receiving only the view its side may see (game.h: views). */
#include <stdlib.h>
#include <string.h>

#include "../core/srv.h"
#include "chat.h"
#include "live_inside.h"
#include "messages.h"
/* --- JSON ---------------------------------------------------------------------- */

/* Clocks as they stand now: the side to move's is running. */
json_t *live_clocks_json(const live *g)
{
    json_t *a = json_array();
    int stm = g->over ? -1 : live_to_move(g);
    int64_t now = net_mono_ms();
    for (int i = 0; i < g->v->nsides; i++)
        json_array_append_new(a, json_integer(gclock_show(&g->clk, i, i == stm, now)));
    return a;
}

/* The side whose view `to` gets of a hidden game: the one it plays; the
 * side to move when it plays several (one device: the page covers the
 * board between turns); -1 (a spectator's view) when it plays none. */
static int view_side(const live *g, const client *to)
{
    unsigned m = live_sides_of(g, to);
    if (!m)
        return -1;
    if (m & (m - 1))
        return live_to_move(g);
    return __builtin_ctz(m);
}

/* The position as `to` may see it (game.h: views); once the game is over
 * everything in it is public (as the end message and the record say). */
json_t *live_position_json(const live *g, const client *to)
{
    char buf[2048];
    if (g->setting_up)
        return json_string("");
    if (g->v->hidden && !g->over) {
        _Alignas(16) unsigned char view[GAME_POS_MAX];
        g->v->ops->view(g->pos, view_side(g, to), view);
        g->v->ops->format(view, buf, sizeof buf);
    } else {
        g->v->ops->format(g->pos, buf, sizeof buf);
    }
    return json_string(buf);
}

json_t *live_legal_json(const live *g)
{
    json_t *a = json_array();
    game_move moves[GAME_MAX_MOVES];
    int n = g->v->ops->moves(g->pos, moves);
    for (int i = 0; i < n; i++) {
        char text[32];
        g->v->ops->format_move(g->pos, moves[i], text, sizeof text);
        json_array_append_new(a, json_string(text));
    }
    return a;
}

/* Each side's game material as the rules count it (Rampart R6). */
json_t *live_material_json(const live *g)
{
    json_t *a = json_array();
    for (int i = 0; i < g->v->nsides; i++)
        json_array_append_new(a, json_integer(g->v->ops->material(g->pos, i)));
    return a;
}

static json_t *players_json(const live *g)
{
    json_t *a = json_array();
    for (int i = 0; i < g->v->nsides; i++)
        json_array_append_new(a, ident_json(&g->players[i]));
    return a;
}

static json_t *names_json(char (*names)[GAME_SQUARE_NAME], int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(names[i]));
    return a;
}

json_t *live_effects_json(const game_variant *v, const void *pos, game_move m)
{
    if (!v->ops->effects)
        return NULL;
    game_effects e;
    v->ops->effects(pos, m, &e);
    json_t *j = json_pack("{s:s, s:s, s:o, s:o}", "from", e.from, "to", e.to, "captured",
                          names_json(e.captured, e.ncaptured), "removed",
                          names_json(e.removed, e.nremoved));
    if (j && e.combat) {
        static const char *const lost[] = {"", "attacker", "defender", "both"};
        json_object_set_new(j, "combat",
                            json_pack("{s:s, s:s, s:s}", "attacker", e.attacker, "defender",
                                      e.defender, "lost", lost[e.lost & 3]));
    }
    return j;
}

void live_note_effects(live *g, game_move m)
{
    json_decref(g->last);
    g->last = live_effects_json(g->v, g->pos, m);
}

json_t *live_threats_json(const live *g)
{
    if (!g->v->ops->threats || g->v->hidden || g->setting_up)
        return NULL;
    char names[64][GAME_SQUARE_NAME];
    int n = g->v->ops->threats(g->pos, names, 64);
    return names_json(names, n);
}

json_t *live_sides_json(const live *g, unsigned mask)
{
    json_t *a = json_array();
    for (int i = 0; i < g->v->nsides; i++)
        if (mask & (1u << i))
            json_array_append_new(a, json_integer(i));
    return a;
}

static json_t *result_json(const live *g)
{
    return json_object_get(json_object_get(g->end_msg, "result"), "winner")
        ? json_deep_copy(json_object_get(g->end_msg, "result"))
        : json_null();
}

json_t *live_state(live *g, const client *to)
{
    json_t *side_names = json_array(), *moves = json_array();
    for (int i = 0; i < g->v->nsides; i++)
        json_array_append_new(side_names, json_string(g->v->ops->side_name(g->pos, i)));
    for (int i = 0; i < g->nmoves; i++)
        json_array_append_new(moves, json_string(g->moves[i].text));
    unsigned mine = live_sides_of(g, to);
    int stm = live_to_move(g);
    json_t *j = json_pack(
        "{s:I, s:s, s:s, s:s, s:s, s:o, s:i, s:o, s:o, s:I, s:I, s:i, s:b, s:o, s:o, s:o, s:i, s:s, "
        "s:o, s:I}",
        "id", (json_int_t)g->id, "variant", g->v->name, "family", g->v->family, "title", g->v->title, "start",
        g->v->hidden && !g->over ? "" : g->g.start, "position", live_position_json(g, to), "ply", g->nmoves, "moves", moves,
        "clocks", live_clocks_json(g), "base_ms", (json_int_t)g->g.base_ms, "inc_ms",
        (json_int_t)g->g.inc_ms, "move_limit", g->g.move_limit, "rated", g->g.rated, "players",
        players_json(g), "sides", side_names, "you", live_sides_json(g, mine), "to_move", stm,
        "status", g->over ? "over" : "live", "draw_offer", live_sides_json(g, g->draw_offer),
        "created", (json_int_t)g->g.created);
    if (!g->over && !g->setting_up && (mine & (1u << stm)))
        json_object_set_new(j, "legal", live_legal_json(g));
    if (g->g.imported)
        json_object_set_new(j, "imported", json_true());
    json_t *teams = json_array();
    for (int i = 0; i < g->v->nsides; i++)
        json_array_append_new(teams, json_integer(g->v->ops->team_of(g->pos, i)));
    json_object_set_new(j, "teams", teams);
    if (g->v->ops->describe) {
        json_t *events = json_array();
        json_t *combats = json_array();
        for (int i = 0; i < g->nmoves; i++) {
            json_array_append_new(events, g->moves[i].event ? json_string(g->moves[i].event)
                                                            : json_null());
            json_array_append_new(combats, g->moves[i].combat ? json_incref(g->moves[i].combat)
                                                              : json_null());
        }
        json_object_set_new(j, "events", events);
        json_object_set_new(j, "combats", combats);
    }
    if (g->clk.held && !g->over)
        json_object_set_new(j, "held", json_true());
    if (g->v->ops->setup) {
        json_object_set_new(j, "phase", json_string(g->setting_up ? "setup" : "play"));
        json_object_set_new(j, "ready", live_sides_json(g, g->ready));
    }
    if (g->v->ops->material && !g->v->hidden)
        json_object_set_new(j, "material", live_material_json(g));
    if (g->over)
        json_object_set_new(j, "result", result_json(g));
    if (g->rematch_id)
        json_object_set_new(j, "rematch", json_integer(g->rematch_id));
    else if (g->over)
        json_object_set_new(j, "rematch_offer", live_sides_json(g, g->rematch_offer));
    if (g->last)
        json_object_set(j, "last", g->last);
    json_t *threats = live_threats_json(g);
    if (threats)
        json_object_set_new(j, "threats", threats);
    json_t *chat = chat_json(g->s, g, to);  /* NULL: no chat, or an HTTP reader */
    if (chat)
        json_object_set_new(j, "chat", chat);
    return j;
}

json_t *live_summary(const live *g)
{
    return json_pack("{s:I, s:s, s:s, s:o, s:i, s:b, s:I, s:I, s:s}", "id", (json_int_t)g->id,
                     "variant", g->v->name, "title", g->v->title, "players", players_json(g),
                     "ply", g->nmoves, "rated", g->g.rated, "base_ms", (json_int_t)g->g.base_ms,
                     "inc_ms", (json_int_t)g->g.inc_ms, "status", g->over ? "over" : "live");
}

json_t *live_list(srv *s, int max)
{
    /* the newest live games: highest ids */
    live **best = calloc((size_t)max, sizeof *best);
    int n = 0;
    LIVE_EACH(s, g) {
        if (!best || g->over)
            continue;
        if (n < max)
            best[n++] = g;
        else {
            int low = 0;
            for (int i = 1; i < n; i++)
                if (best[i]->id < best[low]->id)
                    low = i;
            if (g->id > best[low]->id)
                best[low] = g;
        }
    }
    /* order newest first */
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && best[k]->id > best[k - 1]->id; k--) {
            live *t = best[k];
            best[k] = best[k - 1];
            best[k - 1] = t;
        }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, live_summary(best[i]));
    free(best);
    return a;
}

json_t *live_of_player(srv *s, int64_t player)
{
    json_t *a = json_array();
    LIVE_EACH(s, g)
        if (!g->over)
            for (int i = 0; i < g->v->nsides; i++)
                if (g->players[i].id == player) {
                    json_array_append_new(a, json_integer(g->id));
                    break;
                }
    return a;
}

/* Sends msg to every watcher (`mine` instead to `special`, if given);
 * those who play the side to move (of a live game) get the legal moves
 * too, and in hidden games each gets its view. Watchers no longer
 * connected are dropped from the list on the way. */
void live_broadcast_to(live *g, json_t *msg, int with_position, const client *special,
                       json_t *mine)
{
    srv *s = g->s;
    int stm = g->over ? -1 : live_to_move(g);
    json_t *for_mover = NULL;
    for (int i = 0; i < g->nwatch;) {
        client *c = client_find(s, g->watchers[i]);
        if (!c) {
            g->watchers[i] = g->watchers[--g->nwatch];
            continue;
        }
        i++;
        json_t *base = special && c == special && mine ? mine : msg;
        unsigned sides = live_sides_of(g, c);
        int moves_next = stm >= 0 && (sides & (1u << stm)) && with_position;
        if ((g->v->hidden && with_position) || base != msg) {
            json_t *m = json_copy(base);
            if (g->v->hidden && with_position)
                json_object_set_new(m, "position", live_position_json(g, c));
            if (moves_next)
                json_object_set_new(m, "legal", live_legal_json(g));
            client_send(c, m);
            json_decref(m);
        } else if (moves_next) {
            if (!for_mover) {
                for_mover = json_copy(msg);
                json_object_set_new(for_mover, "legal", live_legal_json(g));
            }
            client_send(c, for_mover);
        } else {
            client_send(c, msg);
        }
    }
    json_decref(for_mover);
}

void live_broadcast(live *g, json_t *msg, int with_position)
{
    live_broadcast_to(g, msg, with_position, NULL, NULL);
}

void live_send_states(srv *s, live *g)
{
    for (int i = 0; i < g->nwatch; i++) {
        client *c = client_find(s, g->watchers[i]);
        if (!c)
            continue;
        json_t *m = game_message(live_state(g, c));
        client_send(c, m);
        json_decref(m);
    }
}

void live_watch(srv *s, live *g, client *c)
{
    (void)s;
    int present = 0;
    for (int i = 0; i < g->nwatch; i++)
        present |= g->watchers[i] == c->id;
    if (!present) {
        if (g->nwatch == g->capwatch) {
            int cap = g->capwatch ? 2 * g->capwatch : 4;
            uint64_t *w = realloc(g->watchers, (size_t)cap * sizeof *w);
            if (!w) {
                client_error(c, NULL, "out of memory");
                return;
            }
            g->watchers = w;
            g->capwatch = cap;
        }
        if (client_watch(c, g->id) != 0) {
            client_error(c, NULL, "out of memory");
            return;
        }
        g->watchers[g->nwatch++] = c->id;
    }
    json_t *m = game_message(live_state(g, c));
    client_send(c, m);
    json_decref(m);
}

void live_unwatch(live *g, client *c)
{
    for (int i = 0; i < g->nwatch; i++)
        if (g->watchers[i] == c->id) {
            g->watchers[i] = g->watchers[--g->nwatch];
            break;
        }
    client_unwatch(c, g->id);
}
