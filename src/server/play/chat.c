/* chat.c -- chat in live games (docs/api.md, "Chat"): the `chat` request,
 * the chat a `game` message carries, and the room told when a moderator
 * hides a line or shows it again.
 *
 * A game has chat only when it is between people on different devices: no
 * side is a bot, and not every side is the same player. It then has two
 * rooms, kept apart both ways: its players' (every client whose player
 * plays a side) and its spectators' (every other client watching). The
 * invariant: a line, or news of one, goes only to clients of its own room,
 * found by the game's watcher ids (client_find) at the moment of sending;
 * a line is sent to anyone only once the store has taken it. Nothing here
 * changes a game; it reads the game's players and watchers only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chat.h"
#include "../core/http.h"
#include "live_inside.h"
#include "../core/srv.h"
#define CHAT_LINES 50          /* lines a `game` message carries, the newest */
#define CHAT_PERIOD_MS 15000   /* the rate's period: a quarter of chat-per-minute */

/* 1 if the game has chat: people on different devices, no bot. */
static int has_chat(const live *g)
{
    int apart = 0;
    for (int i = 0; i < g->v->nsides; i++) {
        if (g->players[i].bot)
            return 0;
        apart |= g->players[i].id != g->players[0].id;
    }
    return apart;
}

/* The room a client of the game belongs to. */
static int room_of(const live *g, const client *c)
{
    return live_sides_of(g, c) ? STORE_ROOM_PLAYERS : STORE_ROOM_SPECTATORS;
}

static const char *room_name(int room)
{
    return room == STORE_ROOM_PLAYERS ? "players" : "spectators";
}

/* 1 if the client receives the game (it watches it). */
static int watches(const client *c, int64_t game)
{
    for (int i = 0; i < c->nwatch; i++)
        if (c->watch[i] == game)
            return 1;
    return 0;
}

/* A line as the protocol shows it: {id, from: player, text, time}; `from`
 * (stolen) is its author's reference. NULL if out of memory. */
static json_t *line_json(const store_chat *l, json_t *from)
{
    if (!from)
        return NULL;
    return json_pack("{s:I, s:o, s:s, s:I}", "id", (json_int_t)l->id, "from", from, "text",
                     l->text, "time", (json_int_t)l->time);
}

/* The `chat` message of a line: {type, game, room, line}. */
static json_t *chat_message(srv *s, const store_chat *l)
{
    json_t *line = line_json(l, req_player_ref(s, l->author, l->author_name));
    if (!line)
        return NULL;
    return json_pack("{s:s, s:I, s:s, s:o}", "type", "chat", "game", (json_int_t)l->game,
                     "room", room_name(l->room), "line", line);
}

/* Sends msg to every client of `room` watching g; `from` (if not NULL)
 * gets `mine` (or msg) instead, whether it watches or not. */
static void send_room(srv *s, live *g, int room, json_t *msg, client *from, json_t *mine)
{
    for (int i = 0; i < g->nwatch; i++) {
        client *c = client_find(s, g->watchers[i]);
        if (c && c != from && room_of(g, c) == room)
            client_send(c, msg);
    }
    if (from)
        client_send(from, mine ? mine : msg);
}

