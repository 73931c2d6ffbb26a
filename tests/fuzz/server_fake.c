/* server_fake.c -- see server_fake.h: net.h and workers.h without sockets,
 * threads or time, for the server's fuzz targets.
 *
 * Everything runs on the caller's thread. libsodium is real, but its
 * random numbers come from a generator seeded afresh for each input
 * (fake_world_new), so that an input always does the same thing: the
 * server's seed, session tokens, guest names and sides drawn at random.
 */
#include <jansson.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/server/play/botpool.h"
#include "../../src/store/community.h"
#include "../../src/store/store_int.h"
#include "server_fake.h"

void fake_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "\n*** fuzz harness: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

int fake_trace;
int fake_quota_keys;

int fake_allowed(const char *what)
{
    const char *list = getenv("CITADEL_FUZZ_ALLOW");
    size_t n = strlen(what);
    for (const char *p = list; p && *p;) {
        size_t k = strcspn(p, ",");
        if (k == n && strncmp(p, what, n) == 0)
            return 1;
        p += k;
        p += *p == ',';
    }
    return 0;
}

/* --- random numbers, repeatable ------------------------------------------------------ */

static uint64_t rb_state;

static uint64_t rb_next(void)
{
    uint64_t z = (rb_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static const char *rb_name(void)
{
    return "citadel-fuzz";
}

static uint32_t rb_random(void)
{
    return (uint32_t)rb_next();
}

static void rb_buf(void *const buf, const size_t size)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < size; i += 8) {
        uint64_t v = rb_next();
        size_t n = size - i < 8 ? size - i : 8;
        memcpy(p + i, &v, n);
    }
}

static randombytes_implementation fake_rb = {
    .implementation_name = rb_name, .random = rb_random, .buf = rb_buf,
};

/* --- the clocks ------------------------------------------------------------------------ */

static int64_t mono_now = 1000000000, wall_now = 1750000000000;

void fake_clock_reset(int64_t mono, int64_t wall)
{
    mono_now = mono;
    wall_now = wall;
}

void fake_wall_jump(int64_t ms)
{
    if (ms > 0)
        wall_now += ms;
}

int64_t net_mono_ms(void)
{
    return mono_now;
}

int64_t net_wall_ms(void)
{
    return wall_now;
}

/* --- the net ----------------------------------------------------------------------------- */

struct net_timer {
    net_timer *prev, *next;
    net *n;
    net_timer_fn fn;
    void *arg;
    int armed;
    int64_t due;
    uint64_t seq;
};

struct workers {
    workers *next;
    net *n;
    job *todo, *todo_tail;
    job *done, *done_tail;
    int pending;
};

struct net_stream {
    struct net_stream *next;
    net_http *h;
    net_stream_gone gone;
    void *arg;
    int ended, cut;
    int left;            /* its client left (fake_stream_leave) */
};

struct net {
    net_callbacks cb;
    void *app;
    net_http *reqs;
    net_stream *streams;
    net_conn *conns;
    net_timer *timers;
    uint64_t seq;
    workers *pools, *pools_tail;
    fake_reply_fn on_reply;
    void *reply_ctx;
};

net *fake_net_new(const net_callbacks *cb, void *app)
{
    net *n = calloc(1, sizeof *n);
    if (!n)
        fake_fail("out of memory");
    n->cb = *cb;
    n->app = app;
    return n;
}

net *net_new(const net_config *cfg, const net_callbacks *cb, void *app, char *err,
             size_t errlen)
{
    (void)cfg;
    (void)err;
    (void)errlen;
    return fake_net_new(cb, app);
}

void fake_on_reply(net *n, fake_reply_fn fn, void *ctx)
{
    n->on_reply = fn;
    n->reply_ctx = ctx;
}

static void conn_free(net_conn *c)
{
    for (int i = 0; i < c->nout; i++)
        free(c->out[i]);
    free(c);
}

