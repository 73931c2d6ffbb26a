/* load.c -- a load generator for `citadel serve`: its players, spectators,
 * churn, report and main. wire.c moves the bytes; load.h is what they share.
 *
 *   load --port P --games N --duration S [--move-delay-ms D] [--host 127.0.0.1]
 *        [--variant rampart] [--move-limit 100] [--spectators N] [--churn P]
 *        [--games-total N] [--rate R]
 *
 * Holds 2N players, each a guest with its own session (GET /api/me) and its
 * own WebSocket, and keeps N Rampart games going between fixed pairs: the
 * first of a pair seeks, the second accepts that seek, both play random legal
 * moves D ms after their turn comes, and the pair seeks again when a game
 * ends. Spectators (guests too) pick live games from the lobby and watch them
 * for a while. With churn, players drop their connections at random and come
 * back with the same cookie, the way a phone on a bad network would. After S
 * seconds, or once --games-total games have ended, it prints what it saw
 * (see README.md).
 *
 * One thread, one epoll loop, non-blocking sockets. A connection goes through
 * WAIT, HTTP, SHAKE and OPEN, and may be AWAY or DEAD (wire.c, which alone
 * changes that state). Timers (moves, reconnects, a spectator's stay) sit in
 * one heap; a timer carries its connection's generation number and is
 * ignored if the connection's state moved on since.
 *
 * A pair goes IDLE -> SEEKING -> PLAYING -> IDLE. Its seeker seeks only when
 * both players are OPEN and have had the server's `hello`; a player comes
 * back from a drop by watching the games its `hello` lists. Churn picks only
 * players whose pair is PLAYING, so a seek never waits on a player who is
 * away.
 *
 * Latency: when a player sends a move, its pair remembers the time; when the
 * OTHER player's socket delivers the server's `move` message, the difference
 * is one sample. It covers the server's work, its storage and both network
 * legs (loopback), and the load tool's own queueing, which stays small while
 * the tool's CPU is not saturated.
 */
#include "load.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

#define MAX_GAMES 20000
#define MAX_SPECTATORS 20000
#define MAX_SECONDS 86400
#define STEADY_NS 10000000000LL  /* steady: moves sent this long after all were open */

enum { P_IDLE, P_SEEKING, P_PLAYING };          /* a pair */

typedef struct pair {
    int phase;
    long long game;      /* the game it plays, 0 if none */
    long long last_ended;/* its last game that ended; any game up to it is old */
    int pending;         /* a move sent, its `move` not yet seen by the opponent */
    int sender;          /* who sent it */
    long long sent_ns;
} pair;

#define MAX_PORTS 16

struct options {
    const char *host;
    int port, games, seconds, delay_ms, move_limit, spectators, rate;
    int ports[MAX_PORTS], nports;  /* --port P1,P2,...: several servers */
    int timeline;        /* print each second's moves and slowest latency */
    long games_total;
    double churn;
    const char *variant;
};

static struct options opt = { .host = "127.0.0.1", .delay_ms = 1000, .move_limit = 100, .rate = 18,
                       .variant = "rampart" };

static pair *pairs;
static int nplayers;
static volatile sig_atomic_t stop_now;

/* --- players ---------------------------------------------------------------------- */

static void progress(pair *pr)
{
    int k = (int)(pr - pairs);
    conn *a = &conns[2 * k], *b = &conns[2 * k + 1];
    if (stopping || pr->phase != P_IDLE || a->state != OPEN || b->state != OPEN || !a->hello ||
        !b->hello)
        return;
    pr->phase = P_SEEKING;
    send_json(a, json_pack("{s:s, s:s, s:i, s:i, s:i, s:b, s:s}", "type", "seek", "variant",
                           opt.variant, "base_ms", 0, "inc_ms", 0, "move_limit", opt.move_limit,
                           "rated", 0, "ref", "seek"));
}

/* The pair's game `id` is over; counted once. */
static void pair_ended(pair *pr, long long id)
{
    if (!id || id != pr->game)
        return;
    st.games_finished++;
    pr->last_ended = id;
    pr->game = 0;
    pr->phase = P_IDLE;
    pr->pending = 0;
}

static int my_turn(const conn *p)
{
    return p->game && p->legal && json_array_size(p->legal) > 0 && p->to_move >= 0 &&
           p->to_move < 32 && (p->sides >> p->to_move & 1);
}

