/* test_nnue.c -- Rampart's learnt evaluation (src/games/rampart/nnue.h) and
 * its trainer (src/games/rampart/tool_train.h).
 *
 * What must hold: a net file is read only when every field is right (the
 * layout of nnue.c's head comment, written here independently); the
 * quantized net computes exactly the formula of nnue.h, with features read
 * off the board square by square here; a position and its mirror (colours
 * and rows swapped) are worth the same to the side to move; the move-limit
 * buckets follow R7.3's count of plies left; pieces already enclosed (R5)
 * are not seen; the shipped net is valid for Classic and XL and calls their
 * symmetric starts about even; the trainer, given positions whose result
 * is the material count, learns to tell who is ahead; and its labels are
 * searched without contempt.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/ai/search.h"
#include "../../src/base/rng.h"
#include "../../src/games/rampart/tool_train.h"
#include "../../src/games/rampart/nnue.h"

#define NET_BYTES (64 + 2 * RN_FEATURES * RN_HIDDEN + 2 * RN_HIDDEN + 4 * RN_HIDDEN)

static void put32(unsigned char *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

/* A file of random nets for the given boards, as nnue.c documents it. */
static unsigned char *make_file(const int (*boards)[2], int n, uint64_t seed, size_t *size)
{
    *size = 64 + (size_t)n * NET_BYTES;
    unsigned char *buf = aligned_alloc(64, (*size + 63) / 64 * 64);
    assert_non_null(buf);
    memset(buf, 0, *size);
    memcpy(buf, "RPNNUE01", 8);
    put32(buf + 8, 1);
    put32(buf + 12, (uint32_t)n);
    put32(buf + 16, RN_HIDDEN);
    put32(buf + 20, RN_FEATURES);
    rng g;
    rng_seed(&g, seed);
    for (int k = 0; k < n; k++) {
        unsigned char *p = buf + 64 + (size_t)k * NET_BYTES;
        put32(p, (uint32_t)boards[k][0]);
        put32(p + 4, (uint32_t)boards[k][1]);
        put32(p + 8, 300);
        put32(p + 12, (uint32_t)(int32_t)-1234);
        int16_t *q = (int16_t *)(void *)(p + 64);
        for (int i = 0; i < RN_FEATURES * RN_HIDDEN + RN_HIDDEN; i++)
            q[i] = (int16_t)((int)rng_below(&g, 401) - 200);
        for (int i = 0; i < 2 * RN_HIDDEN; i++)
            q[RN_FEATURES * RN_HIDDEN + RN_HIDDEN + i] = (int16_t)((int)rng_below(&g, 257) - 128);
    }
    return buf;
}

static void parse(rp_pos *pos, const char *fen)
{
    game_error err = { "" };
    if (rp_parse(pos, fen, 0, 0, &err) != 0)
        fail_msg("cannot parse %s: %s", fen, err.msg);
}

static const int both[2][2] = { { 5, 9 }, { 7, 9 } };

static void test_check_accepts_and_refuses(void **state)
{
    (void)state;
    size_t size;
    unsigned char *f = make_file(both, 2, 1, &size);
    rn_net nets[RN_MAX_NETS];
    int count = 0;
    char err[160];
    assert_int_equal(rn_check(f, size, nets, &count, err, sizeof err), 0);
    assert_int_equal(count, 2);
    assert_int_equal(nets[1].w, 7);
    assert_int_equal(nets[1].scale, 300);
    assert_int_equal(nets[0].b2, -1234);

    /* Each field wrong in turn, then put back. */
    struct { size_t at; uint32_t value; const char *why; } bad[] = {
        { 4, 0x58585858u, "magic" },
        { 8, 2, "version" },
        { 12, 3, "whole nets" },
        { 12, 0, "whole nets" },
        { 16, RN_HIDDEN * 2, "hidden units" },
        { 20, RN_FEATURES + 1, "features" },
        { 64, 9, "board" },              /* width 9 */
        { 64 + NET_BYTES, 5, "two nets" },  /* both for 5x9 */
        { 64 + 8, 0, "scale" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unsigned char keep[4];
        memcpy(keep, f + bad[i].at, 4);
        put32(f + bad[i].at, bad[i].value);
        count = -1;
        assert_int_equal(rn_check(f, size, nets, &count, err, sizeof err), -1);
        if (!strstr(err, bad[i].why))
            fail_msg("field at %zu: \"%s\" does not say %s", bad[i].at, err, bad[i].why);
        assert_int_equal(count, -1);
        memcpy(f + bad[i].at, keep, 4);
    }
    /* A short file, and an output weight the 32-bit sum could not hold. */
    assert_int_equal(rn_check(f, size - 2, nets, &count, err, sizeof err), -1);
    int16_t *w2 = (int16_t *)(void *)(f + 64 + 64 + 2 * RN_FEATURES * RN_HIDDEN + 2 * RN_HIDDEN);
    w2[5] = (int16_t)(RN_W2_MAX * RN_QB + 1);
    assert_int_equal(rn_check(f, size, nets, &count, err, sizeof err), -1);
    assert_non_null(strstr(err, "output weight"));
    w2[5] = 0;
    assert_int_equal(rn_check(f, size, nets, &count, err, sizeof err), 0);
    free(f);
}

static int piece_at(const rp_pos *pos, uint64_t gone, int f, int r, int *side, int *type)
{
    const rp_geom *g = pos->g;
    if (f < 0 || f >= g->w || r < 0 || r >= g->h)
        return -1;  /* off the board */
    int sq = r * g->w + f;
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < RP_NTYPES; t++)
            if ((pos->pc[s][t] & ~gone) >> sq & 1) {
                *side = s;
                *type = t;
                return 1;
            }
    return 0;
}

