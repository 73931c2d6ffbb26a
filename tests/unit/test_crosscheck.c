/* test_crosscheck.c -- the Rampart engine against an independent reference.
 *
 * ref_rampart.h is a second, naive implementation of ../shared/rules/rampart.md
 * written without looking at the engine. These tests drive both through the
 * same games and positions and require them to agree on everything the rules
 * decide: the legal moves (R3, R4), the position after a move (R4, R5, R9),
 * the position string (R9) and the result (R6, R7).
 *
 * Every disagreement is printed with the position string and both sides'
 * answers; a test fails if it saw any.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/base/rng.h"
#include "../../src/games/rampart/rampart.h"
#include "ref_rampart.h"

/* ---- bookkeeping ------------------------------------------------------- */

#define MAX_REPORTS 12

typedef struct stats {
    unsigned long positions;   /* positions compared in full */
    unsigned long makes;       /* single moves made by both and compared */
    unsigned long games;
    unsigned long finished;    /* games that reached an R7 end (others hit the ply cap) */
    unsigned long enclosures;  /* moves that removed a piece by enclosure */
    unsigned long ends[5];     /* compared positions that were over, by reason:
                                * -, no-captures, insufficient, move-limit, no-moves */
    unsigned long mismatches;
} stats;

static int reason_index(const char *reason)
{
    static const char *names[5] = { "", "no-captures", "insufficient", "move-limit", "no-moves" };
    for (int i = 0; i < 5; i++)
        if (reason && strcmp(reason, names[i]) == 0)
            return i;
    return 0;
}

static void print_stats(const char *what, const stats *st)
{
    print_message("[ %s ] %lu positions, %lu makes, %lu games (%lu to an R7 end), "
                  "%lu enclosure moves; "
                  "ends: no-captures %lu, insufficient %lu, move-limit %lu, no-moves %lu; "
                  "mismatches %lu\n",
                  what, st->positions, st->makes, st->games, st->finished, st->enclosures, st->ends[1],
                  st->ends[2], st->ends[3], st->ends[4], st->mismatches);
}

static int cmp_move(const void *a, const void *b)
{
    const ref_move *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return 0;
}

static void print_moves(const ref_pos *rp, const char *label, const ref_move *m, int n)
{
    char name[5];
    fprintf(stderr, "    %s (%d):", label, n);
    for (int i = 0; i < n; i++) {
        ref_move_name(rp, m[i], name);
        fprintf(stderr, " %s", name);
    }
    fprintf(stderr, "\n");
}

static const game_ops *rp_ops(void)
{
    return rp_variant_classic.ops;
}

/* ---- the comparison of one position ------------------------------------ */

/* Compares everything about one position; returns 1 if all agree. `ctx`
 * says where the position came from (printed on a mismatch). Fills the
 * sorted legal moves of both (engine moves kept alongside, in the same
 * order as the (from,to) pairs) for the caller. */
