/* variants.c -- Stratego's game_ops binding and its one variant.
 *
 * start(seed): below 144 (12 library setups squared) seed picks a library
 * pair, Red's setup seed % 12 and Blue's seed / 12; from 144 on, both
 * armies are random arrangements drawn from the seed (st_start_seed).
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "stratego.h"

static const game_option options[] = {
    { "MoveLimit", ST_DEFAULT_MOVE_LIMIT, 0, ST_MAX_MOVE_LIMIT,
      "Stratego: plies after which the game is a draw (S7); 0 = none", 0, NULL, 0, NULL },
    { NULL, 0, 0, 0, NULL, 0, NULL, 0, NULL },
};

static void op_start(const game_variant *v, void *pos, uint64_t seed)
{
    (void)v;
    st_start_seed(pos, seed);
}

static int op_parse(const game_variant *v, void *pos, const char *text, game_error *err)
{
    (void)v;
    return st_parse(pos, text, err);
}

static size_t op_format(const void *pos, char *buf, size_t size)
{
    return st_format(pos, buf, size);
}

static int op_set_option(void *vpos, const char *name, int value, game_error *err)
{
    st_pos *pos = vpos;
    if (strcmp(name, "MoveLimit") == 0) {
        if (value < 0 || value > ST_MAX_MOVE_LIMIT) {
            snprintf(err->msg, sizeof err->msg, "MoveLimit must be 0-%d, not %d",
                     ST_MAX_MOVE_LIMIT, value);
            return -1;
        }
        pos->move_limit = value;
        return 0;
    }
    snprintf(err->msg, sizeof err->msg, "Stratego has no setting '%.40s'", name);
    return -1;
}

static int op_get_option(const void *vpos, const char *name, int *value)
{
    const st_pos *pos = vpos;
    if (strcmp(name, "MoveLimit") != 0)
        return -1;
    *value = pos->move_limit;
    return 0;
}

static int op_side_to_move(const void *pos)
{
    return ((const st_pos *)pos)->stm;
}

static int op_team_of(const void *pos, int side)
{
    (void)pos;
    return side;
}

static int op_moves(const void *pos, game_move *out)
{
    return st_legal(pos, out);
}

static int op_parse_move(const void *pos, const char *text, game_move *m, game_error *err)
{
    return st_parse_move(pos, text, m, err);
}

static size_t op_format_move(const void *pos, game_move m, char *buf, size_t size)
{
    return st_format_move(pos, m, buf, size);
}

static void op_make(void *pos, game_move m, void *undo)
{
    memcpy(undo, pos, sizeof(st_pos));
    st_make(pos, m);
}

static void op_unmake(void *pos, game_move m, const void *undo)
{
    (void)m;
    memcpy(pos, undo, sizeof(st_pos));
#ifdef CITADEL_DEBUG
    assert(st_pos_ok(pos));
#endif
}

static game_result op_result(const void *pos)
{
    return st_result(pos);
}

static game_result op_timeout(const void *start, const void *pos, int side)
{
    (void)start;
    return st_timeout(pos, side);
}

static uint64_t op_hash(const void *pos)
{
    return st_hash(pos);
}

static void op_view(const void *pos, int side, void *out)
{
    st_view(pos, side, out);
}

static int op_noisy(const void *pos, game_move *out)
{
    return st_board_end(pos, NULL) != ST_ONGOING ? 0 : st_gen_attacks(pos, out);
}

/* Attacks first; what an attack risks is not known from a view. */
static int op_move_hint(const void *pos, game_move m)
{
    (void)pos;
    return ST_ATTACK(m) ? 100 : 0;
}

static int op_material(const void *pos, int side)
{
    return st_count(pos, side);
}

static uint64_t op_perft(const void *pos, int depth)
{
    return st_perft(pos, depth);
}

static size_t op_render(const void *pos, char *buf, size_t size)
{
    return st_render(pos, buf, size);
}

static int op_squares(const void *pos, game_piece_at *out, int max)
{
    return st_squares(pos, out, max);
}

static int op_areas(const void *pos, game_area_at *out, int max)
{
    return st_areas(pos, out, max);
}

static const char *op_side_name(const void *pos, int side)
{
    (void)pos;
    return side == ST_RED ? "red" : "blue";
}

static const char *kind_name(int kind)
{
    static const char *const names[ST_NKINDS] = {
        "", "Spy", "Scout", "Miner", "Sergeant", "Lieutenant", "Captain", "Major",
        "Colonel", "General", "Marshal", "Bomb", "Flag", "piece",
    };
    return kind >= 0 && kind < ST_NKINDS ? names[kind] : "piece";
}

static void piece_words(int side, int kind, char *buf, size_t size)
{
    const char *colour = side == ST_RED ? "Red" : "Blue";
    if (kind >= ST_SPY && kind <= ST_MARSHAL)
        snprintf(buf, size, "%s %s (%d)", colour, kind_name(kind), kind);
    else
        snprintf(buf, size, "%s %s", colour, kind_name(kind));
}

