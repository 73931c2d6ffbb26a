/* test_store_results.c -- store.h on SQLite, second half: game ends and
 * ratings, the ladder and rating history, the key-value store, a child
 * killed with SIGKILL that loses none of the moves it was told were stored,
 * and several servers' leases on their games. test_store.c has the first
 * half. */

#include <time.h>

#include "store_fixture.h"

static void nap_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

/* --- game end and ratings ----------------------------------------------- */

static void test_game_end_rated(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bot-1", 1, 0);
    int64_t game = add_game(s, a, b, 1);
    add_move(s, game, 0, T0);
    store_rating_change ch[2] = { { a, 1500, 1516 }, { b, 1500, 1484 } };
    assert_int_equal(store_game_end(s, game, STORE_GAME_OVER, 0, "no-moves", 1, T0 + 60000, ch,
                                    2, &err),
                     0);
    store_game g;
    assert_int_equal(store_game_get(s, game, &g, &err), 0);
    assert_int_equal(g.status, STORE_GAME_OVER);
    assert_int_equal(g.winner, 0);
    assert_string_equal(g.reason, "no-moves");
    assert_int_equal(g.sterile, 1);
    assert_int_equal(g.ended, T0 + 60000);

    store_rating r;
    assert_int_equal(store_rating_get(s, a, "classic", &r, &err), 0);
    assert_string_equal(r.variant, "classic");
    assert_true(r.rating == 1516);
    assert_int_equal(r.games, 1);
    assert_int_equal(store_rating_get(s, b, "classic", &r, &err), 0);
    assert_true(r.rating == 1484);

    /* A second game: games count up, the rating is replaced. */
    int64_t game2 = add_game(s, b, a, 1);
    store_rating_change ch2[2] = { { a, 1516, 1530 }, { b, 1484, 1470 } };
    assert_int_equal(store_game_end(s, game2, STORE_GAME_OVER, 1, "time", 0, T0 + 120000, ch2,
                                    2, &err),
                     0);
    assert_int_equal(store_rating_get(s, a, "classic", &r, &err), 0);
    assert_true(r.rating == 1530);
    assert_int_equal(r.games, 2);

    store_rating_point h[4];
    assert_int_equal(store_rating_history(s, a, "classic", h, 4, &err), 2);
    assert_int_equal(h[0].game, game);
    assert_int_equal(h[0].time, T0 + 60000);
    assert_true(h[0].before == 1500 && h[0].after == 1516);
    assert_int_equal(h[1].game, game2);
    assert_true(h[1].before == 1516 && h[1].after == 1530);
    store_close(s);
}

static void test_game_end_refused(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    int64_t guest = add_player(s, "guest-1", 0, 1);
    int64_t game = add_game(s, a, b, 1);

    /* The second change names no player: nothing at all is written. */
    store_rating_change bad[2] = { { a, 1500, 1516 }, { 9999, 1500, 1484 } };
    assert_int_equal(store_game_end(s, game, STORE_GAME_OVER, 0, "resign", 0, T0, bad, 2, &err),
                     -1);
    assert_non_null(strstr(err.msg, "9999"));
    store_rating_change to_guest[1] = { { guest, 1500, 1516 } };
    assert_int_equal(
        store_game_end(s, game, STORE_GAME_OVER, 0, "resign", 0, T0, to_guest, 1, &err), -1);
    store_rating_change twice[2] = { { a, 1500, 1516 }, { a, 1516, 1530 } };
    assert_int_equal(store_game_end(s, game, STORE_GAME_OVER, 0, "resign", 0, T0, twice, 2, &err),
                     -1);
    assert_non_null(strstr(err.msg, "two rating changes"));
    assert_int_equal(store_game_end(s, game, STORE_GAME_LIVE, 0, "resign", 0, T0, NULL, 0, &err),
                     -1);
    char reason[40];
    memset(reason, 'r', sizeof reason - 1);
    reason[sizeof reason - 1] = '\0';
    assert_int_equal(store_game_end(s, game, STORE_GAME_OVER, 0, reason, 0, T0, NULL, 0, &err),
                     -1);
    assert_int_equal(store_game_end(s, game + 10, STORE_GAME_OVER, 0, "x", 0, T0, NULL, 0, &err),
                     -1);
    assert_non_null(strstr(err.msg, "no game"));

    store_game g;
    assert_int_equal(store_game_get(s, game, &g, &err), 0);
    assert_int_equal(g.status, STORE_GAME_LIVE);
    store_rating r;
    assert_int_equal(store_rating_get(s, a, "classic", &r, &err), 0);
    assert_true(r.rating == 1500);
    assert_int_equal(r.games, 0);
    store_rating_point h[2];
    assert_int_equal(store_rating_history(s, a, "classic", h, 2, &err), 0);

    /* Rating changes for an unrated game are refused. */
    int64_t casual = add_game(s, a, b, 0);
    store_rating_change ok[1] = { { a, 1500, 1516 } };
    assert_int_equal(store_game_end(s, casual, STORE_GAME_OVER, 0, "x", 0, T0, ok, 1, &err), -1);

    /* Ends once; a second end is refused and changes nothing. */
    assert_int_equal(store_game_end(s, game, STORE_GAME_OVER, -1, "move-limit", 1, T0, ok, 1,
                                    &err),
                     0);
    store_rating_change again[1] = { { a, 1516, 1600 } };
    assert_int_equal(store_game_end(s, game, STORE_GAME_ABORTED, 1, "x", 0, T0 + 5, again, 1,
                                    &err),
                     -1);
    assert_non_null(strstr(err.msg, "not live"));
    assert_int_equal(store_game_get(s, game, &g, &err), 0);
    assert_int_equal(g.status, STORE_GAME_OVER);
    assert_int_equal(g.winner, -1);
    assert_string_equal(g.reason, "move-limit");
    assert_int_equal(store_rating_get(s, a, "classic", &r, &err), 0);
    assert_true(r.rating == 1516);
    assert_int_equal(r.games, 1);
    store_close(s);
}

