/* multi_bot.c -- the style bots of multi_bot.h.
 *
 * A bot is the parsed spec (style, depth, nodes, blur, algorithm) and a
 * random generator: each move draws the seed of that search's blur from
 * it, so that one bot varies from move to move and game to game while the
 * same seed replays the same games. Spec reading is the whole of the
 * checking: multibot_new makes a bot exactly when multibot_check says 1.
 */
#include "multi_bot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/rng.h"
#include "multi.h"

struct multibot {
    const game_variant *v;
    const game_bot_style *style;
    int algo, depth, noise;
    uint64_t nodes;
    rng rng;
};

/* Reads spec into b (all but v and rng); the result of multibot_check. */
static int parse(const game_variant *v, const char *spec, multibot *b, char *err, size_t errlen)
{
    const game_bot_ops *bots = v->ops->bots;
    if (!bots || !bots->styles || bots->nlevels < 1)
        return 0;
    const char *eq = strchr(spec, '=');
    const game_bot_style *style = NULL;
    for (const game_bot_style *s = bots->styles; eq && s->name; s++)
        if (strlen(s->name) == (size_t)(eq - spec) && strncmp(spec, s->name, (size_t)(eq - spec)) == 0)
            style = s;
    if (!style)
        return 0;
    const char *s = eq + 1;
    char *end;
    long level = strtol(s, &end, 10);
    if (s[0] < '1' || s[0] > '9' || level < 1 || level > bots->nlevels ||
        (*end && *end != '/')) {
        if (err && errlen)
            snprintf(err, errlen, "bad bot '%.40s': the level must be 1-%d", spec, bots->nlevels);
        return -1;
    }
    const game_bot_level *l = &bots->levels[level - 1];
    b->style = style;
    b->depth = l->depth;
    b->nodes = l->nodes;
    b->noise = l->blur;
    b->algo = MULTI_PARANOID;
    for (s = end; *s == '/';) {
        s++;
        if (strncmp(s, "paranoid", 8) == 0) {
            b->algo = MULTI_PARANOID;
            s += 8;
        } else if (strncmp(s, "maxn", 4) == 0) {
            b->algo = MULTI_MAXN;
            s += 4;
        } else if (strncmp(s, "nodes=", 6) == 0 && s[6] >= '0' && s[6] <= '9') {
            b->nodes = strtoull(s + 6, &end, 10);
            s = end;
        } else if (strncmp(s, "depth=", 6) == 0 && s[6] >= '1' && s[6] <= '9') {
            long d = strtol(s + 6, &end, 10);
            b->depth = d > MULTI_MAX_DEPTH ? MULTI_MAX_DEPTH : (int)d;
            s = end;
        } else {
            break;  /* not one of ours: s stays on it */
        }
        if (*s && *s != '/')
            break;
    }
    if (*s) {
        if (err && errlen)
            snprintf(err, errlen, "bad limits in '%.40s' (" MULTIBOT_OPTIONS ")", spec);
        return -1;
    }
    return 1;
}

int multibot_check(const game_variant *v, const char *spec, char *err, size_t errlen)
{
    multibot b;
    return parse(v, spec, &b, err, errlen);
}

multibot *multibot_new(const game_variant *v, const char *spec, uint64_t seed)
{
    multibot *b = calloc(1, sizeof *b);
    if (!b || parse(v, spec, b, NULL, 0) != 1) {
        free(b);
        return NULL;
    }
    b->v = v;
    rng_seed(&b->rng, seed);
    return b;
}

void multibot_free(multibot *b)
{
    free(b);
}

/* multi.h passes one context to both callbacks: the bot. */
static void eval_cb(const void *pos, void *ctx, int out[GAME_MAX_SIDES])
{
    const multibot *b = ctx;
    b->style->eval(pos, out);
}

static int hint_cb(const void *pos, game_move m, void *ctx)
{
    const multibot *b = ctx;
    return b->v->ops->bots->hint(pos, m);
}

game_move multibot_move(multibot *b, const void *pos, atomic_int *stop)
{
    game_move list[GAME_MAX_MOVES];
    if (b->v->ops->moves(pos, list) == 0)
        return GAME_MOVE_NONE;
    multi_config c = {
        .variant = b->v, .eval = eval_cb, .hint = b->v->ops->bots->hint ? hint_cb : NULL,
        .ctx = b, .algo = b->algo, .depth = b->depth, .nodes = b->nodes, .noise = b->noise,
        .seed = rng_next(&b->rng), .stop = stop,
    };
    return multi_search(&c, pos, NULL);
}