static void maybe_schedule(conn *p)
{
    if (my_turn(p) && !stopping)
        timer_add(p, T_MOVE, now_ns() + (long long)opt.delay_ms * 1000000LL);
}

static void play(conn *p)
{
    if (!my_turn(p) || p->state != OPEN)
        return;
    if (opt.rate) {
        refill(p);
        if (p->tokens < 1) {   /* keep under the server's message rate: a little later */
            timer_add(p, T_MOVE, now_ns() + (long long)((1 - p->tokens) * 1e9 / opt.rate) + 1000);
            return;
        }
    }
    size_t n = json_array_size(p->legal);
    json_t *mv = json_array_get(p->legal, (size_t)(rng() % n));
    pair *pr = &pairs[p->pair];
    pr->pending = 1;
    pr->sender = (int)(p - conns);
    pr->sent_ns = now_ns();
    p->gen++;   /* no second move until the server answers */
    send_json(p, json_pack("{s:s, s:I, s:I, s:O, s:s}", "type", "move", "game",
                           (json_int_t)p->game, "ply", (json_int_t)p->next_ply, "move", mv,
                           "ref", "move"));
}

static void set_legal(conn *p, json_t *msg)
{
    json_t *legal = json_object_get(msg, "legal");
    json_decref(p->legal);
    p->legal = json_is_array(legal) ? json_incref(legal) : NULL;
    json_t *tm = json_object_get(msg, "to_move");
    p->to_move = json_is_integer(tm) ? (int)json_integer_value(tm) : -1;
    p->gen++;
}

static long ply_of(json_t *msg, long otherwise)
{
    json_t *ply = json_object_get(msg, "ply");
    return json_is_integer(ply) ? (long)json_integer_value(ply) : otherwise;
}

static int is_live(json_t *g)
{
    const char *status = json_string_value(json_object_get(g, "status"));
    return !status || strcmp(status, "live") == 0;
}

static void on_game(conn *p, json_t *g)
{
    long long id = id_of(json_object_get(g, "id"));
    pair *pr = &pairs[p->pair];
    if (!id)
        return;
    if (!is_live(g) || id <= pr->last_ended || (pr->game && id < pr->game)) {
        /* over, or a game of this pair that ended already */
        if (id == p->game)
            forget_game(p);
        if (!is_live(g))
            pair_ended(pr, id);
        progress(pr);
        return;
    }
    p->game = id;
    p->sides = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(g, "you"), i, v) {
        json_int_t s = json_integer_value(v);
        if (s >= 0 && s < 32)
            p->sides |= 1u << s;
    }
    p->next_ply = ply_of(g, (long)json_array_size(json_object_get(g, "moves")));
    set_legal(p, g);
    if (id != pr->game) {
        pr->game = id;
        pr->phase = P_PLAYING;
        pr->pending = 0;
        st.games_started++;
    }
    maybe_schedule(p);
}

