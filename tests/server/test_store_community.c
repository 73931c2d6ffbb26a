/* test_store_community.c -- community.h on SQLite: roles, mutes and closed
 * accounts; the message board, its flags, paging and search (with the
 * user's words as hostile as they come); notifications; tickets; the mail
 * queue; game chat; reports and the audit log; and migration 4 on a
 * database made at schema 3. */

#include "store_fixture.h"

#include "../../src/store/community.h"

#define NEW_SCHEMA 8  /* the latest: community.h came with 4, several servers with 5,
                        * the server's reviews with 6, the Bot API with 7, games
                        * imported from PGN with 8 */

static int64_t add_thread(store *s, const char *category, const char *title, int64_t author,
                          const char *body, int64_t now, int64_t *post)
{
    store_err err = { "" };
    int64_t thread = 0, first = 0;
    if (store_thread_add(s, category, title, author, body, now, &thread, &first, &err) != 0)
        fail_msg("store_thread_add %s: %s", title, err.msg);
    assert_true(thread > 0 && first > 0);
    if (post)
        *post = first;
    return thread;
}

static int64_t add_post(store *s, int64_t thread, int64_t author, const char *body,
                        int64_t now)
{
    store_err err = { "" };
    int64_t post = 0;
    if (store_post_add(s, thread, author, body, now, &post, &err) != 0)
        fail_msg("store_post_add: %s", err.msg);
    assert_true(post > 0);
    return post;
}

/* text of n bytes: `c` repeated */
static char *repeat(char c, size_t n)
{
    char *text = malloc(n + 1);
    assert_non_null(text);
    memset(text, c, n);
    text[n] = '\0';
    return text;
}

/* Is text valid UTF-8 (every sequence whole)? */
static int utf8_whole(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        int more = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2
                 : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (more < 0)
            return 0;
        p++;
        for (int i = 0; i < more; i++, p++)
            if ((*p & 0xC0) != 0x80)
                return 0;
    }
    return 1;
}

/* --- roles, mutes, closed accounts -------------------------------------- */

static void test_standing_and_close(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t alice = add_player(s, "Alice", 0, 0), bob = add_player(s, "Bob", 0, 0);
    store_standing st;
    assert_int_equal(store_standing_get(s, alice, &st, &err), 0);
    assert_true(st.role == STORE_ROLE_PLAYER && st.muted_until == 0 && st.closed == 0);
    assert_int_equal(store_role_count(s, STORE_ROLE_ADMIN, &err), 0);

    assert_int_equal(store_role_set(s, alice, STORE_ROLE_ADMIN, &err), 0);
    assert_int_equal(store_role_set(s, bob, STORE_ROLE_MODERATOR, &err), 0);
    assert_int_equal(store_mute_set(s, bob, T0 + 60000, &err), 0);
    assert_int_equal(store_standing_get(s, alice, &st, &err), 0);
    assert_int_equal(st.role, STORE_ROLE_ADMIN);
    assert_int_equal(store_standing_get(s, bob, &st, &err), 0);
    assert_true(st.role == STORE_ROLE_MODERATOR && st.muted_until == T0 + 60000);
    assert_int_equal(store_role_count(s, STORE_ROLE_ADMIN, &err), 1);
    assert_int_equal(store_role_count(s, STORE_ROLE_MODERATOR, &err), 1);
    assert_int_equal(store_role_count(s, STORE_ROLE_PLAYER, &err), 0);
    assert_int_equal(store_role_set(s, bob, STORE_ROLE_PLAYER, &err), 0);
    assert_int_equal(store_role_count(s, STORE_ROLE_PLAYER, &err), 1);

    assert_int_equal(store_role_set(s, alice, 3, &err), -1);
    assert_int_equal(store_role_set(s, alice, -1, &err), -1);
    assert_int_equal(store_standing_get(s, 999, &st, &err), STORE_NOT_FOUND);
    assert_int_equal(store_role_set(s, 999, STORE_ROLE_ADMIN, &err), STORE_NOT_FOUND);
    assert_int_equal(store_mute_set(s, 999, 1, &err), STORE_NOT_FOUND);
    assert_int_equal(store_role_count(s, STORE_ROLE_ADMIN, &err), 1);

    /* closing an account removes its sessions, and only its own */
    assert_int_equal(store_session_add(s, "a1", alice, T0, T0 + 100000, &err), 0);
    assert_int_equal(store_session_add(s, "a2", alice, T0, T0 + 100000, &err), 0);
    assert_int_equal(store_session_add(s, "b1", bob, T0, T0 + 100000, &err), 0);
    assert_int_equal(store_account_close(s, alice, &err), 0);
    int64_t who = 0;
    assert_int_equal(store_session_player(s, "a1", T0 + 1, &who, &err), STORE_NOT_FOUND);
    assert_int_equal(store_session_player(s, "a2", T0 + 1, &who, &err), STORE_NOT_FOUND);
    assert_int_equal(store_session_player(s, "b1", T0 + 1, &who, &err), 0);
    assert_int_equal(who, bob);
    assert_int_equal(store_standing_get(s, alice, &st, &err), 0);
    assert_int_equal(st.closed, 1);
    assert_int_equal(store_standing_get(s, bob, &st, &err), 0);
    assert_int_equal(st.closed, 0);
    assert_int_equal(store_account_close(s, 999, &err), STORE_NOT_FOUND);
    store_close(s);
}

/* --- the message board -------------------------------------------------- */

