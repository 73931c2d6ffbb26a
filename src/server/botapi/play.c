/* play.c -- the Bot API's games (docs/bot-api.md): the event stream, one
 * game's stream, what a player asks of its game (move, resign, draw,
 * abort, chat, takeback, setup), and the games it plays now
 * (/api/account/playing), at lichess's paths with lichess's answers.
 *
 * Every request of a game becomes the message a page would send, made
 * by the player's API client (streams.c api_request); its answer is the
 * server's own verdict. The invariant: a request answers once, and one
 * that is refused changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botapi_inside.h"

/* Whether c watches g (and so hears of its moves). */
static int watching(const live *g, const client *c)
{
    for (int i = 0; i < g->nwatch; i++)
        if (g->watchers[i] == c->id)
            return 1;
    return 0;
}

/* lichess's reading of an answer in a path: yes, true, True, 1 or on is
 * yes; any other word is no. */
static int is_yes(const char *word)
{
    return strcmp(word, "yes") == 0 || strcmp(word, "true") == 0 ||
           strcmp(word, "True") == 0 || strcmp(word, "1") == 0 || strcmp(word, "on") == 0;
}

static int is_no(const char *word)
{
    return word[0] && !strchr(word, '/') && !is_yes(word);
}

/* POST .../chat: {room, text} as a form or JSON; the players' room only
 * (a player speaks with the other players; its spectators' room is for
 * those who watch). NULL after answering. */
static json_t *chat_message(net_http *h, const net_request *req, int64_t id)
{
    json_t *body = req_body_fields(req, h);
    if (!body)
        return NULL;
    const char *room = json_string_value(json_object_get(body, "room"));
    const char *text = json_string_value(json_object_get(body, "text"));
    json_t *msg = NULL;
    if (!text)
        reply_error(h, 400, "text: the line to say");
    else if (room && strcmp(room, "player") != 0)
        reply_error(h, 400, "room: a player speaks in the \"player\" room only");
    else
        msg = json_pack("{s:s, s:I, s:s}", "type", "chat", "game", (json_int_t)id, "text", text);
    json_decref(body);
    return msg;
}

/* The message of player me's request `after` the game's id ("/move/a1b2"),
 * with in *wait whether its answer waits for the server's; NULL after
 * answering. */
static json_t *game_request(net_http *h, const net_request *req, const live *g, int64_t me,
                            const char *after, int *wait)
{
    json_int_t id = (json_int_t)g->id;
    *wait = 0;
    if (strncmp(after, "/move/", 6) == 0 && after[6] && strlen(after + 6) < 32) {
        *wait = 1;
        return json_pack("{s:s, s:I, s:i, s:s}", "type", "move", "game", id, "ply", g->nmoves,
                         "move", after + 6);
    }
    if (strcmp(after, "/resign") == 0)
        return json_pack("{s:s, s:I}", "type", "resign", "game", id);
    if (strcmp(after, "/abort") == 0)
        return json_pack("{s:s, s:I}", "type", "abort", "game", id);
    if (strncmp(after, "/draw/", 6) == 0 && is_yes(after + 6))
        return json_pack("{s:s, s:I}", "type", "draw", "game", id);
    if (strncmp(after, "/draw/", 6) == 0 && is_no(after + 6)) {
        unsigned mine = 0;
        for (int i = 0; i < g->v->nsides; i++)
            mine |= (unsigned)(g->players[i].id == me) << i;
        if (g->draw_offer & ~mine)  /* the others' offer declined; else nothing to do */
            return json_pack("{s:s, s:I, s:b}", "type", "draw", "game", id, "decline", 1);
        reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
        return NULL;
    }
    if (strncmp(after, "/takeback/", 10) == 0 && is_no(after + 10)) {
        reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);  /* none is ever proposed */
        return NULL;
    }
    if (strncmp(after, "/takeback/", 10) == 0 && is_yes(after + 10)) {
        reply_error(h, 400, "takebacks are not offered: a move once stored stands");
        return NULL;
    }
    if (strcmp(after, "/claim-victory") == 0 || strcmp(after, "/claim-draw") == 0) {
        reply_error(h, 400, "nothing to claim: the server ends a game whose player is gone "
                            "(\"abandoned\") by itself");
        return NULL;
    }
    if (strcmp(after, "/chat") == 0)
        return chat_message(h, req, id);
    if (strcmp(after, "/setup") == 0) {
        json_t *body = req_body_fields(req, h);
        if (!body)
            return NULL;
        const char *setup = json_string_value(json_object_get(body, "setup"));
        json_t *msg = NULL;
        if (!setup || strlen(setup) >= MSG_MAX_TEXT)
            reply_error(h, 400, "setup: a string (docs/api.md, private setups)");
        else
            msg = json_pack("{s:s, s:I, s:s}", "type", "setup", "game", id, "setup", setup);
        json_decref(body);
        return msg;
    }
    reply_error(h, 404, "no such endpoint");
    return NULL;
}