static int compare_position(stats *st, const rp_pos *ep, const ref_pos *rp, const char *ctx,
                            game_move *emoves, ref_move *epairs, int *en_out, ref_move *rmoves,
                            int *rn_out)
{
    char ebuf[256], rbuf[256];
    int ok = 1;
    game_move raw[GAME_MAX_MOVES], raw2[GAME_MAX_MOVES];

    st->positions++;
    rp_format(ep, ebuf, sizeof ebuf);
    ref_format(rp, rbuf, sizeof rbuf);
    if (strcmp(ebuf, rbuf) != 0)
        ok = 0;

    /* Legal moves (R3, R4), via rp_legal and via the game interface. */
    int en = rp_legal(ep, raw);
    int en2 = rp_ops()->moves(ep, raw2);
    int same_iface = (en == en2) && memcmp(raw, raw2, sizeof raw[0] * (size_t)en) == 0;
    /* Pair each engine move with its (from,to) and sort both together. */
    for (int i = 0; i < en; i++) {
        epairs[i].from = RP_FROM(raw[i]);
        epairs[i].to = RP_TO(raw[i]);
    }
    /* insertion sort keeps emoves aligned with epairs */
    for (int i = 0; i < en; i++) {
        ref_move pk = epairs[i];
        game_move mk = raw[i];
        int j = i - 1;
        while (j >= 0 && cmp_move(&epairs[j], &pk) > 0) {
            epairs[j + 1] = epairs[j];
            raw[j + 1] = raw[j];
            j--;
        }
        epairs[j + 1] = pk;
        raw[j + 1] = mk;
    }
    memcpy(emoves, raw, sizeof raw[0] * (size_t)en);

    int rgen = ref_gen(rp, rmoves);
    ref_result rr = ref_result_given_moves(rp, rgen);
    int rn = rr.over ? 0 : rgen;
    qsort(rmoves, (size_t)rn, sizeof rmoves[0], cmp_move);
    int same_moves = (en == rn);
    for (int i = 0; same_moves && i < en; i++)
        if (cmp_move(&epairs[i], &rmoves[i]) != 0)
            same_moves = 0;

    /* The type and capture bits the engine put in its moves. */
    int same_bits = 1;
    if (same_moves) {
        for (int i = 0; i < en; i++) {
            char pc = rp->sq[epairs[i].from];
            int want_type = ref_kind(pc) == 'Q' ? RP_QUEEN
                          : ref_kind(pc) == 'N' ? RP_KNIGHT
                          : ref_kind(pc) == 'K' ? RP_KING
                                                : RP_BLOCKER;
            int want_cap = rp->sq[epairs[i].to] != '.';
            if (RP_TYPE(emoves[i]) != want_type || RP_CAP(emoves[i]) != want_cap)
                same_bits = 0;
        }
    }

    /* Result (R6, R7). */
    game_result er = rp_result(ep);
    game_result er2 = rp_ops()->result(ep);
    int same_result = (er.over != 0) == (rr.over != 0) &&
                      (!rr.over || (er.winner == rr.winner && er.reason &&
                                    strcmp(er.reason, rr.reason) == 0));
    int same_result_iface = er.over == er2.over && er.winner == er2.winner &&
                            ((er.reason == NULL && er2.reason == NULL) ||
                             (er.reason && er2.reason && strcmp(er.reason, er2.reason) == 0));
    int same_stm = rp_ops()->side_to_move(ep) == rp->stm;

    /* The engine's own invariants while we are here. */
    int inv = rp_pos_ok(ep) && rp_compute_key(ep) == ep->key;

    if (!(same_moves && same_bits && same_result && same_iface && same_result_iface &&
          same_stm && inv))
        ok = 0;

    if (rr.over)
        st->ends[reason_index(rr.reason)]++;

    if (!ok) {
        st->mismatches++;
        if (st->mismatches <= MAX_REPORTS) {
            fprintf(stderr, "MISMATCH (%s)\n    engine:    %s\n    reference: %s\n", ctx, ebuf,
                    rbuf);
            if (!same_moves) {
                print_moves(rp, "engine moves", epairs, en);
                print_moves(rp, "reference moves", rmoves, rn);
            }
            if (!same_bits)
                fprintf(stderr, "    engine move type/capture bits disagree with the board\n");
            if (!same_iface)
                fprintf(stderr, "    rp_legal and ops->moves disagree (%d vs %d)\n", en, en2);
            if (!same_result || !same_result_iface)
                fprintf(stderr,
                        "    result: engine over=%d winner=%d reason=%s; iface over=%d "
                        "winner=%d reason=%s; reference over=%d winner=%d reason=%s\n",
                        er.over, er.winner, er.reason ? er.reason : "(null)", er2.over,
                        er2.winner, er2.reason ? er2.reason : "(null)", rr.over, rr.winner,
                        rr.reason);
            if (!same_stm)
                fprintf(stderr, "    side to move: engine %d, reference %d\n",
                        rp_ops()->side_to_move(ep), rp->stm);
            if (!inv)
                fprintf(stderr, "    engine invariants fail (rp_pos_ok %d, key ok %d)\n",
                        rp_pos_ok(ep), rp_compute_key(ep) == ep->key);
        }
    }
    *en_out = en;
    *rn_out = rn;
    return ok;
}