void fake_net_free(net *n)
{
    if (!n)
        return;
    while (n->streams) {
        net_stream *st = n->streams;
        n->streams = st->next;
        if (st->gone)
            st->gone(st->arg);
        free(st);
    }
    while (n->reqs) {
        net_http *h = n->reqs;
        n->reqs = h->next;
        free(h->headers);
        free(h->body);
        free(h);
    }
    while (n->conns) {
        net_conn *c = n->conns;
        n->conns = c->next;
        conn_free(c);
    }
    /* A timer still here was never freed by the server: in the real net it
     * would leak, so it is left to leak here (LeakSanitizer names it). */
    for (net_timer *t = n->timers; t; t = t->next)
        t->n = NULL;
    free(n);
}

void net_free(net *n)
{
    fake_net_free(n);
}

int net_run(net *n)
{
    (void)n;
    return 0;
}

void net_stop(net *n)
{
    (void)n;
}

void net_wake(net *n)
{
    (void)n;
}

int net_port(const net *n)
{
    (void)n;
    return 0;
}

/* --- HTTP --------------------------------------------------------------------------------- */

net_http *fake_http(net *n, const net_request *req, int tag)
{
    net_http *h = calloc(1, sizeof *h);
    if (!h)
        fake_fail("out of memory");
    h->n = n;
    h->tag = tag;
    snprintf(h->path, sizeof h->path, "%s", req->path);
    h->next = n->reqs;
    n->reqs = h;
    n->cb.http(n->app, h, req);
    return h;
}

net_http *fake_requests(net *n)
{
    return n->reqs;
}

void net_http_reply(net_http *h, int status, const char *content_type,
                    const char *extra_headers, const char *body, size_t len)
{
    h->answers++;
    if (fake_trace)
        fprintf(stderr, "[http %s] %d %.*s%s%s\n", h->path, status, (int)(len > 300 ? 300 : len),
                body ? body : "", extra_headers ? " | " : "", extra_headers ? extra_headers : "");
    if (h->answers == 1) {
        h->status = status;
        snprintf(h->ctype, sizeof h->ctype, "%s", content_type ? content_type : "text/plain");
        h->headers = extra_headers ? strdup(extra_headers) : NULL;
        h->body = malloc(len + 1);
        if (!h->body)
            fake_fail("out of memory");
        if (len)
            memcpy(h->body, body, len);
        h->body[len] = 0;
        h->len = len;
    }
    if (h->n->on_reply)
        h->n->on_reply(h, h->n->reply_ctx);
    if (h->answers > 1)
        fake_fail("%s answered twice (first %d, now %d: %.*s)", h->path, h->status, status,
                  (int)(len > 200 ? 200 : len), body ? body : "");
}

/* --- streams --------------------------------------------------------------------------------
 * A stream answers its request (the record's status and type) and keeps
 * what is written to it in the record's body, up to NET_STREAM_QUEUE_MAX as
 * net_stream.c queues, past which it is cut off. Ended streams stay until
 * the net is freed; a stream the server still holds then is closed on it
 * first (gone), as the real net closes its connections. */
net_stream *net_http_stream(net_http *h, int status, const char *content_type,
                            net_stream_gone gone, void *arg)
{
    h->answers++;
    if (h->answers > 1)
        fake_fail("%s answered twice (first %d, now a stream)", h->path, h->status);
    h->status = status;
    snprintf(h->ctype, sizeof h->ctype, "%s", content_type);
    h->body = calloc(1, 1);
    net_stream *st = calloc(1, sizeof *st);
    if (!st || !h->body)
        fake_fail("out of memory");
    st->h = h;
    st->gone = gone;
    st->arg = arg;
    st->next = h->n->streams;
    h->n->streams = st;
    return st;
}

int net_stream_write(net_stream *st, const char *data, size_t len)
{
    if (st->left)
        fake_fail("%s: written after its client left (gone)", st->h->path);
    if (st->ended)
        fake_fail("%s: written after its end", st->h->path);
    if (st->cut)
        return -1;
    net_http *h = st->h;
    if (h->len + len > NET_STREAM_QUEUE_MAX) {
        st->cut = 1;
        return -1;
    }
    char *b = realloc(h->body, h->len + len + 1);
    if (!b)
        fake_fail("out of memory");
    memcpy(b + h->len, data, len);
    h->len += len;
    b[h->len] = 0;
    h->body = b;
    return 0;
}

