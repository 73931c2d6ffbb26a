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
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/rng.h"
#include "../games/pgn.h"
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

/* A game's moves as played, for its record. */
typedef struct played {
    char (*text)[32];
    int n, cap;
} played;

static int played_add(played *p, const game_ops *ops, const void *pos, game_move m)
{
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 256;
        char (*t)[32] = realloc(p->text, (size_t)cap * sizeof *t);
        if (!t)
            return -1;
        p->text = t;
        p->cap = cap;
    }
    ops->format_move(pos, m, p->text[p->n++], sizeof p->text[0]);
    return 0;
}

static int play_from(const seats_config *cfg, bot *const *seat, int aseat, rng *g,
                     seats_tally *t, unsigned char *pos, unsigned char *view, unsigned char *undo,
                     unsigned char *first, played *rec, char *err, size_t errlen);

/* Appends game `g`'s record to cfg->records: 0, or -1 with why in err. */
static int write_record(const seats_config *cfg, int g, int aseat, const void *start,
                        played *p, game_result r, char *err, size_t errlen)
{
    const game_variant *v = cfg->variant;
    char date[16], round[16], nplies[16];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    snprintf(round, sizeof round, "%d", g + 1);
    snprintf(nplies, sizeof nplies, "%d", cfg->opening_plies);
    const char **ptr = malloc((size_t)(p->n ? p->n : 1) * sizeof *ptr);
    if (!ptr) {
        snprintf(err, errlen, "out of memory for a game record");
        return -1;
    }
    for (int i = 0; i < p->n; i++)
        ptr[i] = p->text[i];
    pgn_tag extra[] = { { "OpeningPlies", nplies } };
    pgn_game pg = {
        .v = v, .start = start, .moves = ptr, .nmoves = p->n,
        .event = "citadel match", .site = "?", .date = date, .round = round,
        .over = 1, .winner = r.winner, .reason = r.reason, .extra = extra, .nextra = 1,
    };
    for (int k = 0; k < v->nsides; k++)
        pg.players[k] = cfg->spec[k == aseat ? 0 : 1];
    size_t need = pgn_write(&pg, NULL, 0);
    char *text = malloc(need + 1);
    int rc = 0;
    if (!text) {
        snprintf(err, errlen, "out of memory for a game record");
        rc = -1;
    } else {
        pgn_write(&pg, text, need + 1);
        if (fputs(text, cfg->records) < 0 || fflush(cfg->records) != 0) {
            snprintf(err, errlen, "could not write the records file");
            rc = -1;
        }
    }
    free(text);
    free(ptr);
    return rc;
}

/* Plays one game with the bots in seat and counts it for the side aseat
 * in t; 0, or -1. */
static int play(const seats_config *cfg, int game, bot *const *seat, int aseat, rng *g,
                seats_tally *t, char *err, size_t errlen)
{
    const game_variant *v = cfg->variant;
    const game_ops *ops = v->ops;
    _Alignas(16) unsigned char pos[GAME_POS_MAX], view[GAME_POS_MAX], undo[GAME_POS_MAX];
    _Alignas(16) unsigned char first[GAME_POS_MAX];
    played rec = { 0 };
    int rc = play_from(cfg, seat, aseat, g, t, pos, view, undo, first, cfg->records ? &rec : NULL,
                       err, errlen);
    if (rc == 0 && cfg->records)
        rc = write_record(cfg, game, aseat, first, &rec, ops->result(pos), err, errlen);
    free(rec.text);
    return rc;
}

/* play's game: from its start (kept in first) to its end in pos; each
 * move also into rec if it is given. */
static int play_from(const seats_config *cfg, bot *const *seat, int aseat, rng *g,
                     seats_tally *t, unsigned char *pos, unsigned char *view, unsigned char *undo,
                     unsigned char *first, played *rec, char *err, size_t errlen)
{
    const game_variant *v = cfg->variant;
    const game_ops *ops = v->ops;
    if (start(cfg, pos, v->starts > 1 ? rng_next(g) : 0, err, errlen) != 0)
        return -1;
    memcpy(first, pos, ops->pos_size);
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
        game_move m = list[rng_below(g, (uint64_t)n)];
        if (rec && played_add(rec, ops, pos, m) != 0) {
            snprintf(err, errlen, "out of memory for a game record");
            return -1;
        }
        ops->make(pos, m, undo);
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
        if (rec && played_add(rec, ops, pos, m) != 0) {
            snprintf(err, errlen, "out of memory for a game record");
            return -1;
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
            rc = play(cfg, game, seat, aseat, &g, out, err, errlen);
        for (int k = 0; k < v->nsides; k++)
            bot_free(seat[k]);
        if (rc != 0)
            return -1;
        if (cfg->progress)
            cfg->progress(cfg->progress_ctx, out);
    }
    return 0;
}
