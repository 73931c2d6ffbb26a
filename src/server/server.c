/* server.c -- the server object: made from its settings and a store,
 * given a net and worker pools, started (games resumed, the sweep timer
 * set), swept, checked and freed. serve.c makes one for `citadel serve`;
 * the fuzz targets make one on a net of their own.
 *
 * It fills in the hooks through which the layers below reach the top
 * (core/srv.h): dispatch.c's handling of messages and of clients gone,
 * and play/check.c's invariant.
 */
#include <malloc.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/bots.h"
#include "botapi/botapi.h"
#include "cluster/cluster.h"
#include "community/community.h"
#include "community/mail.h"
#include "core/http.h"
#include "dispatch.h"
#include "play/botpool.h"
#include "play/live_inside.h"
#include "play/lobby.h"
#include "play/review.h"
#include "server.h"

#define SWEEP_MS 30000

/* --- bots' accounts ------------------------------------------------------------ */

static const struct {
    const char *name, *spec;
} bot_accounts[] = {
    {"bot-level1", "level=1"}, {"bot-level2", "level=2"}, {"bot-level3", "level=3"},
    {"bot-level4", "level=4"}, {"bot-level5", "level=5"}, {"bot-level6", "level=6"},
    {"bot-greedy", "greedy"},  {"bot-random", "random"},  {"bot-mcts", "mcts"},
    {"bot-attacker", "attacker"},
    /* Keeps & Moats: three styles at two strengths, and the capture bot */
    {"bot-aggressive2", "aggressive=2"}, {"bot-aggressive5", "aggressive=5"},
    {"bot-balanced2", "balanced=2"},     {"bot-balanced5", "balanced=5"},
    {"bot-defensive2", "defensive=2"},   {"bot-defensive5", "defensive=5"},
    {"bot-capture", "capture"},
};

/* Finds or makes the account of a bot; its spec is the one given (an
 * operator's --bot may change an engine's command). */
static int bot_ready(srv *s, const char *name, const char *spec, char *err, size_t errlen)
{
    store_player p;
    store_err e;
    if (s->nbots == SRV_MAX_BOTS) {
        snprintf(err, errlen, "at most %d bots", SRV_MAX_BOTS);
        return -1;
    }
    int r = store_player_by_name(s->st, name, &p, NULL, &e);
    if (r == STORE_NOT_FOUND) {
        int64_t id;
        if (store_player_add(s->st, name, "", 1, 0, spec, net_wall_ms(), &id, &e) != 0) {
            snprintf(err, errlen, "%s", e.msg);
            return -1;
        }
        r = store_player_by_id(s->st, id, &p, &e);
    }
    if (r != 0) {
        snprintf(err, errlen, "%s", e.msg);
        return -1;
    }
    if (!p.is_bot) {
        snprintf(err, errlen, "%s is a person's account, not a bot's", name);
        return -1;
    }
    ident *b = &s->bots[s->nbots++];
    memset(b, 0, sizeof *b);
    b->id = p.id;
    b->bot = 1;
    snprintf(b->name, sizeof b->name, "%s", p.name);
    snprintf(b->spec, sizeof b->spec, "%s", spec);
    return 0;
}

/* --- the object --------------------------------------------------------------------- */

srv *srv_new(const srv_config *cfg, store *st, char *err, size_t errlen)
{
    srv *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    s->st = st;
    s->hooks.dispatch = dispatch_message;
    s->hooks.client_gone = dispatch_client_gone;
    s->hooks.check = play_check;
    s->hooks.revoke_api = botapi_revoke;
    uint64_t seed;
    randombytes_buf(&seed, sizeof seed);
    rng_seed(&s->rng, seed);
    s->quota = quota_new(1 << 16);
    if (!s->quota) {
        snprintf(err, errlen, "out of memory");
        free(s);
        return NULL;
    }
    for (size_t i = 0; i < sizeof bot_accounts / sizeof bot_accounts[0]; i++)
        if (bot_ready(s, bot_accounts[i].name, bot_accounts[i].spec, err, errlen) != 0)
            goto fail;
    for (int i = 0; i < cfg->extra_bots; i++)
        if (bot_ready(s, cfg->bot_names[i], cfg->bot_specs[i], err, errlen) != 0)
            goto fail;
    return s;
fail:
    quota_free(s->quota);
    free(s);
    return NULL;
}

static void on_sweep(void *arg)
{
    srv *s = arg;
    if (store_lost(s->st))
        writer_lost_database();
    srv_sweep(s);
    net_timer_set(s->sweep, SWEEP_MS);
}