void net_stream_end(net_stream *st)
{
    if (st->left)
        fake_fail("%s: ended after its client left (gone)", st->h->path);
    if (st->ended)
        fake_fail("%s: ended twice", st->h->path);
    st->ended = 1;
    st->gone = NULL;
}

int fake_stream_leave(net *n, int which)
{
    int live = 0;
    for (net_stream *st = n->streams; st; st = st->next)
        live += !st->ended;
    if (!live)
        return 0;
    which %= live;
    for (net_stream *st = n->streams; st; st = st->next) {
        if (st->ended || which-- > 0)
            continue;
        /* gone is called once, and the stream is dead after it: the
         * server may neither write to it nor end it */
        net_stream_gone gone = st->gone;
        st->gone = NULL;
        st->ended = st->left = 1;
        if (gone)
            gone(st->arg);
        return 1;
    }
    return 0;
}

/* --- WebSocket ------------------------------------------------------------------------------ */

net_conn *fake_ws_connect(net *n, const net_request *req, int *status)
{
    net_request r = *req;
    r.method = "GET";
    r.path = "/ws";
    r.query = "";
    r.body = "";
    r.body_len = 0;
    r.content_type = "";
    int st = n->cb.ws_filter ? n->cb.ws_filter(n->app, &r) : 0;
    if (st) {
        *status = st;
        return NULL;
    }
    net_conn *c = calloc(1, sizeof *c);
    if (!c)
        fake_fail("out of memory");
    c->next = n->conns;
    n->conns = c;
    if (n->cb.ws_open(n->app, c, &r) != 0) {
        /* refused at once: net.c frees it without ws_close */
        n->conns = c->next;
        conn_free(c);
        *status = -1;
        return NULL;
    }
    *status = 0;
    return c;
}

void fake_ws_message(net *n, net_conn *c, const char *text, size_t len)
{
    if (c->closing)
        return;
    if (fake_trace)
        fprintf(stderr, "[ws %p] -> %.*s\n", (void *)c, (int)(len > 4000 ? 4000 : len), text);
    char *copy = malloc(len + 1);  /* as net.c hands it over: exactly len bytes and a NUL */
    if (!copy)
        fake_fail("out of memory");
    if (len)
        memcpy(copy, text, len);
    copy[len] = 0;
    n->cb.ws_message(n->app, c, copy, len);
    free(copy);
}