static void on_move(conn *p, json_t *m)
{
    if (!p->game || id_of(json_object_get(m, "game")) != p->game)
        return;
    pair *pr = &pairs[p->pair];
    if (pr->pending && pr->sender != (int)(p - conns)) {
        long long us = (now_ns() - pr->sent_ns) / 1000;
        if (st.nlat == st.caplat) {
            st.caplat = st.caplat ? st.caplat * 2 : 65536;
            st.lat_us = xrealloc(st.lat_us, st.caplat * sizeof *st.lat_us);
        }
        st.lat_us[st.nlat++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
        st.tl_moves++;
        st.tl_slow += us > 100000;
        if (us > st.tl_max_us)
            st.tl_max_us = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
        if (st.all_open_ns && pr->sent_ns >= st.all_open_ns + STEADY_NS) {
            if (st.nsteady == st.capsteady) {
                st.capsteady = st.capsteady ? st.capsteady * 2 : 65536;
                st.steady_us = xrealloc(st.steady_us, st.capsteady * sizeof *st.steady_us);
            }
            st.steady_us[st.nsteady++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
        }
        pr->pending = 0;
        st.moves++;
    }
    long ply = ply_of(m, p->next_ply);
    if (p->next_ply >= 0 && ply != p->next_ply) {
        st.err_proto++;
        sample("a player got a move out of order", "");
    }
    p->next_ply = ply + 1;
    set_legal(p, m);
    maybe_schedule(p);
}

static void on_end(conn *p, json_t *m)
{
    long long id = id_of(json_object_get(m, "game"));
    pair *pr = &pairs[p->pair];
    if (id == p->game)
        forget_game(p);
    pair_ended(pr, id);
    progress(pr);
}

/* `hello` on a player's connection: comes back to the games it lists. */
static void player_hello(conn *p, json_t *m)
{
    pair *pr = &pairs[p->pair];
    int listed = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(m, "games"), i, v) {
        listed |= pr->game && id_of(v) == pr->game;
        send_game(p, "watch", id_of(v));
    }
    if (p->state != OPEN)
        return;
    if (pr->game && !listed)
        pair_ended(pr, pr->game);   /* it ended while this player was away */
    progress(pr);
}

static void player_message(conn *p, const char *type, json_t *m)
{
    if (strcmp(type, "seek_created") == 0) {
        json_t *s = json_object_get(m, "seek");
        json_t *id = json_is_object(s) ? json_object_get(s, "id") : s;
        int me = (int)(p - conns);
        conn *partner = &conns[me | 1];
        if (id && me % 2 == 0 && pairs[p->pair].phase == P_SEEKING && partner->hello)
            send_json(partner, json_pack("{s:s, s:O, s:s}", "type", "accept", "seek", id, "ref",
                                         "accept"));
    } else if (strcmp(type, "game") == 0) {
        json_t *g = json_object_get(m, "game");
        on_game(p, json_is_object(g) ? g : m);
    } else if (strcmp(type, "move") == 0) {
        on_move(p, m);
    } else if (strcmp(type, "end") == 0) {
        on_end(p, m);
    }
}

/* --- spectators ------------------------------------------------------------------- */

/* Asks for the lobby, to pick a game from it. */
static void spec_next(conn *p)
{
    if (p->state != OPEN || stopping)
        return;
    p->phase = S_LOBBY;
    p->game = 0;
    p->gen++;
    send_json(p, json_pack("{s:s, s:s}", "type", "lobby", "ref", "lobby"));
}

static void spec_lobby(conn *p, json_t *m)
{
    if (p->phase != S_LOBBY)
        return;   /* a lobby change sent before our `unlobby` arrived */
    /* The lobby answered; changes of it would only flood us. */
    send_json(p, json_pack("{s:s}", "type", "unlobby"));
    json_t *games = json_object_get(m, "games"), *v;
    size_t i, n = 0;
    long long ids[128];
    json_array_foreach(games, i, v) {
        if (n < 128 && is_live(v) && id_of(json_object_get(v, "id")))
            ids[n++] = id_of(json_object_get(v, "id"));
    }
    p->gen++;
    if (!n) {
        p->phase = S_IDLE;
        timer_add(p, T_LOBBY, after_ms(1000, 1000));
        return;
    }
    p->game = ids[rng() % n];
    p->next_ply = -1;
    p->phase = S_WATCHING;
    send_game(p, "watch", p->game);
    timer_add(p, T_LEAVE, after_ms(2000, 20000));
}

static void spec_message(conn *p, const char *type, json_t *m)
{
    if (strcmp(type, "lobby") == 0) {
        spec_lobby(p, m);
        return;
    }
    json_t *g = json_object_get(m, "game");
    int state = strcmp(type, "game") == 0;
    long long id = state ? id_of(json_object_get(g, "id")) : id_of(g);
    if (p->phase != S_WATCHING || !id || id != p->game)
        return;
    if (state && !is_live(g)) {
        spec_next(p);   /* it ended before we came: another */
    } else if (state) {
        st.watches++;
        p->next_ply = ply_of(g, -1);
    } else if (strcmp(type, "move") == 0 && p->next_ply >= 0) {
        long ply = ply_of(m, p->next_ply);
        if (ply != p->next_ply) {
            st.err_proto++;
            sample("a spectator got a move out of order", "");
        }
        p->next_ply = ply + 1;
    } else if (strcmp(type, "end") == 0) {
        st.watch_ended++;
        spec_next(p);
    }
}

/* --- messages ---------------------------------------------------------------------- */

static void on_error(conn *p, json_t *m)
{
    const char *e = json_string_value(json_object_get(m, "error"));
    const char *ref = json_string_value(json_object_get(m, "ref"));
    if (!e)
        e = "?";
    if (ref && strcmp(ref, "move") == 0) {
        /* the server had a newer state than ours (a reconnect's race) */
        if (strncmp(e, "stale move", 10) == 0 || strncmp(e, "not your turn", 13) == 0) {
            st.stale++;
        } else {
            st.err_move++;
            sample("server error answering a move", e);
        }
        if (p->game)
            send_game(p, "watch", p->game);   /* the whole state again */
        return;
    }
    char what[64];
    snprintf(what, sizeof what, "server error%s%s%s", ref ? " (" : "", ref ? ref : "",
             ref ? ")" : "");
    st.err_other++;
    sample(what, e);
}

static void on_message(conn *p, const char *text, size_t len)
{
    json_t *m = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(m, "type"));
    if (!type) {
        st.err_proto++;
        sample("not a message", text);
    } else if (strcmp(type, "error") == 0) {
        on_error(p, m);
    } else if (strcmp(type, "hello") == 0) {
        p->hello = 1;
        if (p->spec)
            spec_next(p);
        else
            player_hello(p, m);
    } else if (p->spec) {
        spec_message(p, type, m);
    } else {
        player_message(p, type, m);
    }
    json_decref(m);
}

