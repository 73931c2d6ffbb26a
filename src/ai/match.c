/* match.c -- the match runner: worker threads, clocks, openings, records.
 *
 * Sharing. One `match` is shared by the workers and guarded by its mutex:
 * the next game to hand out, the tally, the records file and the first
 * error. `finished` (atomic, written under that mutex) says no more games
 * are to be started or counted: an SPRT decision or an error. Each worker
 * owns its two bots, its position buffers and its record text; its move
 * deadline and the writes to its stop flag are guarded by the worker's own
 * lock, because two other threads may stop its bots: the clock watcher
 * (which runs only when there are clocks) when the deadline passes, and
 * whoever finishes the match. Locks are taken match first, then worker.
 *
 * A game's record (PGN, written by src/games/pgn.c) is built by its
 * worker and written to the file whole, under the match lock, when the
 * game is counted.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#include "../base/rng.h"
#include "../base/timer.h"
#include "../games/pgn.h"
#include "bots.h"
#include "match.h"

typedef struct strbuf {
    char *p;
    size_t len, cap;
    int oom;    /* an append failed for want of memory */
} strbuf;

__attribute__((format(printf, 2, 3))) static void sb_printf(strbuf *b, const char *fmt, ...)
{
    while (!b->oom) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
        } else if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        } else {
            size_t cap = b->cap ? b->cap : 512;
            while (cap - b->len <= (size_t)n)
                cap *= 2;
            char *p = realloc(b->p, cap);
            if (p) {
                b->p = p;
                b->cap = cap;
            } else {
                b->oom = 1;
            }
        }
    }
}

#define MOVE_TEXT_MAX 32

struct match;

typedef struct worker {
    struct match *m;
    int id;
    pthread_t thread;
    bot *bots[2];            /* [0] plays for A, [1] for B */
    pthread_mutex_t lock;    /* guards deadline and writes to stop */
    uint64_t deadline;       /* timer_ns when the mover's flag falls; 0 = none */
    atomic_int stop;
    /* the game being played: its moves' text, the mover's clock after
     * each (ms), and its record */
    char (*texts)[MOVE_TEXT_MAX];
    const char **textp;
    int64_t *clocks;
    int nmoves, capmoves;
    int oom;                 /* a move could not be kept for want of memory */
    strbuf record;
} worker;

typedef struct match {
    const match_config *cfg;
    int games;
    int clocked;
    pthread_mutex_t lock;    /* guards everything below but the atomics */
    int next;
    match_tally tally;
    FILE *records;
    int failed;
    char err[160];
    atomic_int finished;
    atomic_int watching;
    worker *workers;
    int nworkers;
} match;

void match_defaults(match_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->variant = game_variant_find("rampart");
    cfg->games = 100;
    cfg->concurrency = 1;
    cfg->move_limit = 100;
    cfg->opening_plies = 4;
    cfg->own_setups = 1;
    cfg->elo0 = 0.0;
    cfg->elo1 = 10.0;
    cfg->alpha = 0.05;
    cfg->beta = 0.05;
}

size_t match_limits_text(const match_config *cfg, char *buf, size_t size)
{
    strbuf b = { 0 };
    if (cfg->base_ms > 0)
        sb_printf(&b, " %g+%g", (double)cfg->base_ms / 1000.0, (double)cfg->inc_ms / 1000.0);
    if (cfg->movetime > 0)
        sb_printf(&b, " movetime=%lld", (long long)cfg->movetime);
    if (cfg->depth > 0)
        sb_printf(&b, " depth=%d", cfg->depth);
    if (cfg->nodes > 0)
        sb_printf(&b, " nodes=%llu", (unsigned long long)cfg->nodes);
    int n = snprintf(buf, size, "%s", b.oom ? "?" : b.len ? b.p + 1 : "-");
    free(b.p);
    return n < 0 ? 0 : (size_t)n;
}

/* Stops the match: no more games start or count, and the bots still
 * thinking are told to stop. Called with m->lock held. */
