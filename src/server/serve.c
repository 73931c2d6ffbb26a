/* serve.c -- `citadel serve`: reads the options, opens the store, makes
 * the server (server.c) on a real net with its worker pools, runs the loop
 * until SIGINT or SIGTERM, and takes everything down in the reverse order.
 */
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cluster/cluster.h"
#include "community/mail.h"
#include "core/identity.h"
#include "core/srv.h"
#include "serve.h"
#include "server.h"

/* What every static file is sent with: the page runs only its own script
 * and style, from this server, and no other site may frame it. Its own
 * WebAssembly (the engines, docs/wasm.md) may be compiled: browsers ask
 * 'wasm-unsafe-eval' for that, which allows no eval of JavaScript. */
static const char static_headers[] =
    "content-security-policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
    "style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'\r\n"
    "x-frame-options: DENY\r\n"
    "x-content-type-options: nosniff\r\n"
    "referrer-policy: same-origin\r\n";

static net *running;  /* for the signal handler */

static void on_signal(int sig)
{
    (void)sig;
    if (running)
        net_stop(running);
}

/* The writer's threads wake the loop when their writes are done. */
static void wake_loop(void *n)
{
    net_wake(n);
}

static const char serve_usage[] =
    "usage: citadel serve [--listen ADDR:PORT] [--db FILE|URI] [--web DIR] [--workers N]\n"
    "                     [--ipv6] [--sync-normal] [--abandon-ms MS] [--api-idle-ms MS]\n"
    "                     [--limit NAME=N]...\n"
    "                     [--allow-origin ORIGIN]... [--behind-tls] [--trust-proxy ADDR]\n"
    "                     [--tls-cert FILE --tls-key FILE] [--bot NAME=SPEC]...\n"
    "                     [--smtp URL --support-to ADDRESS [--mail-from ADDRESS]] [--site URL]\n"
    "  --listen        address and port (default 127.0.0.1:8080; port 0 picks one)\n"
    "  --db            the SQLite file (default citadel.db in the working folder), or\n"
    "                  a PostgreSQL database: postgresql://user:password@host/name,\n"
    "                  which any number of servers may share\n"
    "  --web           the built web page (default web/dist)\n"
    "  --workers       threads for bots (default: the cores); password hashing has\n"
    "                  half as many of its own\n"
    "  --ipv6          also listen on IPv6 (off unless asked)\n"
    "  --abandon-ms    how long a player may be gone on its turn (default 60000)\n"
    "  --api-idle-ms   how long the server keeps a Bot API account's link to its games\n"
    "                  with no stream and no request open (default 30000)\n"
    "  --sync-normal   stored moves survive a crash but perhaps not a power cut (by\n"
    "                  default they survive both: a disk flush a group of writes)\n"
    "  --limit         change one of the limits below (0: no limit)\n"
    "  --allow-origin  a page origin besides the server's own that may use it\n"
    "                  (https://play.example.org), e.g. behind a proxy that rewrites Host\n"
    "  --behind-tls    a TLS proxy is in front: cookies are Secure, the origin https\n"
    "  --trust-proxy   requests from this address are from a proxy: the client is\n"
    "                  the last address of their X-Forwarded-For\n"
    "  --tls-cert/--tls-key  serve HTTPS and WSS with this certificate (PEM)\n"
    "  --bot           a bot account more, e.g. bot-myengine=uci:/usr/local/bin/engine\n"
    "  --smtp          the mail server for support mail: smtp://host:25, smtps://host:465,\n"
    "                  smtp://user:password@host:587 (without it no mail is sent)\n"
    "  --support-to    where support messages are mailed (the operator's address)\n"
    "  --mail-from     the sender of the server's mail (default citadel@localhost)\n"
    "  --site          the site's address for links in mail (https://play.example.org)\n"
    "limits (per address, per player or server-wide; default, meaning):\n";

static int usage(const char *why)
{
    fprintf(stderr, "citadel serve: %s\n%s", why, serve_usage);
    srv_config_print_limits(stderr);
    return 2;
}

