/* review.c -- the server's computer review of finished games (review.h).
 *
 * State, on the loop thread: a ring of games waiting, and at most one
 * review running, as one job that goes back and forth between the loop and
 * the worker pool: each trip scores REVIEW_CHUNK positions on a worker,
 * then the loop sends it out again until every position is scored, stores
 * the scores and starts the next review. The searcher is the running
 * review's alone: only the job in flight touches it.
 *
 * What is kept per position is "SIDE BEST SCORE" (BEST "-" once the game
 * is over there), lines apart by ';': the side to move, the engine's move
 * and its score for that side, exactly what the page's worker posts
 * (web/src/engine/worker.ts, review), so a review kept and one made in the
 * browser read alike.
 */
#include "review.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ai/search.h"
#include "../core/http.h"
#include "../core/identity.h"
#include "live.h"

#define REVIEW_CHUNK 4           /* positions a trip of the job scores */
#define REVIEW_QUEUE_MAX 1024    /* the ring's room; LIM_REVIEW_QUEUE says how much is used */
#define REVIEW_POSITIONS_MAX 2048
#define DAY_MS (24 * 3600 * 1000LL)

typedef struct pos_score {
    int side;
    int score;
    char best[24];
} pos_score;

/* One review in flight: its positions, and their scores so far. One
 * allocation, so a pool freeing an unrun job with free() loses nothing. */
typedef struct review_job {
    job base;
    const game_variant *v;
    searcher *sr;
    int64_t game;
    int npos, next;      /* positions, and the first not yet scored */
    pos_score *out;      /* npos of them, after the positions */
    _Alignas(16) unsigned char pos[];  /* npos positions of pos_size bytes */
} review_job;

struct reviews {
    int64_t ring[REVIEW_QUEUE_MAX];
    int head, count;
    review_job *running;  /* in the pool's hands whenever not NULL */
    int64_t running_game;
    int scored, total;    /* the running review's positions scored, of all */
    searcher *sr;
};

static struct reviews *state(srv *s)
{
    if (!s->reviews)
        s->reviews = calloc(1, sizeof *s->reviews);
    return s->reviews;
}

static int reviewable(const game_variant *v)
{
    return v->nsides == 2 && !v->hidden;
}

/* --- the job ------------------------------------------------------------------------ */

/* On a worker: the next positions scored as engine.h's eng_search scores
 * them (table cleared, strongest level, REVIEW_DEPTH). */
static void review_run(job *j)
{
    review_job *rj = (review_job *)j;
    const game_ops *ops = rj->v->ops;
    for (int k = 0; k < REVIEW_CHUNK && rj->next < rj->npos; k++, rj->next++) {
        const unsigned char *pos = rj->pos + (size_t)rj->next * ops->pos_size;
        pos_score *o = &rj->out[rj->next];
        o->side = ops->side_to_move(pos);
        game_result r = ops->result(pos);
        snprintf(o->best, sizeof o->best, "-");
        if (r.over) {
            o->score = r.winner < 0 ? 0 : ops->team_of(pos, o->side) == r.winner ? SEARCH_WIN
                                                                                 : -SEARCH_WIN;
            continue;
        }
        search_clear(rj->sr);
        search_set_level(rj->sr, SEARCH_LEVELS, 1);
        search_limits lim = { .depth = REVIEW_DEPTH, .time = { -1, -1 } };
        search_report rep;
        game_move best = search_run(rj->sr, rj->v, pos, &lim, NULL, NULL, NULL, &rep);
        o->score = rep.score;
        if (best)
            ops->format_move(pos, best, o->best, sizeof o->best);
    }
}

static void start_next(srv *s);

/* The scores as stored: "SIDE BEST SCORE" per position, ';' between. */
static char *scores_text(const review_job *rj)
{
    size_t cap = (size_t)rj->npos * 40 + 1, n = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    text[0] = 0;
    for (int i = 0; i < rj->npos && n < cap; i++)
        n += (size_t)snprintf(text + n, cap - n, "%s%d %s %d", i ? ";" : "", rj->out[i].side,
                              rj->out[i].best, rj->out[i].score);
    if (n >= cap) {  /* cannot happen: an entry is under 40 bytes */
        free(text);
        return NULL;
    }
    return text;
}

/* The stored review of `game` without its scores: 0, STORE_NOT_FOUND, or
 * -1 if it could not be read. */
static int review_row(srv *s, int64_t game, store_review *r)
{
    store_err e;
    return store_review_get(s->st, game, r, NULL, 0, &e);
}

/* The review of `game` stored as done (with rj's scores) or failed. */
static void finish(srv *s, int64_t game, const review_job *rj, int status)
{
    store_review r;
    store_err e;
    char *text = status == STORE_REVIEW_DONE && rj ? scores_text(rj) : NULL;
    if (status == STORE_REVIEW_DONE && (!text || strlen(text) > STORE_REVIEW_MAX))
        status = STORE_REVIEW_FAILED;
    /* the row made when it was asked for keeps who asked and when */
    if (review_row(s, game, &r) != 0)
        r = (store_review){ .game = game, .requested = net_wall_ms() };
    r.status = status;
    r.depth = REVIEW_DEPTH;
    if (store_review_put(s->st, &r, status == STORE_REVIEW_DONE ? text : "", &e) != 0)
        fprintf(stderr, "citadel serve: the review of game %lld was not kept: %s\n",
                (long long)game, e.msg);
    free(text);
}