static void finish(match *m)
{
    atomic_store(&m->finished, 1);
    for (int i = 0; i < m->nworkers; i++) {
        worker *w = &m->workers[i];
        pthread_mutex_lock(&w->lock);
        atomic_store(&w->stop, 1);
        pthread_mutex_unlock(&w->lock);
    }
}

/* Records the first error and stops the match. Called with m->lock held. */
__attribute__((format(printf, 2, 3))) static void fail(match *m, const char *fmt, ...)
{
    if (!m->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(m->err, sizeof m->err, fmt, ap);
        va_end(ap);
        m->failed = 1;
    }
    finish(m);
}

static int move_limit_of(const match_config *cfg)
{
    for (const game_option *o = cfg->variant->options; o && o->name; o++)
        if (strcmp(o->name, "MoveLimit") == 0)
            return cfg->move_limit;
    return 0;
}

/* Draws cfg's random opening plies from start with g; returns how many
 * (0 if a hundred tries all end the game). */
static int random_plies(const match_config *cfg, rng *g, const void *start, game_move *plies)
{
    const game_ops *ops = cfg->variant->ops;
    _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    game_move list[GAME_MAX_MOVES];
    for (int attempt = 0; attempt < 100; attempt++) {
        memcpy(pos, start, ops->pos_size);
        int k = 0;
        for (; k < cfg->opening_plies; k++) {
            int n = ops->moves(pos, list);
            if (n <= 0)
                break;
            plies[k] = list[rng_below(g, (uint64_t)n)];
            ops->make(pos, plies[k], undo);
        }
        if (k == cfg->opening_plies && !ops->result(pos).over)
            return k;
    }
    return 0;
}

/* The opening of a pair of games: the start (for variants with several,
 * one drawn from the seed) with the move limit set, and the random plies
 * played from it, which the function returns the number of. Openings that
 * end the game are drawn again; if a hundred tries all do, there are none.
 * Given openings are taken in turn instead. */
static int make_opening(const match_config *cfg, int pair, void *start, game_move *plies)
{
    const game_variant *v = cfg->variant;
    const game_ops *ops = v->ops;
    if (cfg->openings) {
        const match_opening *o = &cfg->openings[pair % cfg->nopenings];
        memcpy(start, o->start, ops->pos_size);
        int limit = move_limit_of(cfg);
        game_error err;
        if (limit > 0 && ops->set_option(start, "MoveLimit", limit, &err) != 0)
            return 0;
        memcpy(plies, o->plies, (size_t)o->nplies * sizeof *plies);
        return o->nplies;
    }
    rng g;
    rng_seed(&g, rng_mix(cfg->seed) ^ rng_mix((uint64_t)pair + 1));
    ops->start(v, start, v->starts > 1 ? rng_below(&g, (uint64_t)v->starts) : 0);
    int limit = move_limit_of(cfg);
    game_error err;
    if (limit > 0 && ops->set_option(start, "MoveLimit", limit, &err) != 0)
        return 0;  /* match_run checked the range, so this does not happen */
    return random_plies(cfg, &g, start, plies);
}

/* 1 if the bots choose their setups in this match. */
static int own_setups(const match_config *cfg)
{
    return cfg->own_setups && cfg->variant->ops->setup && !cfg->openings;
}

/* The opening of game g when the bots choose their setups: each side's
 * bot (A's on a_side) is asked with the seed of the pair and the bot; the
 * start is built from the two, and random plies are drawn for the game.
 * Returns the plies; if a bot's setup fails, 0 plies, *faulty the side
 * whose bot failed and why in err (the start then has the library's first
 * setup, or a random one, in its place); -1 if no start could be made. */