static void test_thread_round_trip(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t alice = add_player(s, "Alice", 0, 0), bob = add_player(s, "Bob", 0, 0);
    int64_t first = 0;
    int64_t thread = add_thread(s, "general", "Hello there", alice, "The *first* post.", T0,
                                &first);
    store_thread t;
    assert_int_equal(store_thread_get(s, thread, &t, &err), 0);
    assert_int_equal(t.id, thread);
    assert_string_equal(t.category, "general");
    assert_string_equal(t.title, "Hello there");
    assert_int_equal(t.author, alice);
    assert_string_equal(t.author_name, "Alice");
    assert_true(t.created == T0 && t.last_post == T0 && t.posts == 1);
    assert_int_equal(t.locked + t.hidden + t.deleted, 0);
    assert_int_equal(t.first_post, first);

    int64_t reply = add_post(s, thread, bob, "A reply.", T0 + 5000);
    assert_int_equal(store_thread_get(s, thread, &t, &err), 0);
    assert_true(t.last_post == T0 + 5000 && t.posts == 2 && t.created == T0);
    store_post p;
    assert_int_equal(store_post_get(s, reply, &p, &err), 0);
    assert_true(p.thread == thread && p.author == bob);
    assert_string_equal(p.author_name, "Bob");
    assert_true(p.created == T0 + 5000 && p.edited == 0);
    assert_string_equal(p.body, "A reply.");

    assert_int_equal(store_post_edit(s, reply, "An edited reply.", T0 + 9000, &err), 0);
    assert_int_equal(store_post_get(s, reply, &p, &err), 0);
    assert_string_equal(p.body, "An edited reply.");
    assert_int_equal(p.edited, T0 + 9000);
    assert_int_equal(store_thread_retitle(s, thread, "Hello again", &err), 0);
    assert_int_equal(store_thread_get(s, thread, &t, &err), 0);
    assert_string_equal(t.title, "Hello again");
    assert_int_equal(store_thread_set_locked(s, thread, 1, &err), 0);
    assert_int_equal(store_thread_get(s, thread, &t, &err), 0);
    assert_int_equal(t.locked, 1);

    /* a post at the limits is kept whole; one byte more is refused */
    char *body = repeat('b', STORE_POST_MAX), *title = repeat('t', STORE_TITLE_MAX);
    int64_t big = add_thread(s, "general", title, alice, body, T0, NULL);
    store_post *bp = malloc(sizeof *bp);
    assert_non_null(bp);
    assert_int_equal(store_thread_get(s, big, &t, &err), 0);
    assert_int_equal(strlen(t.title), STORE_TITLE_MAX);
    assert_int_equal(store_post_get(s, t.first_post, bp, &err), 0);
    assert_int_equal(strlen(bp->body), STORE_POST_MAX);
    free(bp);
    free(body);
    free(title);
    body = repeat('b', STORE_POST_MAX + 1);
    title = repeat('t', STORE_TITLE_MAX + 1);
    int64_t id = 0, pid = 0;
    assert_int_equal(store_thread_add(s, "general", title, alice, "x", T0, &id, &pid, &err), -1);
    assert_int_equal(store_thread_add(s, "general", "x", alice, body, T0, &id, &pid, &err), -1);
    assert_int_equal(store_thread_add(s, "sixteen-bytes-xx", "x", alice, "x", T0, &id, &pid,
                                      &err), -1);
    assert_int_equal(store_thread_add(s, "", "x", alice, "x", T0, &id, &pid, &err), -1);
    assert_int_equal(store_thread_add(s, "general", "x", 999, "x", T0, &id, &pid, &err), -1);
    assert_int_equal(store_post_add(s, thread, alice, body, T0, &id, &err), -1);
    assert_int_equal(store_post_edit(s, reply, body, T0, &err), -1);
    assert_int_equal(store_thread_retitle(s, thread, title, &err), -1);
    free(body);
    free(title);
    assert_int_equal(store_post_add(s, 999, alice, "x", T0, &id, &err), STORE_NOT_FOUND);
    assert_int_equal(store_post_add(s, thread, 999, "x", T0, &id, &err), -1);
    assert_int_equal(store_post_edit(s, 999, "x", T0, &err), STORE_NOT_FOUND);
    assert_int_equal(store_thread_retitle(s, 999, "x", &err), STORE_NOT_FOUND);
    assert_int_equal(store_post_delete(s, 999, &err), STORE_NOT_FOUND);
    assert_int_equal(store_post_set_hidden(s, 999, 1, &err), STORE_NOT_FOUND);
    assert_int_equal(store_thread_set_hidden(s, 999, 1, &err), STORE_NOT_FOUND);
    assert_int_equal(store_thread_set_locked(s, 999, 1, &err), STORE_NOT_FOUND);
    assert_int_equal(store_thread_get(s, 999, &t, &err), STORE_NOT_FOUND);
    assert_int_equal(store_post_get(s, 999, &p, &err), STORE_NOT_FOUND);
    /* nothing refused left a trace */
    assert_int_equal(store_thread_get(s, thread, &t, &err), 0);
    assert_int_equal(t.posts, 2);
    assert_string_equal(t.title, "Hello again");
    store_close(s);
}

static void test_lists_and_flags(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0);
    int64_t th[5];
    for (int i = 0; i < 5; i++) {
        char title[24];
        snprintf(title, sizeof title, "thread %d", i);
        th[i] = add_thread(s, i < 3 ? "general" : "variants", title, a, "opening", T0 + i,
                           NULL);
    }
    add_post(s, th[0], a, "bump", T0 + 100);  /* th[0] has the newest activity */

    store_thread list[8];
    int total = -1;
    assert_int_equal(store_threads(s, "", 0, 8, list, &total, &err), 5);
    assert_int_equal(total, 5);
    int64_t want[5] = { th[0], th[4], th[3], th[2], th[1] };
    for (int i = 0; i < 5; i++)
        assert_int_equal(list[i].id, want[i]);
    assert_int_equal(store_threads(s, "general", 0, 8, list, &total, &err), 3);
    assert_true(total == 3 && list[0].id == th[0] && list[0].posts == 2 && list[1].id == th[2]);
    assert_int_equal(store_threads(s, "general", 1, 1, list, &total, &err), 1);
    assert_true(list[0].id == th[2] && total == 3);
    assert_int_equal(store_threads(s, "general", 3, 8, list, NULL, &err), 0);
    assert_int_equal(store_threads(s, "nothing-here", 0, 8, list, &total, &err), 0);
    assert_int_equal(total, 0);
    assert_int_equal(store_threads(s, "", -1, 8, list, &total, &err), -1);
    assert_int_equal(store_threads(s, "", 0, -1, list, &total, &err), -1);

    /* posts of a thread: oldest first, paged; hiding one leaves it out */
    int64_t p[4];
    store_thread t;
    assert_int_equal(store_thread_get(s, th[1], &t, &err), 0);
    p[0] = t.first_post;
    for (int i = 1; i < 4; i++)
        p[i] = add_post(s, th[1], a, "reply", T0 + 200 + i);
    store_post posts[4];
    assert_int_equal(store_posts(s, th[1], 0, 4, posts, &total, &err), 4);
    assert_int_equal(total, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(posts[i].id, p[i]);
    assert_int_equal(store_posts(s, th[1], 2, 4, posts, &total, &err), 2);
    assert_int_equal(posts[0].id, p[2]);
    assert_int_equal(store_post_index(s, th[1], p[3], &err), 3);
    assert_int_equal(store_post_set_hidden(s, p[1], 1, &err), 0);
    assert_int_equal(store_post_set_hidden(s, p[1], 1, &err), 0);  /* twice: counted once */
    assert_int_equal(store_posts(s, th[1], 0, 4, posts, &total, &err), 3);
    assert_true(total == 3 && posts[1].id == p[2]);
    assert_int_equal(store_post_index(s, th[1], p[3], &err), 2);
    assert_int_equal(store_thread_get(s, th[1], &t, &err), 0);
    assert_int_equal(t.posts, 3);
    store_post one;
    assert_int_equal(store_post_get(s, p[1], &one, &err), 0);  /* _get sees it, flagged */
    assert_int_equal(one.hidden, 1);
    assert_int_equal(store_post_set_hidden(s, p[1], 0, &err), 0);
    assert_int_equal(store_thread_get(s, th[1], &t, &err), 0);
    assert_int_equal(t.posts, 4);

    /* an author's deletion of a reply; hiding a deleted post changes no count */
    assert_int_equal(store_post_delete(s, p[3], &err), 0);
    assert_int_equal(store_post_delete(s, p[3], &err), 0);
    assert_int_equal(store_post_set_hidden(s, p[3], 1, &err), 0);
    assert_int_equal(store_post_set_hidden(s, p[3], 0, &err), 0);
    assert_int_equal(store_thread_get(s, th[1], &t, &err), 0);
    assert_true(t.posts == 3 && t.deleted == 0);
    assert_int_equal(store_posts(s, th[1], 0, 4, posts, &total, &err), 3);

    /* categories count visible threads and posts */
    const char *names[3] = { "general", "variants", "empty" };
    store_category cats[3];
    assert_int_equal(store_categories(s, names, 3, cats, &err), 0);
    assert_string_equal(cats[0].name, "general");
    assert_true(cats[0].threads == 3 && cats[0].posts == 2 + 3 + 1);
    assert_true(cats[0].last_post == T0 + 203 && cats[1].threads == 2 && cats[1].posts == 2);
    assert_true(cats[1].last_post == T0 + 4 && cats[2].threads == 0 && cats[2].posts == 0);
    assert_int_equal(cats[2].last_post, 0);

    /* a hidden thread leaves the lists, its posts and the counts */
    assert_int_equal(store_thread_set_hidden(s, th[1], 1, &err), 0);
    assert_int_equal(store_threads(s, "general", 0, 8, list, &total, &err), 2);
    assert_int_equal(total, 2);
    assert_int_equal(store_posts(s, th[1], 0, 4, posts, &total, &err), 0);
    assert_int_equal(total, 0);
    assert_int_equal(store_categories(s, names, 1, cats, &err), 0);
    assert_true(cats[0].threads == 2 && cats[0].posts == 3 && cats[0].last_post == T0 + 100);
    assert_int_equal(store_thread_get(s, th[1], &t, &err), 0);
    assert_int_equal(t.hidden, 1);
    assert_int_equal(store_thread_set_hidden(s, th[1], 0, &err), 0);
    assert_int_equal(store_threads(s, "general", 0, 8, list, &total, &err), 3);

    /* deleting the opening post deletes the thread */
    assert_int_equal(store_post_delete(s, p[0], &err), 0);
    assert_int_equal(store_thread_get(s, th[1], &t, &err), 0);
    assert_true(t.deleted == 1 && t.posts == 2);
    assert_int_equal(store_threads(s, "general", 0, 8, list, &total, &err), 2);
    assert_int_equal(total, 2);
    assert_int_equal(store_threads(s, "", 0, 8, list, &total, &err), 4);
    for (int i = 0; i < 4; i++)
        assert_true(list[i].id != th[1]);
    assert_int_equal(store_posts(s, th[1], 0, 4, posts, &total, &err), 0);
    const char *too_long[1] = { "sixteen-bytes-xx" };
    assert_int_equal(store_categories(s, too_long, 1, cats, &err), -1);
    store_close(s);
}