/* Ends a fresh rated game of `variant` between a and b with the given
 * after-ratings, at time `when`. */
static int64_t rated_result(store *s, int64_t a, int64_t b, const char *variant,
                            double ra, double rb, int64_t when)
{
    store_err err = { "" };
    store_game g = game_of(a, b, 1);
    snprintf(g.variant, sizeof g.variant, "%s", variant);
    if (store_game_add(s, &g, &err) != 0)
        fail_msg("store_game_add: %s", err.msg);
    store_rating ra0, rb0;
    assert_int_equal(store_rating_get(s, a, variant, &ra0, &err), 0);
    assert_int_equal(store_rating_get(s, b, variant, &rb0, &err), 0);
    store_rating_change ch[2] = { { a, ra0.rating, ra }, { b, rb0.rating, rb } };
    if (store_game_end(s, g.id, STORE_GAME_OVER, 0, "resign", 0, when, ch, 2, &err) != 0)
        fail_msg("store_game_end: %s", err.msg);
    return g.id;
}

static void test_ratings_and_ladder(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    int64_t c = add_player(s, "Bot-1", 1, 0);
    add_player(s, "Dave", 0, 0);  /* never rated: not on the ladder */

    store_rating r;
    assert_int_equal(store_rating_get(s, a, "classic", &r, &err), 0);
    assert_true(r.rating == 1500);
    assert_int_equal(r.games, 0);

    rated_result(s, a, b, "classic", 1520, 1480, T0 + 1);
    rated_result(s, c, b, "classic", 1530, 1460, T0 + 2);
    rated_result(s, a, c, "small", 1510, 1490, T0 + 3);

    store_ladder_row rows[8];
    assert_int_equal(store_ladder(s, "classic", rows, 8, &err), 3);
    assert_int_equal(rows[0].player, c);
    assert_string_equal(rows[0].name, "Bot-1");
    assert_int_equal(rows[0].is_bot, 1);
    assert_true(rows[0].rating == 1530);
    assert_int_equal(rows[0].games, 1);
    assert_int_equal(rows[1].player, a);
    assert_int_equal(rows[2].player, b);
    assert_int_equal(rows[2].games, 2);
    assert_int_equal(store_ladder(s, "classic", rows, 2, &err), 2);
    assert_int_equal(rows[1].player, a);
    assert_int_equal(store_ladder(s, "small", rows, 8, &err), 2);
    assert_int_equal(rows[0].player, a);
    assert_int_equal(store_ladder(s, "giant", rows, 8, &err), 0);

    store_rating all[4];
    assert_int_equal(store_ratings(s, a, all, 4, &err), 2);
    assert_string_equal(all[0].variant, "classic");
    assert_true(all[0].rating == 1520);
    assert_string_equal(all[1].variant, "small");
    assert_int_equal(all[1].games, 1);
    assert_int_equal(store_ratings(s, a, all, 1, &err), 1);
    assert_int_equal(store_ratings(s, 9999, all, 4, &err), 0);

    char longvariant[40];
    memset(longvariant, 'v', sizeof longvariant - 1);
    longvariant[sizeof longvariant - 1] = '\0';
    assert_int_equal(store_rating_get(s, a, longvariant, &r, &err), -1);
    assert_int_equal(store_ladder(s, longvariant, rows, 8, &err), -1);
    store_close(s);
}