/* R9 move notation: the engine writes "c4c5" and reads all three forms. */
static int check_move_text(stats *st, const rp_pos *ep, const ref_pos *rp, game_move m,
                           ref_move pair)
{
    char want[5], got[16], text[16];
    int ok = 1;
    ref_move_name(rp, pair, want);
    rp_format_move(ep, m, got, sizeof got);
    if (strcmp(got, want) != 0)
        ok = 0;
    for (int form = 0; form < 3; form++) {
        game_move back = 0;
        game_error err;
        snprintf(text, sizeof text, "%.2s%s%.2s", want, form == 0 ? "" : form == 1 ? "-" : "x",
                 want + 2);
        if (rp_parse_move(ep, text, &back, &err) != 0 || back != m) {
            ok = 0;
            if (st->mismatches < MAX_REPORTS)
                fprintf(stderr, "    rp_parse_move(\"%s\") failed or differs\n", text);
        }
    }
    if (!ok) {
        char buf[256];
        st->mismatches++;
        if (st->mismatches <= MAX_REPORTS) {
            rp_format(ep, buf, sizeof buf);
            fprintf(stderr, "MISMATCH (move text) %s: engine writes %s, reference %s\n", buf, got,
                    want);
        }
    }
    return ok;
}

/* Plays one move in both and compares the positions reached (all of R4,
 * R5, the move counter of R9; the caller compares the rest). Also checks
 * that the interface's make/unmake restores the position. */
static int compare_make(stats *st, const rp_pos *ep, const ref_pos *rp, game_move m, ref_move pair,
                        rp_pos *ep_after, ref_pos *rp_after, int *removed)
{
    char before[256], ebuf[256], rbuf[256];
    int ok = 1;

    st->makes++;
    *ep_after = *ep;
    *rp_after = *rp;
    rp_make(ep_after, m);
    *removed = ref_make(rp_after, pair);
    if (*removed > (rp->sq[pair.to] != '.'))
        st->enclosures++;

    rp_format(ep_after, ebuf, sizeof ebuf);
    ref_format(rp_after, rbuf, sizeof rbuf);
    if (strcmp(ebuf, rbuf) != 0)
        ok = 0;

    /* make/unmake through the game interface. */
    rp_pos q = *ep;
    unsigned char undo[GAME_POS_MAX];
    assert_true(rp_ops()->undo_size <= sizeof undo);
    rp_ops()->make(&q, m, undo);
    int same_iface = memcmp(q.pc, ep_after->pc, sizeof q.pc) == 0 && q.key == ep_after->key &&
                     q.stm == ep_after->stm && q.fullmove == ep_after->fullmove &&
                     q.status == ep_after->status;
    char ibuf[256];
    if (same_iface)
        strcpy(ibuf, ebuf);
    else
        rp_format(&q, ibuf, sizeof ibuf);
    if (!same_iface)
        ok = 0;
    rp_ops()->unmake(&q, m, undo);
    if (memcmp(q.pc, ep->pc, sizeof q.pc) != 0 || memcmp(q.occ, ep->occ, sizeof q.occ) != 0 ||
        q.key != ep->key || q.g != ep->g || q.fullmove != ep->fullmove ||
        q.move_limit != ep->move_limit || q.stm != ep->stm || q.status != ep->status)
        ok = 0;

    if (!ok) {
        char name[5];
        st->mismatches++;
        if (st->mismatches <= MAX_REPORTS) {
            rp_format(ep, before, sizeof before);
            ref_move_name(rp, pair, name);
            fprintf(stderr,
                    "MISMATCH (make %s) from %s\n    engine:    %s\n    reference: %s\n"
                    "    ops->make: %s\n",
                    name, before, ebuf, rbuf, ibuf);
        }
    }
    return ok;
}

