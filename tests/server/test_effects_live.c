/* test_effects_live.c -- `citadel serve` over real connections: what the
 * server sends a page to draw a move with (docs/api.md: `effects`, `last`,
 * `threats`), checked against the positions it sends, never against rules
 * of our own: a Rampart game played on one device, each move the one the
 * server's POST /api/position says leaves the fewest enemy pieces, in
 * which the squares that lose an enemy piece from one position to the
 * next are exactly the move's captured and removed squares (R4, R5).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wire.h"

#define SERVER_ARGS \
    "--limit guests-per-hour=0 --limit new-games-per-hour=0 --limit messages-per-second=0"

static const fixture_spec fixture = { .args = SERVER_ARGS };

/* A Rampart board read from a position string (R9: rows from the top, a
 * digit a run of empty squares; upper case Bottom, lower case Top): the
 * piece letter on each square by name, '.' for empty. */
typedef struct {
    int w, h;
    char sq[9][9];   /* [rank - 1][file] */
} board;

static board read_board(const char *pos)
{
    board b;
    memset(&b, '.', sizeof b);
    b.w = 0;
    int rows = 1;
    for (const char *p = pos; *p && *p != ' '; p++)
        rows += *p == '/';
    b.h = rows;
    int r = rows - 1, f = 0;
    for (const char *p = pos; *p && *p != ' '; p++) {
        if (*p == '/') {
            r--;
            f = 0;
        } else if (*p >= '1' && *p <= '9') {
            f += *p - '0';
        } else {
            assert_true(r >= 0 && r < 9 && f < 9);
            b.sq[r][f++] = *p;
        }
        if (f > b.w)
            b.w = f;
    }
    return b;
}

static char at(const board *b, const char *name)
{
    int f = name[0] - 'a', r = atoi(name + 1) - 1;
    assert_true(f >= 0 && f < b->w && r >= 0 && r < b->h);
    return b->sq[r][f];
}

static int in(json_t *list, const char *name)
{
    size_t i;
    json_t *x;
    json_array_foreach(list, i, x) if (strcmp(json_string_value(x), name) == 0) return 1;
    return 0;
}

/* Enemy pieces on a board, for the side to move (Bottom: lower case). */
static int enemies(const char *pos)
{
    int bottom = strchr(pos, ' ')[1] == 'b', n = 0;
    for (const char *p = pos; *p && *p != ' '; p++)
        n += bottom ? (*p >= 'a' && *p <= 'z') : (*p >= 'A' && *p <= 'Z');
    return n;
}

/* The move to play: one that leaves the fewest enemy pieces, by the
 * server's own POST /api/position (every legal move and where it leads),
 * so that the game takes and encloses often; ties by the seed. */
static void pick(const char *pos, unsigned *seed, char *out, size_t size)
{
    json_t *req = json_pack("{s:s, s:s}", "variant", "rampart", "position", pos);
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/position", NULL, body, &r), 0);
    free(body);
    assert_int_equal(r.status, 200);
    json_t *j = json_loads(r.body, 0, NULL);
    http_resp_free(&r);
    json_t *legal = json_object_get(j, "legal");
    assert_true(json_array_size(legal) > 0);
    int best = 1 << 30;
    size_t i;
    json_t *x;
    json_array_foreach(legal, i, x) {
        int n = enemies(json_string_value(json_object_get(x, "after")));
        *seed = *seed * 1103515245u + 12345u;
        n = n * 4 + (int)((*seed >> 8) & 3);
        if (n < best) {
            best = n;
            snprintf(out, size, "%s", json_string_value(json_object_get(x, "move")));
        }
    }
    json_decref(j);
}