static int own_opening(worker *w, int g, int a_side, void *start, game_move *plies, int *faulty,
                       char *err, size_t errlen)
{
    const match_config *cfg = w->m->cfg;
    const game_variant *v = cfg->variant;
    const game_setup_ops *so = v->ops->setup;
    char text[2][256];
    const char *setups[2] = { text[0], text[1] };
    *faulty = -1;
    for (int side = 0; side < 2; side++) {
        int who = side == a_side ? 0 : 1;
        uint64_t seed = rng_mix(rng_mix(cfg->seed ^ 0x5e7u) ^
                                rng_mix((uint64_t)(g / 2) * 2 + (uint64_t)who + 1));
        char why[200];
        if (bot_setup(w->bots[who], v, seed, text[side], sizeof text[side], why, sizeof why) == 0)
            continue;
        if (*faulty < 0) {
            *faulty = side;
            snprintf(err, errlen, "%s", why);
        }
        if (so->library_size() > 0)
            snprintf(text[side], sizeof text[side], "%s", so->library_text(0));
        else
            so->random(0, text[side], sizeof text[side]);
    }
    game_error ge;
    int limit = move_limit_of(cfg);
    if (so->start(v, start, setups, &ge) != 0 ||
        (limit > 0 && v->ops->set_option(start, "MoveLimit", limit, &ge) != 0)) {
        snprintf(err, errlen, "%s", ge.msg);
        return -1;
    }
    if (*faulty >= 0)
        return 0;
    rng r;
    rng_seed(&r, rng_mix(cfg->seed ^ 0x9a3eu) ^ rng_mix((uint64_t)g + 1));
    return random_plies(cfg, &r, start, plies);
}


/* Keeps the move about to be played in pos, and the mover's clock after
 * it (ms), for the record. */
static void keep_move(worker *w, const game_ops *ops, const void *pos, game_move mv, int64_t clock)
{
    if (w->nmoves == w->capmoves) {
        int cap = w->capmoves ? 2 * w->capmoves : 256;
        char(*t)[MOVE_TEXT_MAX] = realloc(w->texts, (size_t)cap * sizeof *t);
        if (t)
            w->texts = t;
        int64_t *c = t ? realloc(w->clocks, (size_t)cap * sizeof *c) : NULL;
        if (c)
            w->clocks = c;
        const char **p = c ? realloc(w->textp, (size_t)cap * sizeof *p) : NULL;
        if (!p) {
            w->oom = 1;
            return;
        }
        w->textp = p;
        w->capmoves = cap;
    }
    ops->format_move(pos, mv, w->texts[w->nmoves], MOVE_TEXT_MAX);
    w->clocks[w->nmoves++] = clock;
}

static int is_legal(const game_ops *ops, const void *pos, game_move mv)
{
    game_move list[GAME_MAX_MOVES];
    if (mv == GAME_MOVE_NONE)
        return 0;
    int n = ops->moves(pos, list);
    for (int i = 0; i < n; i++)
        if (list[i] == mv)
            return 1;
    return 0;
}

/* Arms the worker for one move: clears its stop flag and sets the deadline
 * (0 = none). Returns 1 instead if the match has finished. */
static int begin_move(worker *w, uint64_t deadline)
{
    pthread_mutex_lock(&w->lock);
    int done = atomic_load(&w->m->finished);
    if (!done) {
        atomic_store(&w->stop, 0);
        w->deadline = deadline;
    }
    pthread_mutex_unlock(&w->lock);
    return done;
}

static void end_move(worker *w)
{
    pthread_mutex_lock(&w->lock);
    w->deadline = 0;
    pthread_mutex_unlock(&w->lock);
}

/* Writes the record of a finished game into w->record (PGN, pgn.h). */
static void write_record(worker *w, int g, const void *start, int a_side, int plies,
                         game_result r, const char *setup_error)
{
    const match_config *cfg = w->m->cfg;
    const game_variant *v = cfg->variant;
    char date[16], round[16], limit[16], nplies[16], limits[128];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    snprintf(round, sizeof round, "%d", g + 1);
    snprintf(limit, sizeof limit, "%d", move_limit_of(cfg));
    snprintf(nplies, sizeof nplies, "%d", plies);
    match_limits_text(cfg, limits, sizeof limits);
    for (int i = 0; i < w->nmoves; i++)
        w->textp[i] = w->texts[i];
    int has_limit = 0;
    for (const game_option *o = v->options; o && o->name; o++)
        has_limit |= strcmp(o->name, "MoveLimit") == 0;
    pgn_tag setting = { "MoveLimit", limit };
    pgn_tag extra[] = { { "OpeningPlies", nplies }, { "Limits", limits },
                        { "SetupError", setup_error } };
    pgn_game pg = {
        .v = v, .start = start, .moves = w->textp, .nmoves = w->nmoves,
        .clock_ms = w->m->clocked ? w->clocks : NULL,
        .event = "citadel match", .site = "?", .date = date, .round = round,
        .base_ms = cfg->base_ms, .inc_ms = cfg->inc_ms,
        .over = 1, .winner = r.winner, .reason = r.reason,
        .settings = has_limit ? &setting : NULL, .nsettings = has_limit,
        .extra = extra, .nextra = setup_error ? 3 : 2,
    };
    pg.players[a_side] = cfg->spec[0];
    pg.players[1 - a_side] = cfg->spec[1];
    size_t need = pgn_write(&pg, NULL, 0);
    strbuf *b = &w->record;
    if (need + 1 > b->cap) {
        char *p = realloc(b->p, need + 1);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = need + 1;
    }
    b->len = pgn_write(&pg, b->p, b->cap);
}