/* --- search ------------------------------------------------------------- */

static int search(store *s, const char *words, store_hit *out, int max, int *total)
{
    store_err err = { "" };
    int n = store_forum_search(s, words, 0, max, out, total, &err);
    if (n < 0)
        fail_msg("store_forum_search \"%.40s\": %s", words, err.msg);
    return n;
}

static void test_search(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0);
    int64_t p1 = 0, p2 = 0;
    int64_t t1 = add_thread(s, "general", "Fortress openings", a,
                            "The rampart gambit is sharp.", T0, &p1);
    int64_t t2 = add_thread(s, "variants", "Caf\xc3\xa9 chat", a,
                            "Strat\xc3\xa9gie \xc3\xa9l\xc3\xa9mentaire.", T0, &p2);
    int64_t r1 = add_post(s, t1, a, "I prefer the quiet rampart line.", T0 + 1);
    store_hit hits[8];
    int total = -1;

    assert_int_equal(search(s, "rampart", hits, 8, &total), 2);
    assert_int_equal(total, 2);
    assert_int_equal(search(s, "RAMP", hits, 8, &total), 2);  /* a prefix, any case */
    assert_int_equal(search(s, "rampart quiet", hits, 8, &total), 1);  /* every word */
    assert_true(hits[0].post == r1 && hits[0].thread == t1);
    assert_string_equal(hits[0].category, "general");
    assert_string_equal(hits[0].title, "Fortress openings");
    assert_int_equal(hits[0].author, a);
    assert_string_equal(hits[0].author_name, "Alice");
    assert_int_equal(hits[0].created, T0 + 1);
    assert_non_null(strstr(hits[0].snippet, "quiet rampart"));
    assert_int_equal(search(s, "fortress", hits, 8, &total), 1);  /* the title: opening post */
    assert_int_equal(hits[0].post, p1);
    assert_int_equal(search(s, "strat\xc3\xa9gie", hits, 8, &total), 1);
    assert_int_equal(hits[0].post, p2);
    assert_int_equal(search(s, "caf\xc3\xa9", hits, 8, &total), 1);
    assert_int_equal(hits[0].thread, t2);
    assert_int_equal(search(s, "rampart nothing", hits, 8, &total), 0);
    assert_int_equal(total, 0);
    /* paging */
    assert_int_equal(store_forum_search(s, "rampart", 1, 8, hits, &total, &err), 1);
    assert_int_equal(total, 2);
    assert_int_equal(store_forum_search(s, "rampart", 2, 8, hits, &total, &err), 0);
    assert_int_equal(store_forum_search(s, "rampart", 0, 1, hits, NULL, &err), 1);
    assert_int_equal(store_forum_search(s, "rampart", -1, 1, hits, NULL, &err), -1);
    /* no word at all */
    assert_int_equal(search(s, "", hits, 8, &total), 0);
    assert_int_equal(total, 0);
    assert_int_equal(search(s, " -- !! ", hits, 8, &total), 0);
    /* the first ten words count, the rest are dropped */
    assert_int_equal(search(s, "the the the the the the the the the rampart zzzz", hits, 8,
                            &total), 2);
    assert_int_equal(search(s, "the the the the the the the the rampart zzzz", hits, 8,
                            &total), 0);

    /* edits and titles reach the index */
    assert_int_equal(store_post_edit(s, r1, "Now about the citadel instead.", T0 + 2, &err), 0);
    assert_int_equal(search(s, "quiet", hits, 8, &total), 0);
    assert_int_equal(search(s, "citadel", hits, 8, &total), 1);
    assert_int_equal(store_thread_retitle(s, t1, "Bastion openings", &err), 0);
    assert_int_equal(search(s, "fortress", hits, 8, &total), 0);
    assert_int_equal(search(s, "bastion", hits, 8, &total), 1);
    assert_string_equal(hits[0].title, "Bastion openings");

    /* hidden and deleted posts and threads are not found */
    assert_int_equal(store_post_set_hidden(s, r1, 1, &err), 0);
    assert_int_equal(search(s, "citadel", hits, 8, &total), 0);
    assert_int_equal(store_post_set_hidden(s, r1, 0, &err), 0);
    assert_int_equal(search(s, "citadel", hits, 8, &total), 1);
    assert_int_equal(store_thread_set_hidden(s, t1, 1, &err), 0);
    assert_int_equal(search(s, "citadel", hits, 8, &total), 0);
    assert_int_equal(search(s, "bastion", hits, 8, &total), 0);
    assert_int_equal(store_thread_set_hidden(s, t1, 0, &err), 0);
    assert_int_equal(store_post_delete(s, r1, &err), 0);
    assert_int_equal(search(s, "citadel", hits, 8, &total), 0);
    assert_int_equal(search(s, "bastion", hits, 8, &total), 1);
    assert_int_equal(store_post_delete(s, p2, &err), 0);  /* the thread goes with it */
    assert_int_equal(search(s, "cafe", hits, 8, &total), 0);
    store_close(s);
}

