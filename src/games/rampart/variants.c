/* variants.c -- Rampart's forms (R2, R10) and its game_ops binding.
 *
 * Classic and XL are the rated forms. The Fun Zone forms keep R3-R7 and
 * change only the board and the start:
 *   rampart-six     6x9, four of each piece on files b-e.
 *   rampart-narrow  3x9, the full width: every Blocker stands on an edge
 *                   file or between two, and the back rows are walls.
 *   rampart-mini    5x7, two rows of fighters and a row of Blockers a side.
 *   rampart-shuffle Classic's board; Bottom's nine Queens, Knights and Kings
 *                   are shuffled over rows 1-3 (files b-d) and Top's are
 *                   their mirror image, so both armies stand alike. Blockers
 *                   stay in front. 9!/(3!3!3!) = 1680 starts, numbered by
 *                   the Kings' three squares (84 ways) then the Knights'
 *                   among the six left (20 ways).
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "../../base/bits.h"
#include "../../base/rng.h"
#include "nnue.h"
#include "rampart.h"

static const rp_variant_data classic_data = {
    5, 9, "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1"
};
static const rp_variant_data xl_data = {
    7, 9, "2qqq2/2nnn2/2kkk2/2bbb2/7/2BBB2/2KKK2/2NNN2/2QQQ2 b 1"
};
static const rp_variant_data six_data = {
    6, 9, "1qqqq1/1nnnn1/1kkkk1/1bbbb1/6/1BBBB1/1KKKK1/1NNNN1/1QQQQ1 b 1"
};
static const rp_variant_data narrow_data = { 3, 9, "qqq/nnn/kkk/bbb/3/BBB/KKK/NNN/QQQ b 1" };
static const rp_variant_data mini_data = { 5, 7, "1qnq1/1knk1/1bbb1/5/1BBB1/1KNK1/1QNQ1 b 1" };
static const rp_variant_data shuffle_data = { 5, 9, NULL };

/* R7.3: the limits offered to players, 100 first. */
static const int offered_limits[] = { 50, 100, 150, 200, -1 };

static const game_option options[] = {
    { "MoveLimit", 0, 0, 100000,
      "full moves after which the game is decided by material (R7.3); 0 = none", 0,
      offered_limits, 100, NULL },
    { NULL, 0, 0, 0, NULL, 0, NULL, 0, NULL },
};

/* The k-th (0-based, lexicographic) 3-subset of n slots, as slot indices. */
static void nth_triple(int n, int k, int out[3])
{
    int i = 0;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            for (int c = b + 1; c < n; c++)
                if (i++ == k) {
                    out[0] = a;
                    out[1] = b;
                    out[2] = c;
                    return;
                }
}

void rp_shuffle_start(uint64_t index, char *buf, size_t size)
{
    index %= RP_SHUFFLE_STARTS;
    char slot[9];                  /* rows 1-3 x files b-d, row-major */
    int tri[3] = { 0, 1, 2 }, free_slots[6] = { 0 }, nf = 0;
    memset(slot, 0, sizeof slot);
    nth_triple(9, (int)(index / 20), tri);
    for (int i = 0; i < 3; i++)
        slot[tri[i]] = 'K';
    for (int i = 0; i < 9; i++)
        if (!slot[i])
            free_slots[nf++] = i;
    nth_triple(6, (int)(index % 20), tri);
    for (int i = 0; i < 3; i++)
        slot[free_slots[tri[i]]] = 'N';
    for (int i = 0; i < 9; i++)
        if (!slot[i])
            slot[i] = 'Q';
    /* Top's rows 9-7 mirror Bottom's rows 1-3. */
    char top[3][4], bot[3][4];
    for (int r = 0; r < 3; r++) {
        for (int f = 0; f < 3; f++) {
            bot[r][f] = slot[r * 3 + f];
            top[r][f] = (char)(slot[r * 3 + f] - 'A' + 'a');
        }
        bot[r][3] = top[r][3] = 0;
    }
    snprintf(buf, size, "1%s1/1%s1/1%s1/1bbb1/5/1BBB1/1%s1/1%s1/1%s1 b 1", top[0], top[1], top[2],
             bot[2], bot[1], bot[0]);
}