/* Plays game g. Returns 0 with *score (of A: 1 win, 0 draw, -1 loss) and
 * the record in w->record; 1 if the match finished meanwhile; -1 after an
 * error (already reported with fail()). */
static int play_game(worker *w, int g, int *score)
{
    match *m = w->m;
    const match_config *cfg = m->cfg;
    const game_variant *v = cfg->variant;
    const game_ops *ops = v->ops;
    _Alignas(16) unsigned char start[GAME_POS_MAX], pos[GAME_POS_MAX], view[GAME_POS_MAX],
        undo[GAME_POS_MAX];
    game_move plies[MATCH_MAX_OPENING_PLIES];
    int own = own_setups(cfg);
    int nplies = own ? 0 : make_opening(cfg, g / 2, start, plies);
    int a_side = g % 2;  /* A moves first in the first game of a pair */

    for (int i = 0; i < 2; i++) {
        if (bot_new_game(w->bots[i], v, move_limit_of(cfg)) != 0) {
            pthread_mutex_lock(&m->lock);
            fail(m, "bot '%s' could not start a game", cfg->spec[i]);
            pthread_mutex_unlock(&m->lock);
            return -1;
        }
    }
    /* each bot's own setup: one that fails loses at once, as an illegal
     * move does (the record says why) */
    int faulty = -1;
    char why[200], setup_error[240];
    if (own && (nplies = own_opening(w, g, a_side, start, plies, &faulty, why, sizeof why)) < 0) {
        pthread_mutex_lock(&m->lock);
        fail(m, "no start from the bots' setups: %s", why);
        pthread_mutex_unlock(&m->lock);
        return -1;
    }
    if (faulty >= 0) {
        snprintf(setup_error, sizeof setup_error, "%s: %s", ops->side_name(start, faulty), why);
        for (char *c = setup_error; *c; c++)
            if (*c == '"' || *c == '\\')
                *c = '\'';
    }
    memcpy(pos, start, ops->pos_size);
    w->nmoves = 0;
    for (int i = 0; i < nplies; i++) {
        keep_move(w, ops, pos, plies[i], cfg->base_ms);
        ops->make(pos, plies[i], undo);
    }

    int64_t clock[2] = { cfg->base_ms * 1000000, cfg->base_ms * 1000000 };
    game_result r;
    for (int ply = nplies;; ply++) {
        r = ops->result(pos);
        if (faulty >= 0) {
            r.over = 1;
            r.winner = ops->team_of(start, 1 - faulty);
            r.reason = "illegal";
        }
        if (r.over)
            break;
        int side = ops->side_to_move(pos);
        ops->view(pos, side, view);
        search_limits lim = { .depth = cfg->depth, .nodes = cfg->nodes,
                              .movetime = cfg->movetime, .time = { -1, -1 } };
        if (m->clocked) {
            for (int i = 0; i < 2; i++) {
                lim.time[i] = clock[i] / 1000000;
                lim.inc[i] = cfg->inc_ms;
            }
        }
        uint64_t t0 = timer_ns();
        if (begin_move(w, m->clocked ? t0 + (uint64_t)clock[side] : 0))
            return 1;
        game_move mv = bot_move(w->bots[side == a_side ? 0 : 1], v, view, &lim, &w->stop);
        uint64_t spent = timer_ns() - t0;
        end_move(w);
        if (atomic_load(&m->finished))
            return 1;
        if (m->clocked) {
            if ((int64_t)spent > clock[side]) {
                r = ops->timeout(start, pos, side);
                break;
            }
            clock[side] += cfg->inc_ms * 1000000 - (int64_t)spent;
        }
        if (!is_legal(ops, pos, mv)) {
            r.over = 1;
            r.winner = ops->team_of(pos, 1 - side);
            r.reason = "illegal";
            break;
        }
        keep_move(w, ops, pos, mv, clock[side] / 1000000);
        ops->make(pos, mv, undo);
    }
    *score = r.winner < 0 ? 0 : r.winner == ops->team_of(start, a_side) ? 1 : -1;
    write_record(w, g, start, a_side, nplies, r, faulty >= 0 ? setup_error : NULL);
    if (w->oom || w->record.oom) {
        pthread_mutex_lock(&m->lock);
        fail(m, "out of memory for a game record");
        pthread_mutex_unlock(&m->lock);
        return -1;
    }
    return 0;
}

