/* fixture.h -- the one server fixture of the tests over the wire: the real
 * `citadel serve` (the binary in $CITADEL, default build/release/citadel)
 * run as a child process on a free loopback port with a fresh database,
 * and stopped when its tests are done.
 *
 * A test file names what its servers need in a fixture_spec and runs its
 * tests with fixture_run_group: the group's servers start before the first
 * test and stop after the last, and the helpers of wire.h talk to `server`.
 * A test that needs a server of its own (other limits, a restart) uses
 * fixture_own_server, or server_start and server_kill below.
 *
 * Every server gets its own database: a SQLite file in a new temp folder,
 * or, when CITADEL_TEST_PG names a PostgreSQL database (tests/pg.sh), a new
 * database in that cluster. A server never outlives its test process.
 *
 * Link with -lpq (the PostgreSQL databases) and client.c (the health check).
 */
#ifndef CITADEL_TEST_FIXTURE_H
#define CITADEL_TEST_FIXTURE_H

#include <sys/types.h>

/* --- the server as a child process ---------------------------------------- */

typedef struct server_proc {
    pid_t pid;
    int port;
    char db[256];
    char log[280];           /* stdout and stderr of the server */
    char dir[200];           /* the temp directory made for db == NULL; "" otherwise */
} server_proc;

/* The binary under test: $CITADEL, default build/release/citadel. */
const char *server_binary(void);

/* Runs `<binary> serve --listen 127.0.0.1:PORT --db DB [extra_args]` on a
 * free loopback port, DB being db_path or a fresh file in a new temp
 * directory (or, when CITADEL_TEST_PG names a PostgreSQL database, a new
 * database in its cluster), output to a log next to the db (for a database
 * URI, in the temp directory); extra_args is split on spaces.
 * Waits up to 20 s for GET /api/health to answer 200. Returns 0, or -1 (the
 * child killed, the log left for reading) if the server did not come up. */
int server_start(server_proc *s, const char *binary, const char *db_path,
                 const char *extra_args);
/* The same server started without waiting for it: 0 once it runs. */
int server_spawn(server_proc *s, const char *binary, const char *db_path,
                 const char *extra_args);
/* Waits up to ms for s to answer GET /api/health with 200: 0, or -1 (it
 * exited, or never answered). */
int server_wait_up(server_proc *s, int ms);

/* Sends sig and waits for the server to exit (SIGKILL after 10 s). Returns
 * the wait status (see WIFEXITED), or -1 if there was no child. */
int server_kill(server_proc *s, int sig);

/* --- a group's servers ----------------------------------------------------- */

#define FIXTURE_MAX_SERVERS 3

/* The server the group's tests talk to (servers[0], or whichever a test of
 * several servers chose). */
extern server_proc server;
/* The group's servers; the second and third share the first's database. */
extern server_proc servers[FIXTURE_MAX_SERVERS];

typedef struct fixture_spec {
    const char *args;        /* serve's arguments after --listen and --db */
    int count;               /* servers on one database (0 means 1) */
    int pg_only;             /* start none without CITADEL_TEST_PG (the tests skip) */
    const char *env;         /* "NAME=value" set while the servers start, or NULL */
    /* Run before the servers start (e.g. a mail sink whose port goes into
     * args) and after they stopped; either may be NULL. before: 0 or -1. */
    int (*before)(void);
    void (*after)(void);
} fixture_spec;

/* The group setup and teardown of cmocka for *spec (fixture_run_group
 * gives them the spec). Setup fails, naming the server's log, if a server
 * did not come up; teardown stops the servers with SIGTERM and puts the
 * client's source address and extra headers back to none. */
void fixture_use(const fixture_spec *spec);
int fixture_setup(void **state);
int fixture_teardown(void **state);

/* Runs the cmocka array `tests` against the servers of *spec. */
#define fixture_run_group(tests, spec) \
    (fixture_use(spec), cmocka_run_group_tests(tests, fixture_setup, fixture_teardown))

/* Runs the rest of a test on a server of its own, started with args;
 * `saved` keeps the group's server, put back by fixture_own_end, which
 * fails the test unless the own server exits cleanly on SIGTERM. */
void fixture_own_server(server_proc *saved, const char *args);
void fixture_own_end(server_proc *saved);

#endif