/* ---- random playouts ---------------------------------------------------- */

/* Picks a move, preferring ones that remove enemy pieces so that games
 * reach their ends (and enclosures happen). */
static int pick_move(rng *g, const ref_pos *rp, const ref_move *moves, int n)
{
    int best = 0, nbest = 0;
    int idx[REF_MAX_MOVES];
    uint64_t roll = rng_below(g, 10);
    if (roll < 2)
        return (int)rng_below(g, (uint64_t)n);
    if (roll < 6) {
        /* Look for the move that removes the most (direct or enclosure). */
        for (int i = 0; i < n; i++) {
            ref_pos q = *rp;
            int r = ref_make(&q, moves[i]);
            if (r > best) {
                best = r;
                nbest = 0;
            }
            if (r == best && r > 0)
                idx[nbest++] = i;
        }
    } else {
        /* Any direct capture. */
        for (int i = 0; i < n; i++)
            if (rp->sq[moves[i].to] != '.')
                idx[nbest++] = i;
    }
    if (nbest > 0)
        return idx[rng_below(g, (uint64_t)nbest)];
    return (int)rng_below(g, (uint64_t)n);
}

static void play_games(stats *st, rng *g, const game_variant *v, int games, int full_every)
{
    static const int limits[] = { 0, 0, 5, 10, 20, 50, 100 };
    game_move emoves[GAME_MAX_MOVES], emoves2[GAME_MAX_MOVES];
    ref_move epairs[GAME_MAX_MOVES], rmoves[REF_MAX_MOVES];
    ref_move epairs2[GAME_MAX_MOVES], rmoves2[REF_MAX_MOVES];
    char ctx[256];

    assert_int_equal(v->ops->pos_size, sizeof(rp_pos));
    for (int game = 0; game < games; game++) {
        rp_pos ep, next_e;
        ref_pos rp, next_r;
        char buf[256];
        game_error err;
        uint64_t seed = v->starts > 1 ? rng_next(g) : 0;
        int limit = limits[rng_below(g, sizeof limits / sizeof limits[0])];

        v->ops->start(v, &ep, seed);
        if (limit && v->ops->set_option(&ep, "MoveLimit", limit, &err) != 0)
            fail_msg("set_option MoveLimit %d: %s", limit, err.msg);
        rp_format(&ep, buf, sizeof buf);
        assert_int_equal(ref_parse(&rp, buf), 0);
        rp.limit = limit;
        st->games++;

        for (int ply = 0; ply < 240; ply++) {
            int en, rn, removed;
            snprintf(ctx, sizeof ctx, "%s seed %llu limit %d ply %d", v->name,
                     (unsigned long long)seed, limit, ply);
            if (!compare_position(st, &ep, &rp, ctx, emoves, epairs, &en, rmoves, &rn))
                break;
            if (rn == 0) {
                st->finished++;
                break;
            }
            /* Now and then, every move of this position in both. */
            if (full_every > 0 && rng_below(g, (uint64_t)full_every) == 0) {
                for (int i = 0; i < en; i++) {
                    check_move_text(st, &ep, &rp, emoves[i], epairs[i]);
                    if (compare_make(st, &ep, &rp, emoves[i], epairs[i], &next_e, &next_r,
                                     &removed)) {
                        int a, b;
                        snprintf(ctx, sizeof ctx, "%s after every-move check", v->name);
                        compare_position(st, &next_e, &next_r, ctx, emoves2, epairs2, &a,
                                         rmoves2, &b);
                    }
                }
            }
            int k = pick_move(g, &rp, rmoves, rn);
            /* rmoves and epairs are both sorted and equal: same index */
            if (!compare_make(st, &ep, &rp, emoves[k], epairs[k], &next_e, &next_r, &removed))
                break;
            ep = next_e;
            rp = next_r;
        }
    }
}