/* On the loop: another trip, or the end. */
static void review_done(void *app, job *j)
{
    srv *s = app;
    review_job *rj = (review_job *)j;
    struct reviews *q = s->reviews;
    q->scored = rj->next;
    if (rj->next < rj->npos && s->pool && !s->stopping) {
        workers_submit(s->pool, &rj->base);
        return;
    }
    if (rj->next >= rj->npos)
        finish(s, rj->game, rj, STORE_REVIEW_DONE);
    q->running = NULL;
    q->running_game = 0;
    free(rj);
    start_next(s);
}

/* The job for `game`: every position of it read into one allocation;
 * NULL (the review failed for good, stored so) if it cannot be. */
static review_job *job_for(srv *s, int64_t game)
{
    char err[160];
    int status;
    json_t *j = records_positions(s, game, &status, err, sizeof err);
    const game_variant *v = game_variant_find(json_string_value(json_object_get(j, "variant")));
    json_t *list = json_object_get(j, "positions");
    size_t n = json_array_size(list);
    review_job *rj = NULL;
    if (v && reviewable(v) && n >= 1 && n <= REVIEW_POSITIONS_MAX) {
        size_t ps = v->ops->pos_size, room = ((n * ps + 15) / 16) * 16;
        rj = calloc(1, sizeof *rj + room + n * sizeof(pos_score));
    }
    for (size_t i = 0; rj && i < n; i++) {
        game_error ge;
        const char *text = json_string_value(json_array_get(list, i));
        if (!text || v->ops->parse(v, rj->pos + i * v->ops->pos_size, text, &ge) != 0) {
            free(rj);
            rj = NULL;
        }
    }
    json_decref(j);
    if (!rj) {
        finish(s, game, NULL, STORE_REVIEW_FAILED);
        return NULL;
    }
    size_t ps = v->ops->pos_size, room = ((n * ps + 15) / 16) * 16;
    rj->out = (pos_score *)(void *)(rj->pos + room);
    rj->v = v;
    rj->game = game;
    rj->npos = (int)n;
    rj->base.run = review_run;
    rj->base.done = review_done;
    return rj;
}

static void start_next(srv *s)
{
    struct reviews *q = s->reviews;
    while (q && !q->running && q->count > 0 && s->pool && !s->stopping) {
        int64_t game = q->ring[q->head];
        q->head = (q->head + 1) % REVIEW_QUEUE_MAX;
        q->count--;
        if (!q->sr && !(q->sr = search_new(REVIEW_HASH_MB))) {
            fprintf(stderr, "citadel serve: no memory for a review's search\n");
            return;  /* the review stays waiting in the store for the next start */
        }
        review_job *rj = job_for(s, game);
        if (!rj)
            continue;
        rj->sr = q->sr;
        q->running = rj;
        q->running_game = game;
        q->scored = 0;
        q->total = rj->npos;
        workers_submit(s->pool, &rj->base);
    }
}

static int queued(const struct reviews *q, int64_t game, int *place)
{
    for (int i = 0; q && i < q->count; i++)
        if (q->ring[(q->head + i) % REVIEW_QUEUE_MAX] == game) {
            *place = i + 1;
            return 1;
        }
    return 0;
}

static int enqueue(srv *s, int64_t game)
{
    struct reviews *q = state(s);
    int limit = s->cfg.limits[LIM_REVIEW_QUEUE];
    if (!q || q->count >= REVIEW_QUEUE_MAX || (limit > 0 && q->count >= limit))
        return -1;
    q->ring[(q->head + q->count) % REVIEW_QUEUE_MAX] = game;
    q->count++;
    start_next(s);
    return 0;
}

void review_resume(srv *s)
{
    int64_t games[256];
    store_err e;
    int n = store_reviews_waiting(s->st, games, 256, &e);
    int place;
    for (int i = 0; i < n; i++)
        if (!queued(s->reviews, games[i], &place) &&
            !(s->reviews && s->reviews->running_game == games[i]))
            enqueue(s, games[i]);
}

void review_free(srv *s)
{
    if (!s->reviews)
        return;
    /* a running review's job was the pool's, freed with it; the searcher
     * is freed only once the pools are gone, when no trip is out */
    if (s->reviews->sr)
        search_free(s->reviews->sr);
    free(s->reviews);
    s->reviews = NULL;
}

/* --- the API ------------------------------------------------------------------------ */