static void test_R4_R5_effects_are_what_the_positions_show(void **state)
{
    (void)state;
    char cookie[65];
    guest(cookie);
    ws_conn *c = connect_as(cookie, NULL);
    send_fmt(c, "{\"type\":\"local\",\"variant\":\"rampart\",\"base_ms\":0}");
    json_t *gm = ws_expect(c, "game", WAIT);
    assert_non_null(gm);
    json_t *g = json_object_get(gm, "game");
    json_int_t id = jint(g, "id");
    assert_null(json_object_get(g, "last"));  /* no move yet */
    char pos[256];
    snprintf(pos, sizeof pos, "%s", json_string_value(json_object_get(g, "position")));
    json_t *legal = json_incref(json_object_get(g, "legal"));
    json_decref(gm);
    unsigned seed = 7;
    int taken = 0, enclosed = 0, plies = 0;
    json_t *last = NULL;
    for (; plies < 400 && legal && json_array_size(legal); plies++) {
        char text[16];
        pick(pos, &seed, text, sizeof text);
        int bottom = strchr(pos, ' ')[1] == 'b';
        json_t *m = play(c, id, plies, text);
        assert_non_null(m);
        json_t *e = json_object_get(m, "effects");
        assert_non_null(e);
        /* the move's own squares */
        char from[4], to[4];
        snprintf(from, sizeof from, "%.*s", text[2] >= 'a' ? 2 : 3, text);
        snprintf(to, sizeof to, "%s", text + strlen(from));
        assert_string_equal(json_string_value(json_object_get(e, "from")), from);
        assert_string_equal(json_string_value(json_object_get(e, "to")), to);
        /* every square that lost an enemy piece is named, and no other */
        board before = read_board(pos), after = read_board(json_string_value(json_object_get(m, "position")));
        json_t *cap = json_object_get(e, "captured"), *rem = json_object_get(e, "removed");
        for (int r = 0; r < before.h; r++)
            for (int f = 0; f < before.w; f++) {
                char name[16];
                snprintf(name, sizeof name, "%c%d", 'a' + f, r + 1);
                char was = before.sq[r][f], now = after.sq[r][f];
                int enemy_before = was != '.' && (bottom ? was >= 'a' : was < 'a');
                int enemy_after = now != '.' && (bottom ? now >= 'a' : now < 'a');
                int lost = enemy_before && !enemy_after;
                int named = in(cap, name) || in(rem, name);
                if (lost != named)
                    fail_msg("ply %d, %s: %s %s an enemy piece, effects %s", plies, text, name,
                             lost ? "lost" : "kept", named ? "name it" : "do not");
                if (in(cap, name))
                    assert_string_equal(name, to);  /* taken where the mover lands */
                if (in(rem, name))
                    assert_int_equal(at(&after, name), '.');  /* enclosed: emptied */
            }
        taken += (int)json_array_size(cap);
        enclosed += (int)json_array_size(rem);
        json_t *threats = json_object_get(m, "threats");
        assert_true(json_is_array(threats));
        size_t i;
        json_t *x;
        json_array_foreach(threats, i, x) assert_int_not_equal(at(&after, json_string_value(x)), '.');
        snprintf(pos, sizeof pos, "%s", json_string_value(json_object_get(m, "position")));
        json_decref(legal);
        legal = json_incref(json_object_get(m, "legal"));
        json_decref(last);
        last = json_incref(e);
        json_decref(m);
    }
    json_decref(legal);
    assert_true(plies > 10);
    assert_true(taken > 0);  /* random games do take pieces */
    /* a page opened now draws the last move from the game message */
    send_fmt(c, "{\"type\":\"watch\",\"game\":%lld}", (long long)id);
    gm = ws_expect(c, "game", WAIT);
    assert_non_null(gm);
    assert_true(json_equal(json_object_get(json_object_get(gm, "game"), "last"), last));
    json_decref(gm);
    json_decref(last);
    fprintf(stderr, "  %d plies, %d pieces taken, %d enclosed\n", plies, taken, enclosed);
    ws_close(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R4_R5_effects_are_what_the_positions_show),
    };
    return fixture_run_group(tests, &fixture);
}
