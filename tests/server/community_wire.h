/* community_wire.h -- what test_community.c and test_moderation.c share:
 * the server's arguments for the community's tests, JSON requests that
 * check the error contract of docs/api.md on every refusal, staff made
 * with the command line, mails looked for in the SMTP sink.
 *
 * Static inline, so that a test file that uses only some of them does not
 * warn; include after <cmocka.h> and "wire.h".
 */
#ifndef CITADEL_TEST_COMMUNITY_WIRE_H
#define CITADEL_TEST_COMMUNITY_WIRE_H

#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "smtp_sink.h"
#include "wire.h"

/* Every quota that the tests would run into, off (0: no limit). */
#define NO_LIMITS                                                                             \
    "--limit guests-per-hour=0 --limit signups-per-hour=0 --limit new-games-per-hour=0 "       \
    "--limit messages-per-second=0 --limit posts-per-hour=0 "                                 \
    "--limit new-account-posts-per-hour=0 --limit chat-per-minute=0 "                         \
    "--limit support-per-hour=0 --limit reports-per-hour=0 --limit searches-per-minute=0 "     \
    "--limit signin-failures-per-minute=0 --limit writes-per-minute=0 "                        \
    "--limit address-writes-per-minute=0"
#define MAIL_ARGS_FMT "--smtp smtp://127.0.0.1:%d --support-to ops@example.org " \
                      "--mail-from citadel@example.org"

static inline long long wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* method path with the cookie (NULL: none) and a raw body (NULL: none):
 * the status, and the answer parsed into *out (if out; NULL when it is not
 * JSON). Whatever the request, the server never fails (5xx: nothing here
 * makes the store fail), and every refusal is {"error": "<text>"}. */
static inline int call_raw(const char *method, const char *path, const char *cookie,
                           const char *body, json_t **out)
{
    http_resp r;
    if (out)
        *out = NULL;
    int rc = http_request(HOST, server.port, method, path, cookie, body, &r);
    if (rc != 0)
        fail_msg("%s %s: no answer (server log: %s)", method, path, server.log);
    if (r.status >= 500)
        fail_msg("%s %s: %d %s", method, path, r.status, r.body);
    json_t *j = json_loads(r.body, 0, NULL);
    if (r.status >= 400) {
        if (!j || !json_is_string(json_object_get(j, "error")))
            fail_msg("%s %s: %d without {\"error\"}: %s", method, path, r.status, r.body);
    }
    int status = r.status;
    http_resp_free(&r);
    if (out)
        *out = j;
    else
        json_decref(j);
    return status;
}

/* The same with a JSON body (stolen; NULL: no body). */
static inline int call(const char *method, const char *path, const char *cookie, json_t *body,
                       json_t **out)
{
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    int status = call_raw(method, path, cookie, text, out);
    free(text);
    return status;
}

/* A request that must succeed (200, or 201 for what it makes); its answer. */
static inline json_t *ok_call(const char *method, const char *path, const char *cookie,
                              json_t *body)
{
    json_t *j = NULL;
    int status = call(method, path, cookie, body, &j);
    if (status != 200 && status != 201)
        fail_msg("%s %s: %d %s", method, path, status,
                 j ? json_string_value(json_object_get(j, "error")) : "(not JSON)");
    assert_non_null(j);
    return j;
}

/* A request that must be refused with `want`; the error text is returned
 * into err (if not NULL, size 256). */
static inline void refused(int want, const char *method, const char *path, const char *cookie,
                           json_t *body, char *err)
{
    json_t *j = NULL;
    int status = call(method, path, cookie, body, &j);
    if (status != want)
        fail_msg("%s %s: %d, wanted %d", method, path, status, want);
    if (err)
        snprintf(err, 256, "%s", json_string_value(json_object_get(j, "error")));
    json_decref(j);
}

static inline const char *path_fmt(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline const char *path_fmt(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return buf;
}

/* A new thread; its id, and its opening post's into *post (if not NULL). */
static inline json_int_t new_thread(const char *cookie, const char *category, const char *title,
                                    const char *body, json_int_t *post)
{
    char path[128];
    json_t *j = ok_call("POST", path_fmt(path, sizeof path, "/api/forum/%s", category), cookie,
                        json_pack("{s:s, s:s}", "title", title, "body", body));
    json_int_t t = jint(j, "thread");
    if (post)
        *post = jint(j, "post");
    json_decref(j);
    return t;
}

/* A reply to a thread; its id. */
static inline json_int_t reply_to(const char *cookie, json_int_t thread, const char *body)
{
    char path[128];
    json_t *j = ok_call("POST", path_fmt(path, sizeof path, "/api/forum/threads/%lld",
                                         (long long)thread),
                        cookie, json_pack("{s:s}", "body", body));
    json_int_t p = jint(j, "post");
    json_decref(j);
    return p;
}

/* GET /api/forum/threads/ID?page=N as `cookie` sees it (200 wanted). */
static inline json_t *thread_page(json_int_t thread, int page, const char *cookie)
{
    char path[128];
    return get_json(path_fmt(path, sizeof path, "/api/forum/threads/%lld?page=%d",
                             (long long)thread, page),
                    cookie, 200);
}

/* The thread's post count, as its page says. */
static inline int posts_of(json_int_t thread)
{
    json_t *p = thread_page(thread, 1, NULL);
    int n = (int)jint(json_object_get(p, "thread"), "posts");
    json_decref(p);
    return n;
}

/* The post of a thread page's posts with that id, or NULL. */
static inline json_t *post_in(json_t *page, json_int_t id)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(page, "posts"), i, p) if (jint(p, "id") == id) return p;
    return NULL;
}