static void test_search_hostile(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0);
    add_thread(s, "general", "near words", a, "NEAR AND OR NOT rampart col:val x*y", T0, NULL);
    static const char *const hostile[] = {
        "\"", "\"\"", "\"rampart", "rampart\"", "'", "NEAR(", "NEAR(rampart", "NEAR(a b, 2)",
        "*", "**", "rampart*", "-rampart", "- rampart", ":", "title:", "body:rampart",
        "{title}: rampart", "(", ")", "((rampart", "rampart))", "a AND", "OR", "NOT",
        "AND OR NOT", "^rampart", "+", "rampart +", "\\", "%", "_", ";", "--", "/*", "\t\n",
        "\xff\xfe", "\xc3", "r\xc3", "\xe2\x80\x94", "\xe2\x80", "\xf0\x9f\x98\x80", "\x80",
        "col:val", "x*y", "near", "NEAR/2", "rampart NEAR/2 near", "'); DROP TABLE players; --",
    };
    store_hit hits[4];
    int total = 0;
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        int n = store_forum_search(s, hostile[i], 0, 4, hits, &total, &err);
        if (n < 0)
            fail_msg("search \"%s\": %s", hostile[i], err.msg);
        assert_true(n <= 1 && total == n);
    }
    /* what looks like syntax is only words */
    assert_int_equal(search(s, "NEAR(rampart", hits, 4, &total), 1);
    assert_int_equal(search(s, "col:val", hits, 4, &total), 1);
    assert_int_equal(search(s, "-rampart", hits, 4, &total), 1);
    assert_int_equal(search(s, "\"rampart\" OR zzzz", hits, 4, &total), 0);
    /* 10,000 bytes: one long word, and many short ones */
    char *big = repeat('q', 10000);
    assert_int_equal(search(s, big, hits, 4, &total), 0);
    for (size_t i = 1; i < 10000; i += 2)
        big[i] = '(';
    assert_int_equal(search(s, big, hits, 4, &total), 0);
    for (size_t i = 0; i < 10000; i++)
        big[i] = "\"*-:()^ "[i % 8];
    assert_int_equal(search(s, big, hits, 4, &total), 0);
    for (size_t i = 0; i < 10000; i++)
        big[i] = (char)(0x80 + i % 0x7f);
    assert_int_equal(search(s, big, hits, 4, &total), 0);
    free(big);
    store_close(s);
}

/* Snippets stay within their field and never cut a character in two. */
static void test_search_snippet(void **state)
{
    (void)state;
    store *s = open_memory();
    int64_t a = add_player(s, "Alice", 0, 0);
    /* long words of two-byte letters around the one searched for */
    size_t n = 0;
    char *body = malloc(STORE_POST_MAX + 1);
    assert_non_null(body);
    while (n + 130 < STORE_POST_MAX) {
        for (int k = 0; k < 60; k++) {
            body[n++] = '\xc3';
            body[n++] = '\xa9';
        }
        body[n++] = ' ';
        if (n > 4000 && n < 4200)
            n += (size_t)snprintf(body + n, 16, "needle ");
    }
    body[n] = '\0';
    int64_t post = 0;
    add_thread(s, "general", "long", a, body, T0, &post);
    add_thread(s, "general", "short", a, "a needle in a haystack", T0, NULL);
    store_hit hits[4];
    int total = 0;
    assert_int_equal(search(s, "needle", hits, 4, &total), 2);
    for (int i = 0; i < 2; i++) {
        assert_true(strlen(hits[i].snippet) <= 399);
        assert_true(utf8_whole(hits[i].snippet));
        assert_non_null(strstr(hits[i].snippet, hits[i].post == post ? "needle" : "haystack"));
    }
    free(body);
    store_close(s);
}

/* --- notifications ------------------------------------------------------ */

static int64_t add_note(store *s, int64_t player, int64_t from, const char *kind,
                        int64_t now)
{
    store_err err = { "" };
    store_note n;
    memset(&n, 0, sizeof n);
    n.player = player;
    n.from = from;
    snprintf(n.kind, sizeof n.kind, "%s", kind);
    n.thread = 7;
    n.post = 8;
    snprintf(n.title, sizeof n.title, "About %s", kind);
    n.created = now;
    int64_t id = 0;
    if (store_note_add(s, &n, &id, &err) != 0)
        fail_msg("store_note_add: %s", err.msg);
    return id;
}

static void test_notes(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    int64_t n1 = add_note(s, a, b, "reply", T0);
    int64_t n2 = add_note(s, a, 0, "answer", T0 + 1);
    int64_t n3 = add_note(s, a, b, "mention", T0 + 2);
    add_note(s, b, a, "reply", T0 + 3);
    store_note out[8];
    int unread = -1;
    assert_int_equal(store_notes(s, a, 8, out, &unread, &err), 3);
    assert_int_equal(unread, 3);
    assert_int_equal(out[0].id, n3);  /* newest first */
    assert_true(out[1].id == n2 && out[2].id == n1);
    assert_string_equal(out[0].kind, "mention");
    assert_int_equal(out[0].from, b);
    assert_string_equal(out[0].from_name, "Bob");
    assert_true(out[0].thread == 7 && out[0].post == 8 && out[0].ticket == 0);
    assert_string_equal(out[0].title, "About mention");
    assert_true(out[0].created == T0 + 2 && out[0].read == 0 && out[1].from == 0);
    assert_string_equal(out[1].from_name, "");
    assert_int_equal(store_notes(s, a, 1, out, NULL, &err), 1);
    assert_int_equal(out[0].id, n3);

    assert_int_equal(store_notes_read(s, a, n2, &err), 0);
    assert_int_equal(store_notes(s, a, 8, out, &unread, &err), 3);
    assert_true(unread == 1 && out[0].read == 0 && out[1].read == 1 && out[2].read == 1);
    assert_int_equal(store_notes(s, b, 8, out, &unread, &err), 1);
    assert_int_equal(unread, 1);  /* Bob's are his own */
    assert_int_equal(store_notes_read(s, a, 0, &err), 0);
    assert_int_equal(store_notes(s, a, 8, out, &unread, &err), 3);
    assert_int_equal(unread, 0);

    store_note bad;
    memset(&bad, 0, sizeof bad);
    bad.player = a;
    assert_int_equal(store_note_add(s, &bad, NULL, &err), -1);  /* no kind */
    snprintf(bad.kind, sizeof bad.kind, "reply");
    bad.player = 999;
    assert_int_equal(store_note_add(s, &bad, NULL, &err), -1);  /* nobody's */
    assert_int_equal(store_notes(s, a, -1, out, &unread, &err), -1);
    store_close(s);
}

/* --- support tickets ---------------------------------------------------- */

static int64_t add_ticket(store *s, int64_t player, const char *email, const char *subject,
                          int64_t now)
{
    store_err err = { "" };
    store_ticket t;
    memset(&t, 0, sizeof t);
    t.player = player;
    snprintf(t.email, sizeof t.email, "%s", email);
    snprintf(t.kind, sizeof t.kind, "bug");
    snprintf(t.subject, sizeof t.subject, "%s", subject);
    int64_t id = 0;
    if (store_ticket_add(s, &t, "It does not work.", now, &id, &err) != 0)
        fail_msg("store_ticket_add: %s", err.msg);
    return id;
}