/* --- timers and churn ------------------------------------------------------------ */

static void on_timer(const timer *t)
{
    conn *p = &conns[t->who];
    if (p->gen != t->gen)
        return;
    if (t->kind == T_BACK && p->state == AWAY && !stopping)
        reconnect(p);
    else if (p->state != OPEN)
        return;
    else if (t->kind == T_MOVE)
        play(p);
    else if (t->kind == T_LOBBY)
        spec_next(p);
    else if (t->kind == T_LEAVE && p->phase == S_WATCHING && rng() % 2)
        drop(p);
    else if (t->kind == T_LEAVE && p->phase == S_WATCHING) {
        st.unwatches++;
        send_game(p, "unwatch", p->game);
        spec_next(p);
    }
}

/* Once a second: each player in a game drops with probability --churn. */
static void churn(void)
{
    for (int i = 0; i < nplayers; i++) {
        conn *p = &conns[i];
        const pair *pr = &pairs[p->pair];
        if (p->state == OPEN && p->hello && pr->phase == P_PLAYING && p->game == pr->game &&
            unit() < opt.churn)
            drop(p);
    }
}

/* --- main ----------------------------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static double pct_of(const uint32_t *lat, size_t n, double q)
{
    if (!n)
        return 0;
    size_t i = (size_t)(q * (double)(n - 1) + 0.5);
    return lat[i] / 1000.0;
}

static double pct(double q)
{
    return pct_of(st.lat_us, st.nlat, q);
}

/* Prints the summary; returns the number of errors. */
static long report(void)
{
    double secs = (double)(now_ns() - st.start_ns) / 1e9;
    if (st.nlat)
        qsort(st.lat_us, st.nlat, sizeof *st.lat_us, cmp_u32);
    if (st.nsteady)
        qsort(st.steady_us, st.nsteady, sizeof *st.steady_us, cmp_u32);
    printf("load: %d games on %s:%d%s for %.1f s, move delay %d ms, %d spectators, churn %g\n",
           opt.games, opt.host, opt.port,
           opt.nports > 1 ? " and the other servers (half the games across two)" : "", secs,
           opt.delay_ms, opt.spectators, opt.churn);
    printf("connections: peak %d, at end %d of %d", st.peak, st.open, nconns);
    if (st.moved)
        printf(", %ld closed by their server and opened again on another", st.moved);
    if (st.all_open_ns)
        printf(" (all open after %.2f s)", (double)(st.all_open_ns - st.start_ns) / 1e9);
    printf("\ngames: started %ld, finished %ld\n", st.games_started, st.games_finished);
    printf("moves: %ld (%.1f per second)\n", st.moves, secs > 0 ? (double)st.moves / secs : 0);
    printf("latency ms (move sent -> opponent gets it): p50 %.2f  p90 %.2f  p99 %.2f  max %.2f"
           "  (n=%zu)\n",
           pct(0.50), pct(0.90), pct(0.99), pct(1.0), st.nlat);
    long long steady_from = st.all_open_ns + STEADY_NS;
    if (st.all_open_ns && now_ns() > steady_from) {
        double span = (double)(now_ns() - steady_from) / 1e9;
        printf("steady (moves sent %d s after all were open, %.1f s): %.1f moves per second, "
               "latency ms p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  (n=%zu)\n",
               (int)(STEADY_NS / 1000000000LL), span, (double)st.nsteady / span,
               pct_of(st.steady_us, st.nsteady, 0.50), pct_of(st.steady_us, st.nsteady, 0.90),
               pct_of(st.steady_us, st.nsteady, 0.99), pct_of(st.steady_us, st.nsteady, 1.0),
               st.nsteady);
    }
    printf("reconnects: players %ld (of %ld drops), spectators %ld (of %ld drops)\n",
           st.reconnects[0], st.drops[0], st.reconnects[1], st.drops[1]);
    printf("spectator watches: %ld (%ld games ended while watched, %ld left with unwatch)\n",
           st.watches, st.watch_ended, st.unwatches);
    printf("server error messages: answering a move %ld (and %ld stale, not errors), others %ld\n",
           st.err_move, st.stale, st.err_other);
    long errors = st.err_connect + st.err_http + st.err_shake + st.err_move + st.err_other +
                  st.err_closed + st.err_proto;
    printf("errors: %ld (connect %ld, http %ld, handshake %ld, server error messages %ld, "
           "closed %ld, protocol %ld)\n",
           errors, st.err_connect, st.err_http, st.err_shake, st.err_move + st.err_other,
           st.err_closed, st.err_proto);
    for (int i = 0; i < st.nsamples; i++)
        printf("  %s\n", st.samples[i]);
    fflush(stdout);
    return errors;
}

