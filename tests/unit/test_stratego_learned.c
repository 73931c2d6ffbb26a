/* test_stratego_learned.c -- the record of what each enemy piece did
 * (dossier.h) and the learned belief read off it (belief_net.h,
 * STB_F_LEARNED).
 *
 * The dossier is checked move by move on short lines of play, as a bot of
 * Red reads its views; the bot's learned belief against the net's own
 * chances, and for keeping to what the view allows. That fitting learns
 * from recorded games is tests/integration/test_stratego.sh's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "../../src/base/rng.h"
#include "../../src/games/stratego/belief_net.h"
#include "../../src/games/stratego/dossier.h"
#include "stratego_bot_helpers.h"

/* Plays `line` from `text`; Red's dossier reads every view of Red's on
 * the way and the last one. Returns the position reached. */
static st_pos watch_line(const char *text, const char *const *line, size_t n, st_dossier *d)
{
    st_pos pos = parse_view(text), view;
    game_error err = { "" };
    st_dossier_clear(d);
    for (size_t i = 0; i <= n; i++) {
        if (pos.stm == ST_RED) {
            st_view(&pos, ST_RED, &view);
            st_dossier_watch(d, &view);
        }
        if (i == n)
            break;
        game_move m;
        assert_int_equal(st_parse_move(&pos, line[i], &m, &err), 0);
        st_make(&pos, m);
    }
    return pos;
}

/* Every record stands on an enemy piece of unknown rank in Red's view. */
static void records_only_on_unknown_enemies(const st_pos *pos, const st_dossier *d)
{
    static const st_deeds none;
    st_pos view;
    st_view(pos, ST_RED, &view);
    for (int c = 0; c < ST_CELLS; c++) {
        uint8_t v = view.sq[c];
        if (!ST_IS_PIECE(v) || ST_SIDE(v) != ST_BLUE || ST_KIND(v) != ST_UNKNOWN)
            assert_memory_equal(&d->of[c], &none, sizeof none);
    }
}

/* S6 (every move is public): a piece's record follows it from square to
 * square: its moves, where it started, when it moved first and last, the
 * strongest of our shown pieces it walked up to, and that it walked on
 * away from it. */
static void test_S6_a_record_follows_its_piece(void **state)
{
    (void)state;
    static st_dossier d;
    static const char *const line[] = { "i1i2", "e6e5", "i2i3", "e5e4", "i3i4", "e4f4" };
    const char *text = "fbbb6/l+l+a+a+c+j+s+3/10/10/2~~m+1~~2/2~~2~~2/10/4G*5/10/F7L1 r 0 - -";
    st_pos pos = watch_line(text, line, 4, &d);
    const int e6 = ST_CELL(5, 4), e4 = ST_CELL(3, 4), f4 = ST_CELL(3, 5);
    const st_deeds *r = &d.of[e4];
    assert_int_equal(r->moves, 2);
    assert_int_equal(r->home, e6);
    assert_int_equal(r->first, 2);
    assert_int_equal(r->last, 4);
    assert_int_equal(r->came, ST_GENERAL);  /* it came next to our General on e3 */
    assert_int_equal(r->approaches, 1);
    assert_int_equal(r->bold, ST_GENERAL);
    assert_int_equal(r->flights, 0);
    records_only_on_unknown_enemies(&pos, &d);

    pos = watch_line(text, line, 6, &d);
    r = &d.of[f4];
    assert_int_equal(r->moves, 3);
    assert_int_equal(r->home, e6);
    assert_int_equal(r->last, 6);
    assert_int_equal(r->came, 0);
    assert_int_equal(r->bold, ST_GENERAL);  /* remembered though it left */
    assert_int_equal(r->flights, 1);
    records_only_on_unknown_enemies(&pos, &d);

    /* the same piece attacked and shown: its record is gone */
    static const char *const more[] = { "i1i2", "e6e5", "i2i3", "e5e4", "e3xe4", "a9a8" };
    pos = watch_line(text, more, 6, &d);
    records_only_on_unknown_enemies(&pos, &d);
}

/* S6: a piece that stays where it is when our shown Colonel comes next to
 * it stood its ground; one that steps away from it feared it. */
static void test_S6_a_record_tells_standing_from_fleeing(void **state)
{
    (void)state;
    static st_dossier d;
    const char *text = "fbbb6/l+l+a+a+c+j+s+3/10/10/2~~2~~2/2~~a+1~~2/10/4C*5/10/F7L1 r 0 - -";
    const int e5 = ST_CELL(4, 4), f5 = ST_CELL(4, 5);
    static const char *const stays[] = { "e3e4", "a9a8" };
    st_pos pos = watch_line(text, stays, 2, &d);
    assert_int_equal(d.of[e5].stood, ST_COLONEL);
    assert_int_equal(d.of[e5].fear, 0);
    records_only_on_unknown_enemies(&pos, &d);
    static const char *const flees[] = { "e3e4", "e5f5" };
    pos = watch_line(text, flees, 2, &d);
    assert_int_equal(d.of[f5].stood, 0);
    assert_int_equal(d.of[f5].fear, ST_COLONEL);
    assert_int_equal(d.of[f5].flights, 1);
    records_only_on_unknown_enemies(&pos, &d);
}

