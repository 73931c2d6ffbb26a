/* bots.c -- Stratego's own bots, offered through game.h's factory
 * (game_ops.bots, st_bots).
 *
 *   level=N        the determinized sampling player of bot.h, N 1-6 (also
 *                  "levelN", as src/ai reads its own levels)
 *   cautious       cautious.h's rule-based reference opponent
 *   stratego-v1    the strongest level with none of its later features
 *   stratego-v6    level 6 as it was before the work against an outside AI
 *                  (the features STB_F_V6 of bot.h)
 *   stratego-f=N   the strongest level with only the features N (0 to
 *                  STB_F_ALL, STB_F_* of bot.h)
 * The last four are kept to measure the levels against; the server
 * offers the levels only.
 *
 * Invariant: st_owns accepts exactly the specs st_create makes, and each
 * bot sees only the view it is given (S8); this file only dispatches to
 * bot.h and cautious.h.
 */
#include <stdarg.h>
#include <stdio.h>
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
    { "stratego-v6", "level 6 as it was before the work against an outside AI", 0 },
    { "stratego-f=N", "level 6 with only the features N (stratego/bot.h)", 0 },
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

/* The features of "stratego-v1" (none), "stratego-v6" (STB_F_V6) and
 * "stratego-f=N" (N, 0 to STB_F_ALL); -1 for any other spec. */
static int features_of(const char *spec)
{
    if (strcmp(spec, "stratego-v1") == 0)
        return 0;
    if (strcmp(spec, "stratego-v6") == 0)
        return (int)STB_F_V6;
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

static int st_lines(void *bot, const void *view, const game_limits *lim, int n, game_move *moves,
                    int *scores)
{
    st_player *p = bot;
    if (!p->level)
        return -1;
    stbot_set_lines(p->level, n);
    stbot_move(p->level, view, lim, NULL);
    stbot_set_lines(p->level, 1);
    stx_report r;
    if (stbot_last_report(p->level, &r) != 0)
        return -1;
    for (int i = 0; i < r.nlines && i < n; i++) {
        moves[i] = r.line[i];
        scores[i] = r.line_score[i];
    }
    return r.nlines < n ? r.nlines : n;
}

static int st_report(const void *bot, int *depth, int *score, uint64_t *nodes)
{
    const st_player *p = bot;
    stx_report r;
    if (!p->level || stbot_last_report(p->level, &r) != 0)
        return -1;
    *depth = r.depth;
    *score = r.score;
    *nodes = r.nodes;
    return 0;
}

/* Appends to buf (size bytes, *n used) as snprintf would, counting what
 * did not fit. */
static void put(char *buf, size_t size, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(*n < size ? buf + *n : NULL, *n < size ? size - *n : 0, fmt, ap);
    va_end(ap);
    if (k > 0)
        *n += (size_t)k;
}

static int permille(float p)
{
    return (int)(p * 1000.0f + 0.5f);
}

static int st_belief_text(void *bot, const void *vview, char *buf, size_t size)
{
    st_player *p = bot;
    const st_pos *view = vview;
    static st_belief bl;  /* large; a bot is used by one thread at a time */
    if (size)
        buf[0] = 0;
    if (!p->level || stbot_belief(p->level, view, &bl, NULL) != 0)
        return -1;
    size_t n = 0;
    for (int c = 0; c < ST_CELLS; c++) {
        uint8_t v = view->sq[c];
        if (!ST_IS_PIECE(v) || ST_KIND(v) != ST_UNKNOWN || ST_SIDE(v) == view->stm)
            continue;
        char name[4];
        st_square_name(c, name);
        put(buf, size, &n, "%s%s", n ? "\n" : "", name);
        int kinds[ST_NKINDS], count = 0;
        for (int k = ST_SPY; k <= ST_FLAG; k++)
            if (permille(bl.p[c][k]) > 0)
                kinds[count++] = k;
        /* likeliest first (insertion sort of a few), ties by rank */
        for (int i = 1; i < count; i++)
            for (int j = i; j > 0 && bl.p[c][kinds[j]] > bl.p[c][kinds[j - 1]]; j--) {
                int t = kinds[j];
                kinds[j] = kinds[j - 1];
                kinds[j - 1] = t;
            }
        for (int i = 0; i < count; i++)
            put(buf, size, &n, " %c %d", st_kind_char(ST_SIDE(v), kinds[i]),
                permille(bl.p[c][kinds[i]]));
    }
    return n > (size_t)INT32_MAX ? -1 : (int)n;
}

const game_bot_ops st_bots = {
    .list = st_list,
    .owns = st_owns,
    .create = st_create,
    .destroy = st_destroy,
    .new_game = st_new_game,
    .move = st_move,
    .analyst = "level=6",
    .lines = st_lines,
    .report = st_report,
    .belief = st_belief_text,
};
