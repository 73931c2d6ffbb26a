/* tool_train_gen.c -- `citadel train gen`: self-play positions for
 * Rampart's net.
 *
 * The strongest level of the searcher the caller lends (game.h's
 * game_searcher) plays both sides with a node limit per move, from
 * openings of random plies, under the move limit, so every game ends.
 * Each position it searched is kept with the search's score for the side
 * to move (searched without contempt), unless the move played captures
 * or encloses (the score of a position in the middle of an exchange says
 * little about the position as it stands); when the game ends, each kept
 * position gets its result from the side to move's view. A game's
 * positions are written together, so an interrupted run leaves whole games.
 *
 * Invariant: the output holds only whole rn_sample records after its
 * magic; threads share one file under one lock.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"
#include "../../base/timer.h"
#include "tool_train.h"

typedef struct gen_shared {
    const train_gen_options *o;
    const game_searcher *search;
    const game_variant *variants[2];
    int nvariants;
    FILE *out;
    pthread_mutex_t lock;
    int next_game;          /* games handed out so far */
    uint64_t positions;     /* written so far */
    int failed;
    uint64_t t0;
} gen_shared;

int train_sample_pos(const rn_sample *s, rp_pos *pos)
{
    const rp_geom *g = rp_geom_get(s->w, s->h);
    if (!g || s->stm > 1)
        return -1;
    memset(pos, 0, sizeof *pos);
    pos->g = g;
    for (int side = 0; side < 2; side++)
        for (int t = 0; t < RP_NTYPES; t++) {
            pos->pc[side][t] = s->pc[side][t] & g->board;
            pos->occ[side] |= pos->pc[side][t];
        }
    pos->stm = s->stm;
    pos->fullmove = s->fullmove;
    pos->move_limit = s->move_limit;
    return 0;
}

static int take_game(gen_shared *sh)
{
    pthread_mutex_lock(&sh->lock);
    int g = sh->failed || sh->next_game >= sh->o->games ? -1 : sh->next_game++;
    pthread_mutex_unlock(&sh->lock);
    return g;
}

static void put_game(gen_shared *sh, const rn_sample *batch, size_t n)
{
    pthread_mutex_lock(&sh->lock);
    if (n && fwrite(batch, sizeof *batch, n, sh->out) != n)
        sh->failed = 1;
    sh->positions += n;
    int done = sh->next_game;
    if (done % 200 == 0)
        fprintf(stderr, "train gen: %d games, %llu positions, %.0f s\n", done,
                (unsigned long long)sh->positions, (double)(timer_ns() - sh->t0) / 1e9);
    pthread_mutex_unlock(&sh->lock);
}

static void *gen_thread(void *arg)
{
    gen_shared *sh = arg;
    const train_gen_options *o = sh->o;
    const game_searcher *sr = sh->search;
    void *se = sr->create(16);
    rn_sample *batch = malloc(sizeof *batch * 4096);
    if (!se || !batch) {
        pthread_mutex_lock(&sh->lock);
        sh->failed = 1;
        pthread_mutex_unlock(&sh->lock);
        if (se)
            sr->destroy(se);
        free(batch);
        return NULL;
    }
    for (int game; (game = take_game(sh)) >= 0;) {
        rng g;
        rng_seed(&g, o->seed * 1000003u + (uint64_t)game);
        const game_variant *v = sh->variants[game % sh->nvariants];
        rp_pos p;
        v->ops->start(v, &p, rng_next(&g));
        p.move_limit = o->move_limit;
        /* The strongest level, without contempt: contempt would make
         * every level position look worse for the side to move, whose
         * search it is: a tempo the net would learn. */
        sr->new_game(se, sr->levels, rng_next(&g), 0);
        int plies = o->plies_min +
                    (int)rng_below(&g, (uint64_t)(o->plies_max - o->plies_min + 1));
        size_t n = 0;
        for (int ply = 0; ply < 4000; ply++) {
            game_move list[RP_MAX_MOVES];
            int nm = rp_legal(&p, list);
            if (nm == 0)
                break;
            game_move m;
            if (ply < plies) {
                m = list[rng_below(&g, (uint64_t)nm)];
            } else {
                game_limits lim = { .nodes = o->nodes, .time = { -1, -1 } };
                int score = 0;
                m = sr->run(se, v, &p, &lim, &score);
                if (!RP_CAP(m) && !rp_encloses(&p, m) && n < 4096) {
                    rn_sample *s = &batch[n++];
                    memset(s, 0, sizeof *s);
                    memcpy(s->pc, p.pc, sizeof s->pc);
                    int sc = score;
                    sc = sc > TRAIN_SCORE_MAX ? TRAIN_SCORE_MAX
                         : sc < -TRAIN_SCORE_MAX ? -TRAIN_SCORE_MAX : sc;
                    s->score = (int16_t)sc;
                    s->stm = p.stm;
                    s->w = (uint8_t)p.g->w;
                    s->h = (uint8_t)p.g->h;
                    s->fullmove = (int16_t)p.fullmove;
                    s->move_limit = (int16_t)p.move_limit;
                }
            }
            rp_make(&p, m);
        }
        game_result r = rp_result(&p);
        for (size_t i = 0; i < n; i++)
            batch[i].result = (int8_t)(r.winner < 0 ? 0 : r.winner == batch[i].stm ? 1 : -1);
        put_game(sh, batch, n);
    }
    sr->destroy(se);
    free(batch);
    return NULL;
}

int train_gen(const train_gen_options *o, const game_searcher *search)
{
    gen_shared sh = { .o = o, .search = search, .t0 = timer_ns() };
    if (strcmp(o->variant, "both") == 0) {
        sh.variants[sh.nvariants++] = &rp_variant_classic;
        sh.variants[sh.nvariants++] = &rp_variant_xl;
    } else {
        const game_variant *v = game_variant_find(o->variant);
        if (!v || strcmp(v->family, "rampart") != 0) {
            fprintf(stderr, "citadel train gen: %s is not a Rampart variant\n", o->variant);
            return 2;
        }
        sh.variants[sh.nvariants++] = v;
    }
    sh.out = fopen(o->out, "wb");
    if (!sh.out || fwrite("RPDATA01", 1, 8, sh.out) != 8) {
        perror(o->out);
        if (sh.out)
            fclose(sh.out);
        return 1;
    }
    pthread_mutex_init(&sh.lock, NULL);
    int threads = o->concurrency < 1 ? 1 : o->concurrency > 64 ? 64 : o->concurrency;
    pthread_t tid[64];
    int started = 0;
    for (; started < threads; started++)
        if (pthread_create(&tid[started], NULL, gen_thread, &sh) != 0)
            break;
    if (started == 0)
        gen_thread(&sh);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&sh.lock);
    if (fclose(sh.out) != 0)
        sh.failed = 1;
    fprintf(stderr, "train gen: %d games, %llu positions in %.0f s%s\n", sh.next_game,
            (unsigned long long)sh.positions, (double)(timer_ns() - sh.t0) / 1e9,
            sh.failed ? " (failed: short write or memory)" : "");
    return sh.failed ? 1 : 0;
}