static void test_tickets(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), staff = add_player(s, "Staff", 0, 0);
    int64_t k1 = add_ticket(s, a, "alice@example.org", "First", T0);
    int64_t k2 = add_ticket(s, 0, "anon@example.org", "From nobody", T0 + 10);
    int64_t k3 = add_ticket(s, a, "", "Second", T0 + 20);
    store_ticket t;
    assert_int_equal(store_ticket_get(s, k1, &t, &err), 0);
    assert_int_equal(t.player, a);
    assert_string_equal(t.player_name, "Alice");
    assert_string_equal(t.email, "alice@example.org");
    assert_string_equal(t.kind, "bug");
    assert_string_equal(t.subject, "First");
    assert_true(t.created == T0 && t.updated == T0 && t.status == STORE_TICKET_OPEN);
    assert_int_equal(t.messages, 1);
    assert_int_equal(store_ticket_get(s, k2, &t, &err), 0);
    assert_int_equal(t.player, 0);
    assert_string_equal(t.player_name, "");

    /* an answer from staff that closes the ticket */
    int64_t m = 0;
    assert_int_equal(store_ticket_reply(s, k1, staff, 1, "Fixed.", STORE_TICKET_CLOSED,
                                        T0 + 30, &m, &err), 0);
    assert_true(m > 0);
    assert_int_equal(store_ticket_get(s, k1, &t, &err), 0);
    assert_true(t.status == STORE_TICKET_CLOSED && t.updated == T0 + 30 && t.messages == 2);
    store_ticket_msg *msgs = calloc(4, sizeof *msgs);
    assert_non_null(msgs);
    assert_int_equal(store_ticket_messages(s, k1, msgs, 4, &err), 2);
    assert_int_equal(msgs[0].author, a);
    assert_string_equal(msgs[0].author_name, "Alice");
    assert_true(msgs[0].staff == 0 && msgs[0].created == T0);
    assert_string_equal(msgs[0].body, "It does not work.");
    assert_true(msgs[1].id == m && msgs[1].ticket == k1 && msgs[1].author == staff);
    assert_int_equal(msgs[1].staff, 1);
    assert_string_equal(msgs[1].body, "Fixed.");
    assert_int_equal(store_ticket_messages(s, k1, msgs, 1, &err), 1);
    assert_int_equal(store_ticket_reply(s, k2, 0, 0, "Me again.", STORE_TICKET_OPEN, T0 + 40,
                                        NULL, &err), 0);
    assert_int_equal(store_ticket_messages(s, k2, msgs, 4, &err), 2);
    assert_int_equal(msgs[1].author, 0);

    /* lists: newest activity first (k2 at 40, k1 at 30, k3 at 20) */
    store_ticket list[4];
    int total = -1;
    assert_int_equal(store_tickets(s, 0, -1, 0, 4, list, &total, &err), 3);
    assert_true(total == 3 && list[0].id == k2 && list[1].id == k1 && list[2].id == k3);
    assert_int_equal(store_tickets(s, 0, STORE_TICKET_OPEN, 0, 4, list, &total, &err), 2);
    assert_true(total == 2 && list[0].id == k2 && list[1].id == k3);
    assert_int_equal(store_tickets(s, a, -1, 0, 4, list, &total, &err), 2);
    assert_true(total == 2 && list[0].id == k1);
    assert_int_equal(store_tickets(s, a, STORE_TICKET_CLOSED, 0, 4, list, &total, &err), 1);
    assert_int_equal(list[0].id, k1);
    assert_int_equal(store_tickets(s, 0, -1, 1, 1, list, &total, &err), 1);
    assert_true(list[0].id == k1 && total == 3);

    assert_int_equal(store_ticket_set_status(s, k1, STORE_TICKET_OPEN, T0 + 50, &err), 0);
    assert_int_equal(store_ticket_get(s, k1, &t, &err), 0);
    assert_true(t.status == STORE_TICKET_OPEN && t.updated == T0 + 50 && t.messages == 2);

    assert_int_equal(store_ticket_get(s, 999, &t, &err), STORE_NOT_FOUND);
    assert_int_equal(store_ticket_reply(s, 999, a, 0, "x", 0, T0, NULL, &err), STORE_NOT_FOUND);
    assert_int_equal(store_ticket_set_status(s, 999, 0, T0, &err), STORE_NOT_FOUND);
    assert_int_equal(store_ticket_reply(s, k1, a, 0, "x", 2, T0, NULL, &err), -1);
    assert_int_equal(store_ticket_set_status(s, k1, -1, T0, &err), -1);
    char *body = repeat('x', STORE_POST_MAX + 1);
    assert_int_equal(store_ticket_reply(s, k1, a, 0, body, 0, T0, NULL, &err), -1);
    memset(&t, 0, sizeof t);
    snprintf(t.kind, sizeof t.kind, "bug");
    assert_int_equal(store_ticket_add(s, &t, body, T0, NULL, &err), -1);
    free(body);
    memset(t.email, 'e', STORE_EMAIL_MAX);  /* the field's last byte stays '\0' */
    assert_int_equal(store_ticket_add(s, &t, "ok", T0, NULL, &err), 0);
    assert_int_equal(store_tickets(s, 0, -1, 0, 0, NULL, &total, &err), 0);
    assert_int_equal(total, 4);
    free(msgs);
    store_close(s);
}

/* --- the mail queue ----------------------------------------------------- */