void fake_ws_close(net *n, net_conn *c)
{
    n->cb.ws_close(n->app, c);
    for (net_conn **p = &n->conns; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
    conn_free(c);
}

void fake_outbox_clear(net_conn *c)
{
    for (int i = 0; i < c->nout; i++)
        free(c->out[i]);
    c->nout = 0;
    c->dropped = 0;
    c->queued = 0;
}

int net_ws_send(net_conn *c, const char *text, size_t len)
{
    if (!c)
        fake_fail("net_ws_send on no connection");
    if (c->closing)
        return -1;
    if (!fake_utf8_ok(text, len))
        fake_fail("the server sent a text message that is not UTF-8: %.*s",
                  (int)(len > 200 ? 200 : len), text);
    if (c->queued + len > NET_QUEUE_MAX) {
        net_ws_close(c);
        return -1;
    }
    c->queued += len;
    c->sent++;
    if (fake_trace)
        fprintf(stderr, "[ws %p] <- %.*s\n", (void *)c, (int)(len > 4000 ? 4000 : len), text);
    if (c->nout == FAKE_OUTBOX_MAX) {
        c->dropped++;
        return 0;
    }
    char *m = malloc(len + 1);
    if (!m)
        fake_fail("out of memory");
    memcpy(m, text, len);
    m[len] = 0;
    c->out[c->nout] = m;
    c->outlen[c->nout++] = len;
    return 0;
}

void net_ws_close(net_conn *c)
{
    c->closing = 1;
}

void net_conn_set_data(net_conn *c, void *data)
{
    c->data = data;
}

void *net_conn_data(const net_conn *c)
{
    return c->data;
}

/* --- timers ---------------------------------------------------------------------------------- */

net_timer *net_timer_new(net *n, net_timer_fn fn, void *arg)
{
    net_timer *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->n = n;
    t->fn = fn;
    t->arg = arg;
    t->next = n->timers;
    if (n->timers)
        n->timers->prev = t;
    n->timers = t;
    return t;
}

void net_timer_free(net_timer *t)
{
    if (!t)
        return;
    if (t->n) {
        if (t->prev)
            t->prev->next = t->next;
        else
            t->n->timers = t->next;
        if (t->next)
            t->next->prev = t->prev;
    }
    free(t);
}

void net_timer_set(net_timer *t, int64_t ms)
{
    if (!t->n)
        fake_fail("a timer set after its net was freed");
    t->armed = 1;
    t->due = mono_now + (ms < 0 ? 0 : ms);
    t->seq = ++t->n->seq;
}

void net_timer_cancel(net_timer *t)
{
    t->armed = 0;
}

/* Sockets of the app's own: only the bus between several servers (bus.c)
 * watches one, and the fake server is one server alone, on SQLite. */
net_fd *net_fd_watch(net *n, int fd, net_fd_fn fn, void *arg)
{
    (void)n, (void)fd, (void)fn, (void)arg;
    return NULL;
}

void net_fd_want_write(net_fd *w, int on)
{
    (void)w, (void)on;
}

void net_fd_free(net_fd *w)
{
    (void)w;
}

void fake_advance_late(int64_t ms)
{
    if (ms > 0) {
        mono_now += ms;
        wall_now += ms;
    }
}

void fake_advance(net *n, int64_t ms)
{
    int64_t target = mono_now + (ms < 0 ? 0 : ms);
    int64_t storm_at = -1;
    long storm = 0;
    for (;;) {
        net_timer *best = NULL;
        for (net_timer *t = n->timers; t; t = t->next)
            if (t->armed && t->due <= target &&
                (!best || t->due < best->due || (t->due == best->due && t->seq < best->seq)))
                best = t;
        if (!best)
            break;
        if (best->due > mono_now) {
            wall_now += best->due - mono_now;
            mono_now = best->due;
        }
        if (mono_now == storm_at) {
            if (++storm > FAKE_STORM)
                fake_fail("timer storm: more than %d timers fired at one instant", FAKE_STORM);
        } else {
            storm_at = mono_now;
            storm = 0;
        }
        best->armed = 0;
        best->fn(best->arg);
    }
    wall_now += target - mono_now;
    mono_now = target;
}

int fake_timers_armed(net *n)
{
    int k = 0;
    for (net_timer *t = n->timers; t; t = t->next)
        k += t->armed;
    return k;
}

/* --- workers ---------------------------------------------------------------------------------- */

int fake_bot_fast = 1;

workers *workers_new(int nthreads, net *wake)
{
    (void)nthreads;
    workers *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->n = wake;
    if (wake) {
        if (wake->pools_tail)
            wake->pools_tail->next = w;
        else
            wake->pools = w;
        wake->pools_tail = w;
    }
    return w;
}

static void free_list(job *j)
{
    while (j) {
        job *next = j->next;
        free(j);
        j = next;
    }
}

void workers_free(workers *w)
{
    if (!w)
        return;
    if (w->n)
        for (workers **p = &w->n->pools; *p; p = &(*p)->next)
            if (*p == w) {
                *p = w->next;
                break;
            }
    if (w->n) {
        w->n->pools_tail = NULL;
        for (workers *p = w->n->pools; p; p = p->next)
            w->n->pools_tail = p;
    }
    free_list(w->todo);
    free_list(w->done);
    free(w);
}

void workers_submit(workers *w, job *j)
{
    j->next = NULL;
    if (w->todo_tail)
        w->todo_tail->next = j;
    else
        w->todo = j;
    w->todo_tail = j;
    w->pending++;
}

void workers_drain(workers *w, void *app)
{
    job *list = w->done;
    w->done = w->done_tail = NULL;
    for (job *j = list; j; j = j->next)
        w->pending--;
    while (list) {
        job *next = list->next;
        list->done(app, list);
        list = next;
    }
}

int workers_backlog(workers *w)
{
    return w->pending;
}

static void run_job(workers *w)
{
    job *j = w->todo;
    w->todo = j->next;
    if (!w->todo)
        w->todo_tail = NULL;
    if (fake_bot_fast && j->run == botpool_job_run) {
        /* The server's side of a bot move (the job, its result, the game
         * going on) is the target, not the engines' search: under this
         * build a search of depth 2 was most of an input's time. So every
         * bot but an outside engine plays as the random mover (seeded by
         * the job: the same moves on every run of an input). */
        bot_job *bj = (bot_job *)j;
        if (strncmp(bj->spec, "uci:", 4) != 0)
            snprintf(bj->spec, sizeof bj->spec, "random");
        bj->lim.movetime = 0;
        bj->lim.time[0] = bj->lim.time[1] = -1;
    }
    j->run(j);
    j->next = NULL;
    if (w->done_tail)
        w->done_tail->next = j;
    else
        w->done = j;
    w->done_tail = j;
}

void fake_wake(net *n)
{
    int any = 0;
    for (workers *w = n->pools; w; w = w->next)
        any |= w->done != NULL;
    if (any && n->cb.wake)
        n->cb.wake(n->app);
}

int fake_jobs_queued(net *n)
{
    int k = 0;
    for (workers *w = n->pools; w; w = w->next)
        for (job *j = w->todo; j; j = j->next)
            k++;
    return k;
}

int fake_jobs_done(net *n)
{
    int k = 0;
    for (workers *w = n->pools; w; w = w->next)
        for (job *j = w->done; j; j = j->next)
            k++;
    return k;
}

int fake_drain(net *n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        if (!fake_jobs_queued(n) && !fake_jobs_done(n))
            break;
        for (workers *w = n->pools; w; w = w->next)
            while (w->todo)
                run_job(w);
        fake_wake(n);
    }
    return fake_jobs_queued(n);
}