static void test_R3_R4_R5_R7_R9_random_playouts_match_reference(void **state)
{
    (void)state;
    stats st;
    rng g;
    memset(&st, 0, sizeof st);
    rng_seed(&g, 20240601u);
    const game_variant *const *vs = game_variants();
    int nvar = 0;
    for (int i = 0; vs[i]; i++) {
        if (strcmp(vs[i]->family, "rampart") != 0)
            continue;
        nvar++;
        /* Shuffle gets more games since each one has its own start. */
        int games = vs[i]->starts > 1 ? 800 : 450;
        play_games(&st, &g, vs[i], games, 40);
    }
    assert_true(nvar >= 2);
    print_stats("playouts", &st);
    assert_int_equal(st.mismatches, 0);
    /* The playouts must reach every kind of end, or they test too little. */
    for (int r = 1; r <= 4; r++)
        assert_true(st.ends[r] > 0);
    assert_true(st.enclosures > 0);
}

/* ---- random positions --------------------------------------------------- */

static void random_position(rng *g, ref_pos *rp)
{
    static const char bottom[4] = { 'Q', 'N', 'K', 'B' };
    static const char top[4] = { 'q', 'n', 'k', 'b' };
    int w, h;
    do {
        w = 3 + (int)rng_below(g, 6);
        h = 3 + (int)rng_below(g, 7);
    } while (w * h > 64);
    memset(rp, 0, sizeof *rp);
    rp->w = w;
    rp->h = h;
    /* Which kinds each side has: often all, sometimes a few, so that the
     * material ends of R7 come up. */
    unsigned mask[2];
    for (int s = 0; s < 2; s++)
        mask[s] = rng_below(g, 2) ? 15u : (unsigned)rng_below(g, 16);
    /* percent of squares filled: anything, a handful, or crowded (where
     * R7.4's "no legal move" comes up) */
    int mode = (int)rng_below(g, 4);
    int density = mode == 0 ? 8 : mode == 1 ? 97 + (int)rng_below(g, 4) : 5 + (int)rng_below(g, 90);
    for (int i = 0; i < w * h; i++) {
        rp->sq[i] = '.';
        if ((int)rng_below(g, 100) >= density)
            continue;
        int s = (int)rng_below(g, 2);
        int k = (int)rng_below(g, 4);
        if (!(mask[s] & (1u << k)))
            continue;
        rp->sq[i] = s ? top[k] : bottom[k];
    }
    rp->stm = (int)rng_below(g, 2);
    rp->fullmove = 1 + (int)rng_below(g, 60);
    rp->limit = 0;
}

