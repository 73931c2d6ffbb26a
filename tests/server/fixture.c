/* fixture.c -- see fixture.h. The server runs as a child of the test: the
 * child dies with its parent (PR_SET_PDEATHSIG), so a crashed test leaves
 * no server behind; a port picked free may be taken before the server binds
 * it, so server_start tries three ports. */
#include "fixture.h"
#include "client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

server_proc server;
server_proc servers[FIXTURE_MAX_SERVERS];

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *server_binary(void)
{
    const char *b = getenv("CITADEL");
    return b && *b ? b : "build/release/citadel";
}

/* --- the server process ------------------------------------------------------ */


static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t al = sizeof a;
    int port = -1;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &al) == 0)
        port = ntohs(a.sin_port);
    close(fd);
    return port;
}

static pid_t spawn(const server_proc *s, const char *binary, const char *extra_args)
{
    char listen[64];
    snprintf(listen, sizeof listen, "127.0.0.1:%d", s->port);
    char *extra = strdup(extra_args ? extra_args : "");
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)binary;
    argv[argc++] = "serve";
    argv[argc++] = "--listen";
    argv[argc++] = listen;
    argv[argc++] = "--db";
    argv[argc++] = (char *)s->db;
    char *save = NULL;
    for (char *t = strtok_r(extra, " ", &save); t && argc < 63; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    argv[argc] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);   /* never outlive a crashed test */
        int out = open(s->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        int nul = open("/dev/null", O_RDONLY);
        if (out >= 0) {
            dup2(out, 1);
            dup2(out, 2);
        }
        if (nul >= 0)
            dup2(nul, 0);
        execv(binary, argv);
        _exit(127);
    }
    free(extra);
    return pid;
}

/* A new, empty PostgreSQL database beside the one uri names (the cluster
 * of tests/pg.sh): its URI into out. Each server a test starts gets its
 * own, as each gets its own SQLite file. */
static int pg_new_database(const char *uri, char *out, size_t size)
{
    static int made;
    const char *name = strstr(uri, ":///"), *query = strchr(uri, '?');
    if (!name || !query || query < name)
        return -1;
    char db[64];
    snprintf(db, sizeof db, "citadel_%ld_%d", (long)getpid(), ++made);
    PGconn *conn = PQconnectdb(uri);
    int ok = PQstatus(conn) == CONNECTION_OK;
    if (ok) {
        char sql[160];
        snprintf(sql, sizeof sql, "CREATE DATABASE %s", db);
        PGresult *res = PQexec(conn, sql);
        ok = PQresultStatus(res) == PGRES_COMMAND_OK;
        PQclear(res);
    }
    if (!ok)
        fprintf(stderr, "creating a database in %s: %s", uri, PQerrorMessage(conn));
    PQfinish(conn);
    snprintf(out, size, "%.*s%s%s", (int)(name + 4 - uri), uri, db, query);
    return ok ? 0 : -1;
}

/* s made ready for a server on db_path (or a new database): its db and log. */
static int server_prepare(server_proc *s, const char *db_path)
{
    memset(s, 0, sizeof *s);
    const char *pg = getenv("CITADEL_TEST_PG");
    if (!db_path) {
        snprintf(s->dir, sizeof s->dir, "/tmp/citadel-test-XXXXXX");
        if (!mkdtemp(s->dir))
            return -1;
    }
    if (db_path) {
        snprintf(s->db, sizeof s->db, "%s", db_path);
    } else if (pg && pg[0]) {
        if (pg_new_database(pg, s->db, sizeof s->db) != 0)
            return -1;
    } else {
        snprintf(s->db, sizeof s->db, "%s/citadel.db", s->dir);
    }
    if (strstr(s->db, "://")) {  /* a database URI: the log goes in a folder of its own */
        if (!s->dir[0]) {
            snprintf(s->dir, sizeof s->dir, "/tmp/citadel-test-XXXXXX");
            if (!mkdtemp(s->dir))
                return -1;
        }
        snprintf(s->log, sizeof s->log, "%s/server.log", s->dir);
    } else {
        snprintf(s->log, sizeof s->log, "%s.log", s->db);
    }
    return 0;
}