/* A view read twice changes nothing the second time. */
static void test_S6_a_view_is_read_once(void **state)
{
    (void)state;
    static st_dossier d, again;
    static const char *const line[] = { "i1i2", "e6e5", "i2i3", "e5e4" };
    const char *text = "fbbb6/l+l+a+a+c+j+s+3/10/10/2~~m+1~~2/2~~2~~2/10/4G*5/10/F7L1 r 0 - -";
    st_pos pos = watch_line(text, line, 4, &d), view;
    again = d;
    st_view(&pos, ST_RED, &view);
    st_dossier_watch(&again, &view);
    assert_memory_equal(&again, &d, sizeof d);
}

/* S6: with STB_F_LEARNED, the belief of an enemy piece that moved is the
 * learned one: for the only such piece, each kind's chance is its count
 * times e to the net's score for what the piece did, normalised (within
 * the sampling error of the bot's 400 samples). */
static void test_S6_the_learned_belief_is_the_nets(void **state)
{
    (void)state;
    static st_belief learned, counts;
    static st_dossier d;
    static const char *const line[] = { "i1i2", "e6e5", "i2i3", "e5e4", "i3i4", "e4f4" };
    const char *text = "fbbb6/llaacjg3/10/10/2~~s+1~~2/2~~2~~2/10/4M*5/10/F7L1 r 0 - -";
    st_pos pos = parse_view(text), view;
    game_error err = { "" };
    stbot *b = stbot_new(6, 5);
    stbot_set_features(b, STB_F_LEVELS | STB_F_LEARNED);
    for (size_t i = 0; i <= 6; i++) {
        if (pos.stm == ST_RED) {
            st_view(&pos, ST_RED, &view);
            assert_int_equal(stbot_belief(b, &view, &learned, &counts), 0);
            st_dossier_watch(&d, &view);
        }
        if (i == 6)
            break;
        game_move m;
        assert_int_equal(st_parse_move(&pos, line[i], &m, &err), 0);
        st_make(&pos, m);
    }
    stbot_free(b);
    const int f4 = ST_CELL(3, 5);
    float in[ST_DEED_INPUTS], z[ST_NET_KINDS];
    st_dossier_inputs(&d, &view, f4, in);
    st_net_scores(&st_net_trained, in, z, NULL);
    double w[ST_NET_KINDS], sum = 0;
    for (int k = 0; k < ST_NET_KINDS; k++)
        sum += w[k] = (double)learned.pool[ST_SPY + k] * exp((double)z[k]);
    for (int k = 0; k < ST_NET_KINDS; k++)
        assert_float_equal(learned.p[f4][ST_SPY + k], (float)(w[k] / sum), 0.07f);
    assert_float_equal(learned.p[f4][ST_BOMB] + learned.p[f4][ST_FLAG], 0.0f, 1e-6f);
    /* the net tells this piece from the counts */
    double apart = 0;
    for (int k = ST_SPY; k <= ST_MARSHAL; k++)
        apart += fabs((double)learned.p[f4][k] - (double)counts.p[f4][k]);
    assert_true(apart > 0.1);
}

/* S8: samples of the learned belief hold to the view (ranks hidden only,
 * moved pieces move, ran pieces are Scouts), over random games. */
static void test_S8_learned_samples_respect_the_view(void **state)
{
    (void)state;
    stbot *b = stbot_new(6, 9);
    stbot_set_features(b, STB_F_LEVELS | STB_F_LEARNED);
    rng g;
    rng_seed(&g, 77);
    int moved_seen = 0;
    for (uint64_t seed = 0; seed < 20; seed++) {
        st_pos p;
        st_start_seed(&p, seed);
        stbot_new_game(b);
        for (int ply = 0; ply < 200 && !st_over(&p); ply++) {
            game_move list[ST_MAX_MOVES];
            int n = st_legal(&p, list);
            if (n == 0)
                break;
            if (p.stm == ST_RED && ply % 20 == 0) {
                st_pos view, s;
                st_view(&p, ST_RED, &view);
                assert_int_equal(stbot_sample(b, &view, &s), 0);
                assert_true(st_pos_ok(&s));
                for (int c = 0; c < ST_CELLS; c++) {
                    uint8_t x = view.sq[c], y = s.sq[c];
                    if (!ST_IS_PIECE(x) || ST_KIND(x) != ST_UNKNOWN) {
                        assert_int_equal(y, x);
                        continue;
                    }
                    assert_int_equal(y & ~15u, x & ~15u);
                    assert_true(st_marks_allow(x, ST_KIND(y)));
                    moved_seen += (x & ST_MOVED) != 0;
                }
            }
            st_make(&p, list[rng_below(&g, (uint64_t)n)]);
        }
    }
    assert_true(moved_seen > 100);
    stbot_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_S6_a_record_follows_its_piece),
        cmocka_unit_test(test_S6_a_record_tells_standing_from_fleeing),
        cmocka_unit_test(test_S6_a_view_is_read_once),
        cmocka_unit_test(test_S6_the_learned_belief_is_the_nets),
        cmocka_unit_test(test_S8_learned_samples_respect_the_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
