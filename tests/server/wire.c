/* wire.c -- see wire.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wire.h"

json_t *get_json(const char *path, const char *cookie, int want_status)
{
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "GET", path, cookie, NULL, &r), 0);
    if (r.status != want_status)
        fprintf(stderr, "GET %s: %d %s\n", path, r.status, r.body);
    assert_int_equal(r.status, want_status);
    json_error_t e;
    json_t *j = json_loads(r.body, 0, &e);
    assert_non_null(j);
    http_resp_free(&r);
    return j;
}

/* Signs up a player; returns the session cookie (storage per call
 * site is not enough: the caller gives buf). */
void signup(const char *name, char *cookie)
{
    char body[200];
    snprintf(body, sizeof body, "{\"name\":\"%s\",\"password\":\"password-%s\"}", name, name);
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/signup", NULL, body, &r), 0);
    if (r.status != 201)
        fprintf(stderr, "signup %s: %d %s\n", name, r.status, r.body);
    assert_int_equal(r.status, 201);
    assert_true(strlen(r.cookie) == 64);
    strcpy(cookie, r.cookie);
    http_resp_free(&r);
}

void guest(char *cookie)
{
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "GET", "/api/me", NULL, NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_true(strlen(r.cookie) == 64);
    strcpy(cookie, r.cookie);
    http_resp_free(&r);
}

ws_conn *connect_as(const char *cookie, json_t **hello)
{
    int status = 0;
    ws_conn *c = ws_connect(HOST, server.port, "/ws", cookie, &status);
    assert_non_null(c);
    json_t *h = ws_expect(c, "hello", WAIT);
    assert_non_null(h);
    if (hello)
        *hello = h;
    else
        json_decref(h);
    return c;
}

void send_fmt(ws_conn *c, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    assert_int_equal(ws_send_text(c, buf), 0);
}

json_int_t jint(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

/* a seeks with `settings` (JSON members), b accepts; both get the game. */
void start_duel(ws_conn *a, ws_conn *b, const char *settings, duel *d)
{
    send_fmt(a, "{\"type\":\"seek\",%s}", settings);
    json_t *sc = ws_expect(a, "seek_created", WAIT);
    assert_non_null(sc);
    json_int_t seek = jint(sc, "seek");
    json_decref(sc);
    duel_accept(a, b, seek, d);
}

void duel_accept(ws_conn *a, ws_conn *b, json_int_t seek, duel *d)
{
    send_fmt(b, "{\"type\":\"accept\",\"seek\":%lld}", (long long)seek);
    json_t *ga = ws_expect(a, "game", WAIT), *gb = ws_expect(b, "game", WAIT);
    assert_non_null(ga);
    assert_non_null(gb);
    json_t *ya = json_object_get(json_object_get(ga, "game"), "you");
    assert_int_equal(json_array_size(ya), 1);
    int side_a = (int)json_integer_value(json_array_get(ya, 0));
    d->side[side_a] = a;
    d->side[side_a ^ 1] = b;
    d->game = jint(json_object_get(ga, "game"), "id");
    assert_int_equal(jint(json_object_get(gb, "game"), "id"), d->game);
    d->state = json_incref(json_object_get(side_a == 0 ? ga : gb, "game"));
    json_decref(ga);
    json_decref(gb);
}

/* Plays `move` as ply on c; returns the `move` message c gets back. */
json_t *play(ws_conn *c, json_int_t game, int ply, const char *move)
{
    send_fmt(c, "{\"type\":\"move\",\"game\":%lld,\"ply\":%d,\"move\":\"%s\"}", (long long)game,
             ply, move);
    json_t *m = ws_expect(c, "move", WAIT);
    if (!m)
        fprintf(stderr, "move %s refused: %s\n", move, ws_last_error(c));
    assert_non_null(m);
    assert_int_equal(jint(m, "ply"), ply);
    return m;
}

/* The first legal move in a message carrying `legal`. */
const char *first_legal(json_t *m, size_t pick)
{
    json_t *legal = json_object_get(m, "legal");
    if (json_array_size(legal) == 0)
        fprintf(stderr, "%s\n", json_dumps(m, 0));
    assert_true(json_array_size(legal) > 0);
    return json_string_value(json_array_get(legal, pick % json_array_size(legal)));
}

json_t *player_json(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/api/players/%s", name);
    return get_json(path, NULL, 200);
}

double rating_of(json_t *player, const char *variant, int *games)
{
    json_t *r;
    size_t i;
    json_array_foreach(json_object_get(player, "ratings"), i, r)
        if (strcmp(json_string_value(json_object_get(r, "variant")), variant) == 0) {
            if (games)
                *games = (int)jint(r, "games");
            return json_real_value(json_object_get(r, "rating"));
        }
    if (games)
        *games = 0;
    return 1500.0;
}

/* --- tests ------------------------------------------------------------------------- */

/* R8: a rated game between two signed-in players with clocks; the loser
 * resigns; both ratings move by K=40 * 0.5 = 20 and the history keeps it. */
const char *library_setup(int i)
{
    static char setups[2][64];
    json_t *j = get_json("/api/setups/stratego", NULL, 200);
    json_t *lib = json_object_get(j, "library");
    assert_true(json_array_size(lib) >= 2);
    snprintf(setups[i], sizeof setups[i], "%s",
             json_string_value(json_object_get(json_array_get(lib, (size_t)i), "setup")));
    json_decref(j);
    return setups[i];
}