/* --- game_ops binding ------------------------------------------------- */

static void op_start(const game_variant *v, void *pos, uint64_t seed)
{
    const rp_variant_data *d = v->data;
    char buf[128];
    const char *text = d->start;
    if (!text) {
        rp_shuffle_start(seed, buf, sizeof buf);
        text = buf;
    }
    int rc = rp_parse(pos, text, d->w, d->h, NULL);
    (void)rc;
}

static int op_parse(const game_variant *v, void *pos, const char *text, game_error *err)
{
    const rp_variant_data *d = v->data;
    return rp_parse(pos, text, d->w, d->h, err);
}

static size_t op_format(const void *pos, char *buf, size_t size)
{
    return rp_format(pos, buf, size);
}

static int op_set_option(void *vpos, const char *name, int value, game_error *err)
{
    rp_pos *pos = vpos;
    if (strcmp(name, "MoveLimit") == 0) {
        if (value < 0 || value > 100000) {
            snprintf(err->msg, sizeof err->msg, "MoveLimit must be 0-100000, not %d", value);
            return -1;
        }
        pos->move_limit = value;
        return 0;
    }
    snprintf(err->msg, sizeof err->msg, "Rampart has no setting '%.40s'", name);
    return -1;
}

static int op_get_option(const void *vpos, const char *name, int *value)
{
    const rp_pos *pos = vpos;
    if (strcmp(name, "MoveLimit") != 0)
        return -1;
    *value = pos->move_limit;
    return 0;
}

static int op_side_to_move(const void *pos)
{
    return ((const rp_pos *)pos)->stm;
}

static int op_team_of(const void *pos, int side)
{
    (void)pos;
    return side;
}

static int op_moves(const void *pos, game_move *out)
{
    return rp_legal(pos, out);
}

static int op_parse_move(const void *pos, const char *text, game_move *m, game_error *err)
{
    return rp_parse_move(pos, text, m, err);
}

static size_t op_format_move(const void *pos, game_move m, char *buf, size_t size)
{
    return rp_format_move(pos, m, buf, size);
}

static void op_make(void *pos, game_move m, void *undo)
{
    memcpy(undo, pos, sizeof(rp_pos));
    rp_make(pos, m);
}

static void op_unmake(void *pos, game_move m, const void *undo)
{
    (void)m;
    memcpy(pos, undo, sizeof(rp_pos));
#ifdef CITADEL_DEBUG
    assert(rp_pos_ok(pos));
#endif
}

static void op_effects(const void *pos, game_move m, game_effects *out)
{
    rp_effects(pos, m, out);
}

static int op_threats(const void *pos, char (*out)[GAME_SQUARE_NAME], int max)
{
    return rp_threats(pos, out, max);
}

static game_result op_result(const void *pos)
{
    return rp_result(pos);
}

static int op_squares(const void *pos, game_piece_at *out, int max)
{
    return rp_squares(pos, out, max);
}

static game_result op_timeout(const void *start, const void *pos, int side)
{
    return rp_timeout(start, pos, side);
}

static int op_sterile(const void *start, const void *pos)
{
    return rp_sterile(start, pos);
}

/* Near the move limit the moves left change what a position is worth, so
 * the last 64 plies before it are told apart. */
static uint64_t op_hash(const void *vpos)
{
    const rp_pos *pos = vpos;
    uint64_t key = pos->key;
    if (pos->move_limit) {
        int left = 2 * (pos->move_limit - pos->fullmove) + 2 - pos->stm;
        if (left >= 0 && left < 64)
            key ^= rng_mix((uint64_t)left);
    }
    return key;
}

/* The learnt evaluation where a net was trained for the board (nnue.h),
 * else the hand-written one. */