static void test_mail(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    store_mail *m = calloc(1, sizeof *m), *out = calloc(4, sizeof *out);
    assert_non_null(m);
    assert_non_null(out);
    snprintf(m->to, sizeof m->to, "alice@example.org");
    snprintf(m->reply_to, sizeof m->reply_to, "staff@example.org");
    snprintf(m->subject, sizeof m->subject, "Your ticket");
    snprintf(m->body, sizeof m->body, "Hello,\n\nIt is fixed.\n");
    int64_t m1 = 0, m2 = 0, m3 = 0;
    assert_int_equal(store_mail_add(s, m, T0, &m1, &err), 0);
    m->reply_to[0] = '\0';
    assert_int_equal(store_mail_add(s, m, T0 + 1, &m2, &err), 0);
    m->next_try = T0 + 100000;  /* not before then */
    assert_int_equal(store_mail_add(s, m, T0 + 2, &m3, &err), 0);
    assert_int_equal(store_mail_waiting(s, &err), 3);

    assert_int_equal(store_mail_due(s, T0 + 10, out, 4, &err), 2);
    assert_int_equal(out[0].id, m1);  /* oldest first */
    assert_int_equal(out[1].id, m2);
    assert_string_equal(out[0].to, "alice@example.org");
    assert_string_equal(out[0].reply_to, "staff@example.org");
    assert_string_equal(out[1].reply_to, "");
    assert_string_equal(out[0].subject, "Your ticket");
    assert_string_equal(out[0].body, "Hello,\n\nIt is fixed.\n");
    assert_true(out[0].created == T0 && out[0].attempts == 0 && out[0].next_try == T0);
    assert_int_equal(out[0].sent, 0);
    assert_int_equal(store_mail_due(s, T0 + 10, out, 1, &err), 1);

    assert_int_equal(store_mail_failed(s, m1, T0 + 60000, "421 try later", &err), 0);
    assert_int_equal(store_mail_due(s, T0 + 10, out, 4, &err), 1);
    assert_int_equal(out[0].id, m2);
    assert_int_equal(store_mail_get(s, m1, &out[0], &err), 0);
    assert_true(out[0].attempts == 1 && out[0].next_try == T0 + 60000);
    assert_string_equal(out[0].error, "421 try later");
    assert_int_equal(store_mail_sent(s, m2, T0 + 20, &err), 0);
    assert_int_equal(store_mail_waiting(s, &err), 2);
    assert_int_equal(store_mail_due(s, T0 + 200000, out, 4, &err), 2);
    assert_true(out[0].id == m1 && out[1].id == m3);
    assert_int_equal(store_mail_get(s, m2, &out[0], &err), 0);
    assert_int_equal(out[0].sent, T0 + 20);

    /* a long error is kept cut, on a character's edge */
    char error[400];
    for (size_t i = 0; i + 1 < sizeof error; i += 2)
        memcpy(error + i, "\xc3\xa9", 2);
    error[sizeof error - 1] = '\0';
    assert_int_equal(store_mail_failed(s, m3, T0 + 300000, error, &err), 0);
    assert_int_equal(store_mail_get(s, m3, &out[0], &err), 0);
    assert_true(strlen(out[0].error) < sizeof out[0].error);
    assert_true(strlen(out[0].error) >= sizeof out[0].error - 2);
    assert_true(utf8_whole(out[0].error));

    assert_int_equal(store_mail_get(s, 999, &out[0], &err), STORE_NOT_FOUND);
    assert_int_equal(store_mail_sent(s, 999, T0, &err), STORE_NOT_FOUND);
    assert_int_equal(store_mail_failed(s, 999, T0, "x", &err), STORE_NOT_FOUND);
    m->to[0] = '\0';
    assert_int_equal(store_mail_add(s, m, T0, NULL, &err), -1);
    assert_int_equal(store_mail_waiting(s, &err), 2);
    free(m);
    free(out);
    store_close(s);
}

/* --- game chat ---------------------------------------------------------- */

static void test_chat(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), b = add_player(s, "Bob", 0, 0);
    int64_t game = add_game(s, a, b, 0), other = add_game(s, a, b, 0);
    int64_t id[6];
    for (int i = 0; i < 6; i++) {
        char text[24];
        snprintf(text, sizeof text, "line %d", i);
        assert_int_equal(store_chat_add(s, game, STORE_ROOM_PLAYERS, i % 2 ? b : a, text,
                                        T0 + i, &id[i], &err), 0);
    }
    int64_t spect = 0;
    assert_int_equal(store_chat_add(s, game, STORE_ROOM_SPECTATORS, a, "watching", T0, &spect,
                                    &err), 0);
    assert_int_equal(store_chat_add(s, other, STORE_ROOM_PLAYERS, a, "elsewhere", T0, NULL,
                                    &err), 0);

    store_chat out[8];
    assert_int_equal(store_chat_lines(s, game, STORE_ROOM_PLAYERS, 3, out, &err), 3);
    assert_int_equal(out[0].id, id[3]);  /* the newest three, oldest first */
    assert_true(out[1].id == id[4] && out[2].id == id[5]);
    assert_string_equal(out[2].text, "line 5");
    assert_int_equal(out[2].author, b);
    assert_string_equal(out[2].author_name, "Bob");
    assert_true(out[2].time == T0 + 5 && out[2].game == game && out[2].room == STORE_ROOM_PLAYERS);
    assert_int_equal(store_chat_lines(s, game, STORE_ROOM_PLAYERS, 8, out, &err), 6);
    assert_int_equal(out[0].id, id[0]);
    assert_int_equal(store_chat_lines(s, game, STORE_ROOM_SPECTATORS, 8, out, &err), 1);
    assert_int_equal(out[0].id, spect);

    assert_int_equal(store_chat_set_hidden(s, id[4], 1, &err), 0);
    assert_int_equal(store_chat_lines(s, game, STORE_ROOM_PLAYERS, 3, out, &err), 3);
    assert_true(out[0].id == id[2] && out[1].id == id[3] && out[2].id == id[5]);
    store_chat one;
    assert_int_equal(store_chat_get(s, id[4], &one, &err), 0);
    assert_int_equal(one.hidden, 1);
    assert_string_equal(one.text, "line 4");
    assert_int_equal(store_chat_set_hidden(s, id[4], 0, &err), 0);
    assert_int_equal(store_chat_lines(s, game, STORE_ROOM_PLAYERS, 8, out, &err), 6);

    assert_int_equal(store_chat_get(s, 999, &one, &err), STORE_NOT_FOUND);
    assert_int_equal(store_chat_set_hidden(s, 999, 1, &err), STORE_NOT_FOUND);
    assert_int_equal(store_chat_add(s, game, 2, a, "x", T0, NULL, &err), -1);
    assert_int_equal(store_chat_add(s, 999, STORE_ROOM_PLAYERS, a, "x", T0, NULL, &err), -1);
    char *text = repeat('c', STORE_CHAT_MAX);
    assert_int_equal(store_chat_add(s, game, STORE_ROOM_PLAYERS, a, text, T0, NULL, &err), 0);
    free(text);
    text = repeat('c', STORE_CHAT_MAX + 1);
    assert_int_equal(store_chat_add(s, game, STORE_ROOM_PLAYERS, a, text, T0, NULL, &err), -1);
    free(text);
    assert_int_equal(store_chat_lines(s, game, STORE_ROOM_PLAYERS, 0, NULL, &err), 0);
    store_close(s);
}

/* --- reports and the audit log ----------------------------------------- */

static int64_t add_report(store *s, int64_t reporter, const char *kind, int64_t target,
                          int64_t now)
{
    store_err err = { "" };
    store_report r;
    memset(&r, 0, sizeof r);
    r.reporter = reporter;
    snprintf(r.kind, sizeof r.kind, "%s", kind);
    r.target = target;
    snprintf(r.reason, sizeof r.reason, "rude");
    int64_t id = 0;
    if (store_report_add(s, &r, now, &id, &err) != 0)
        fail_msg("store_report_add: %s", err.msg);
    return id;
}