int fake_run_one(net *n, int which)
{
    workers *w = n->pools;
    for (int i = 0; w && i < which; i++)
        w = w->next;
    if (!w || !w->todo)
        return 0;
    run_job(w);
    return 1;
}

/* --- checks ------------------------------------------------------------------------------------ */

int fake_utf8_ok(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t n;
        unsigned cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xc2 && c <= 0xdf) {
            n = 1;
            cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2;
            cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (i + n >= len)
            return 0;
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += n + 1;
    }
    return 1;
}

void fake_utf8_fix(char *text, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t n = 1;
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x80) {
            n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
            if (i + n > len || !fake_utf8_ok(text + i, n)) {
                text[i] = '?';
                n = 1;
            }
        }
        i += n;
    }
}

int fake_session_cookie(const net_http *h, char *out, size_t size)
{
    static const char key[] = "Set-Cookie: citadel_session=";
    const char *p = h->headers ? strstr(h->headers, key) : NULL;
    if (!p)
        return 0;
    p += sizeof key - 1;
    size_t n = strcspn(p, ";\r\n");
    if (n == 0)
        return -1;
    snprintf(out, size, "citadel_session=%.*s", (int)n, p);
    return 1;
}

void fake_check_answer(const net_http *h)
{
    if (h->status < 200 || h->status > 599)
        fake_fail("%s answered with status %d", h->path, h->status);
    if (strncmp(h->path, "/api/", 5) != 0)
        return;
    size_t plen = strlen(h->path);
    int record = plen >= 7 && strcmp(h->path + plen - 7, "/record") == 0;
    if (record && h->status == 200) {
        if (strncmp(h->ctype, "text/plain", 10) != 0)
            fake_fail("%s: a record answered as %s", h->path, h->ctype);
        return;
    }
    if (h->status == 200 && strncmp(h->ctype, "application/x-ndjson", 20) == 0) {
        /* an answer of lines (/api/bot/online): each a JSON object */
        for (const char *l = h->body, *end = h->body + h->len; l < end;) {
            const char *nl = memchr(l, '\n', (size_t)(end - l));
            json_error_t lerr;
            json_t *o = json_loadb(l, (size_t)((nl ? nl : end) - l), 0, &lerr);
            if (!json_is_object(o))
                fake_fail("%s: a line that is not a JSON object: %.200s", h->path, l);
            json_decref(o);
            l = nl ? nl + 1 : end;
        }
        return;
    }
    if (strncmp(h->ctype, "application/json", 16) != 0)
        fake_fail("%s answered %d as %s, not JSON: %.200s", h->path, h->status, h->ctype,
                  h->body);
    json_error_t jerr;
    json_t *j = json_loadb(h->body, h->len, JSON_DECODE_ANY, &jerr);
    if (!j || (h->status >= 300 && !json_is_object(j)))
        fake_fail("%s answered %d with a body that is not a JSON object (%s): %.200s", h->path,
                  h->status, j ? "not an object" : jerr.text, h->body);
    if (h->status >= 400 && !json_is_string(json_object_get(j, "error")))
        fake_fail("%s answered %d without an error: %.200s", h->path, h->status, h->body);
    json_decref(j);
}