static void test_R3_R4_R5_R7_R9_random_positions_match_reference(void **state)
{
    (void)state;
    static const int limits[] = { 0, 0, 0, 10, 30, 59 };
    stats st;
    rng g;
    game_move emoves[GAME_MAX_MOVES], emoves2[GAME_MAX_MOVES];
    ref_move epairs[GAME_MAX_MOVES], rmoves[REF_MAX_MOVES];
    ref_move epairs2[GAME_MAX_MOVES], rmoves2[REF_MAX_MOVES];
    memset(&st, 0, sizeof st);
    rng_seed(&g, 777);

    for (int iter = 0; iter < 4500; iter++) {
        ref_pos rp, rq;
        rp_pos ep, ep2, eq;
        char text[128], ctx[400];
        game_error err;
        int en, rn;

        random_position(&g, &rp);
        ref_format(&rp, text, sizeof text);
        /* The reference reads its own output back unchanged. */
        assert_int_equal(ref_parse(&rq, text), 0);
        assert_memory_equal(&rq, &rp, sizeof rp);

        if (rp_parse(&ep, text, 0, 0, &err) != 0) {
            st.mismatches++;
            fprintf(stderr, "MISMATCH: rp_parse rejects \"%s\": %s\n", text, err.msg);
            continue;
        }
        if (rp_parse(&ep2, text, rp.w, rp.h, &err) != 0 ||
            memcmp(ep2.pc, ep.pc, sizeof ep.pc) != 0) {
            st.mismatches++;
            fprintf(stderr, "MISMATCH: rp_parse with its own size rejects \"%s\"\n", text);
        }
        if (rp_parse(&ep2, text, rp.w == 8 ? 7 : rp.w + 1, rp.h, &err) == 0) {
            st.mismatches++;
            fprintf(stderr, "MISMATCH: rp_parse accepts \"%s\" as a board of another width\n",
                    text);
        }
        int limit = limits[rng_below(&g, sizeof limits / sizeof limits[0])];
        if (limit) {
            if (rp_ops()->set_option(&ep, "MoveLimit", limit, &err) != 0)
                fail_msg("set_option: %s", err.msg);
            rp.limit = limit;
        }
        snprintf(ctx, sizeof ctx, "random position %d, limit %d", iter, limit);
        if (!compare_position(&st, &ep, &rp, ctx, emoves, epairs, &en, rmoves, &rn))
            continue;

        /* One ply of every move, then a short random continuation. */
        for (int i = 0; i < en; i++) {
            int removed, n2, r2;
            check_move_text(&st, &ep, &rp, emoves[i], epairs[i]);
            if (!compare_make(&st, &ep, &rp, emoves[i], epairs[i], &eq, &rq, &removed))
                continue;
            snprintf(ctx, sizeof ctx, "random position %d (%s) after move %d", iter, text, i);
            compare_position(&st, &eq, &rq, ctx, emoves2, epairs2, &n2, rmoves2, &r2);
        }
        for (int ply = 0; ply < 6 && rn > 0; ply++) {
            int removed;
            int k = (int)rng_below(&g, (uint64_t)rn);
            if (!compare_make(&st, &ep, &rp, emoves[k], epairs[k], &eq, &rq, &removed))
                break;
            ep = eq;
            rp = rq;
            snprintf(ctx, sizeof ctx, "random position %d (%s) continuation ply %d", iter, text,
                     ply);
            if (!compare_position(&st, &ep, &rp, ctx, emoves, epairs, &en, rmoves, &rn))
                break;
        }
    }
    print_stats("random positions", &st);
    assert_int_equal(st.mismatches, 0);
    for (int r = 1; r <= 4; r++)
        assert_true(st.ends[r] > 0);
    assert_true(st.enclosures > 0);
}

/* ---- perft -------------------------------------------------------------- */

static void test_R2_R3_R4_R5_perft_depth3_matches_reference(void **state)
{
    (void)state;
    static const uint64_t shuffle_seeds[] = { 0, 1, 2, 3, 1679, 123456789u, 0xdeadbeefu };
    const game_variant *const *vs = game_variants();
    int checked = 0;
    for (int i = 0; vs[i]; i++) {
        const game_variant *v = vs[i];
        if (strcmp(v->family, "rampart") != 0)
            continue;
        int nseeds = v->starts > 1 ? (int)(sizeof shuffle_seeds / sizeof shuffle_seeds[0]) : 1;
        for (int s = 0; s < nseeds; s++) {
            rp_pos ep;
            ref_pos rp;
            char buf[256];
            v->ops->start(v, &ep, shuffle_seeds[s]);
            rp_format(&ep, buf, sizeof buf);
            assert_int_equal(ref_parse(&rp, buf), 0);
            for (int d = 1; d <= 3; d++) {
                unsigned long long want = ref_perft(&rp, d);
                uint64_t fast = rp_perft(&ep, d);
                uint64_t slow = game_perft(v, &ep, d);
                uint64_t gfast = game_perft_fast(v, &ep, d);
                if (fast != want || slow != want || gfast != want)
                    fail_msg("perft %s (%s) depth %d: reference %llu, rp_perft %llu, "
                             "game_perft %llu, game_perft_fast %llu",
                             v->name, buf, d, want, (unsigned long long)fast,
                             (unsigned long long)slow, (unsigned long long)gfast);
                if (d == 3)
                    print_message("[ perft ] %-16s %-55s d3 = %llu\n", v->name, buf, want);
            }
            checked++;
        }
    }
    assert_true(checked >= 6);
}

