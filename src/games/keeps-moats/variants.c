/* variants.c -- the keeps-moats variant and its game_ops binding.
 *
 * Settings (UCI options): GameType 0 Allied Neighbors, 1 Crossroad Allies,
 * 2 Anarchy (default); KingResult 0 Gained (default), 1 Lost, 2 Frozen;
 * MoveLimit in rounds (default 200, 0 = none). They are fields 3, 4 and 9
 * of the position string.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "keeps_moats.h"

#define KM_START                                                                          \
    "bC/bNbKbB/bRbBbQbNbR/bPbPbPbPbPbPbP/9/rP9uP/rRrP9uPuR/rBrNrP9uPuBuN/"               \
    "rCrKrQrP9uPuQuKuC/rNrBrP9uPuNuB/rRrP9uPuR/rP9uP/9/wPwPwPwPwPwPwP/wRwNwQwBwR/wBwKwN/" \
    "wC w anarchy gained wrbu -,-,-,- - 1 200"

/* The game types by the words of the position string (K7). */
static const char *const game_types[] = { "neighbors", "crossroad", "anarchy" };

static const game_option options[] = {
    { "GameType", KM_ANARCHY, 0, 2,
      "0 Allied Neighbors (White+Blue vs Black+Red), 1 Crossroad Allies (White+Black vs "
      "Red+Blue), 2 Anarchy", 1, NULL, 0, game_types },
    { "KingResult", KM_GAINED, 0, 2, "a captured King's pieces: 0 gained, 1 lost, 2 frozen", 1,
      NULL, 0, NULL },
    { "MoveLimit", 200, 0, 100000, "rounds after which the game is a draw; 0 = none", 1, NULL,
      0, NULL },
    { NULL, 0, 0, 0, NULL, 0, NULL, 0, NULL },
};

void km_start(km_pos *pos, int game_type, int king_result)
{
    int rc = km_parse(pos, KM_START, NULL);
    assert(rc == 0);
    (void)rc;
    pos->game_type = (uint8_t)game_type;
    pos->king_result = (uint8_t)king_result;
}

static void op_start(const game_variant *v, void *pos, uint64_t seed)
{
    (void)v;
    (void)seed;
    km_start(pos, KM_ANARCHY, KM_GAINED);
}

static int op_parse(const game_variant *v, void *pos, const char *text, game_error *err)
{
    (void)v;
    return km_parse(pos, text, err);
}

static size_t op_format(const void *pos, char *buf, size_t size)
{
    return km_format(pos, buf, size);
}

static int op_get_option(const void *vpos, const char *name, int *value)
{
    const km_pos *pos = vpos;
    if (strcmp(name, "GameType") == 0)
        *value = pos->game_type;
    else if (strcmp(name, "KingResult") == 0)
        *value = pos->king_result;
    else if (strcmp(name, "MoveLimit") == 0)
        *value = pos->limit;
    else
        return -1;
    return 0;
}

static int op_set_option(void *vpos, const char *name, int value, game_error *err)
{
    km_pos *pos = vpos;
    if (strcmp(name, "GameType") == 0 || strcmp(name, "KingResult") == 0) {
        if (value < 0 || value > 2) {
            snprintf(err->msg, sizeof err->msg, "%s must be 0-2, not %d", name, value);
            return -1;
        }
        km_pos next = *pos;
        if (name[0] == 'G')
            next.game_type = (uint8_t)value;
        else
            next.king_result = (uint8_t)value;
        if (!km_pos_ok(&next)) {
            snprintf(err->msg, sizeof err->msg,
                     "%s %d does not fit this position (pieces of a kingdom out)", name, value);
            return -1;
        }
        *pos = next;
        return 0;
    }
    if (strcmp(name, "MoveLimit") == 0) {
        if (value < 0 || value > 100000) {
            snprintf(err->msg, sizeof err->msg, "MoveLimit must be 0-100000, not %d", value);
            return -1;
        }
        pos->limit = value;
        return 0;
    }
    snprintf(err->msg, sizeof err->msg, "Keeps & Moats has no setting '%.40s'", name);
    return -1;
}

static int op_side_to_move(const void *pos)
{
    return ((const km_pos *)pos)->stm;
}

static int op_team_of(const void *pos, int side)
{
    return km_team(((const km_pos *)pos)->game_type, side);
}

static int op_moves(const void *pos, game_move *out)
{
    return km_legal(pos, out);
}

static int op_parse_move(const void *pos, const char *text, game_move *m, game_error *err)
{
    return km_parse_move(pos, text, m, err);
}

static size_t op_format_move(const void *pos, game_move m, char *buf, size_t size)
{
    return km_format_move(pos, m, buf, size);
}

static void op_make(void *pos, game_move m, void *undo)
{
    memcpy(undo, pos, sizeof(km_pos));
    km_make(pos, m);
#ifdef CITADEL_DEBUG
    assert(km_pos_ok(pos));
#endif
}

static void op_unmake(void *pos, game_move m, const void *undo)
{
    (void)m;
    memcpy(pos, undo, sizeof(km_pos));
}

static game_result op_result(const void *pos)
{
    return km_result(pos);
}

/* A flag that falls puts nobody out by itself: the game goes on (the
 * caller decides what a fallen flag does to that kingdom). */
static game_result op_timeout(const void *start, const void *pos, int side)
{
    (void)start;
    (void)side;
    return km_result(pos);
}

static int op_resign(const void *pos, int side, game_move *m, game_error *err)
{
    return km_resign(pos, side, m, err);
}

static void op_effects(const void *pos, game_move m, game_effects *out)
{
    km_effects(pos, m, out);
}

static int op_threats(const void *pos, char (*out)[GAME_SQUARE_NAME], int max)
{
    return km_threats(pos, out, max);
}

static uint64_t op_hash(const void *pos)
{
    return km_hash(pos);
}

static void op_view(const void *pos, int side, void *out)
{
    (void)side;
    memcpy(out, pos, sizeof(km_pos));
}

static uint64_t op_perft(const void *pos, int depth)
{
    return km_perft(pos, depth);
}

static size_t op_render(const void *pos, char *buf, size_t size)
{
    return km_render(pos, buf, size);
}

static int op_squares(const void *pos, game_piece_at *out, int max)
{
    return km_squares(pos, out, max);
}

static int op_areas(const void *pos, game_area_at *out, int max)
{
    return km_areas(pos, out, max);
}

static const char *op_side_name(const void *pos, int side)
{
    (void)pos;
    return km_side_name(side);
}

static const game_ops km_ops = {
    .pos_size = sizeof(km_pos),
    .undo_size = sizeof(km_pos),
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
    .resign = op_resign,
    .effects = op_effects,
    .threats = op_threats,
    .hash = op_hash,
    .view = op_view,
    .bots = &km_bots,
    .perft = op_perft,
    .render = op_render,
    .squares = op_squares,
    .kinds = km_kinds,
    .areas = op_areas,
    .side_name = op_side_name,
};

const game_variant km_variant = {
    .name = "keeps-moats",
    .family = "keeps-moats",
    .title = "Keeps & Moats Chess",
    .about = "Four kingdoms on a 145-square board; Kings are captured, not mated.",
    .rated = 0,
    .nsides = 4,
    .hidden = 0,
    .starts = 1,
    .options = options,
    .ops = &km_ops,
    .data = NULL,
};