void fake_check_all_answered(net *n)
{
    for (net_http *h = n->reqs; h; h = h->next)
        if (h->answers != 1)
            fake_fail("%s answered %d times", h->path, h->answers);
}

/* --- the server for one input ------------------------------------------------------------------- */

void fake_world_new(fake_world *w, void (*tune)(srv_config *cfg, void *ctx), void *ctx,
                    unsigned populate_what)
{
    static int ready;
    if (!ready) {
        fake_trace = getenv("CITADEL_FUZZ_TRACE") != NULL;
        if (randombytes_set_implementation(&fake_rb) != 0 || sodium_init() < 0)
            fake_fail("libsodium failed to start");
        fake_store_init();
        ready = 1;
    }
    rb_state = 0x5eed5eed5eedULL;  /* the same random numbers for every input */
    fake_clock_reset(1000000000, 1750000000000);
    memset(w, 0, sizeof *w);
    srv_config cfg;
    srv_config_default(&cfg);
    cfg.pw_ops = 1;
    cfg.pw_mem = 8192;
    cfg.bot_think_max_ms = 1;
    cfg.abandon_ms = 5000;
    cfg.keep_over_ms = 20000;
    cfg.norigins = 1;
    snprintf(cfg.origins[0], sizeof cfg.origins[0], "https://citadel.example");
    if (tune)
        tune(&cfg, ctx);
    w->st = fake_fresh_store();
    char err[200];
    w->s = srv_new(&cfg, w->st, err, sizeof err);
    if (!w->s)
        fake_fail("srv_new: %s", err);
    fake_keep_bots(w->st);
    /* A tiny quota table (fake_quota_keys), so that inputs can fill it and
     * see it fail closed; else one of 4096 keys: no input comes near that,
     * and making and freeing srv_new's 65536 buckets cost more than many an
     * input. */
    quota_free(w->s->quota);
    w->s->quota = quota_new(fake_quota_keys > 0 ? fake_quota_keys : 4096);
    if (!w->s->quota)
        fake_fail("out of memory");
    fake_populate(w->st, populate_what);
    w->n = fake_net_new(&srv_callbacks, w->s);
    w->s->net = w->n;
    w->pool = workers_new(2, w->n);
    w->hash_pool = workers_new(1, w->n);
    if (!w->pool || !w->hash_pool)
        fake_fail("out of memory");
    w->s->pool = w->pool;
    w->s->hash_pool = w->hash_pool;
    store_err se;
    w->s->writer = writer_new(w->st, NULL, 0, NULL, NULL, w->s, &se);  /* inline: no file */
    if (!w->s->writer)
        fake_fail("writer: %s", se.msg);
    if (srv_start(w->s) < 0)
        fake_fail("srv_start failed");
    /* The loop's lag probe measures how late the real loop runs; on the
     * virtual clock it is never late, and at one fire every 20 ms an hour's
     * advance fired it 180,000 times: most of fuzz_http's time. */
    net_timer_cancel(w->s->lag_timer);
}

void fake_world_free(fake_world *w)
{
    srv *s = w->s;
    fake_drain(w->n, 64);
    fake_check_all_answered(w->n);
    /* serve.c's order: the pools, then the timers, then the net (whose
     * connections close with s->stopping set), then the server */
    workers_free(w->pool);
    workers_free(w->hash_pool);
    s->pool = s->hash_pool = NULL;
    writer_free(s->writer);
    s->writer = NULL;
    srv_stop(s);
    while (w->n->conns)
        fake_ws_close(w->n, w->n->conns);
    fake_net_free(w->n);
    srv_free(s);
    /* the store is kept for the next input (fresh_store) */
    memset(w, 0, sizeof *w);
}