/* Counts a finished game, unless the match finished meanwhile. */
static void count(worker *w, int score)
{
    match *m = w->m;
    const match_config *cfg = m->cfg;
    pthread_mutex_lock(&m->lock);
    if (!atomic_load(&m->finished)) {
        match_tally *t = &m->tally;
        if (score > 0)
            t->wins++;
        else if (score < 0)
            t->losses++;
        else
            t->draws++;
        if (m->records && (fputs(w->record.p, m->records) < 0 || fflush(m->records) != 0))
            fail(m, "could not write the records file %s", cfg->records);
        if (cfg->sprt) {
            t->sprt = stats_sprt_of(t->wins, t->losses, t->draws, cfg->elo0, cfg->elo1,
                                    cfg->alpha, cfg->beta);
            if (t->sprt.verdict != STATS_SPRT_CONTINUE)
                finish(m);
        }
        if (cfg->progress)
            cfg->progress(cfg->progress_ctx, t);
    }
    pthread_mutex_unlock(&m->lock);
}

static void *work(void *arg)
{
    worker *w = arg;
    match *m = w->m;
    for (;;) {
        int g = -1;
        pthread_mutex_lock(&m->lock);
        if (!atomic_load(&m->finished) && m->next < m->games)
            g = m->next++;
        pthread_mutex_unlock(&m->lock);
        int score;
        if (g < 0 || play_game(w, g, &score) != 0)
            return NULL;
        count(w, score);
    }
}

/* Stops the bots of a worker whose mover's flag has fallen. */
static void *watch(void *arg)
{
    match *m = arg;
    const struct timespec tick = { 0, 2000000 };
    while (atomic_load(&m->watching)) {
        nanosleep(&tick, NULL);
        uint64_t now = timer_ns();
        for (int i = 0; i < m->nworkers; i++) {
            worker *w = &m->workers[i];
            pthread_mutex_lock(&w->lock);
            if (w->deadline && now >= w->deadline)
                atomic_store(&w->stop, 1);
            pthread_mutex_unlock(&w->lock);
        }
    }
    return NULL;
}

static int check_config(const match_config *cfg, char *err, size_t errlen)
{
    const char *why = NULL;
    if (!cfg->variant || cfg->variant->nsides != 2)
        why = "a match needs a two-sided variant";
    else if (!cfg->spec[0] || !cfg->spec[1])
        why = "a match needs two bots";
    else if (cfg->games < 1 || cfg->games > 100000000)
        why = "the number of games must be 1-100000000";
    else if (cfg->concurrency < 1)
        why = "concurrency must be at least 1";
    else if (cfg->opening_plies < 0 || cfg->opening_plies > MATCH_MAX_OPENING_PLIES)
        why = "opening plies out of range";
    else if (cfg->move_limit < 0 || cfg->move_limit > 100000)
        why = "the move limit must be 0-100000";
    else if (cfg->base_ms < 0 || cfg->inc_ms < 0 || cfg->movetime < 0 || cfg->depth < 0)
        why = "limits must not be negative";
    else if (cfg->sprt && !(cfg->alpha > 0 && cfg->alpha < 1 && cfg->beta > 0 && cfg->beta < 1 &&
                            cfg->elo0 < cfg->elo1))
        why = "SPRT needs 0 < alpha, beta < 1 and elo0 < elo1";
    if (why)
        snprintf(err, errlen, "%s", why);
    return why ? -1 : 0;
}