/* Whether a piece of side s and type t on (f, r) reaches (tf, tr), by R3. */
static int reaches(const rp_pos *pos, uint64_t gone, int t, int f, int r, int tf, int tr)
{
    int df = tf - f, dr = tr - r, adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
    if (t == RP_KING)
        return (adf | adr) && adf <= 1 && adr <= 1;
    if (t == RP_KNIGHT)
        return (adf == 0 && (adr == 1 || adr == 2)) || (adr == 0 && (adf == 1 || adf == 2));
    if (t != RP_QUEEN || !(adf | adr) || (adf && adr && adf != adr))
        return 0;
    int n = adf > adr ? adf : adr;
    if (n > 3)
        return 0;
    for (int k = 1; k < n; k++) {  /* nothing in between */
        int s, ty;
        if (piece_at(pos, gone, f + k * (df > 0) - k * (df < 0), r + k * (dr > 0) - k * (dr < 0),
                     &s, &ty) == 1)
            return 0;
    }
    return 1;
}

/* Whether side `by` has a piece of type t reaching (f, r). */
static int reached_by(const rp_pos *pos, uint64_t gone, int by, int t, int f, int r)
{
    const rp_geom *g = pos->g;
    for (int sq = 0; sq < g->nsq; sq++)
        if ((pos->pc[by][t] & ~gone) >> sq & 1 && reaches(pos, gone, t, sq % g->w, sq / g->w, f, r))
            return 1;
    return 0;
}

/* Features of pos from persp, square by square, as nnue.h describes them:
 * (own 0 / enemy 1, type, square turned for Top) in the block of all
 * pieces, of those attacked by the type that takes them, of those attacked
 * and not covered by the type that takes the attacker, and of those with
 * three enemy neighbours and the fourth square empty; pieces of the side
 * not to move that the side to move has walled in are left out. */
