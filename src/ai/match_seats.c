/* match_seats.c -- the seat-rotating match of match_seats.h.
 *
 * One generator, seeded from the match's seed, decides everything in a
 * fixed order per game: first a seed for each seat's bot, in seat order,
 * then the start (only for variants with several), then the opening
 * plies. Bots are made per game from those seeds, so a game depends on
 * nothing but its draws: the same seed gives the same games.
 */
#include "match_seats.h"

#include <stdio.h>
#include <string.h>

#include "../base/rng.h"
#include "bots.h"

/* The MoveLimit in force (in full moves), for bot_new_game: the setting
 * given, else the option's default; 0 where the variant has none. */
static int move_limit_of(const seats_config *cfg)
{
    for (int i = 0; i < cfg->nsettings; i++)
        if (strcmp(cfg->settings[i].name, "MoveLimit") == 0)
            return cfg->settings[i].value;
    for (const game_option *o = cfg->variant->options; o && o->name; o++)
        if (strcmp(o->name, "MoveLimit") == 0)
            return o->def;
    return 0;
}

static int is_legal(const game_ops *ops, const void *pos, game_move m)
{
    game_move list[GAME_MAX_MOVES];
    int n = m == GAME_MOVE_NONE ? 0 : ops->moves(pos, list);
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return 1;
    return 0;
}

/* Makes a bot that plays v, or fills err. */
static bot *seat_bot(const game_variant *v, const char *spec, uint64_t seed, char *err,
                     size_t errlen)
{
    char why[200] = "";
    bot *b = bot_new(spec, seed, why, sizeof why);
    if (!b) {
        snprintf(err, errlen, "%s", why);
        return NULL;
    }
    if (!bot_spec_can_play(spec, v)) {
        char specs[400];
        bot_specs(v, specs, sizeof specs);
        snprintf(err, errlen, "bot '%.40s' does not play %s (%.*s do)", spec, v->name, 300,
                 specs);
        bot_free(b);
        return NULL;
    }
    return b;
}

/* Writes the start of a game into pos: 0, or -1 if a setting is refused. */
static int start(const seats_config *cfg, void *pos, uint64_t seed, char *err, size_t errlen)
{
    const game_variant *v = cfg->variant;
    v->ops->start(v, pos, seed);
    for (int i = 0; i < cfg->nsettings; i++) {
        game_error e = { "" };
        if (v->ops->set_option(pos, cfg->settings[i].name, cfg->settings[i].value, &e) != 0) {
            snprintf(err, errlen, "%s", e.msg);
            return -1;
        }
    }
    return 0;
}

/* Plays one game with the bots in seat and counts it for the side aseat
 * in t; 0, or -1. */
static int play(const seats_config *cfg, bot *const *seat, int aseat, rng *g, seats_tally *t,
                char *err, size_t errlen)
{
    const game_variant *v = cfg->variant;
    const game_ops *ops = v->ops;
    _Alignas(16) unsigned char pos[GAME_POS_MAX], view[GAME_POS_MAX], undo[GAME_POS_MAX];
    if (start(cfg, pos, v->starts > 1 ? rng_next(g) : 0, err, errlen) != 0)
        return -1;
    for (int k = 0; k < v->nsides; k++)
        if (bot_new_game(seat[k], v, move_limit_of(cfg)) != 0) {
            snprintf(err, errlen, "bot '%.60s' could not start a game", bot_name(seat[k]));
            return -1;
        }
    for (int i = 0; i < cfg->opening_plies; i++) {
        game_move list[GAME_MAX_MOVES];
        int n = ops->moves(pos, list);
        if (n == 0)
            break;
        ops->make(pos, list[rng_below(g, (uint64_t)n)], undo);
    }
    for (;;) {
        game_result r = ops->result(pos);
        if (r.over) {
            if (r.winner < 0)
                t->draws++;
            else if (r.winner == ops->team_of(pos, aseat))
                t->wins++;
            else
                t->losses++;
            return 0;
        }
        int side = ops->side_to_move(pos);
        ops->view(pos, side, view);
        game_move m = bot_move(seat[side], v, view, &cfg->lim, NULL);
        if (is_legal(ops, pos, m)) {
            t->plies++;
        } else {
            game_error e = { "" };
            if (!ops->resign || ops->resign(pos, side, &m, &e) != 0) {
                snprintf(err, errlen, "bot '%.60s' gave no legal move", bot_name(seat[side]));
                return -1;
            }
        }
        ops->make(pos, m, undo);
    }
}

int seats_check(const seats_config *cfg, char *err, size_t errlen)
{
    for (int j = 0; j < 2; j++) {
        bot *b = seat_bot(cfg->variant, cfg->spec[j], 0, err, errlen);
        if (!b)
            return -1;
        bot_free(b);
    }
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    return start(cfg, pos, 0, err, errlen);
}

int seats_run(const seats_config *cfg, seats_tally *out, char *err, size_t errlen)
{
    const game_variant *v = cfg->variant;
    memset(out, 0, sizeof *out);
    out->games = cfg->games;
    if (seats_check(cfg, err, errlen) != 0)
        return -1;
    rng g;
    rng_seed(&g, cfg->seed);
    for (int game = 0; game < cfg->games; game++) {
        int aseat = game % v->nsides, rc = 0;
        bot *seat[GAME_MAX_SIDES] = { NULL };
        for (int k = 0; k < v->nsides; k++)
            if (!(seat[k] = seat_bot(v, cfg->spec[k == aseat ? 0 : 1], rng_next(&g), err,
                                     errlen)))
                rc = -1;
        if (rc == 0)
            rc = play(cfg, seat, aseat, &g, out, err, errlen);
        for (int k = 0; k < v->nsides; k++)
            bot_free(seat[k]);
        if (rc != 0)
            return -1;
        if (cfg->progress)
            cfg->progress(cfg->progress_ctx, out);
    }
    return 0;
}