int serve_main(int argc, char **argv)
{
    const char *listen = "127.0.0.1:8080", *db = "citadel.db", *web = "web/dist";
    const char *tls_cert = NULL, *tls_key = NULL;
    int ipv6 = 0, sync_full = 1;
    long nworkers = sysconf(_SC_NPROCESSORS_ONLN);
    srv_config cfg;
    srv_config_default(&cfg);
    char err[240];
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--listen") == 0 && val)
            listen = argv[++i];
        else if (strcmp(a, "--db") == 0 && val)
            db = argv[++i];
        else if (strcmp(a, "--web") == 0 && val)
            web = argv[++i];
        else if (strcmp(a, "--workers") == 0 && val) {
            nworkers = strtol(argv[++i], NULL, 10);
            if (nworkers < 1 || nworkers > 64)
                return usage("--workers must be 1-64");
        } else if (strcmp(a, "--abandon-ms") == 0 && val) {
            cfg.abandon_ms = strtol(argv[++i], NULL, 10);
            if (cfg.abandon_ms < 1000 || cfg.abandon_ms > 3600000)
                return usage("--abandon-ms must be 1000-3600000");
        } else if (strcmp(a, "--api-idle-ms") == 0 && val) {
            cfg.api_idle_ms = strtol(argv[++i], NULL, 10);
            if (cfg.api_idle_ms < 1000 || cfg.api_idle_ms > 3600000)
                return usage("--api-idle-ms must be 1000-3600000");
        } else if (strcmp(a, "--limit") == 0 && val) {
            if (srv_config_limit(&cfg, argv[++i], err, sizeof err) != 0)
                return usage(err);
        } else if (strcmp(a, "--allow-origin") == 0 && val) {
            i++;
            if (cfg.norigins == SRV_MAX_ORIGINS || strlen(val) >= sizeof cfg.origins[0] ||
                (strncmp(val, "http://", 7) != 0 && strncmp(val, "https://", 8) != 0))
                return usage("--allow-origin wants an origin such as https://play.example.org "
                             "(at most 8)");
            snprintf(cfg.origins[cfg.norigins++], sizeof cfg.origins[0], "%s", val);
        } else if (strcmp(a, "--trust-proxy") == 0 && val) {
            unsigned char bin[16];
            i++;
            if (strlen(val) >= sizeof cfg.proxy || ident_addr_parse(val, bin) != 0)
                return usage("--trust-proxy wants the proxy's address, e.g. 127.0.0.1 or ::1");
            snprintf(cfg.proxy, sizeof cfg.proxy, "%s", val);
        } else if (strcmp(a, "--bot") == 0 && val) {
            i++;
            const char *eq = strchr(val, '=');
            if (!eq || eq == val || cfg.extra_bots == SRV_MAX_BOTS - 20 ||
                (size_t)(eq - val) > STORE_NAME_MAX || strlen(eq + 1) >= sizeof cfg.bot_specs[0] ||
                strncmp(val, "bot-", 4) != 0)
                return usage("--bot wants bot-NAME=SPEC (docs/bots.md lists the specs)");
            snprintf(cfg.bot_names[cfg.extra_bots], sizeof cfg.bot_names[0], "%.*s",
                     (int)(eq - val), val);
            snprintf(cfg.bot_specs[cfg.extra_bots++], sizeof cfg.bot_specs[0], "%s", eq + 1);
        } else if ((strcmp(a, "--smtp") == 0 || strcmp(a, "--support-to") == 0 ||
                    strcmp(a, "--mail-from") == 0 || strcmp(a, "--site") == 0) && val) {
            i++;
            char *dst = strcmp(a, "--smtp") == 0         ? cfg.smtp
                        : strcmp(a, "--support-to") == 0 ? cfg.support_to
                        : strcmp(a, "--mail-from") == 0  ? cfg.mail_from
                                                         : cfg.site;
            if (strlen(val) >= sizeof cfg.smtp)
                return usage("--smtp, --support-to, --mail-from and --site take at most 255 bytes");
            if ((dst == cfg.support_to || dst == cfg.mail_from) && !mail_address_ok(val))
                return usage("--support-to and --mail-from want an address: name@example.org");
            if (dst == cfg.smtp && strncmp(val, "smtp://", 7) != 0 && strncmp(val, "smtps://", 8) != 0)
                return usage("--smtp wants smtp://HOST[:PORT] or smtps://HOST[:PORT]");
            snprintf(dst, sizeof cfg.smtp, "%s", val);
            if (dst == cfg.site && dst[0] && dst[strlen(dst) - 1] == '/')
                dst[strlen(dst) - 1] = 0;
        } else if (strcmp(a, "--tls-cert") == 0 && val)
            tls_cert = argv[++i];
        else if (strcmp(a, "--tls-key") == 0 && val)
            tls_key = argv[++i];
        else if (strcmp(a, "--behind-tls") == 0)
            cfg.behind_tls = 1;
        else if (strcmp(a, "--ipv6") == 0)
            ipv6 = 1;
        else if (strcmp(a, "--sync-full") == 0)  /* the default; kept for old scripts */
            sync_full = 1;
        else if (strcmp(a, "--sync-normal") == 0)
            sync_full = 0;
        else {
            snprintf(err, sizeof err, "bad option '%.60s'", a);
            return usage(err);
        }
    }
    if (!tls_cert != !tls_key)
        return usage("--tls-cert and --tls-key go together");
    if (cfg.smtp[0] && !cfg.support_to[0])
        return usage("--smtp wants --support-to, the address support mail goes to");
    if (tls_cert)
        cfg.behind_tls = 1;  /* served over TLS: the same cookies and origin */
    if (nworkers < 1)
        nworkers = 2;
    char addr[128];
    const char *colon = strrchr(listen, ':');
    char *end;
    long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || colon == listen || (size_t)(colon - listen) >= sizeof addr || *end ||
        port < 0 || port > 65535)
        return usage("--listen wants ADDR:PORT, e.g. 127.0.0.1:8080");
    memcpy(addr, listen, (size_t)(colon - listen));
    addr[colon - listen] = 0;
    if (addr[0] == '[' && addr[strlen(addr) - 1] == ']') {
        memmove(addr, addr + 1, strlen(addr));
        addr[strlen(addr) - 1] = 0;
        ipv6 = 1;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "citadel serve: libsodium failed to start\n");
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);

    store_err e;
    store *st = store_open(db, sync_full, &e);
    if (!st) {
        fprintf(stderr, "citadel serve: %s\n", e.msg);
        return 1;
    }
    char shown[256];
    store_path_shown(db, shown, sizeof shown);
    int rc = 1, resumed = 0;
    srv *s = srv_new(&cfg, st, err, sizeof err);
    if (!s) {
        fprintf(stderr, "citadel serve: %s\n", err);
        store_close(st);
        return 1;
    }
    net_config ncfg = {
        .addr = addr, .port = (int)port, .ipv6 = ipv6, .webroot = web,
        .ws_idle_s = cfg.limits[LIM_WS_IDLE_S], .tls_cert = tls_cert, .tls_key = tls_key,
        .static_headers = static_headers,
    };
    s->net = net_new(&ncfg, &srv_callbacks, s, err, sizeof err);
    if (!s->net) {
        fprintf(stderr, "citadel serve: %s\n", err);
        goto out;
    }
    s->writer = writer_new(st, db, sync_full, wake_loop, s->net, s, &e);
    /* reads a connection's opening needs go to a thread of their own, so
     * that neither the loop nor the writer's moves wait for them */
    s->reader = s->writer ? writer_new(st, db, sync_full, wake_loop, s->net, s, &e) : NULL;
    if (!s->writer || !s->reader) {
        fprintf(stderr, "citadel serve: %s\n", e.msg);
        goto out;
    }
    if (store_is_pg(st)) {
        /* one of any number of servers on this database: each serves its
         * own games and passes on what is asked of the others' (cluster.h) */
        char label[128];
        snprintf(label, sizeof label, "%.64s:%d pid %ld", addr, net_port(s->net), (long)getpid());
        if (cluster_start(s, db, label, err, sizeof err) != 0) {
            fprintf(stderr, "citadel serve: %s\n", err);
            goto out;
        }
        writer_set_server(s->writer, s->server_id);
    }
    s->pool = workers_new((int)nworkers, s->net);
    s->hash_pool = workers_new(nworkers > 1 ? (int)nworkers / 2 : 1, s->net);
    if (!s->pool || !s->hash_pool) {
        fprintf(stderr, "citadel serve: cannot start worker threads\n");
        goto out;
    }
    resumed = srv_start(s);
    if (resumed < 0)
        goto out;
    running = s->net;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    printf("citadel serve: listening on %s://%s:%d (database %s, %d games resumed)\n",
           tls_cert ? "https" : "http", addr, net_port(s->net), shown, resumed);
    fflush(stdout);
    net_run(s->net);
    rc = 0;