static int features_by_hand(const rp_pos *pos, int persp, int *out)
{
    const rp_geom *g = pos->g;
    static const int dir[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
    uint64_t gone = 0;
    for (int sq = 0; sq < g->nsq; sq++) {
        int s, t, walls = 0;
        if (piece_at(pos, 0, sq % g->w, sq / g->w, &s, &t) != 1 || s == pos->stm)
            continue;
        for (int d = 0; d < 4; d++) {
            int s2, t2;
            walls += piece_at(pos, 0, sq % g->w + dir[d][0], sq / g->w + dir[d][1], &s2, &t2) == 1 &&
                     s2 == pos->stm;
        }
        if (walls == 4)
            gone |= 1ull << sq;
    }
    int n = 0;
    for (int sq = 0; sq < g->nsq; sq++) {
        int s, t, f = sq % g->w, r = sq / g->w;
        if (piece_at(pos, gone, f, r, &s, &t) != 1)
            continue;
        int rr = persp == RP_TOP ? g->h - 1 - r : r;
        int feat = ((s == persp ? 0 : 1) * RP_NTYPES + t) * 64 + rr * g->w + f;
        out[n++] = feat;
        /* the taker of Queens is the King, of Knights the Queen, of Kings
         * the Knight (R4) */
        static const int taker[RP_NTYPES] = { RP_KING, RP_QUEEN, RP_KNIGHT, -1 };
        if (taker[t] >= 0 && reached_by(pos, gone, s ^ 1, taker[t], f, r)) {
            out[n++] = RN_ATTACKED + feat;
            if (!reached_by(pos, gone, s, taker[taker[t]], f, r))
                out[n++] = RN_HANGING + feat;
        }
        int enemy = 0, empty = 0;
        for (int d = 0; d < 4; d++) {
            int s2, t2, k = piece_at(pos, gone, f + dir[d][0], r + dir[d][1], &s2, &t2);
            enemy += k == 1 && s2 != s;
            empty += k == 0;
        }
        if (enemy == 3 && empty == 1)
            out[n++] = RN_CAGED + feat;
    }
    out[n++] = RN_PIECE_FEATURES + rn_bucket(pos);
    return n;
}

static int by_hand(const rn_net *net, const rp_pos *pos)
{
    int64_t sum = 0;
    for (int k = 0; k < 2; k++) {
        int f[RN_MAX_ACTIVE];
        int n = features_by_hand(pos, k == 0 ? pos->stm : pos->stm ^ 1, f);
        for (int i = 0; i < RN_HIDDEN; i++) {
            int64_t a = net->b1[i];
            for (int j = 0; j < n; j++)
                a += net->w1[(size_t)f[j] * RN_HIDDEN + (size_t)i];
            a = a < 0 ? 0 : a > RN_QA ? RN_QA : a;
            sum += a * net->w2[k * RN_HIDDEN + i];
        }
    }
    int64_t out = (sum + net->b2) * net->scale / (RN_QA * RN_QB);
    return out > 10000 ? 10000 : out < -10000 ? -10000 : (int)out;
}

static const char *const positions[] = {
    "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1",
    "2qqq2/2nnn2/2kkk2/2bbb2/7/2BBB2/2KKK2/2NNN2/2QQQ2 b 1",
    "1qq2/1n1n1/2k1k/1b1b1/2K2/1BBB1/1K1K1/1NN2/2QQ1 t 17",
    /* the Top King on c5 is walled in by Bottom, Bottom to move */
    "1qq2/1n1n1/4k/1bBb1/1BkB1/2B2/1K1K1/1NN2/2QQ1 b 30",
    "3qq2/2nn3/2k1k2/1bb1b2/3K3/2B1BB1/2K1K2/2NN3/2Q1Q2 t 99",
    /* threats: the Queen on e7 attacks the Knights on c7 (not covered) and
     * e5 (covered by the King on d4); the Knight on c5 is caged */
    "q4/5/k1n1Q/2b2/1bNbn/3k1/5/5/K4 b 20",
    "7/1q1n3/2K1k2/1QbNb2/2b1B2/1n1K1q1/3k3/2N4/Q5Q t 40",
    /* a full board: more active features than 16-bit sums may hold */
    "qnkqnkq/nkqnkqn/kqnkqnk/bbbbbbb/QNKQNKQ/NKQNKQN/KQNKQNK/BBBBBBB/QNKQNKQ b 3",
};

static void test_formula_and_features(void **state)
{
    (void)state;
    size_t size;
    unsigned char *f = make_file(both, 2, 7, &size);
    rn_net nets[RN_MAX_NETS];
    int count;
    char err[160];
    assert_int_equal(rn_check(f, size, nets, &count, err, sizeof err), 0);
    int blocks[4] = { 0, 0, 0, 0 };  /* features seen in each block */
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++)
        for (int limit = 0; limit <= 100; limit += 100) {
            rp_pos pos;
            parse(&pos, positions[i]);
            pos.move_limit = limit;
            const rn_net *net = &nets[pos.g->w == 7];
            for (int persp = 0; persp < 2; persp++) {
                int a[RN_MAX_ACTIVE], b[RN_MAX_ACTIVE];
                int na = rn_features(&pos, persp, a), nb = features_by_hand(&pos, persp, b);
                assert_int_equal(na, nb);
                /* the same set (rn_features goes type by type, this square by square) */
                for (int x = 0; x < na; x++) {
                    if (a[x] < RN_PIECE_FEATURES)
                        blocks[a[x] / RN_SQUARES]++;
                    int found = 0;
                    for (int y = 0; y < nb; y++)
                        found |= a[x] == b[y];
                    assert_true(found);
                }
            }
            assert_int_equal(rn_evaluate(net, &pos), by_hand(net, &pos));
        }
    for (int k = 0; k < 4; k++)
        assert_true(blocks[k] > 0);
    rp_pos full;
    parse(&full, positions[sizeof positions / sizeof positions[0] - 1]);
    int ff[RN_MAX_ACTIVE];
    assert_true(rn_features(&full, RP_BOTTOM, ff) > RN_ACC16);
    /* R5: the walled-in King is not seen; with Top to move it is. */
    rp_pos pos;
    parse(&pos, positions[3]);
    int fs[RN_MAX_ACTIVE];
    const int king_c5 = (1 * RP_NTYPES + RP_KING) * 64 + 4 * 5 + 2;  /* enemy King, c5 */
    int n = rn_features(&pos, RP_BOTTOM, fs), seen = 0;
    for (int k = 0; k < n; k++)
        seen += fs[k] == king_c5;
    assert_int_equal(seen, 0);
    parse(&pos, "1qq2/1n1n1/4k/1bBb1/1BkB1/2B2/1K1K1/1NN2/2QQ1 t 30");
    n = rn_features(&pos, RP_BOTTOM, fs);
    for (int k = 0; k < n; k++)
        seen += fs[k] == king_c5;
    assert_int_equal(seen, 1);
    free(f);
}