#define MAIL_TICK_MS 1000

static void on_mail_tick(void *arg)
{
    srv *s = arg;
    mail_pump(s);
    net_timer_set(s->mail_timer, MAIL_TICK_MS);
}

static void on_lag_probe(void *arg)
{
    srv *s = arg;
    int64_t now = net_mono_ms(), lag = now - s->lag_due;
    s->lag_ticks++;
    if (lag > s->lag_max)
        s->lag_max = lag;
    s->lag_over_50 += lag > 50;
    s->lag_over_100 += lag > 100;
    s->lag_due = now + SRV_LAG_PROBE_MS;
    net_timer_set(s->lag_timer, SRV_LAG_PROBE_MS);
}

int srv_start(srv *s)
{
    /* one server alone resumes every live game; one of several, those
     * nobody serves (cluster.h) */
    int resumed = s->cl ? cluster_adopt(s) : live_resume_all(s);
    if (resumed < 0)
        return -1;
    review_resume(s);
    s->purged = net_mono_ms();
    s->sweep = net_timer_new(s->net, on_sweep, s);
    s->lobby_timer = net_timer_new(s->net, lobby_flush, s);
    s->lag_timer = net_timer_new(s->net, on_lag_probe, s);
    if (!s->sweep || !s->lobby_timer || !s->lag_timer)
        return -1;
    net_timer_set(s->sweep, SWEEP_MS);
    s->lag_due = net_mono_ms() + SRV_LAG_PROBE_MS;
    net_timer_set(s->lag_timer, SRV_LAG_PROBE_MS);
    if (s->cfg.smtp[0]) {
        /* the queue's retries are a second apart at first (mail.h) */
        s->mail_timer = net_timer_new(s->net, on_mail_tick, s);
        if (!s->mail_timer)
            return -1;
        net_timer_set(s->mail_timer, 0);
    }
    return resumed;
}

void srv_sweep(srv *s)
{
    s->freed_untrimmed += live_sweep(s);
    int64_t now = net_mono_ms();
    if (now - s->purged >= SRV_PURGE_MS) {
        s->purged = now;
        ident_guests_purge(s);
    }
#ifdef __GLIBC__
    /* Finished games free many small blocks; give the pages back once
     * enough have gone. Not at every sweep: a trim walks the whole heap on
     * the loop (measured with 5,000 games playing, none finished, 90 s:
     * with a trim at every sweep the loop ran up to 337 ms late, 19 times
     * over 100 ms; without, 114 ms at most, once). */
    if (s->freed_untrimmed >= SRV_TRIM_GAMES) {
        s->freed_untrimmed = 0;
        malloc_trim(0);
    }
#endif
}

void srv_stop(srv *s)
{
    s->stopping = 1;
    LIVE_EACH(s, g) {
        net_timer_free(g->timer);
        g->timer = NULL;
    }
    net_timer_free(s->sweep);
    net_timer_free(s->lobby_timer);
    net_timer_free(s->mail_timer);
    net_timer_free(s->lag_timer);
    s->sweep = s->lobby_timer = s->mail_timer = s->lag_timer = NULL;
    cluster_free(s);  /* its beat, and the bus (what it holds is sent first) */
    botapi_stop(s);   /* its streams ended, its requests answered */
}

void srv_free(srv *s)
{
    if (!s)
        return;
    srv_stop(s);
    live_free_all(s);
    clients_free_all(s);
    lobby_free_all(s);
    botpool_free(s->botpool);
    review_free(s);
    botapi_free(s);
    quota_free(s->quota);
    forum_free_cache();
    free(s);
}

/* --- the loop's callbacks ------------------------------------------------------------ */

static void on_http(void *app, net_http *h, const net_request *req)
{
    api_http(app, h, req);
}

static void on_wake(void *app)
{
    srv *s = app;
    if (s->writer)
        writer_drain(s->writer, s);
    if (s->reader)
        writer_drain(s->reader, s);
    if (s->pool)
        workers_drain(s->pool, s);
    if (s->hash_pool)
        workers_drain(s->hash_pool, s);
    if (s->mail_pool)
        workers_drain(s->mail_pool, s);
}

const net_callbacks srv_callbacks = {
    .http = on_http,
    .ws_filter = srv_ws_filter,
    .ws_open = srv_ws_open,
    .ws_message = srv_ws_message,
    .ws_close = srv_ws_close,
    .wake = on_wake,
};