void play_game_http(srv *s, net_http *h, const net_request *req, const char *rest, int board)
{
    ident me;
    int64_t token;
    if (tokens_me(s, h, req, board ? SC_BOARD : SC_BOT, &me, &token) != 0)
        return;
    if (!board && !me.api_bot) {
        reply_error(h, 403, "only a bot account plays through /api/bot (see "
                            "/api/bot/account/upgrade, or /api/board with board:play)");
        return;
    }
    if (board && me.api_bot) {
        reply_error(h, 403, "a bot account plays through /api/bot");
        return;
    }
    int get = strcmp(req->method, "GET") == 0;
    int stream = strncmp(rest, "stream/", 7) == 0;
    const char *after;
    int64_t id = req_path_id(stream ? rest + 7 : rest, &after);
    if (id <= 0 || (stream && *after) || get != stream) {
        reply_error(h, 404, "no such endpoint");
        return;
    }
    live *g = live_find(s, id);
    if (!g) {
        reply_error(h, 404, "no such game live on this server");
        return;
    }
    apibot *b = api_bot_of(s, &me, req);
    client *c = b ? api_bot_client(b) : NULL;
    if (!c) {
        reply_error(h, 500, "out of memory");
        return;
    }
    if (!live_sides_of(g, c)) {
        reply_error(h, 403, "you do not play in that game");
        return;
    }
    if (stream) {
        api_stream *st = api_stream_open(s, h, b, token, id);
        if (!st)
            return;
        shape_state_said(g, st->said, sizeof st->said);
        api_line(st, shape_game_full(s, g, c));
        if (g->over)
            api_stream_end(st);
        else
            live_watch(s, g, c);
        return;
    }
    /* the game's messages are how a request's ref is answered: a client
     * made afresh (its apibot went idle, nothing open) watches the game it
     * plays, or its move would be made and its request time out */
    if (!watching(g, c))
        live_watch(s, g, c);
    int wait;
    json_t *msg = game_request(h, req, g, me.id, after, &wait);
    if (msg)
        api_request(s, h, b, msg, wait);
}

void play_events_http(srv *s, net_http *h, const net_request *req)
{
    ident me;
    int64_t token;
    apibot *b;
    client *c = api_client(s, h, req, SC_BOT | SC_BOARD, &me, &token, &b);
    if (!c)
        return;
    api_stream *st = api_stream_open(s, h, b, token, 0);
    if (!st)
        return;
    /* what is under way already: its games (told afresh on this stream),
     * and the challenges waiting for the player */
    LIVE_EACH(s, g)
        if (!g->over && live_sides_of(g, c)) {
            api_told(b, g->id);
            api_line(st, json_pack("{s:s, s:o}", "type", "gameStart", "game",
                                   shape_game_info(s, g, c)));
        }
    char site[200];
    ident_site(s, req, site, sizeof site);
    for (seek *k = s->seeks; k; k = k->next)
        if (k->to.id == me.id) {
            json_t *j = shape_challenge(s, k, "created", NULL, site);
            json_object_set_new(j, "direction", json_string("in"));
            api_line(st, json_pack("{s:s, s:o}", "type", "challenge", "challenge", j));
        }
}

void play_playing_http(srv *s, net_http *h, const net_request *req)
{
    ident me;
    int64_t token;
    apibot *b;
    client *c = api_client(s, h, req, 0, &me, &token, &b);
    if (!c)
        return;
    char nb[16];
    int max = req_query_param(req->query, "nb", nb, sizeof nb) == 1 ? atoi(nb) : 9;
    max = max < 1 ? 1 : max > 50 ? 50 : max;
    json_t *list = json_array();
    int mine = 0;
    LIVE_EACH(s, g)
        if (!g->over && g->v->nsides == 2 && live_sides_of(g, c) &&
            (int)json_array_size(list) < max) {
            json_t *info = shape_game_info(s, g, c);
            json_t *status = json_object_get(json_object_get(info, "status"), "name");
            json_object_set(info, "status", status);  /* here lichess gives the word alone */
            mine += json_is_true(json_object_get(info, "isMyTurn"));
            json_array_append_new(list, info);
        }
    reply_json(h, 200, json_pack("{s:o, s:i}", "nowPlaying", list, "nbMyTurn", mine), NULL);
}