static void test_reports_and_audit(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), mod = add_player(s, "Mod", 0, 0);
    int64_t r1 = add_report(s, a, "post", 11, T0);
    int64_t r2 = add_report(s, a, "chat", 12, T0 + 1);
    int64_t r3 = add_report(s, a, "player", mod, T0 + 2);
    int64_t r4 = add_report(s, a, "post", 13, T0 + 3);
    store_report r;
    assert_int_equal(store_report_get(s, r2, &r, &err), 0);
    assert_int_equal(r.reporter, a);
    assert_string_equal(r.reporter_name, "Alice");
    assert_string_equal(r.kind, "chat");
    assert_int_equal(r.target, 12);
    assert_string_equal(r.reason, "rude");
    assert_true(r.created == T0 + 1 && r.status == STORE_REPORT_OPEN && r.resolved_by == 0);

    assert_int_equal(store_report_resolve(s, r2, mod, T0 + 10, &err), 0);
    assert_int_equal(store_report_resolve(s, r3, mod, T0 + 11, &err), 0);
    assert_int_equal(store_report_resolve(s, r3, a, T0 + 99, &err), 0);  /* the first stays */
    assert_int_equal(store_report_get(s, r3, &r, &err), 0);
    assert_true(r.status == STORE_REPORT_RESOLVED && r.resolved_by == mod);
    assert_int_equal(r.resolved_at, T0 + 11);

    store_report list[8];
    int total = -1;
    assert_int_equal(store_reports(s, STORE_REPORT_OPEN, 0, 8, list, &total, &err), 2);
    assert_int_equal(total, 2);
    assert_int_equal(list[0].id, r1);  /* open: oldest first */
    assert_int_equal(list[1].id, r4);
    assert_int_equal(store_reports(s, STORE_REPORT_RESOLVED, 0, 8, list, &total, &err), 2);
    assert_int_equal(total, 2);
    assert_int_equal(list[0].id, r3);  /* resolved: newest first */
    assert_int_equal(list[1].id, r2);
    assert_int_equal(store_reports(s, -1, 0, 8, list, &total, &err), 4);
    assert_true(total == 4 && list[0].id == r4 && list[3].id == r1);
    assert_int_equal(store_reports(s, -1, 1, 2, list, &total, &err), 2);
    assert_true(list[0].id == r3 && list[1].id == r2);
    assert_int_equal(store_reports(s, STORE_REPORT_OPEN, 1, 8, list, NULL, &err), 1);
    assert_int_equal(list[0].id, r4);

    assert_int_equal(store_report_get(s, 999, &r, &err), STORE_NOT_FOUND);
    assert_int_equal(store_report_resolve(s, 999, mod, T0, &err), STORE_NOT_FOUND);
    memset(&r, 0, sizeof r);
    snprintf(r.kind, sizeof r.kind, "post");
    memset(r.reason, 'r', STORE_REASON_MAX);
    assert_int_equal(store_report_add(s, &r, T0, NULL, &err), 0);  /* no reporter is allowed */
    r.kind[0] = '\0';
    assert_int_equal(store_report_add(s, &r, T0, NULL, &err), -1);

    /* the audit log */
    assert_int_equal(store_audit_add(s, mod, "hide-post", "post", 11, "spam: buy now", T0, &err),
                     0);
    assert_int_equal(store_audit_add(s, 0, "grant", "player", mod, "moderator", T0 + 1, &err),
                     0);
    assert_int_equal(store_audit_add(s, mod, "mute", "player", 3, NULL, T0 + 2, &err), 0);
    store_audit_row *rows = calloc(4, sizeof *rows);
    assert_non_null(rows);
    total = -1;
    assert_int_equal(store_audit(s, 0, 4, rows, &total, &err), 3);
    assert_int_equal(total, 3);
    assert_string_equal(rows[0].action, "mute");  /* newest first */
    assert_string_equal(rows[0].detail, "");
    assert_string_equal(rows[1].action, "grant");
    assert_int_equal(rows[1].actor, 0);
    assert_string_equal(rows[1].actor_name, "");
    assert_string_equal(rows[2].action, "hide-post");
    assert_int_equal(rows[2].actor, mod);
    assert_string_equal(rows[2].actor_name, "Mod");
    assert_string_equal(rows[2].target_kind, "post");
    assert_int_equal(rows[2].target, 11);
    assert_string_equal(rows[2].detail, "spam: buy now");
    assert_int_equal(rows[2].created, T0);
    assert_true(rows[0].id > rows[1].id && rows[1].id > rows[2].id);
    assert_int_equal(store_audit(s, 2, 4, rows, &total, &err), 1);
    assert_string_equal(rows[0].action, "hide-post");
    assert_int_equal(store_audit(s, 0, 1, rows, NULL, &err), 1);

    char action[40];
    memset(action, 'a', sizeof action - 1);
    action[sizeof action - 1] = '\0';
    assert_int_equal(store_audit_add(s, mod, action, "post", 1, "", T0, &err), -1);
    assert_int_equal(store_audit_add(s, 999, "mute", "player", 1, "", T0, &err), -1);
    assert_int_equal(store_audit(s, 0, 4, rows, &total, &err), 3);
    free(rows);
    store_close(s);
}

/* --- guests, the file and migration 4 ----------------------------------- */

/* Purging a guest keeps what it wrote and drops its notifications. */
static void test_guest_purge(void **state)
{
    (void)state;
    store *s = open_memory();
    store_err err = { "" };
    int64_t a = add_player(s, "Alice", 0, 0), g = add_player(s, "guest-1", 0, 1);
    int64_t k = add_ticket(s, g, "guest@example.org", "Help", T0);
    add_note(s, g, a, "answer", T0);
    add_note(s, a, g, "reply", T0);
    int64_t thread = add_thread(s, "general", "By a guest", g, "hello", T0, NULL);
    add_report(s, g, "post", 1, T0);
    assert_int_equal(store_audit_add(s, g, "mute", "player", a, "", T0, &err), 0);
    assert_int_equal(store_guests_purge(s, T0, NULL, 0, &err), 1);
    store_ticket t;
    assert_int_equal(store_ticket_get(s, k, &t, &err), 0);
    assert_int_equal(t.player, 0);
    assert_string_equal(t.email, "guest@example.org");
    store_thread th;
    assert_int_equal(store_thread_get(s, thread, &th, &err), 0);
    assert_int_equal(th.author, 0);
    store_note n[2];
    int unread = 0;
    assert_int_equal(store_notes(s, a, 2, n, &unread, &err), 1);
    assert_int_equal(n[0].from, 0);
    assert_int_equal(store_notes(s, g, 2, n, &unread, &err), 0);
    store_close(s);
}

/* Schema 3, as a database made before the community holds it (a copy kept
 * here on purpose: it must not follow the store's changes). */