static int op_evaluate(const void *vpos)
{
    const rp_pos *pos = vpos;
    const rn_net *net = rn_for(pos);
    return net ? rn_evaluate(net, pos) : rp_evaluate(pos);
}

static int op_blockade(const void *pos)
{
    return rp_blockade(pos);
}

static int op_noisy(const void *pos, game_move *out)
{
    return rp_over(pos) ? 0 : rp_gen_noisy(pos, out);
}

/* Captures first, cheaper takers first (a King taking a Queen before a
 * Queen taking a Knight); then enclosures, by how many they remove. */
static int op_move_hint(const void *vpos, game_move m)
{
    const rp_pos *pos = vpos;
    static const int taker[RP_NTYPES] = { 1, 2, 3, 0 };
    int hint = 0;
    if (RP_CAP(m))
        hint += 100 + 10 * taker[RP_TYPE(m)];
    uint64_t caged = rp_encloses(pos, m);
    if (caged)
        hint += 100 * bits_count(caged);
    return hint;
}

static void op_view(const void *pos, int side, void *out)
{
    (void)side;
    memcpy(out, pos, sizeof(rp_pos));
}

static int op_material(const void *pos, int side)
{
    return rp_material(pos, side);
}

static uint64_t op_perft(const void *pos, int depth)
{
    return rp_perft(pos, depth);
}

static size_t op_render(const void *pos, char *buf, size_t size)
{
    return rp_render(pos, buf, size);
}

static const char *op_side_name(const void *pos, int side)
{
    (void)pos;
    return side == RP_BOTTOM ? "bottom" : "top";
}

static const game_ops rp_ops = {
    .pos_size = sizeof(rp_pos),
    .undo_size = sizeof(rp_pos),
    .start = op_start,
    .parse = op_parse,
    .format = op_format,
    .set_option = op_set_option,
    .get_option = op_get_option,
    .side_to_move = op_side_to_move,
    .team_of = op_team_of,
    .moves = op_moves,
    .parse_move = op_parse_move,
    .format_move = op_format_move,
    .make = op_make,
    .unmake = op_unmake,
    .result = op_result,
    .timeout = op_timeout,
    .sterile = op_sterile,
    .hash = op_hash,
    .view = op_view,
    .evaluate = op_evaluate,
    .blockade = op_blockade,
    .noisy = op_noisy,
    .move_hint = op_move_hint,
    .material = op_material,
    .perft = op_perft,
    .render = op_render,
    .side_name = op_side_name,
    .effects = op_effects,
    .threats = op_threats,
    .squares = op_squares,
    .kinds = rp_kinds,
    .bots = &rp_bots,
};

#define RAMPART(ident, nm, ttl, abt, israted, nstarts, dat)                                  \
    const game_variant ident = { .name = nm, .family = "rampart", .title = ttl, .about = abt, \
                                 .rated = israted, .nsides = 2, .hidden = 0,                 \
                                 .starts = nstarts, .options = options, .ops = &rp_ops,      \
                                 .data = &dat }

RAMPART(rp_variant_classic, "rampart", "Rampart Classic", "The original: 5x9, rated.", 1, 1,
        classic_data);
RAMPART(rp_variant_xl, "rampart-xl", "Rampart XL", "The wide board: 7x9, rated.", 1, 1,
        xl_data);
RAMPART(rp_variant_six, "rampart-six", "Rampart Six",
        "Fun Zone: 6x9 with four pieces of each type.", 0, 1, six_data);
RAMPART(rp_variant_narrow, "rampart-narrow", "Rampart Narrow",
        "Fun Zone: 3x9, every file filled; the flanks are edges.", 0, 1, narrow_data);
RAMPART(rp_variant_mini, "rampart-mini", "Rampart Mini",
        "Fun Zone: 5x7 with two pieces of each type.", 0, 1, mini_data);
RAMPART(rp_variant_shuffle, "rampart-shuffle", "Rampart Shuffle",
        "Fun Zone: Classic with the back rows shuffled, the same for both sides.", 0,
        RP_SHUFFLE_STARTS, shuffle_data);
