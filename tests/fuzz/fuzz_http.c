/* fuzz_http.c -- libFuzzer target for the server's HTTP API (api.c,
 * core/account.c, play/records.c, the Bot API's routes, and the community's
 * forum.c, support.c, moderation.c), on the fake net of server_fake.c.
 *
 * Input: one byte of settings, then requests. The settings byte: bits 0-6
 * say what the store holds before the server starts (FAKE_POP_*: alice (an
 * admin), bob (a moderator), carol (a player) and a guest with sessions,
 * Bot API tokens, live and finished games, which srv_start resumes),
 * bit 7 lowers the limits on guests, sign-ups, sign-in failures and the
 * hashing queue so that they are met. Each request is two bytes of flags
 * and a line of text, up to a newline:
 *
 *     METHOD PATH[?QUERY][ BODY]
 *
 * METHOD is POST, DELETE, or else GET (the real net passes the app nothing
 * else); a line that is LEAVE alone is no request: the client of a stream
 * still open (the second flags byte picks which) goes away mid-stream;
 * PATH gets "/api/" in front unless it has it (net.c gives the app only
 * /api/ paths). The first flags byte: bits 0-2 the Cookie (none; the
 * latest session an answer set; an earlier one, chosen by the second
 * byte's high bits; alice's, or carol's if the second byte's bit 4 is set;
 * bob's, or the guest's if it is set; a token that is no session; a
 * learned one after another cookie; a learned one cut short), bits 3-4 the Origin
 * (none, the server's own, the allowed one, a foreign one), bits 5-6 the
 * Content-Type (JSON, a form, text, JSON with a charset), bit 7 set: the
 * workers are not run after this request, so password hashings pile up.
 * The second: bits 0-1 the peer (three addresses, or the trusted proxy
 * with an X-Forwarded-For), bits 2-3 time passing after the request
 * (none, 1 s, 61 s, an hour and a second), bits 6-7 the Authorization
 * (none; the newest Bot API token an answer made, else alice's; a forged
 * one; dave's (a bot's) if bit 5 is set, else another scheme).
 *
 * Checked: every request is answered exactly once (at once, or when the
 * workers are done), with a status of 200-599 and a JSON object for a body
 * ("error" in it for 4xx and 5xx; a record is text); a live session makes
 * GET /api/me answer its player, and a session signed out (or a cookie cut
 * short) never does.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_fake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_COOKIES 16
#define MAX_REQS 1024

typedef struct session {
    char cookie[100];
    int64_t player;
    int64_t expires;     /* wall ms */
    int dead;            /* signed out */
} session;

typedef struct reqinfo {
    int session;         /* the session the Cookie carries, -1 none */
    int exact;           /* the Cookie carries it intact */
    int me, signout;
} reqinfo;

static struct {
    fake_world w;
    session ses[MAX_COOKIES];
    int nses, latest;
    reqinfo req[MAX_REQS];
    int nreq;
    char token[64];      /* the newest API token made (Bot API) */
} S;

static void tune(srv_config *cfg, void *ctx)
{
    unsigned flags = *(const unsigned *)ctx;
    snprintf(cfg->proxy, sizeof cfg->proxy, "10.0.0.9");
    if (flags & 0x80) {
        cfg->limits[LIM_GUESTS] = 3;
        cfg->limits[LIM_SIGNUPS] = 2;
        cfg->limits[LIM_SIGNIN_FAILS] = 2;
        cfg->limits[LIM_HASH_QUEUE] = 2;
    }
}

static int64_t player_of(const net_http *h)
{
    json_t *j = json_loadb(h->body, h->len, 0, NULL);
    json_t *id = json_object_get(json_object_get(j, "player"), "id");
    int64_t v = json_is_integer(id) ? json_integer_value(id) : -1;
    json_decref(j);
    return v;
}

static int add_session(const char *cookie, int64_t player, int64_t life_ms)
{
    int k = S.nses < MAX_COOKIES ? S.nses++ : (int)(S.nreq % MAX_COOKIES);
    snprintf(S.ses[k].cookie, sizeof S.ses[k].cookie, "%s", cookie);
    S.ses[k].player = player;
    S.ses[k].expires = net_wall_ms() + life_ms;
    S.ses[k].dead = 0;
    S.latest = k;
    return k;
}

static void check_session(const net_http *h, reqinfo *ri, int set);