static void test_rating_history_order_and_max(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    int64_t games[6];
    /* Ended in an order unlike their ids: history follows the end time. */
    static const int64_t when[6] = { 50, 10, 40, 20, 30, 60 };
    int64_t id_at[6];  /* game ids by end time order */
    for (int i = 0; i < 6; i++) {
        store_game g = game_of(a, b, 1);
        assert_int_equal(store_game_add(s, &g, &err), 0);
        games[i] = g.id;
    }
    /* End them in time order, so the rating chain is consistent. */
    static const int by_time[6] = { 1, 3, 4, 2, 0, 5 };
    double rating = 1500;
    for (int k = 0; k < 6; k++) {
        int i = by_time[k];
        store_rating_change ch[1] = { { a, rating, rating + 10 } };
        assert_int_equal(store_game_end(s, games[i], STORE_GAME_OVER, 0, "resign", 0,
                                        T0 + when[i], ch, 1, &err),
                         0);
        rating += 10;
        id_at[k] = games[i];
    }
    store_rating_point h[8];
    assert_int_equal(store_rating_history(s, a, "classic", h, 8, &err), 6);
    for (int k = 0; k < 6; k++) {
        assert_int_equal(h[k].game, id_at[k]);
        assert_true(h[k].before == 1500 + 10 * k);
        assert_true(h[k].after == 1510 + 10 * k);
    }
    /* With room for 3: the latest three, still oldest first. */
    assert_int_equal(store_rating_history(s, a, "classic", h, 3, &err), 3);
    assert_int_equal(h[0].game, id_at[3]);
    assert_int_equal(h[1].game, id_at[4]);
    assert_int_equal(h[2].game, id_at[5]);
    assert_true(h[2].after == 1560);
    assert_int_equal(store_rating_history(s, a, "classic", h, 0, &err), 0);
    assert_int_equal(store_rating_history(s, a, "small", h, 8, &err), 0);
    assert_int_equal(store_rating_history(s, b, "classic", h, 8, &err), 0);
    store_close(s);
}

/* --- kv ----------------------------------------------------------------- */

static void test_kv(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    char value[64];
    assert_int_equal(store_kv_get(s, a, "setup:stratego:1", value, sizeof value, &err),
                     STORE_NOT_FOUND);
    assert_int_equal(store_kv_put(s, a, "setup:stratego:1", "first", &err), 0);
    assert_int_equal(store_kv_put(s, a, "setup:stratego:1", "second", &err), 0);
    assert_int_equal(store_kv_put(s, b, "setup:stratego:1", "bob's", &err), 0);
    assert_int_equal(store_kv_get(s, a, "setup:stratego:1", value, sizeof value, &err), 0);
    assert_string_equal(value, "second");
    assert_int_equal(store_kv_get(s, b, "setup:stratego:1", value, sizeof value, &err), 0);
    assert_string_equal(value, "bob's");
    assert_int_equal(store_kv_put(s, a, "empty", "", &err), 0);
    assert_int_equal(store_kv_get(s, a, "empty", value, sizeof value, &err), 0);
    assert_string_equal(value, "");

    /* Too small a buffer is an error, not a cut value. */
    char small[6];
    assert_int_equal(store_kv_get(s, a, "setup:stratego:1", small, sizeof small, &err), -1);
    char seven[7];
    assert_int_equal(store_kv_get(s, a, "setup:stratego:1", seven, sizeof seven, &err), 0);
    assert_string_equal(seven, "second");

    assert_int_equal(store_kv_put(s, 9999, "k", "v", &err), -1);
    assert_int_equal(store_kv_put(s, a, "", "v", &err), -1);
    char longkey[STORE_TEXT_MAX + 1];
    memset(longkey, 'k', STORE_TEXT_MAX);
    longkey[STORE_TEXT_MAX] = '\0';
    assert_int_equal(store_kv_put(s, a, longkey, "v", &err), -1);
    assert_int_equal(store_kv_get(s, a, longkey, value, sizeof value, &err), STORE_NOT_FOUND);
    char *huge = malloc(100001);
    assert_non_null(huge);
    memset(huge, 'x', 100000);
    huge[100000] = '\0';
    assert_int_equal(store_kv_put(s, a, "huge", huge, &err), -1);
    free(huge);
    assert_int_equal(store_kv_get(s, a, "huge", value, sizeof value, &err), STORE_NOT_FOUND);
    store_close(s);
}