out:
    running = NULL;
    /* the pools first: their jobs' answers go nowhere now */
    workers_free(s->pool);
    workers_free(s->hash_pool);
    workers_free(s->mail_pool);
    s->pool = s->hash_pool = s->mail_pool = NULL;
    /* the writer commits what it holds; answers to it go nowhere now */
    if (s->writer) {
        writer_stats ws;
        writer_get_stats(s->writer, &ws);
        fprintf(stderr,
                "citadel serve: the writer committed %ld writes in %ld batches (at most %ld "
                "in one), busy %.1f s, of which %.1f s committing; the slowest batch took "
                "%.0f ms, %ld took over 100 ms\n",
                ws.writes, ws.batches, ws.largest, ws.busy_ms / 1e3, ws.commit_ms / 1e3,
                ws.slowest_ms, ws.over_100ms);
    }
    if (s->lag_ticks)
        fprintf(stderr,
                "citadel serve: the loop ran its %d ms probe %lld times, late by at most "
                "%lld ms; over 50 ms late %lld times, over 100 ms %lld times\n",
                SRV_LAG_PROBE_MS, (long long)s->lag_ticks, (long long)s->lag_max,
                (long long)s->lag_over_50, (long long)s->lag_over_100);
    writer_free(s->reader);
    s->reader = NULL;
    writer_free(s->writer);
    s->writer = NULL;
    cluster_leave(s);  /* everything of ours is written: the others may adopt our games */
    /* timers and clients go before the net they live in */
    srv_stop(s);
    net_free(s->net);
    srv_free(s);
    store_close(st);
    return rc;
}
