/* stratego_bot_helpers.h -- what the Stratego bot tests share: views from
 * text, beliefs made by hand or read by the bot after a line of play, and
 * a search of given features and depth that must answer a legal move.
 * Each fails the test (cmocka) rather than return an error. */
#ifndef CITADEL_TEST_STRATEGO_BOT_HELPERS_H
#define CITADEL_TEST_STRATEGO_BOT_HELPERS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/games/stratego/bot.h"
#include "../../src/games/stratego/expect.h"
#include "../../src/games/stratego/stratego.h"

static inline int is_legal(const st_pos *p, game_move m)
{
    game_move list[ST_MAX_MOVES];
    int n = st_legal(p, list);
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return 1;
    return 0;
}

/* A belief of one unknown enemy piece on `cell`, kind k1 with chance p1
 * or k2 with p2 (one of each in the pool), and the enemy Flag on j10. */
static inline void two_kinds_and_flag(st_belief *bl, int cell, int k1, float p1, int k2, float p2)
{
    memset(bl, 0, sizeof *bl);
    bl->pool[k1] = bl->pool[k2] = bl->pool[ST_FLAG] = 1;
    bl->p[cell][k1] = p1;
    bl->p[cell][k2] = p2;
    bl->p[ST_CELL(9, 9)][ST_FLAG] = 1;
}

/* A belief in which the enemy's unknown pieces are `bombs` Bombs and the
 * Flag, each piece any of them alike. */
static inline void bombs_and_flag(const st_pos *view, int bombs, st_belief *bl)
{
    memset(bl, 0, sizeof *bl);
    bl->pool[ST_BOMB] = bombs;
    bl->pool[ST_FLAG] = 1;
    for (int c = 0; c < ST_CELLS; c++)
        if (ST_IS_PIECE(view->sq[c]) && ST_KIND(view->sq[c]) == ST_UNKNOWN) {
            bl->p[c][ST_BOMB] = (float)bombs / (float)(bombs + 1);
            bl->p[c][ST_FLAG] = 1.0f / (float)(bombs + 1);
        }
}

static inline st_pos parse_view(const char *text)
{
    st_pos view;
    game_error err = { "" };
    assert_int_equal(st_parse(&view, text, &err), 0);
    return view;
}

static inline void believe_after(const char *text, const char *const *line, size_t n,
                          unsigned features, st_belief *bel)
{
    st_pos pos = parse_view(text), view;
    game_error err = { "" };
    stbot *b = stbot_new(6, 11);
    stbot_set_features(b, features);
    for (size_t i = 0; i < n; i++) {
        if (pos.stm == ST_RED) {
            st_view(&pos, ST_RED, &view);
            assert_int_equal(stbot_belief(b, &view, bel, NULL), 0);
        }
        game_move m;
        assert_int_equal(st_parse_move(&pos, line[i], &m, &err), 0);
        st_make(&pos, m);
    }
    st_view(&pos, ST_RED, &view);
    assert_int_equal(stbot_belief(b, &view, bel, NULL), 0);
    stbot_free(b);
}

static inline float chance_of(const st_belief *bel, int cell, int lo, int hi)
{
    float p = 0;
    for (int k = lo; k <= hi; k++)
        p += bel->p[cell][k];
    return p;
}

/* bl made empty but for the enemy Flag, surely on `flag`. */
static inline void only_flag_at(st_belief *bl, int flag)
{
    memset(bl, 0, sizeof *bl);
    bl->pool[ST_FLAG] = 1;
    bl->p[flag][ST_FLAG] = 1;
}

/* The expectimax's legal choice on view under bl, `depth` plies deep. */
static inline game_move searched(const st_pos *view, const st_belief *bl, unsigned features, int depth)
{
    game_move m = stx_search(view, bl, features, 0, depth, 0, NULL, NULL);
    assert_true(is_legal(view, m));
    return m;
}

#endif