static const char schema3[] =
    "CREATE TABLE players (id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  name TEXT NOT NULL COLLATE NOCASE UNIQUE"
    "    CHECK (length(CAST(name AS BLOB)) BETWEEN 1 AND 32),"
    "  pass_hash TEXT NOT NULL DEFAULT '',"
    "  is_bot INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),"
    "  is_guest INTEGER NOT NULL DEFAULT 0 CHECK (is_guest IN (0, 1)),"
    "  bot_spec TEXT NOT NULL DEFAULT '', created INTEGER NOT NULL);"
    "CREATE INDEX players_bots ON players(id) WHERE is_bot = 1;"
    "CREATE INDEX players_guests ON players(id) WHERE is_guest = 1;"
    "CREATE TABLE sessions (token TEXT PRIMARY KEY,"
    "  player INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,"
    "  created INTEGER NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID;"
    "CREATE INDEX sessions_expires ON sessions(expires);"
    "CREATE INDEX sessions_player ON sessions(player);"
    "CREATE TABLE games (id INTEGER PRIMARY KEY, variant TEXT NOT NULL, start TEXT NOT NULL,"
    "  base_ms INTEGER NOT NULL, inc_ms INTEGER NOT NULL, move_limit INTEGER NOT NULL,"
    "  rated INTEGER NOT NULL CHECK (rated IN (0, 1)),"
    "  nsides INTEGER NOT NULL CHECK (nsides BETWEEN 1 AND 4), created INTEGER NOT NULL,"
    "  started INTEGER NOT NULL DEFAULT 0,"
    "  status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),"
    "  winner INTEGER NOT NULL DEFAULT -1, reason TEXT NOT NULL DEFAULT '',"
    "  sterile INTEGER NOT NULL DEFAULT 0, ended INTEGER NOT NULL DEFAULT 0,"
    "  nmoves INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX games_status ON games(status);"
    "CREATE TABLE game_players (game INTEGER NOT NULL REFERENCES games(id),"
    "  side INTEGER NOT NULL CHECK (side BETWEEN 0 AND 3),"
    "  player INTEGER NOT NULL REFERENCES players(id), PRIMARY KEY (game, side)) WITHOUT ROWID;"
    "CREATE INDEX game_players_player ON game_players(player, game);"
    "CREATE TABLE moves (game INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
    "  text TEXT NOT NULL, clock_ms INTEGER NOT NULL, time INTEGER NOT NULL,"
    "  PRIMARY KEY (game, ply)) WITHOUT ROWID;"
    "CREATE TABLE ratings (player INTEGER NOT NULL REFERENCES players(id),"
    "  variant TEXT NOT NULL, rating REAL NOT NULL, games INTEGER NOT NULL,"
    "  PRIMARY KEY (player, variant)) WITHOUT ROWID;"
    "CREATE INDEX ratings_ladder ON ratings(variant, rating DESC, games DESC);"
    "CREATE TABLE rating_history (id INTEGER PRIMARY KEY,"
    "  player INTEGER NOT NULL REFERENCES players(id), variant TEXT NOT NULL,"
    "  game INTEGER NOT NULL REFERENCES games(id), time INTEGER NOT NULL,"
    "  before REAL NOT NULL, after REAL NOT NULL, UNIQUE (player, game));"
    "CREATE INDEX rating_history_player ON rating_history(player, variant, time, game);"
    "CREATE TABLE kv (player INTEGER NOT NULL REFERENCES players(id), key TEXT NOT NULL,"
    "  value TEXT NOT NULL, PRIMARY KEY (player, key)) WITHOUT ROWID;";

static void test_migration_from_3(void **state)
{
    SQLITE_ONLY();
    (void)state;
    tmpdb t;
    tmpdb_make(&t);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(t.path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, schema3, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db,
                     "INSERT INTO players (id, name, pass_hash, created) VALUES"
                     " (5, 'ann', '$argon2id$x', 1), (9, 'ben', '$argon2id$y', 2);"
                     "INSERT INTO sessions VALUES ('tok', 5, 1, 9000000000000);"
                     "INSERT INTO games (id, variant, start, base_ms, inc_ms, move_limit, rated,"
                     " nsides, created) VALUES (3, 'rampart', 's', 0, 0, 0, 0, 2, 1);"
                     "INSERT INTO game_players VALUES (3, 0, 5), (3, 1, 9);"
                     "PRAGMA user_version = 3;",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);

    store_err err = { "" };
    store *s = store_open(t.path, 0, &err);
    if (!s)
        fail_msg("store_open: %s", err.msg);
    assert_int_equal(store_schema_version(s), NEW_SCHEMA);
    int64_t owner = -1;  /* migration 5: a live game of before has no server */
    assert_int_equal(store_game_owner(s, 3, &owner, &err), 0);
    assert_int_equal(owner, 0);
    store_player p;
    char hash[STORE_TEXT_MAX];
    assert_int_equal(store_player_by_name(s, "ann", &p, hash, &err), 0);
    assert_int_equal(p.id, 5);
    assert_string_equal(hash, "$argon2id$x");
    assert_int_equal(store_player_by_id(s, 9, &p, &err), 0);
    assert_string_equal(p.name, "ben");
    int64_t who = 0;
    assert_int_equal(store_session_player(s, "tok", 2, &who, &err), 0);
    assert_int_equal(who, 5);
    store_standing sd;
    assert_int_equal(store_standing_get(s, 5, &sd, &err), 0);
    assert_true(sd.role == STORE_ROLE_PLAYER && sd.closed == 0 && sd.muted_until == 0);
    assert_int_equal(store_role_set(s, 5, STORE_ROLE_ADMIN, &err), 0);
    int64_t thread = add_thread(s, "general", "After the migration", 5, "works", T0, NULL);
    assert_int_equal(store_chat_add(s, 3, STORE_ROOM_PLAYERS, 9, "gg", T0, NULL, &err), 0);
    store_close(s);

    s = store_open(t.path, 0, &err);  /* and once more: nothing runs twice */
    if (!s)
        fail_msg("reopen: %s", err.msg);
    assert_int_equal(store_schema_version(s), NEW_SCHEMA);
    assert_int_equal(store_role_count(s, STORE_ROLE_ADMIN, &err), 1);
    store_thread th;
    assert_int_equal(store_thread_get(s, thread, &th, &err), 0);
    assert_string_equal(th.author_name, "ann");
    store_hit hits[2];
    int total = 0;
    assert_int_equal(search(s, "migration", hits, 2, &total), 1);

    /* after every kind of change, the search index matches the posts and
     * each thread's count of visible posts is right (checked from outside) */
    int64_t p0 = 0, p1 = 0;
    int64_t t0 = add_thread(s, "general", "One", 5, "alpha beta", T0, &p0);
    int64_t t1 = add_thread(s, "general", "Two", 9, "gamma", T0, &p1);
    int64_t r0 = add_post(s, t0, 9, "delta", T0 + 1), r1 = add_post(s, t0, 5, "eps", T0 + 2);
    assert_int_equal(store_post_edit(s, p0, "alpha zeta", T0 + 3, &err), 0);
    assert_int_equal(store_post_edit(s, r0, "delta again", T0 + 3, &err), 0);
    assert_int_equal(store_thread_retitle(s, t0, "Uno", &err), 0);
    assert_int_equal(store_thread_retitle(s, t1, "Dos", &err), 0);
    assert_int_equal(store_post_set_hidden(s, r1, 1, &err), 0);
    assert_int_equal(store_post_delete(s, p1, &err), 0);
    assert_int_equal(store_post_delete(s, r1, &err), 0);
    store_close(s);
    assert_int_equal(sqlite3_open(t.path, &db), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(db, "INSERT INTO forum_search (forum_search, rank) "
                         "VALUES ('integrity-check', 1)", NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("integrity-check: %s", msg);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT count(*) FROM forum_threads t WHERE posts != "
                                        "(SELECT count(*) FROM forum_posts p WHERE p.thread = "
                                        "t.id AND hidden = 0 AND deleted = 0)",
                                        -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    tmpdb_remove(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_standing_and_close),
        cmocka_unit_test(test_thread_round_trip),
        cmocka_unit_test(test_lists_and_flags),
        cmocka_unit_test(test_search),
        cmocka_unit_test(test_search_hostile),
        cmocka_unit_test(test_search_snippet),
        cmocka_unit_test(test_notes),
        cmocka_unit_test(test_tickets),
        cmocka_unit_test(test_mail),
        cmocka_unit_test(test_chat),
        cmocka_unit_test(test_reports_and_audit),
        cmocka_unit_test(test_guest_purge),
        cmocka_unit_test(test_migration_from_3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