static void on_reply(net_http *h, void *ctx)
{
    (void)ctx;
    if (h->answers != 1)
        return;  /* the fake fails on it */
    fake_check_answer(h);
    reqinfo *ri = h->tag >= 0 && h->tag < S.nreq ? &S.req[h->tag] : NULL;
    char cookie[128];
    int set = fake_session_cookie(h, cookie, sizeof cookie);
    /* the checks of the session sent come first: a new session may take
     * its place in S.ses (add_session reuses slots once full) */
    check_session(h, ri, set);
    const char *tok = h->status == 200 ? strstr(h->body, "\"token\":\"cit_") : NULL;
    if (tok)
        snprintf(S.token, sizeof S.token, "%.44s", tok + 9);
    if (set > 0) {
        int64_t p = player_of(h);
        if (p <= 0)
            fake_fail("%s set a session but answered no player: %.200s", h->path, h->body);
        const char *age = strstr(h->headers, "Max-Age=");
        add_session(cookie, p, age ? atoll(age + 8) * 1000 : 0);
    }
}

/* What the answer says of the session the request carried. */
static void check_session(const net_http *h, reqinfo *ri, int set)
{
    if (!ri || ri->session < 0)
        return;
    session *se = &S.ses[ri->session];
    if (ri->signout && h->status == 200 && ri->exact)
        se->dead = 1;
    if (!ri->me)
        return;
    int64_t p = h->status == 200 ? player_of(h) : -1;
    if (ri->exact && !se->dead && net_wall_ms() < se->expires - 1000) {
        if (h->status != 200 || set != 0 || p != se->player)
            fake_fail("GET /api/me with the live session of player %lld answered %d%s: %.200s",
                      (long long)se->player, h->status, set ? " and a new session" : "",
                      h->body);
    } else if ((se->dead || !ri->exact) && p == se->player && set == 0) {
        fake_fail("GET /api/me with a session %s still answered its player %lld",
                  se->dead ? "signed out" : "cut short", (long long)se->player);
    }
}

static const char *const peers[4] = {"127.0.0.1", "10.1.2.3", "2001:db8::1", "10.0.0.9"};
static const char *const forwarded[4] = {"203.0.113.5", "198.51.100.1, 203.0.113.7",
                                         "2001:db8:1::5", ""};
static const char *const origins[4] = {"", "http://localhost:8080", "https://citadel.example",
                                       "http://evil.example"};
static const char *const ctypes[4] = {"application/json", "application/x-www-form-urlencoded",
                                      "text/plain", "application/json; charset=utf-8"};

