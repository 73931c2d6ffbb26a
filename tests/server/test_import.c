/* test_import.c -- importing a game from PGN over the wire (docs/api.md,
 * "Importing a game"): `citadel serve` on a free loopback port with a fresh
 * database (the binary in $CITADEL), a signed-in player posting records.
 * What it holds: a record the reader accepts becomes one stored game of the
 * player's; anything else is refused with 400 and a reason and stores
 * nothing; imports past their quota (imports-per-hour) are refused 429.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pgn_check.h"
#include "wire.h"

#define SERVER_ARGS                                                                    \
    "--limit signups-per-hour=0 --limit guests-per-hour=0 "                            \
    "--limit new-games-per-hour=0 --limit imports-per-hour=3"

static const fixture_spec fixture = { .args = SERVER_ARGS };

/* --- importing a game from PGN (docs/api.md, "Importing a game") ---------------- */

static const char import_record[] =
    "[Event \"elsewhere\"]\n[Site \"?\"]\n[Date \"2026.01.02\"]\n[Round \"3\"]\n"
    "[White \"x\"]\n[Black \"y\"]\n[Result \"0-1\"]\n[Variant \"rampart\"]\n"
    "[Reason \"resign\"]\n\n1. b3a3 b9a8 {a comment} 2. b2b3 $1 a8b9 0-1\n";

/* POSTs {"pgn": text} (or body, if text is NULL) to /api/games/import as
 * cookie; the status, the answer into *out if not NULL (caller decrefs). */
static int import_post(const char *cookie, const char *text, const char *body, json_t **out)
{
    char *raw = NULL;
    if (text) {
        json_t *j = json_pack("{s:s}", "pgn", text);
        raw = json_dumps(j, JSON_COMPACT);
        json_decref(j);
    }
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/games/import", cookie,
                                  raw ? raw : body, &r), 0);
    free(raw);
    int status = r.status;
    if (out)
        *out = json_loads(r.body, 0, NULL);
    http_resp_free(&r);
    return status;
}

/* The number of games in name's list. */
static size_t games_of(const char *name)
{
    char path[80];
    snprintf(path, sizeof path, "/api/players/%s/games", name);
    json_t *list = get_json(path, NULL, 200);
    size_t n = json_array_size(json_object_get(list, "games"));
    json_decref(list);
    return n;
}

/* An import answers 400 with `want` in its error and stores nothing. */
static void import_refused(const char *cookie, const char *name, const char *text,
                           const char *body, const char *want)
{
    size_t before = games_of(name);
    json_t *a = NULL;
    int status = import_post(cookie, text, body, &a);
    const char *error = json_string_value(json_object_get(a, "error"));
    if (status != 400 || !error || !strstr(error, want))
        fail_msg("want 400 and '%s', got %d: %s", want, status, error ? error : "(none)");
    json_decref(a);
    assert_int_equal(games_of(name), before);
}