/* The same game with colours swapped: rows reversed, cases swapped, the
 * other side to move. */
static void mirror(const char *fen, char *out, size_t size)
{
    char board[128], side;
    int move;
    assert_int_equal(sscanf(fen, "%127s %c %d", board, &side, &move), 3);
    char *rows[16];
    int n = 0;
    for (char *r = strtok(board, "/"); r; r = strtok(NULL, "/"))
        rows[n++] = r;
    size_t len = 0;
    for (int i = n - 1; i >= 0; i--) {
        for (char *c = rows[i]; *c; c++)
            out[len++] = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
        out[len++] = i ? '/' : ' ';
    }
    snprintf(out + len, size - len, "%c %d", side == 'b' ? 't' : 'b', move);
}

static void test_mirror_is_worth_the_same(void **state)
{
    (void)state;
    size_t size;
    unsigned char *f = make_file(both, 2, 9, &size);
    rn_net nets[RN_MAX_NETS];
    int count;
    char err[160];
    assert_int_equal(rn_check(f, size, nets, &count, err, sizeof err), 0);
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        char m[160];
        mirror(positions[i], m, sizeof m);
        rp_pos a, b;
        parse(&a, positions[i]);
        parse(&b, m);
        const rn_net *net = &nets[a.g->w == 7];
        assert_int_equal(rn_evaluate(net, &a), rn_evaluate(net, &b));
    }
    free(f);
}

/* R7.3: the limit adjudicates after Top's move completing full move N. */
static void test_R7_3_buckets_count_plies_left(void **state)
{
    (void)state;
    rp_pos pos;
    parse(&pos, positions[0]);
    pos.move_limit = 0;
    assert_int_equal(rn_bucket(&pos), 1);
    pos.move_limit = 100;
    assert_int_equal(rn_bucket(&pos), 1);      /* 200 plies left */
    pos.fullmove = 100;
    assert_int_equal(rn_bucket(&pos), 11);     /* Bottom: 2 plies left */
    pos.stm = RP_TOP;
    assert_int_equal(rn_bucket(&pos), 12);     /* Top's move ends the game */
    pos.fullmove = 81;                         /* 39 plies left */
    assert_int_equal(rn_bucket(&pos), 5);
    pos.fullmove = 80;                         /* 41 */
    assert_int_equal(rn_bucket(&pos), 4);
    int last = 0;
    for (int fm = 1; fm <= 100; fm++)
        for (int s = 0; s < 2; s++) {
            pos.fullmove = fm;
            pos.stm = (uint8_t)s;
            int b = rn_bucket(&pos);
            assert_true(b >= last && b >= 1 && b < RN_BUCKETS);
            last = b;
        }
}

static void test_shipped_net(void **state)
{
    (void)state;
    if (rn_blob_size == 0)
        skip();  /* a build without src/games/rampart/rampart.nnue */
    rn_net nets[RN_MAX_NETS];
    int count;
    char err[160];
    assert_int_equal(rn_check(rn_blob, rn_blob_size, nets, &count, err, sizeof err), 0);
    for (int i = 0; i < 2; i++) {
        rp_pos pos;
        parse(&pos, positions[i]);
        pos.move_limit = 100;
        const rn_net *net = rn_for(&pos);
        assert_non_null(net);
        int e = rn_evaluate(net, &pos);
        if (e < -100 || e > 100)
            fail_msg("%s: the start is worth %d to Bottom", positions[i], e);
        /* a Queen less for Top (the a-file is empty at the start) */
        parse(&pos, i ? "2q4/2nnn2/2kkk2/2bbb2/7/2BBB2/2KKK2/2NNN2/2QQQ2 b 1"
                      : "1q3/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1");
        pos.move_limit = 100;
        assert_true(rn_evaluate(net, &pos) > 200);
    }
    rp_pos six;
    parse(&six, "6/6/6/6/6/6/6/6/Q4k b 1");
    assert_null(rn_for(&six));
}