int match_run(const match_config *cfg, match_tally *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (check_config(cfg, err, errlen) != 0)
        return -1;
    match m;
    memset(&m, 0, sizeof m);
    m.cfg = cfg;
    m.games = cfg->games + cfg->games % 2;
    m.clocked = cfg->base_ms > 0;
    m.tally.games = m.games;
    if (cfg->sprt)
        m.tally.sprt = stats_sprt_of(0, 0, 0, cfg->elo0, cfg->elo1, cfg->alpha, cfg->beta);
    atomic_init(&m.finished, 0);
    atomic_init(&m.watching, 1);
    pthread_mutex_init(&m.lock, NULL);
    if (cfg->records && !(m.records = fopen(cfg->records, "a"))) {
        snprintf(err, errlen, "cannot open the records file %s", cfg->records);
        pthread_mutex_destroy(&m.lock);
        return -1;
    }
    int n = cfg->concurrency < m.games ? cfg->concurrency : m.games;
    m.workers = calloc((size_t)n, sizeof *m.workers);
    if (!m.workers) {
        m.failed = 1;
        snprintf(m.err, sizeof m.err, "out of memory");
        n = 0;
    }
    /* Make every bot first, so that a bad spec fails before any game. */
    for (int i = 0; i < n; i++) {
        worker *w = &m.workers[i];
        w->m = &m;
        w->id = i;
        atomic_init(&w->stop, 0);
        pthread_mutex_init(&w->lock, NULL);
        m.nworkers = i + 1;
        for (int b = 0; b < 2 && !m.failed; b++) {
            char why[128] = "";
            uint64_t seed = rng_mix(cfg->seed ^ rng_mix(((uint64_t)i << 1 | (uint64_t)b) + 77));
            w->bots[b] = bot_new(cfg->spec[b], seed, why, sizeof why);
            if (!w->bots[b]) {
                m.failed = 1;
                snprintf(m.err, sizeof m.err, "bot '%.60s': %.90s", cfg->spec[b], why);
            }
        }
    }
    if (cfg->progress && !m.failed)
        cfg->progress(cfg->progress_ctx, &m.tally);
    int started = 0;
    for (; started < m.nworkers && !m.failed; started++) {
        if (pthread_create(&m.workers[started].thread, NULL, work, &m.workers[started]) != 0) {
            pthread_mutex_lock(&m.lock);
            fail(&m, "cannot start a thread");
            pthread_mutex_unlock(&m.lock);
            break;
        }
    }
    pthread_t watcher;
    int watching = m.clocked && started > 0 && pthread_create(&watcher, NULL, watch, &m) == 0;
    for (int i = 0; i < started; i++)
        pthread_join(m.workers[i].thread, NULL);
    atomic_store(&m.watching, 0);
    if (watching)
        pthread_join(watcher, NULL);

    for (int i = 0; i < m.nworkers; i++) {
        worker *w = &m.workers[i];
        for (int b = 0; b < 2; b++)
            if (w->bots[b])
                bot_free(w->bots[b]);
        free(w->texts);
        free(w->textp);
        free(w->clocks);
        free(w->record.p);
        pthread_mutex_destroy(&w->lock);
    }
    free(m.workers);
    if (m.records && fclose(m.records) != 0 && !m.failed) {
        m.failed = 1;
        snprintf(m.err, sizeof m.err, "could not write the records file %s", cfg->records);
    }
    pthread_mutex_destroy(&m.lock);
    *out = m.tally;
    if (m.failed) {
        snprintf(err, errlen, "%s", m.err);
        return -1;
    }
    return 0;
}