/* The player object's name. */
static inline const char *name_of(json_t *player)
{
    const char *n = json_string_value(json_object_get(player, "name"));
    assert_non_null(n);
    return n;
}

/* q made safe for a query string, into out. */
static inline const char *url_encode(const char *q, char *out, size_t size)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)q; *p && o + 4 < size; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '_' || *p == '.') {
            out[o++] = (char)*p;
        } else {
            out[o++] = '%';
            out[o++] = hex[*p >> 4];
            out[o++] = hex[*p & 15];
        }
    }
    out[o] = '\0';
    return out;
}

/* GET /api/forum/search?q=... (200 wanted). */
static inline json_t *search(const char *q, const char *cookie)
{
    char enc[600], path[700];
    url_encode(q, enc, sizeof enc);
    return get_json(path_fmt(path, sizeof path, "/api/forum/search?q=%s", enc), cookie, 200);
}

/* 1 if the search results hold post id. */
static inline int found_post(json_t *results, json_int_t id)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(results, "results"), i, r) if (jint(r, "post") == id)
        return 1;
    return 0;
}

/* `citadel admin grant NAME ROLE --db DB`, the operator's way to make staff;
 * it must succeed. */
static inline void cli_grant(const char *name, const char *role)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0)
            dup2(nul, 1);   /* its "NAME is now ROLE" */
        execl(server_binary(), server_binary(), "admin", "grant", name, role, "--db", server.db,
              (char *)NULL);
        _exit(127);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("citadel admin grant %s %s --db %s: status %d", name, role, server.db, st);
}

/* The signed-in player's role and mute, from GET /api/me. */
static inline void me_of(const char *cookie, char *role, size_t size, long long *muted_until);

/* Signs up `name` and makes it `role` ("moderator", "admin") with the
 * command line, while the server runs; GET /api/me must then say so. */
static inline void make_staff(const char *name, const char *role, char *cookie)
{
    signup(name, cookie);
    cli_grant(name, role);
    char r[32];
    me_of(cookie, r, sizeof r, NULL);
    if (strcmp(r, role) != 0)
        fail_msg("%s was granted %s on the command line; GET /api/me says %s", name, role, r);
}

/* The signed-in player's role and mute, from GET /api/me. */
static inline void me_of(const char *cookie, char *role, size_t size, long long *muted_until)
{
    json_t *me = get_json("/api/me", cookie, 200);
    const char *r = json_string_value(json_object_get(me, "role"));
    assert_non_null(r);
    snprintf(role, size, "%s", r);
    if (muted_until) {
        json_t *m = json_object_get(me, "muted_until");
        assert_true(json_is_integer(m));
        *muted_until = json_integer_value(m);
    }
    json_decref(me);
}

/* The next message on c of type a or b (NULL if none within timeout_ms):
 * so that a refusal is told apart from an answer at once. */
static inline json_t *ws_first_of(ws_conn *c, const char *a, const char *b, int timeout_ms)
{
    long long deadline = wall_ms() + timeout_ms;
    for (;;) {
        long long left = deadline - wall_ms();
        if (left <= 0)
            return NULL;
        json_t *m = ws_recv_json(c, (int)left);
        if (!m) {
            if (ws_is_closed(c))
                return NULL;
            continue;
        }
        const char *t = json_string_value(json_object_get(m, "type"));
        if (t && (strcmp(t, a) == 0 || strcmp(t, b) == 0))
            return m;
        json_decref(m);
    }
}

static inline const char *type_of(json_t *m)
{
    const char *t = json_string_value(json_object_get(m, "type"));
    return t ? t : "";
}

/* The index of the first mail from `from` on whose data holds needle,
 * waiting up to timeout_ms for it; -1 if none came. */
static inline int mail_with(const char *needle, int from, int timeout_ms)
{
    long long deadline = wall_ms() + timeout_ms;
    int seen = from;
    for (;;) {
        int n = smtp_sink_count();
        for (int i = seen; i < n; i++) {
            const smtp_mail *m = smtp_sink_get(i);
            if (m && strstr(m->data, needle))
                return i;
        }
        seen = n;
        long long left = deadline - wall_ms();
        if (left <= 0)
            return -1;
        smtp_sink_wait(n + 1, (int)(left < 200 ? left : 200));
    }
}

/* 1 if the mail was sent to addr (an envelope recipient). */
static inline int mail_to(const smtp_mail *m, const char *addr)
{
    for (int i = 0; i < m->nrcpt; i++)
        if (strcmp(m->rcpt[i], addr) == 0)
            return 1;
    return 0;
}

#endif