static void on_signal(int sig)
{
    (void)sig;
    stop_now = 1;
}

static int conn_port(const conn *p)
{
    if (opt.nports < 2)
        return opt.port;
    int i = (int)(p - conns), n = opt.nports;
    if (i >= nplayers)
        return opt.ports[(i + p->shift) % n];
    int k = i / 2;
    return opt.ports[((i % 2 == 0 ? k : k + (k & 1)) + p->shift) % n];
}

static void usage(void)
{
    fprintf(stderr, "usage: load --port P[,P2,...] --games N --duration S [--move-delay-ms D]\n"
                    "            [--host 127.0.0.1] [--variant rampart] [--move-limit 100]\n"
                    "            [--spectators N] [--churn P] [--games-total N] [--rate R]\n"
                    "            [--timeline 1]\n");
    exit(2);
}

static long arg_long(const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || end == s || v < lo || v > hi)
        usage();
    return v;
}

static int arg_int(const char *s, int lo, int hi)
{
    return (int)arg_long(s, lo, hi);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            usage();
        if (strcmp(a, "--port") == 0) {
            /* one server, or several on one database: P1,P2,... */
            char list[256];
            snprintf(list, sizeof list, "%s", v);
            opt.nports = 0;
            for (char *save = NULL, *t = strtok_r(list, ",", &save); t;
                 t = strtok_r(NULL, ",", &save)) {
                if (opt.nports == MAX_PORTS)
                    usage();
                opt.ports[opt.nports++] = arg_int(t, 1, 65535);
            }
            if (!opt.nports)
                usage();
            opt.port = opt.ports[0];
        }
        else if (strcmp(a, "--games") == 0)
            opt.games = arg_int(v, 1, MAX_GAMES);
        else if (strcmp(a, "--duration") == 0)
            opt.seconds = arg_int(v, 1, MAX_SECONDS);
        else if (strcmp(a, "--move-delay-ms") == 0)
            opt.delay_ms = arg_int(v, 0, 600000);
        else if (strcmp(a, "--move-limit") == 0)
            opt.move_limit = arg_int(v, 0, 100000);
        else if (strcmp(a, "--spectators") == 0)
            opt.spectators = arg_int(v, 0, MAX_SPECTATORS);
        else if (strcmp(a, "--games-total") == 0)
            opt.games_total = arg_long(v, 1, 1000000000L);
        else if (strcmp(a, "--timeline") == 0)
            opt.timeline = arg_int(v, 0, 1);
        else if (strcmp(a, "--rate") == 0)
            opt.rate = arg_int(v, 0, 100000);
        else if (strcmp(a, "--churn") == 0) {
            char *end;
            opt.churn = strtod(v, &end);
            if (*end || end == v || !(opt.churn >= 0 && opt.churn <= 1))
                usage();
        } else if (strcmp(a, "--host") == 0)
            opt.host = v;
        else if (strcmp(a, "--variant") == 0)
            opt.variant = v;
        else
            usage();
        i++;
    }
    struct in_addr addr;
    if (!opt.port || !opt.games || !opt.seconds)
        usage();
    if (inet_pton(AF_INET, opt.host, &addr) != 1 || (ntohl(addr.s_addr) >> 24) != 127) {
        fprintf(stderr, "load: --host must be a loopback IPv4 address (127.x.x.x)\n");
        return 2;
    }

    wire = (struct wire){ .host = opt.host, .rate = opt.rate, .several = opt.nports > 1,
                          .port_of = conn_port, .on_message = on_message };
    nplayers = 2 * opt.games;
    nconns = nplayers + opt.spectators;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)nconns + 32) {
        fprintf(stderr, "load: %d connections need more open files than the limit (%llu)\n",
                nconns, (unsigned long long)rl.rlim_cur);
        return 1;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    rng_state ^= (uint64_t)now_ns() ^ (uint64_t)getpid() << 32;

    conns = calloc((size_t)nconns, sizeof *conns);
    pairs = calloc((size_t)opt.games, sizeof *pairs);
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (!conns || !pairs || epfd < 0) {
        fprintf(stderr, "load: cannot start\n");
        return 1;
    }
    for (int i = 0; i < nconns; i++) {
        conns[i].fd = -1;
        conns[i].spec = i >= nplayers;
        conns[i].pair = i < nplayers ? i / 2 : 0;
        conns[i].to_move = -1;
        conns[i].next_ply = -1;
    }
    st.start_ns = now_ns();
    long long end_ns = st.start_ns + (long long)opt.seconds * 1000000000LL;
    long long churn_ns = st.start_ns + 1000000000LL, tl_ns = churn_ns;
    start_next();

    struct epoll_event evs[256];
    while (!stop_now && now_ns() < end_ns &&
           !(opt.games_total && st.games_finished >= opt.games_total)) {
        long long now = now_ns(), wake = end_ns;
        if (heap.len && heap.t[0].due_ns < wake)
            wake = heap.t[0].due_ns;
        if (opt.churn > 0 && churn_ns < wake)
            wake = churn_ns;
        int wait_ms = (int)((wake - now + 999999) / 1000000);
        if (wait_ms < 0)
            wait_ms = 0;
        if (wait_ms > 100)
            wait_ms = 100;
        int n = epoll_wait(epfd, evs, 256, wait_ms);
        for (int i = 0; i < n; i++)
            on_event(&conns[evs[i].data.u32], evs[i].events);
        now = now_ns();
        while (heap.len && heap.t[0].due_ns <= now) {
            timer due = heap.t[0];
            timer_pop();
            on_timer(&due);
        }
        if (opt.churn > 0 && now >= churn_ns) {
            churn();
            churn_ns += 1000000000LL;
        }
        if (opt.timeline && now >= tl_ns) {
            fprintf(stderr, "load: %3lld s: %ld moves, slowest %.1f ms, %ld over 100 ms\n",
                    (tl_ns - st.start_ns) / 1000000000LL, st.tl_moves, st.tl_max_us / 1000.0,
                    st.tl_slow);
            st.tl_moves = st.tl_slow = 0;
            st.tl_max_us = 0;
            tl_ns += 1000000000LL;
        }
    }
    stopping = 1;
    long errors = report();
    for (int i = 0; i < nconns; i++) {
        conn *p = &conns[i];
        if (p->state == OPEN) {
            unsigned char code[2] = { 1000 >> 8, 1000 & 0xff };
            send_frame(p, WS_CLOSE, code, 2);
            flush(p);
        }
        close_socket(p);
        free(p->in.p);
        free(p->out.p);
        json_decref(p->legal);
    }
    free(conns);
    free(pairs);
    free(heap.t);
    free(st.lat_us);
    close(epfd);
    return errors ? 1 : 0;
}