/* One request from flags f1, f2 and its text line. */
static void request(unsigned f1, unsigned f2, const char *line, size_t len)
{
    if (len == 5 && memcmp(line, "LEAVE", 5) == 0) {
        fake_stream_leave(S.w.n, (int)f2);
        if (!(f1 & 0x80))
            fake_drain(S.w.n, 4);
        srv_check(S.w.s);
        return;
    }
    char *text = malloc(len + 1);
    char *path = malloc(len + 8);
    char cookie[256] = "";
    if (!text || !path)
        fake_fail("out of memory");
    memcpy(text, line, len);
    text[len] = 0;
    /* METHOD PATH[?QUERY][ BODY] */
    char *sp = memchr(text, ' ', len);
    size_t mlen = sp ? (size_t)(sp - text) : len;
    const char *method = mlen == 4 && memcmp(text, "POST", 4) == 0     ? "POST"
                       : mlen == 6 && memcmp(text, "DELETE", 6) == 0 ? "DELETE"
                                                                     : "GET";
    char *p = sp ? sp + 1 : text + len;
    size_t rest = len - (size_t)(p - text);
    char *body = memchr(p, ' ', rest);
    size_t plen = body ? (size_t)(body - p) : rest;
    const char *bodytext = "";
    size_t blen = 0;
    if (body) {
        bodytext = body + 1;
        blen = len - (size_t)(bodytext - text);
    }
    char *q = memchr(p, '?', plen);
    const char *query = "";
    if (q) {
        *q = 0;
        query = q + 1;
        plen = (size_t)(q - p);
    }
    if (body)
        *body = 0;
    p[plen] = 0;
    if (strncmp(p, "/api/", 5) == 0)
        snprintf(path, len + 8, "%s", p);
    else
        snprintf(path, len + 8, "/api/%s", p + (p[0] == '/'));

    reqinfo ri = {.session = -1};
    unsigned ck = f1 & 7;
    int pick = S.nses ? (ck == 1 ? S.latest : (int)((f2 >> 4) % (unsigned)S.nses)) : -1;
    switch (ck) {
    case 1:
    case 2:
    case 6:
    case 7:
        if (pick < 0)
            break;
        ri.session = pick;
        ri.exact = ck != 7;
        if (ck == 6)
            snprintf(cookie, sizeof cookie, "theme=dark; %s", S.ses[pick].cookie);
        else
            snprintf(cookie, sizeof cookie, "%.*s", ck == 7 ? 79 : 99, S.ses[pick].cookie);
        break;
    case 3:
    case 4:
        snprintf(cookie, sizeof cookie, "%s",
                 ck == 3 ? (f2 & 0x10 ? FAKE_COOKIE_CAROL : FAKE_COOKIE_ALICE)
                         : (f2 & 0x10 ? FAKE_COOKIE_GUEST : FAKE_COOKIE_BOB));
        /* the session of S.ses it is, if it is one: signing it out here
         * ends it for the learned cookies that carry it too */
        for (int k = 0; k < S.nses; k++)
            if (strcmp(S.ses[k].cookie, cookie) == 0) {
                ri.session = k;
                ri.exact = 1;
            }
        break;
    case 5:
        snprintf(cookie, sizeof cookie,
                 "citadel_session=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
        break;
    default:
        break;
    }
    ri.me = strcmp(path, "/api/me") == 0 && strcmp(method, "GET") == 0;
    ri.signout = strcmp(path, "/api/signout") == 0 && strcmp(method, "POST") == 0;
    unsigned peer = f2 & 3;
    /* the Bot API's token: none, the newest made (else alice's), a forged
     * one, dave's or another scheme */
    char auth[160] = "";
    switch ((f2 >> 6) & 3) {
    case 1:
        snprintf(auth, sizeof auth, "Bearer %s", S.token[0] ? S.token : FAKE_TOKEN_ALICE);
        break;
    case 2:
        snprintf(auth, sizeof auth, "Bearer cit_0123456789abcdef0123456789abcdef01234567");
        break;
    case 3:
        snprintf(auth, sizeof auth, "%s",
                 f2 & 0x20 ? "Bearer " FAKE_TOKEN_DAVE : "Basic YWxpY2U6c2VjcmV0");
        break;
    default:
        break;
    }
    net_request req = {
        .method = method, .path = path, .query = query, .cookie = cookie, .peer = peers[peer],
        .authorization = auth,
        .origin = origins[(f1 >> 3) & 3], .host = "localhost:8080",
        .content_type = blen ? ctypes[(f1 >> 5) & 3] : "",
        .forwarded_for = peer == 3 ? forwarded[(f2 >> 4) & 3] : "", .body = bodytext,
        .body_len = blen,
    };
    int tag = S.nreq < MAX_REQS ? S.nreq++ : -1;
    if (tag >= 0)
        S.req[tag] = ri;
    /* the record takes its tag before the app sees it: it may answer at once */
    fake_http(S.w.n, &req, tag);
    free(text);
    free(path);
    if (!(f1 & 0x80))
        fake_drain(S.w.n, 4);
    static const int64_t waits[4] = {0, 1000, 61000, 3601000};
    if (waits[(f2 >> 2) & 3])
        fake_advance(S.w.n, waits[(f2 >> 2) & 3]);
    srv_check(S.w.s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned flags = data[0];
    memset(&S, 0, sizeof S);
    fake_every_role = 1;
    fake_world_new(&S.w, tune, &flags, flags & FAKE_POP_ALL);
    fake_on_reply(S.w.n, on_reply, NULL);
    if (flags & FAKE_POP_ALL) {
        store_player p;
        store_err e;
        if (store_player_by_name(S.w.st, "alice", &p, NULL, &e) != 0)
            fake_fail("no alice");
        add_session(FAKE_COOKIE_ALICE, p.id, SRV_SESSION_MS);
        if (store_player_by_name(S.w.st, "bob", &p, NULL, &e) != 0)
            fake_fail("no bob");
        add_session(FAKE_COOKIE_BOB, p.id, SRV_SESSION_MS);
        if (store_player_by_name(S.w.st, "carol", &p, NULL, &e) != 0)
            fake_fail("no carol");
        add_session(FAKE_COOKIE_CAROL, p.id, SRV_SESSION_MS);
    }
    size_t i = 1;
    while (i + 2 <= size) {
        unsigned f1 = data[i], f2 = data[i + 1];
        i += 2;
        const uint8_t *nl = memchr(data + i, '\n', size - i);
        size_t len = nl ? (size_t)(nl - (data + i)) : size - i;
        request(f1, f2, (const char *)data + i, len);
        i += len + (nl != NULL);
    }
    fake_world_free(&S.w);
    return 0;
}