/* --- durability --------------------------------------------------------- */

/* A child stores moves one by one and writes each stored ply to a pipe as
 * soon as store_move_add returns; the parent kills it with SIGKILL in the
 * middle, reopens the file and must find every move the child reported. */
static void test_killed_writer_loses_nothing(void **state)
{
    SQLITE_ONLY();
    (void)state;
    tmpdb t;
    tmpdb_make(&t);
    store_err err = { "" };
    store *s = store_open(t.path, 0, &err);
    if (!s)
        fail_msg("store_open: %s", err.msg);
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    int64_t game = add_game(s, a, b, 1);
    store_close(s);

    enum { MOVES = 100000, KILL_AFTER = 150 };
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        store *c = store_open(t.path, 0, &err);
        if (!c)
            _exit(2);
        for (int ply = 0; ply < MOVES; ply++) {
            store_move m = move_of(ply);
            if (store_move_add(c, game, &m, ply == 0 ? T0 : 0, &err) != 0)
                _exit(3);
            if (write(fds[1], &ply, sizeof ply) != (ssize_t)sizeof ply)
                _exit(4);
        }
        _exit(5);  /* should be killed long before */
    }
    close(fds[1]);
    int ply = -1, last = -1, got = 0;
    while (read(fds[0], &ply, sizeof ply) == (ssize_t)sizeof ply) {
        last = ply;
        if (++got == KILL_AFTER)
            kill(pid, SIGKILL);
    }
    close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    assert_true(last >= KILL_AFTER - 1);

    s = store_open(t.path, 0, &err);
    if (!s)
        fail_msg("reopen: %s", err.msg);
    store_game g;
    assert_int_equal(store_game_get(s, game, &g, &err), 0);
    /* Every reported move, and at most one committed but not yet reported. */
    assert_true(g.nmoves >= last + 1 && g.nmoves <= last + 2);
    assert_int_equal(g.started, T0);
    store_move *out = calloc((size_t)g.nmoves, sizeof *out);
    assert_non_null(out);
    assert_int_equal(store_moves(s, game, out, g.nmoves, &err), g.nmoves);
    for (int i = 0; i < g.nmoves; i++) {
        store_move m = move_of(i);
        assert_int_equal(out[i].ply, i);
        assert_string_equal(out[i].text, m.text);
        assert_int_equal(out[i].time, m.time);
    }
    free(out);
    /* The store goes on from where the child stopped. */
    add_move(s, game, g.nmoves, 0);
    store_close(s);
    tmpdb_remove(&t);
}

/* The child kills itself the moment store_move_add returns for ply
 * `STOP`, before it can do anything else: that move must be there. */
static void test_killed_right_after_return(void **state)
{
    SQLITE_ONLY();
    (void)state;
    tmpdb t;
    tmpdb_make(&t);
    store_err err = { "" };
    store *s = store_open(t.path, 0, &err);
    if (!s)
        fail_msg("store_open: %s", err.msg);
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    int64_t game = add_game(s, a, b, 1);
    store_close(s);

    enum { STOP = 40 };
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        store *c = store_open(t.path, 0, &err);
        if (!c)
            _exit(2);
        for (int ply = 0;; ply++) {
            store_move m = move_of(ply);
            int rc = store_move_add(c, game, &m, ply == 0 ? T0 : 0, &err);
            if (rc == 0 && ply == STOP)
                raise(SIGKILL);
            if (rc != 0)
                _exit(3);
        }
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    s = store_open(t.path, 0, &err);
    if (!s)
        fail_msg("reopen: %s", err.msg);
    store_game g;
    assert_int_equal(store_game_get(s, game, &g, &err), 0);
    assert_int_equal(g.nmoves, STOP + 1);
    store_move out[STOP + 2];
    assert_int_equal(store_moves(s, game, out, STOP + 2, &err), STOP + 1);
    assert_string_equal(out[STOP].text, move_of(STOP).text);
    store_close(s);
    tmpdb_remove(&t);
}

