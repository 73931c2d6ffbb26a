/* bots.c -- Stratego's own bots, offered through game.h's factory
 * (game_ops.bots, st_bots).
 *
 *   level=N        the determinized sampling player of bot.h, N 1-6 (also
 *                  "levelN", as src/ai reads its own levels)
 *   cautious       cautious.h's rule-based reference opponent
 *   stratego-v1    the strongest level with none of its later features
 *   stratego-f=N   the strongest level with only the features N (0-15,
 *                  STB_F_* of bot.h)
 * The last three are kept to measure the levels against; the server
 * offers the levels only.
 *
 * Invariant: st_owns accepts exactly the specs st_create makes, and each
 * bot sees only the view it is given (S8); this file only dispatches to
 * bot.h and cautious.h.
 */
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "cautious.h"
#include "stratego.h"

typedef struct st_player {
    stbot *level;          /* a sampling player, or NULL */
    stcautious *cautious;  /* or the reference opponent */
} st_player;

static const game_bot_info st_list[] = {
    { "level=N", "the sampling player that keeps a belief about hidden ranks, N 1 (a beginner) "
                 "to 6 (the strongest)", 1 },
    { "cautious", "a rule-based one-ply player that never attacks unknown pieces with its top "
                  "three ranks", 0 },
    { "stratego-v1", "level 6 as first written, without its later features", 0 },
    { "stratego-f=N", "level 6 with only the features N (0-15, stratego/bot.h)", 0 },
    { NULL, NULL, 0 },
};

/* The N of "level=N" or "levelN" (1 .. STB_LEVELS), or 0. */
static int level_of(const char *spec)
{
    if (strncmp(spec, "level", 5) != 0)
        return 0;
    const char *s = spec + 5 + (spec[5] == '=');
    char *end;
    long n = strtol(s, &end, 10);
    return end != s && !*end && n >= 1 && n <= STB_LEVELS ? (int)n : 0;
}

/* The features of "stratego-v1" (none) and "stratego-f=N" (N, 0-15); -1
 * for any other spec. */
static int features_of(const char *spec)
{
    if (strcmp(spec, "stratego-v1") == 0)
        return 0;
    if (strncmp(spec, "stratego-f=", 11) != 0)
        return -1;
    const char *s = spec + 11;
    char *end;
    long f = strtol(s, &end, 10);
    return end != s && !*end && f >= 0 && f <= (long)STB_F_ALL ? (int)f : -1;
}

static int st_owns(const game_variant *v, const char *spec)
{
    (void)v;
    return level_of(spec) > 0 || strcmp(spec, "cautious") == 0 || features_of(spec) >= 0;
}

static void st_destroy(void *bot)
{
    st_player *p = bot;
    if (!p)
        return;
    stbot_free(p->level);
    stcautious_free(p->cautious);
    free(p);
}

static void *st_create(const game_variant *v, const char *spec, uint64_t seed)
{
    (void)v;
    st_player *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    int level = level_of(spec), features = features_of(spec);
    if (level > 0) {
        p->level = stbot_new(level, seed);
    } else if (features >= 0) {
        if ((p->level = stbot_new(STB_LEVELS, seed)) != NULL)
            stbot_set_features(p->level, (unsigned)features);
    } else if (strcmp(spec, "cautious") == 0) {
        p->cautious = stcautious_new(seed);
    }
    if (!p->level && !p->cautious) {
        st_destroy(p);
        return NULL;
    }
    return p;
}

static void st_new_game(void *bot)
{
    st_player *p = bot;
    if (p->level)
        stbot_new_game(p->level);
    else
        stcautious_new_game(p->cautious);
}

static game_move st_move(void *bot, const void *view, const game_limits *lim, atomic_int *stop)
{
    st_player *p = bot;
    if (p->level)
        return stbot_move(p->level, view, lim, stop);
    return stcautious_move(p->cautious, view);
}

const game_bot_ops st_bots = {
    .list = st_list,
    .owns = st_owns,
    .create = st_create,
    .destroy = st_destroy,
    .new_game = st_new_game,
    .move = st_move,
};
