/* fuzz_stratego.c -- libFuzzer target for Stratego's readers: positions,
 * setups and moves.
 *
 * The first byte picks the reader: 'P' a position string, 'S' a setup
 * string, anything else a start (from that byte) and a space-separated list
 * of move texts. Every reader either refuses its input with a message,
 * leaving its output untouched, or yields something that satisfies every
 * invariant and writes back to the same text.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/games/stratego/stratego.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_position(const char *text)
{
    st_pos p, before;
    memset(&p, 0xa5, sizeof p);
    before = p;
    game_error err = { "" };
    if (st_parse(&p, text, &err) != 0) {
        assert(err.msg[0] != 0);
        assert(memcmp(&p, &before, sizeof p) == 0);
        return;
    }
    assert(st_pos_ok(&p));
    char buf[1024], again[1024];
    st_format(&p, buf, sizeof buf);
    st_pos q;
    assert(st_parse(&q, buf, NULL) == 0);
    assert(memcmp(&p, &q, sizeof p) == 0);
    st_format(&q, again, sizeof again);
    assert(strcmp(buf, again) == 0);
    st_render(&p, buf, sizeof buf);
    /* A side that knows all its own pieces may view the position. */
    for (int side = 0; side < 2; side++) {
        int own_unknown = 0;
        for (int c = 0; c < ST_CELLS; c++)
            own_unknown |= ST_IS_PIECE(p.sq[c]) && ST_SIDE(p.sq[c]) == side &&
                           ST_KIND(p.sq[c]) == ST_UNKNOWN;
        if (own_unknown)
            continue;
        st_pos v;
        st_view(&p, side, &v);
        assert(st_pos_ok(&v));
    }
    game_move list[ST_MAX_MOVES];
    int n = st_legal(&p, list);
    assert(n <= ST_MAX_MOVES);
    for (int i = 0; i < n; i++) {
        st_pos c = p;
        st_make(&c, list[i]);
        assert(st_pos_ok(&c));
        (void)st_result(&c);
    }
}

static void check_setup(const char *text)
{
    st_setup s, before;
    memset(&s, 0x5a, sizeof s);
    before = s;
    game_error err = { "" };
    if (st_setup_parse(&s, text, &err) != 0) {
        assert(err.msg[0] != 0);
        assert(memcmp(&s, &before, sizeof s) == 0);
        return;
    }
    assert(st_setup_check(&s, NULL) == 0);
    char buf[64];
    st_setup_format(&s, buf, sizeof buf);
    assert(strcmp(buf, text) == 0);
    st_pos p;
    st_start_from(&p, &s, &s);
    assert(st_pos_ok(&p));
}

static void check_moves(uint8_t first, char *text)
{
    st_pos p;
    st_start_seed(&p, first);
    if (first & 1)
        p.move_limit = 6;
    char *save = NULL;
    for (char *t = strtok_r(text, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        st_pos before = p;
        game_move m;
        game_error err = { "" };
        if (st_parse_move(&p, t, &m, &err) != 0) {
            assert(err.msg[0] != 0);
            assert(memcmp(&p, &before, sizeof p) == 0);
            continue;
        }
        char back[16];
        st_format_move(&p, m, back, sizeof back);
        game_move again;
        assert(st_parse_move(&p, back, &again, NULL) == 0 && again == m);
        st_make(&p, m);
        assert(st_pos_ok(&p));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    if (data[0] == 'P')
        check_position(text);
    else if (data[0] == 'S')
        check_setup(text);
    else
        check_moves(data[0], text);
    free(text);
    return 0;
}