int server_wait_up(server_proc *s, int ms)
{
    long long deadline = now_ms() + ms;
    while (now_ms() < deadline) {
        int st;
        if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
            s->pid = 0;
            return -1;
        }
        http_resp r;
        if (http_request("127.0.0.1", s->port, "GET", "/api/health", NULL, NULL, &r) == 0) {
            int ok = r.status == 200;
            http_resp_free(&r);
            if (ok)
                return 0;
        }
        struct timespec ts = { 0, 50 * 1000000L };
        nanosleep(&ts, NULL);
    }
    return -1;
}

int server_spawn(server_proc *s, const char *binary, const char *db_path, const char *extra_args)
{
    if (server_prepare(s, db_path) != 0 || (s->port = free_port()) < 0)
        return -1;
    s->pid = spawn(s, binary, extra_args);
    return s->pid > 0 ? 0 : -1;
}

int server_start(server_proc *s, const char *binary, const char *db_path, const char *extra_args)
{
    if (server_prepare(s, db_path) != 0)
        return -1;
    for (int attempt = 0; attempt < 3; attempt++) {   /* the port may be taken meanwhile */
        s->port = free_port();
        if (s->port < 0)
            return -1;
        s->pid = spawn(s, binary, extra_args);
        if (s->pid < 0)
            return -1;
        if (server_wait_up(s, 20000) == 0)
            return 0;
        if (s->pid > 0) {  /* alive, but not answering */
            server_kill(s, SIGKILL);
            return -1;
        }
    }
    return -1;
}

int server_kill(server_proc *s, int sig)
{
    if (s->pid <= 0)
        return -1;
    kill(s->pid, sig);
    int st = -1;
    long long deadline = now_ms() + 10000;
    for (;;) {
        pid_t r = waitpid(s->pid, &st, WNOHANG);
        if (r == s->pid || (r < 0 && errno != EINTR))
            break;
        if (now_ms() > deadline) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &st, 0);
            break;
        }
        struct timespec ts = { 0, 10 * 1000000L };
        nanosleep(&ts, NULL);
    }
    s->pid = 0;
    return st;
}

/* --- a group's servers ----------------------------------------------------- */

static const fixture_spec *spec;

void fixture_use(const fixture_spec *s)
{
    spec = s;
}

static int count(void)
{
    return spec->count > 1 ? spec->count : 1;
}

/* Starts the group's servers; the first's failure named with its log. */
static int start_all(void)
{
    const char *args = spec->args;
    if (count() == 1) {
        if (server_start(&server, server_binary(), NULL, args) != 0) {
            fprintf(stderr, "server did not start; log: %s\n", server.log);
            return -1;
        }
        return 0;
    }
    if (server_start(&servers[0], server_binary(), NULL, args) != 0) {
        fprintf(stderr, "server did not start; log: %s\n", servers[0].log);
        return -1;
    }
    for (int i = 1; i < count(); i++)
        if (server_start(&servers[i], server_binary(), servers[0].db, args) != 0) {
            fprintf(stderr, "server %d did not start; log: %s\n", i, servers[i].log);
            return -1;
        }
    server = servers[0];
    return 0;
}

int fixture_setup(void **state)
{
    (void)state;
    if (spec->pg_only && !getenv("CITADEL_TEST_PG"))
        return 0;
    if (spec->before && spec->before() != 0)
        return -1;
    char name[64] = "";
    const char *eq = spec->env ? strchr(spec->env, '=') : NULL;
    if (eq) {
        snprintf(name, sizeof name, "%.*s", (int)(eq - spec->env), spec->env);
        setenv(name, eq + 1, 1);
    }
    int rc = start_all();
    if (name[0])
        unsetenv(name);
    return rc;
}

int fixture_teardown(void **state)
{
    (void)state;
    client_source(NULL);
    client_headers(NULL);
    if (count() == 1) {
        server_kill(&server, SIGTERM);
    } else {
        for (int i = 0; i < count(); i++)
            if (servers[i].pid > 0)
                server_kill(&servers[i], SIGTERM);
    }
    if (spec->after)
        spec->after();
    return 0;
}

void fixture_own_server(server_proc *saved, const char *args)
{
    *saved = server;
    if (server_start(&server, server_binary(), NULL, args) != 0)
        fail_msg("server with '%s' did not start; log: %s", args, server.log);
}

void fixture_own_end(server_proc *saved)
{
    client_source(NULL);
    client_headers(NULL);
    int st = server_kill(&server, SIGTERM);
    server = *saved;
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}