/* ---- the fixed start positions of R2 ------------------------------------ */

static void test_R2_R9_start_strings(void **state)
{
    (void)state;
    const game_variant *v;
    rp_pos ep;
    char buf[256];
    v = game_variant_find("rampart");
    assert_non_null(v);
    v->ops->start(v, &ep, 0);
    rp_format(&ep, buf, sizeof buf);
    assert_string_equal(buf, "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1");
    v = game_variant_find("rampart-xl");
    assert_non_null(v);
    v->ops->start(v, &ep, 0);
    rp_format(&ep, buf, sizeof buf);
    assert_string_equal(buf, "2qqq2/2nnn2/2kkk2/2bbb2/7/2BBB2/2KKK2/2NNN2/2QQQ2 b 1");
}

/* ---- worked examples from the rules text -------------------------------- */

/* Plays `moves` (R9 text, space-separated) from `text` in both, comparing
 * everything after each move, and checks the final position string and
 * result against what the rules say. */
static void expect_both(const char *text, int limit, const char *moves, const char *want_final,
                        int want_over, int want_winner, const char *want_reason)
{
    stats st;
    rp_pos ep, eq;
    ref_pos rp, rq;
    game_error err;
    game_move emoves[GAME_MAX_MOVES];
    ref_move epairs[GAME_MAX_MOVES], rmoves[REF_MAX_MOVES];
    int en, rn, removed;
    char buf[256], word[16];
    memset(&st, 0, sizeof st);

    if (rp_parse(&ep, text, 0, 0, &err) != 0)
        fail_msg("rp_parse(\"%s\"): %s", text, err.msg);
    assert_int_equal(ref_parse(&rp, text), 0);
    if (limit) {
        assert_int_equal(rp_ops()->set_option(&ep, "MoveLimit", limit, &err), 0);
        rp.limit = limit;
    }
    compare_position(&st, &ep, &rp, text, emoves, epairs, &en, rmoves, &rn);
    for (const char *m = moves; *m;) {
        size_t n = strcspn(m, " ");
        assert_true(n > 0 && n < sizeof word);
        memcpy(word, m, n);
        word[n] = 0;
        m += n + (m[n] == ' ');
        game_move em;
        if (rp_parse_move(&ep, word, &em, &err) != 0)
            fail_msg("%s: engine refuses %s: %s", text, word, err.msg);
        int k = -1;
        for (int i = 0; i < rn; i++) {
            char name[5];
            ref_move_name(&rp, rmoves[i], name);
            if (strcmp(name, word) == 0)
                k = i;
        }
        if (k < 0)
            fail_msg("%s: reference has no move %s", text, word);
        compare_make(&st, &ep, &rp, em, rmoves[k], &eq, &rq, &removed);
        ep = eq;
        rp = rq;
        compare_position(&st, &ep, &rp, word, emoves, epairs, &en, rmoves, &rn);
    }
    assert_int_equal(st.mismatches, 0);

    rp_format(&ep, buf, sizeof buf);
    assert_string_equal(buf, want_final);
    ref_format(&rp, buf, sizeof buf);
    assert_string_equal(buf, want_final);
    game_result er = rp_result(&ep);
    ref_result rr = ref_get_result(&rp);
    assert_int_equal(er.over != 0, want_over);
    assert_int_equal(rr.over, want_over);
    if (want_over) {
        assert_int_equal(er.winner, want_winner);
        assert_int_equal(rr.winner, want_winner);
        assert_string_equal(er.reason, want_reason);
        assert_string_equal(rr.reason, want_reason);
    }
}