static void test_import_a_game_from_pgn(void **state)
{
    (void)state;
    char c[80], g[80];
    signup("ivy", c);
    guest(g);
    assert_int_equal(import_post(NULL, import_record, NULL, NULL), 401);
    assert_int_equal(import_post(g, import_record, NULL, NULL), 401);

    json_t *a;
    assert_int_equal(import_post(c, import_record, NULL, &a), 200);
    json_int_t id = jint(a, "id");
    assert_string_equal(json_string_value(json_object_get(a, "variant")), "rampart");
    assert_int_equal(jint(a, "plies"), 4);
    json_decref(a);
    /* kept over, unrated, the account in every seat, the record's result */
    char path[80];
    snprintf(path, sizeof path, "/api/games/%lld", (long long)id);
    json_t *game = get_json(path, c, 200);
    assert_string_equal(json_string_value(json_object_get(game, "status")), "over");
    assert_true(json_is_true(json_object_get(game, "imported")));
    assert_false(json_is_true(json_object_get(game, "rated")));
    json_t *result = json_object_get(game, "result");
    assert_int_equal(jint(result, "winner"), 1);
    assert_string_equal(json_string_value(json_object_get(result, "reason")), "resign");
    json_t *moves = json_object_get(game, "moves");
    assert_int_equal(json_array_size(moves), 4);
    assert_string_equal(json_string_value(json_array_get(moves, 3)), "a8b9");
    json_t *players = json_object_get(game, "players");
    assert_string_equal(json_string_value(json_object_get(json_array_get(players, 0), "name")), "ivy");
    assert_string_equal(json_string_value(json_object_get(json_array_get(players, 1), "name")), "ivy");
    json_decref(game);
    json_t *list = get_json("/api/players/ivy/games", NULL, 200);
    assert_true(json_is_true(json_object_get(json_array_get(json_object_get(list, "games"), 0),
                                             "imported")));
    json_decref(list);
    /* its record reads back */
    snprintf(path, sizeof path, "/api/games/%lld/record", (long long)id);
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "GET", path, NULL, NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "[Result \"0-1\"]"));
    assert_non_null(strstr(r.body, "1. b3a3 b9a8 2. b2b3 a8b9 0-1\n"));
    assert_int_equal(pgn_check_both(r.body), 0);
    http_resp_free(&r);

    /* refused, each with its reason, nothing stored */
    import_refused(c, "ivy", NULL, "{nope", "want a JSON object");
    import_refused(c, "ivy", NULL, "{\"pgn\": 5}", "want {\"pgn\"");
    import_refused(c, "ivy", NULL, "{\"pgn\": \"\", \"more\": 1}", "want {\"pgn\"");
    import_refused(c, "ivy", "", NULL, "no game in the record");
    /* a NUL in the text: JSON as the server reads it has none */
    import_refused(c, "ivy", NULL, "{\"pgn\": \"[Event \\\"a\\u0000b\\\"]\"}",
                   "want a JSON object");
    char text[2048];
    snprintf(text, sizeof text, "%s", import_record);
    memcpy(strstr(text, "b2b3"), "b2b9", 4);
    import_refused(c, "ivy", text, NULL, "not imported: line 11: move 3 'b2b9': illegal");
    snprintf(text, sizeof text, "%s\n%s", import_record, import_record);
    import_refused(c, "ivy", text, NULL, "one game at a time");
    char *v = strstr(import_record, "rampart");
    snprintf(text, sizeof text, "%.*schess%s", (int)(v - import_record), import_record, v + 7);
    import_refused(c, "ivy", text, NULL, "unknown variant \"chess\"");
    import_refused(c, "ivy",
                   "[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"?\"]\n"
                   "[Black \"?\"]\n[Result \"*\"]\n[Variant \"stratego\"]\n\n1. a4a5 *\n",
                   NULL, "a game with hidden pieces needs its start");
    char *big = malloc(62 * 1024);
    assert_non_null(big);
    memset(big, ' ', 62 * 1024 - 1);
    big[62 * 1024 - 1] = 0;
    memcpy(big, import_record, strlen(import_record));
    import_refused(c, "ivy", big, NULL, "a record of at most 61440 bytes");
    free(big);

    /* the quota (3 an hour here) counts imports, not refusals */
    char cj[80];
    signup("judy", cj);
    assert_int_equal(import_post(cj, import_record, NULL, NULL), 200);
    import_refused(cj, "judy", "", NULL, "no game");
    assert_int_equal(import_post(cj, import_record, NULL, NULL), 200);
    import_refused(cj, "judy", "", NULL, "no game");
    assert_int_equal(import_post(cj, import_record, NULL, NULL), 200);
    assert_int_equal(import_post(cj, import_record, NULL, &a), 429);
    json_decref(a);
    assert_int_equal(games_of("judy"), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_a_game_from_pgn),
    };
    return fixture_run_group(tests, &fixture);
}