/* S5: an attack shows both pieces to both players; the describing words
 * are all that stays known once a piece is gone. */
static size_t op_describe(const void *vpos, game_move m, char *buf, size_t size)
{
    const st_pos *pos = vpos;
    if (!ST_ATTACK(m)) {
        if (size)
            buf[0] = 0;
        return 0;
    }
    uint8_t a = pos->sq[ST_FROM(m)], d = pos->sq[ST_TO(m)];
    int ak = ST_KIND(a), dk = ST_KIND(d);
    char an[40], dn[40];
    piece_words(ST_SIDE(a), ak, an, sizeof an);
    piece_words(ST_SIDE(d), dk, dn, sizeof dn);
    const char *outcome;
    switch (st_combat(ak, dk)) {
    case ST_ATTACKER_WINS:
        outcome = dk == ST_FLAG ? "the Flag is captured" : "the defender is removed";
        break;
    case ST_DEFENDER_WINS:
        outcome = "the attacker is removed";
        break;
    default:
        outcome = "both are removed";
        break;
    }
    int n = snprintf(buf, size, "%s attacks %s: %s", an, dn, outcome);
    return n < 0 ? 0 : (size_t)n;
}

/* The move's squares, and for an attack both ranks and who lost: what
 * both players learn (S5), as structure for the page. */
static void op_effects(const void *vpos, game_move m, game_effects *out)
{
    const st_pos *pos = vpos;
    memset(out, 0, sizeof *out);
    char a[4], b[4];
    st_square_name(ST_FROM(m), a);
    st_square_name(ST_TO(m), b);
    snprintf(out->from, sizeof out->from, "%s", a);
    snprintf(out->to, sizeof out->to, "%s", b);
    if (!ST_ATTACK(m))
        return;
    int ak = ST_KIND(pos->sq[ST_FROM(m)]), dk = ST_KIND(pos->sq[ST_TO(m)]);
    out->combat = 1;
    snprintf(out->attacker, sizeof out->attacker, "%s", kind_name(ak));
    snprintf(out->defender, sizeof out->defender, "%s", kind_name(dk));
    int c = st_combat(ak, dk);
    out->lost = c == ST_ATTACKER_WINS ? 2 : c == ST_DEFENDER_WINS ? 1 : 3;
    if (out->lost & 2)
        snprintf(out->captured[out->ncaptured++], GAME_SQUARE_NAME, "%s", b);
}

static int setup_check(const char *text, game_error *err)
{
    st_setup s;
    return st_setup_parse(&s, text, err);
}

static size_t setup_random(uint64_t seed, char *buf, size_t size)
{
    st_setup s;
    st_setup_random(&s, seed);
    return st_setup_format(&s, buf, size);
}

static size_t setup_varied(uint64_t seed, char *buf, size_t size)
{
    st_setup s;
    st_setup_varied(&s, seed);
    return st_setup_format(&s, buf, size);
}

static int setup_start(const game_variant *v, void *pos, const char *const *setups,
                       game_error *err)
{
    (void)v;
    st_setup red, blue;
    if (st_setup_parse(&red, setups[ST_RED], err) != 0 ||
        st_setup_parse(&blue, setups[ST_BLUE], err) != 0)
        return -1;
    st_start_from(pos, &red, &blue);
    return 0;
}

static size_t setup_of(const void *pos, int side, char *buf, size_t size)
{
    st_setup s;
    if (side < 0 || side > 1 || st_setup_of(pos, side, &s, NULL) != 0)
        return 0;
    return st_setup_format(&s, buf, size);
}

static const game_setup_ops st_setup_ops = {
    .check = setup_check,
    .random = setup_random,
    .library_size = st_library_size,
    .library_name = st_library_name,
    .library_text = st_library_text,
    .varied = setup_varied,
    .start = setup_start,
    .of = setup_of,
};

static const game_ops st_ops = {
    .pos_size = sizeof(st_pos),
    .undo_size = sizeof(st_pos),
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
    .sterile = NULL,
    .hash = op_hash,
    .view = op_view,
    .describe = op_describe,
    .effects = op_effects,
    .setup = &st_setup_ops,
    .bots = &st_bots,
    .evaluate = NULL,
    .noisy = op_noisy,
    .move_hint = op_move_hint,
    .material = op_material,
    .perft = op_perft,
    .render = op_render,
    .squares = op_squares,
    .kinds = st_kinds,
    .areas = op_areas,
    .side_name = op_side_name,
};

const game_variant st_variant = {
    .name = "stratego",
    .family = "stratego",
    .title = "Stratego",
    .about = "Hidden ranks on a 10x10 board with lakes: capture the enemy Flag. Rated.",
    .rated = 1,
    .nsides = 2,
    .hidden = 1,
    .starts = 144,
    .options = options,
    .ops = &st_ops,
    .data = NULL,
};