static void test_R5_R7_worked_examples_agree(void **state)
{
    (void)state;
    /* R7.2's own example: Bottom Q,Q,Q,K vs Top N,N: Bottom wins at once. */
    expect_both("n4/5/5/5/5/5/5/1QQQ1/2K1n b 1", 0, "", "n4/5/5/5/5/5/5/1QQQ1/2K1n b 1", 1, 0,
                "insufficient");
    /* Source section 9's examples for R7.1. */
    expect_both("qq3/5/5/5/5/5/5/5/QQQ2 b 1", 0, "", "qq3/5/5/5/5/5/5/5/QQQ2 b 1", 1, 0,
                "no-captures");
    expect_both("nnnk1/5/5/5/5/5/5/5/NNN2 b 1", 0, "", "nnnk1/5/5/5/5/5/5/5/NNN2 b 1", 0, -1, "");
    expect_both("nn3/5/5/5/5/5/5/5/NNN2 b 1", 0, "", "nn3/5/5/5/5/5/5/5/NNN2 b 1", 1, 0,
                "no-captures");
    expect_both("bb3/5/5/5/5/5/5/5/QB3 t 4", 0, "", "bb3/5/5/5/5/5/5/5/QB3 t 4", 1, 0,
                "no-captures");
    /* R5: a Queen steps into an enclosure and survives its own move; Top's
     * next move (elsewhere on the board) removes it. */
    expect_both("K3n/5/2b2/1b1b1/1Qb2 b 1", 0, "b1c2", "K3n/5/2b2/1bQb1/2b2 t 1", 0, -1, "");
    expect_both("K3n/5/2b2/1b1b1/1Qb2 b 1", 0, "b1c2 e5e4", "K4/4n/2b2/1b1b1/2b2 b 2", 0, -1,
                "");
    /* R5: edges are not walls. */
    expect_both("4q/b4/Kb3/b4/4N t 1", 0, "e5e4", "5/b3q/Kb3/b4/4N b 2", 0, -1, "");
    /* R5: one Blocker move encloses two Blockers; both go together. */
    expect_both("K3q/5/1BBB1/Bb1bB/1B1B1 b 1", 0, "c3c2", "K3q/5/1B1B1/B1B1B/1B1B1 t 1", 0, -1,
                "");
    /* R7.3: with a limit of 1, Top's reply completes full move 1. */
    expect_both("1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1", 1, "c4c5",
                "1qqq1/1nnn1/1kkk1/1bbb1/2B2/1B1B1/1KKK1/1NNN1/1QQQ1 t 1", 0, -1, "");
    expect_both("1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1", 1, "c4c5 b6b5",
                "1qqq1/1nnn1/1kkk1/2bb1/1bB2/1B1B1/1KKK1/1NNN1/1QQQ1 b 2", 1, -1, "move-limit");
    /* R7.4: no legal move: a draw on equal material, else the side ahead. */
    expect_both("2n/bb1/Qb1 b 1", 0, "", "2n/bb1/Qb1 b 1", 1, -1, "no-moves");
    expect_both("1kn/bb1/Qb1 b 1", 0, "", "1kn/bb1/Qb1 b 1", 1, 1, "no-moves");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R2_R9_start_strings),
        cmocka_unit_test(test_R5_R7_worked_examples_agree),
        cmocka_unit_test(test_R2_R3_R4_R5_perft_depth3_matches_reference),
        cmocka_unit_test(test_R3_R4_R5_R7_R9_random_positions_match_reference),
        cmocka_unit_test(test_R3_R4_R5_R7_R9_random_playouts_match_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
