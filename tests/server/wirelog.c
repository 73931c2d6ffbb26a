/* wirelog.c -- the test client's record of what it said and heard, for the
 * schema check: with $CITADEL_WIRE_LOG set, every HTTP exchange and every
 * WebSocket text message sent by ws_send_text or received becomes one line
 * of JSON appended to that file (tests/schema/check_wire.py validates each
 * against docs/api.schema.json). Raw frames and raw HTTP (ws_send_raw,
 * ws_send_frame, http_raw), the tools of hostile tests, are not recorded.
 *
 * Invariant: a line is whole or absent: each is written with one write()
 * to a file opened O_APPEND, under a mutex, so that threads and the test
 * programs that run one after another never interleave.
 */
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "wirelog.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int log_fd = -2;   /* -2: not opened yet; -1: no log */
static char program[64];

/* Text as JSON if it parses, else as a string (the check reports it). */
static json_t *as_json(const char *text, size_t len)
{
    json_t *j = json_loadb(text, len, JSON_DECODE_ANY, NULL);
    if (!j)
        j = json_stringn(text, len);
    return j ? j : json_string("(not UTF-8)");
}

static void put(json_t *line)
{
    pthread_mutex_lock(&lock);
    if (log_fd == -2) {
        const char *path = getenv("CITADEL_WIRE_LOG");
        log_fd = path && *path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
        char exe[256];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = 0;
        const char *base = strrchr(exe, '/');
        snprintf(program, sizeof program, "%.63s", base ? base + 1 : exe);
    }
    if (log_fd >= 0) {
        json_object_set_new(line, "test", json_string(program));
        char *text = json_dumps(line, JSON_COMPACT | JSON_ENSURE_ASCII);
        if (text) {
            size_t n = strlen(text);
            text[n] = '\n';
            ssize_t w = write(log_fd, text, n + 1);
            (void)w;
            free(text);
        }
    }
    pthread_mutex_unlock(&lock);
    json_decref(line);
}

int wirelog_on(void)
{
    const char *path = getenv("CITADEL_WIRE_LOG");
    return path && *path;
}

void wirelog_http(const char *method, const char *path, const char *body, const http_resp *r)
{
    if (!wirelog_on())
        return;
    json_t *line = json_pack("{s:s, s:s, s:s, s:i, s:s}", "kind", "http", "method", method,
                             "path", path, "status", r->status, "content_type",
                             r->content_type);
    if (body)
        json_object_set_new(line, "request", as_json(body, strlen(body)));
    int is_json = strncmp(r->content_type, "application/json", 16) == 0;
    json_object_set_new(line, "answer",
                        is_json ? as_json(r->body, r->len) : json_string("(text)"));
    json_object_set_new(line, "answer_is_json", json_boolean(is_json));
    put(line);
}

/* What each request in flight asked, for the wire log when its answer comes. */
enum { PENDING = 64 };
static struct pending {
    int fd;
    char method[8], path[600];
    char *body;
} pending[PENDING];
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;

void wirelog_http_begin(int fd, const char *method, const char *path, const char *body)
{
    if (!wirelog_on())
        return;
    pthread_mutex_lock(&pending_lock);
    int slot = -1;   /* the fd's own (a request whose answer was never read), or a free one */
    for (int i = 0; i < PENDING; i++)
        if (pending[i].fd == fd || (slot < 0 && !pending[i].fd))
            slot = i;
    if (slot >= 0) {
        struct pending *p = &pending[slot];
        free(p->body);
        p->fd = fd;
        snprintf(p->method, sizeof p->method, "%s", method);
        snprintf(p->path, sizeof p->path, "%s", path);
        p->body = body ? strdup(body) : NULL;
    }
    pthread_mutex_unlock(&pending_lock);
}

void wirelog_http_end(int fd, const http_resp *r)
{
    if (!wirelog_on())
        return;
    pthread_mutex_lock(&pending_lock);
    for (int i = 0; i < PENDING; i++)
        if (pending[i].fd == fd) {
            if (r)
                wirelog_http(pending[i].method, pending[i].path, pending[i].body, r);
            free(pending[i].body);
            memset(&pending[i], 0, sizeof pending[i]);
            break;
        }
    pthread_mutex_unlock(&pending_lock);
}

void wirelog_ws(const char *kind, const char *text, size_t len)
{
    if (!wirelog_on())
        return;
    json_t *line = json_pack("{s:s}", "kind", kind);
    json_object_set_new(line, "msg", as_json(text, len));
    put(line);
}