/* --- several servers on one database ----------------------------------- */

static int64_t owner(store *s, int64_t game)
{
    int64_t o = -1;
    store_err err;
    assert_int_equal(store_game_owner(s, game, &o, &err), 0);
    return o;
}

/* Two stores on one new database (t), each joined as a server: a and b,
 * with ids sa and sb. */
static void two_servers(tmpdb *t, store **a, store **b, int64_t *sa, int64_t *sb)
{
    tmpdb_make(t);
    const char *name = tmpdb_name(t);
    store_err err = { "" };
    *a = store_open(name, 0, &err);
    *b = store_open(name, 0, &err);
    assert_non_null(*a);
    assert_non_null(*b);
    *sa = *sb = 0;
    if (store_server_join(*a, "a", sa, &err) != 0 || store_server_join(*b, "b", sb, &err) != 0)
        fail_msg("join: %s", err.msg);
    assert_true(*sa > 0 && *sb > 0 && *sa != *sb);
}

/* Two servers: games nobody serves go to the first to adopt; a server
 * whose row is gone (buried) has its games adopted, and its batches fail
 * from then on (fenced), as does its beat. */
static void test_servers_adopt_and_fence(void **state)
{
    (void)state;
    tmpdb t;
    store *a, *b;
    int64_t sa, sb;
    two_servers(&t, &a, &b, &sa, &sb);
    store_err err = { "" };
    int64_t ann = add_player(a, "Ann", 0, 0), bob = add_player(a, "Bob", 0, 0);
    int64_t orphan = add_game(a, ann, bob, 0);  /* made before a had its server */
    store_set_server(a, sa);
    int64_t mine = add_game(a, ann, bob, 0);
    assert_int_equal(owner(b, orphan), 0);
    assert_int_equal(owner(b, mine), sa);

    int64_t ids[8];
    assert_int_equal(store_servers_alive(b, ids, 8, &err), 2);
    assert_int_equal(store_games_adopt(b, sb, ids, 8, &err), 1);
    assert_int_equal(ids[0], orphan);
    assert_int_equal(owner(a, orphan), sb);
    assert_int_equal(store_games_adopt(b, sb, ids, 8, &err), 0);
    assert_int_equal(owner(a, mine), sa);
    assert_int_equal(store_server_beat(a, sa, &err), 0);
    assert_int_equal(store_batch_begin(a, &err), 0);  /* a holds its row */
    assert_int_equal(store_batch_commit(a, &err), 0);

    /* a is buried (as the adopter does to a lapsed lease) */
    assert_int_equal(store_server_leave(b, sa, &err), 0);
    assert_int_equal(store_games_adopt(b, sb, ids, 8, &err), 1);
    assert_int_equal(ids[0], mine);
    assert_int_equal(owner(a, mine), sb);
    assert_int_not_equal(store_batch_begin(a, &err), 0);
    assert_non_null(strstr(err.msg, "taken"));
    assert_true(store_lost(a));
    assert_int_equal(store_server_beat(a, sa, &err), STORE_NOT_FOUND);
    store_set_server(b, sb);
    assert_int_equal(store_batch_begin(b, &err), 0);
    assert_int_equal(store_batch_commit(b, &err), 0);
    assert_false(store_lost(b));

    assert_int_equal(store_player_live(b, ann, ids, 8, &err), 2);
    assert_int_equal(ids[0], orphan);
    assert_int_equal(ids[1], mine);
    if (store_game_end(b, orphan, STORE_GAME_OVER, 0, "resign", 0, T0, NULL, 0, &err) != 0)
        fail_msg("game end: %s", err.msg);
    assert_int_equal(store_player_live(b, ann, ids, 8, &err), 1);
    assert_int_equal(store_game_owner(b, orphan, ids, &err), STORE_NOT_FOUND);
    store_close(a);
    store_close(b);
    tmpdb_remove(&t);
}

/* A server whose lease lapses (no beat for STORE_LEASE_MS) is buried by the
 * next adoption; on PostgreSQL one whose connection closed is dead at once. */