void chat_request(srv *s, client *c, const cmsg *cm)
{
    json_t *ref = cm->ref;
    live *g = live_find(s, cm->game);
    if (!g || (!live_sides_of(g, c) && !watches(c, g->id))) {
        client_error(c, ref, "no such game");
        return;
    }
    if (!has_chat(g)) {
        client_error(c, ref, "this game has no chat");
        return;
    }
    const char *text = cm->text;
    char err[200];
    if (strlen(text) != cm->text_len) {
        client_error(c, ref, "the text holds a control character (U+0000)");
        return;
    }
    if (text_check(text, STORE_CHAT_MAX, 0, 0, "text", err, sizeof err) != 0) {
        client_error(c, ref, "%s", err);
        return;
    }
    int room = room_of(g, c);
    if (room == STORE_ROOM_SPECTATORS && (c->me.guest || c->me.bot)) {
        client_error(c, ref, "sign in to chat");
        return;
    }
    if (!req_may_write(s, &c->me, NULL, err, sizeof err)) {
        client_error(c, ref, "%s", err);
        return;
    }
    int lim = s->cfg.limits[LIM_CHAT];
    int burst = lim > 0 ? (lim / 4 > 1 ? lim / 4 : 1) : 0;
    char key[64];
    snprintf(key, sizeof key, "chat:%lld", (long long)c->me.id);
    int64_t now = net_mono_ms();
    if (!quota_take(s->quota, key, burst, CHAT_PERIOD_MS, now)) {
        client_error(c, ref, "too many chat lines (at most %d a minute); wait a moment", lim);
        return;
    }
    store_chat l;
    memset(&l, 0, sizeof l);
    l.game = g->id;
    l.room = room;
    l.author = c->me.id;
    snprintf(l.author_name, sizeof l.author_name, "%s", c->me.name);
    l.time = net_wall_ms();
    snprintf(l.text, sizeof l.text, "%s", text);
    store_err e;
    if (store_chat_add(s->st, l.game, room, l.author, l.text, l.time, &l.id, &e) != 0) {
        quota_refund(s->quota, key, burst, CHAT_PERIOD_MS, now);
        fprintf(stderr, "citadel serve: game %lld: a chat line was not stored: %s\n",
                (long long)g->id, e.msg);
        client_error(c, ref, "could not store the line; try again");
        return;
    }
    json_t *m = chat_message(s, &l);
    if (!m) {
        client_error(c, ref, "out of memory");
        return;
    }
    /* the sender's ref goes back to the sender alone */
    json_t *mine = NULL;
    if (ref) {
        mine = json_copy(m);
        if (mine)
            json_object_set(mine, "ref", ref);
    }
    send_room(s, g, room, m, c, mine);
    json_decref(m);
    json_decref(mine);
}

json_t *chat_json(srv *s, live *g, const client *to)
{
    if (!to || !has_chat(g))
        return NULL;
    int room = room_of(g, to);
    json_t *lines = json_array();
    store_chat *l = malloc(CHAT_LINES * sizeof *l);
    store_err e;
    int n = l ? store_chat_lines(s->st, g->id, room, CHAT_LINES, l, &e) : -1;
    if (n < 0 && l)
        fprintf(stderr, "citadel serve: game %lld: the chat could not be read: %s\n",
                (long long)g->id, e.msg);
    /* a room's lines come from few authors: each one's reference read once */
    struct {
        int64_t id;
        json_t *ref;
    } seen[CHAT_LINES];
    int nseen = 0;
    for (int i = 0; i < n && i < CHAT_LINES; i++) {
        json_t *from = NULL;
        for (int k = 0; k < nseen && !from; k++)
            if (seen[k].id == l[i].author)
                from = json_incref(seen[k].ref);
        if (!from) {
            from = req_player_ref(s, l[i].author, l[i].author_name);
            if (from && nseen < CHAT_LINES) {
                seen[nseen].id = l[i].author;
                seen[nseen++].ref = json_incref(from);
            }
        }
        json_t *line = line_json(&l[i], from);
        if (line)
            json_array_append_new(lines, line);
    }
    for (int k = 0; k < nseen; k++)
        json_decref(seen[k].ref);
    free(l);
    return json_pack("{s:s, s:o}", "room", room_name(room), "lines", lines);
}

void chat_line_changed(srv *s, const struct store_chat *line)
{
    live *g = live_find(s, line->game);
    if (!g || !has_chat(g))
        return;
    json_t *m = line->hidden ? json_pack("{s:s, s:I, s:I}", "type", "chat_hidden", "game",
                                         (json_int_t)line->game, "id", (json_int_t)line->id)
                             : chat_message(s, line);
    if (!m)
        return;
    send_room(s, g, line->room, m, NULL, NULL);
    json_decref(m);
}
