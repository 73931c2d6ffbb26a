/* stratego_helpers.h -- the small helpers the Stratego rule tests share:
 * positions from text, squares by name, pieces put and read, moves played.
 * Each fails the test (cmocka) rather than return an error. */
#ifndef CITADEL_TEST_STRATEGO_HELPERS_H
#define CITADEL_TEST_STRATEGO_HELPERS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/games/stratego/stratego.h"

/* Red Flag on a1, Blue Flag on j10, nothing else. */
#define BARE "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 - -"

static inline st_pos pos_of(const char *text)
{
    st_pos p;
    game_error err = { "" };
    memset(&p, 0, sizeof p);
    if (st_parse(&p, text, &err) != 0)
        fail_msg("cannot parse %s: %s", text, err.msg);
    assert_true(st_pos_ok(&p));
    return p;
}

static inline int cell_of(const char *name)
{
    int len;
    int c = st_parse_square(name, &len);
    if (c < 0)
        fail_msg("no square %s", name);
    return c;
}

/* Puts a piece; one outside its setup rows is marked as moved. */
static inline void put(st_pos *p, const char *sq, int side, int kind)
{
    int c = cell_of(sq);
    uint8_t v = ST_PIECE(side, kind);
    if (!st_home_row(side, ST_ROW(c)))
        v |= ST_MOVED;
    p->sq[c] = v;
    assert_true(st_pos_ok(p));
}

static inline int kind_at(const st_pos *p, const char *sq)
{
    uint8_t v = p->sq[cell_of(sq)];
    return ST_IS_PIECE(v) ? ST_KIND(v) : 0;
}

static inline int side_at(const st_pos *p, const char *sq)
{
    uint8_t v = p->sq[cell_of(sq)];
    return ST_IS_PIECE(v) ? ST_SIDE(v) : -1;
}

static inline void play(st_pos *p, const char *text)
{
    game_move m;
    game_error err = { "" };
    if (st_parse_move(p, text, &m, &err) != 0)
        fail_msg("move %s refused: %s", text, err.msg);
    st_make(p, m);
    assert_true(st_pos_ok(p));
}

static inline int legal(const st_pos *p, const char *text)
{
    game_move m;
    return st_parse_move(p, text, &m, NULL) == 0;
}

static inline void assert_result(const st_pos *p, int over, int winner, const char *reason)
{
    game_result r = st_result(p);
    assert_int_equal(r.over, over);
    if (over) {
        assert_int_equal(r.winner, winner);
        assert_string_equal(r.reason, reason);
    }
}

/* Number of moves of the piece on sq. */
static inline int moves_from(const st_pos *p, const char *sq)
{
    game_move list[ST_MAX_MOVES];
    int n = st_legal(p, list), k = 0, c = cell_of(sq);
    for (int i = 0; i < n; i++)
        k += ST_FROM(list[i]) == c;
    return k;
}


#endif