static void test_servers_lapse(void **state)
{
    (void)state;
    tmpdb t;
    store *a, *b;
    int64_t sa, sb, ids[8];
    two_servers(&t, &a, &b, &sa, &sb);
    store_err err = { "" };
    store_set_server(a, sa);
    int64_t game = add_game(a, add_player(a, "Ann", 0, 0), add_player(a, "Bob", 0, 0), 0);
    if (pg_under_test()) {
        store_close(a);  /* its lock goes with its connection */
        a = NULL;
        int n = 0;
        for (int i = 0; i < 100 && (n = store_servers_alive(b, ids, 8, &err)) != 1; i++)
            nap_ms(20);
        assert_int_equal(n, 1);
    } else {
        nap_ms(STORE_LEASE_MS - 1000);
        assert_int_equal(store_server_beat(b, sb, &err), 0);
        assert_int_equal(store_games_adopt(b, sb, ids, 8, &err), 0);  /* not yet */
        nap_ms(1500);
        assert_int_equal(store_servers_alive(b, ids, 8, &err), 1);
    }
    assert_int_equal(ids[0], sb);
    assert_int_equal(store_games_adopt(b, sb, ids, 8, &err), 1);
    assert_int_equal(ids[0], game);
    if (a)
        assert_int_equal(store_server_beat(a, sa, &err), STORE_NOT_FOUND);
    store_close(a);
    store_close(b);
    tmpdb_remove(&t);
}

/* A game imported from a record: over from the start, unrated, its
 * importer in every seat, its moves in order; a refused import stores
 * nothing, no game and no move. */
static void test_game_import(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0);
    store_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.variant, sizeof g.variant, "rampart");
    snprintf(g.start, sizeof g.start, "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1");
    g.nsides = 2;
    g.players[0] = g.players[1] = a;
    g.move_limit = 100;
    g.created = T0;
    g.winner = 1;
    snprintf(g.reason, sizeof g.reason, "resign");
    store_move m[3];
    const char *texts[3] = { "b3a3", "b9a8", "b2b3" };
    for (int i = 0; i < 3; i++) {
        m[i] = move_of(i);
        snprintf(m[i].text, sizeof m[i].text, "%s", texts[i]);
    }
    assert_int_equal(store_game_import(s, &g, m, 3, &err), 0);
    store_game back;
    assert_int_equal(store_game_get(s, g.id, &back, &err), 0);
    assert_int_equal(back.status, STORE_GAME_OVER);
    assert_int_equal(back.imported, 1);
    assert_int_equal(back.rated, 0);
    assert_int_equal(back.winner, 1);
    assert_string_equal(back.reason, "resign");
    assert_int_equal(back.nmoves, 3);
    assert_int_equal(back.ended, T0);
    assert_int_equal(back.players[0], a);
    assert_int_equal(back.players[1], a);
    assert_string_equal(back.start, g.start);
    store_move got[4];
    assert_int_equal(store_moves(s, g.id, got, 4, &err), 3);
    assert_string_equal(got[2].text, "b2b3");
    int64_t live[4];
    assert_int_equal(store_live_games(s, live, 4, &err), 0);  /* never resumed */
    store_game list[4];
    assert_int_equal(store_player_games(s, a, 0, list, 4, &err), 1);
    /* a game played is not imported */
    int64_t played = add_game(s, a, add_player(s, "Bob", 0, 0), 0);
    assert_int_equal(store_game_get(s, played, &back, &err), 0);
    assert_int_equal(back.imported, 0);

    /* refused: a seat of nobody (after the moves would have gone in), and
     * an empty move; nothing of either is stored */
    g.players[1] = 999999;
    assert_int_equal(store_game_import(s, &g, m, 3, &err), -1);
    assert_non_null(strstr(err.msg, "no player 999999"));
    g.players[1] = a;
    m[1].text[0] = 0;
    assert_int_equal(store_game_import(s, &g, m, 3, &err), -1);
    assert_int_equal(store_player_games(s, a, 0, list, 4, &err), 2);  /* the two before */
    store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_end_rated),
        cmocka_unit_test(test_game_end_refused),
        cmocka_unit_test(test_game_import),
        cmocka_unit_test(test_ratings_and_ladder),
        cmocka_unit_test(test_rating_history_order_and_max),
        cmocka_unit_test(test_kv),
        cmocka_unit_test(test_killed_writer_loses_nothing),
        cmocka_unit_test(test_killed_right_after_return),
        cmocka_unit_test(test_servers_adopt_and_fence),
        cmocka_unit_test(test_servers_lapse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