/* The review of a game as GET answers it (docs/api.md). */
static json_t *answer(srv *s, int64_t game, int *status, char *err, size_t errlen)
{
    store_review r;
    store_err e;
    char *text = malloc(STORE_REVIEW_MAX + 1);
    int rc = text ? store_review_get(s->st, game, &r, text, STORE_REVIEW_MAX + 1, &e) : -1;
    json_t *positions = json_array(), *out = NULL;
    const char *words = "none";
    int place = 0, done = 0, total = 0;
    struct reviews *q = s->reviews;
    if (rc < 0) {
        snprintf(err, errlen, "the review could not be read");
        *status = 500;
        json_decref(positions);
        free(text);
        return NULL;
    }
    if (rc == 0 && r.status == STORE_REVIEW_DONE) {
        words = "done";
        for (char *line = strtok(text, ";"); line; line = strtok(NULL, ";")) {
            int side, score;
            char best[24];
            if (sscanf(line, "%d %23s %d", &side, best, &score) != 3)
                break;
            json_array_append_new(positions,
                                  json_pack("{s:i, s:i, s:o}", "side", side, "score", score,
                                            "best", strcmp(best, "-") ? json_string(best)
                                                                      : json_null()));
        }
    } else if (rc == 0 && r.status == STORE_REVIEW_FAILED) {
        words = "failed";
    } else if (rc == 0 && q && q->running_game == game) {
        words = "running";
        done = q->scored;
        total = q->total;
    } else if (rc == 0) {
        words = "queued";  /* (place 0: waiting for a server to start) */
        queued(q, game, &place);
    }
    json_t *who = rc == 0 && r.requester ? req_player_ref(s, r.requester, NULL) : json_null();
    json_t *by = json_object_get(who, "name");
    out = json_pack("{s:I, s:s, s:i, s:i, s:i, s:i, s:o, s:o}", "game", (json_int_t)game,
                    "status", words, "depth", REVIEW_DEPTH, "place", place, "scored", done,
                    "total", total, "requested_by", by ? json_incref(by) : json_null(),
                    "positions", positions);
    json_decref(who);
    free(text);
    *status = 200;
    return out;
}

static void ask(srv *s, net_http *h, const net_request *req, int64_t game)
{
    ident me;
    store_game g;
    store_review r;
    store_err e;
    if (ident_request_me(s, req, &me, NULL) != 0 || me.guest) {
        reply_error(h, 401, "sign in to have the server review a game");
        return;
    }
    int rc = store_game_get(s->st, game, &g, &e);
    const game_variant *v = rc == 0 ? game_variant_find(g.variant) : NULL;
    if (rc == STORE_NOT_FOUND || (rc == 0 && !v)) {
        reply_error(h, 404, "no such game");
        return;
    }
    if (rc != 0) {
        reply_error(h, 500, "the game could not be read");
        return;
    }
    if (g.status == STORE_GAME_LIVE) {
        reply_error(h, 409, "the game is not over yet");
        return;
    }
    if (!reviewable(v)) {
        reply_error(h, 409, "the server reviews games of two sides without hidden pieces");
        return;
    }
    int had = review_row(s, game, &r);
    if (had < 0) {
        reply_error(h, 500, "the review could not be read");
        return;
    }
    if (had == 0 && r.status != STORE_REVIEW_FAILED) {
        /* asked already: the same answer again, nothing changes */
    } else {
        int64_t now = net_wall_ms();
        int asked = store_reviews_asked(s->st, me.id, now - DAY_MS, &e);
        int limit = s->cfg.limits[LIM_REVIEWS];
        struct reviews *q = state(s);
        int room = s->cfg.limits[LIM_REVIEW_QUEUE];
        if (asked < 0 || !q) {
            reply_error(h, 500, "the review could not be asked for");
            return;
        }
        if (limit > 0 && asked >= limit) {
            reply_error(h, 429, "you have asked for as many reviews as a day allows; try again tomorrow");
            return;
        }
        if (q->count >= REVIEW_QUEUE_MAX || (room > 0 && q->count >= room)) {
            reply_error(h, 503, "the server's review queue is full; try again later");
            return;
        }
        r = (store_review){ .game = game, .requester = me.id, .requested = now,
                            .status = STORE_REVIEW_QUEUED, .depth = REVIEW_DEPTH };
        if (store_review_put(s->st, &r, "", &e) != 0) {
            reply_error(h, 500, "the review could not be asked for");
            return;
        }
        enqueue(s, game);  /* room checked above */
    }
    char err[160];
    int status;
    json_t *j = answer(s, game, &status, err, sizeof err);
    if (j)
        reply_json(h, 202, j, NULL);
    else
        reply_error(h, status, err);
}

void review_http(srv *s, net_http *h, const net_request *req, int64_t game)
{
    if (strcmp(req->method, "POST") == 0) {
        ask(s, h, req, game);
        return;
    }
    store_game g;
    store_err e;
    int rc = store_game_get(s->st, game, &g, &e);
    if (rc != 0) {
        reply_error(h, rc == STORE_NOT_FOUND ? 404 : 500,
                    rc == STORE_NOT_FOUND ? "no such game" : "the game could not be read");
        return;
    }
    char err[160];
    int status;
    json_t *j = answer(s, game, &status, err, sizeof err);
    if (j)
        reply_json(h, 200, j, NULL);
    else
        reply_error(h, status, err);
}