/* Positions from random play, labelled by the material count alone. */
static void test_trainer_learns_material(void **state)
{
    (void)state;
    char dir[] = "/tmp/citadel-nnue-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char data[64], net[64];
    snprintf(data, sizeof data, "%s/d", dir);
    snprintf(net, sizeof net, "%s/n", dir);
    FILE *f = fopen(data, "wb");
    assert_non_null(f);
    fwrite("RPDATA01", 1, 8, f);
    rng g;
    rng_seed(&g, 5);
    rp_pos test[400];
    int ntest = 0;
    for (int game = 0; game < 700; game++) {
        rp_pos p;
        parse(&p, positions[0]);
        for (int ply = 0; ply < 120; ply++) {
            game_move list[RP_MAX_MOVES];
            int n = rp_legal(&p, list);
            if (n == 0)
                break;
            rp_make(&p, list[rng_below(&g, (uint64_t)n)]);
            int diff = rp_material(&p, p.stm) - rp_material(&p, p.stm ^ 1);
            if (ply % 8 != 7)
                continue;
            if (game >= 600) {
                if (diff && ntest < 400)
                    test[ntest++] = p;
                continue;
            }
            rn_sample s = { .score = (int16_t)(300 * diff),
                            .result = (int8_t)(diff > 0 ? 1 : diff < 0 ? -1 : 0),
                            .stm = p.stm, .w = 5, .h = 9, .fullmove = (int16_t)p.fullmove };
            memcpy(s.pc, p.pc, sizeof s.pc);
            fwrite(&s, sizeof s, 1, f);
        }
    }
    assert_int_equal(fclose(f), 0);
    const char *files[] = { data };
    train_fit_options o = { .out = net, .data = files, .ndata = 1, .epochs = 12,
                            .batch = 256, .lr = 0.003, .lambda = 0.5, .concurrency = 2,
                            .seed = 3 };
    assert_int_equal(train_fit(&o), 0);
    f = fopen(net, "rb");
    assert_non_null(f);
    static _Alignas(64) unsigned char buf[64 + NET_BYTES + 64];
    size_t size = fread(buf, 1, sizeof buf, f);
    fclose(f);
    rn_net nets[RN_MAX_NETS];
    int count;
    char err[160];
    assert_int_equal(rn_check(buf, size, nets, &count, err, sizeof err), 0);
    assert_int_equal(count, 1);
    int right = 0;
    for (int i = 0; i < ntest; i++) {
        int diff = rp_material(&test[i], test[i].stm) - rp_material(&test[i], test[i].stm ^ 1);
        int e = rn_evaluate(&nets[0], &test[i]);
        right += (e > 0) == (diff > 0);
    }
    if (ntest < 50 || right * 10 < ntest * 9)
        fail_msg("the net told who is ahead in %d of %d positions", right, ntest);
    unlink(data);
    unlink(net);
    rmdir(dir);
}

/* The labels of `citadel train gen` are searched without contempt: at the
 * move limit with material level, every move of Top ends the game drawn
 * (R7.3); with contempt that scores -SEARCH_CONTEMPT for the side
 * searching, without it 0. */
static void test_labels_without_contempt(void **state)
{
    (void)state;
    const game_variant *v = game_variant_find("rampart");
    assert_non_null(v);
    rp_pos pos;
    parse(&pos, "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 t 100");
    pos.move_limit = 100;
    searcher *se = search_new(1);
    assert_non_null(se);
    search_limits lim = { .depth = 3, .time = { -1, -1 } };
    search_report rep;
    search_run(se, v, &pos, &lim, NULL, NULL, NULL, &rep);
    assert_int_equal(rep.score, -SEARCH_CONTEMPT);
    search_clear(se);
    search_set_contempt(se, 0);
    search_run(se, v, &pos, &lim, NULL, NULL, NULL, &rep);
    assert_int_equal(rep.score, 0);
    search_free(se);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_accepts_and_refuses),
        cmocka_unit_test(test_formula_and_features),
        cmocka_unit_test(test_mirror_is_worth_the_same),
        cmocka_unit_test(test_R7_3_buckets_count_plies_left),
        cmocka_unit_test(test_shipped_net),
        cmocka_unit_test(test_trainer_learns_material),
        cmocka_unit_test(test_labels_without_contempt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
