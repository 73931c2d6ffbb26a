/* test_community.c -- the message board and notifications of `citadel serve`
 * over the wire, as the page or a tool uses them, against docs/api.md ("The
 * community": Message board, Notifications; "Identity"; "Limits"):
 * categories, threads and replies, who may read and who may post, paging,
 * newest activity first, editing and deleting, the checks of every text
 * (lengths in bytes, control characters, UTF-8, bodies that are not the
 * JSON asked for) with nothing stored after a refusal, search by word
 * prefixes with hostile queries, Markdown made safe, game links and
 * @mentions, reply and mention notifications (live and listed, then read),
 * the board's quotas, bad ids and cross-site requests. Support, chat and
 * moderation are in test_moderation.c.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "community_wire.h"
#include "wire.h"

static const fixture_spec fixture = { .args = NO_LIMITS };

/* --- reading HTML -------------------------------------------------------- */

/* 1 if needle is in the n bytes at s, case-insensitively. */
static int holds_ci(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (strncasecmp(s + i, needle, k) == 0)
            return 1;
    return 0;
}

/* 1 if some tag of html (from < to >) holds needle, case-insensitively. */
static int tag_holds(const char *html, const char *needle)
{
    for (const char *p = strchr(html, '<'); p; p = strchr(p + 1, '<')) {
        const char *e = strchr(p, '>');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (holds_ci(p, n, needle))
            return 1;
    }
    return 0;
}

/* 1 if some href="..." inside a tag of html holds needle, case-insensitively. */
static int href_holds(const char *html, const char *needle)
{
    for (const char *p = strchr(html, '<'); p; p = strchr(p + 1, '<')) {
        const char *e = strchr(p, '>');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        for (size_t i = 0; i + 6 <= n; i++) {
            if (strncasecmp(p + i, "href=\"", 6) != 0)
                continue;
            const char *v = p + i + 6, *q = memchr(v, '"', n - i - 6);
            if (holds_ci(v, q ? (size_t)(q - v) : n - i - 6, needle))
                return 1;
        }
    }
    return 0;
}

/* The <a> whose href is exactly href: its tag into tag, its text (up to
 * </a>) into label; 1 if there is one. */
static int anchor(const char *html, const char *href, char *tag, size_t tsize, char *label,
                  size_t lsize)
{
    char want[300];
    snprintf(want, sizeof want, "href=\"%s\"", href);
    const char *h = strstr(html, want);
    if (!h)
        return 0;
    const char *lt = h;
    while (lt > html && *lt != '<')
        lt--;
    const char *gt = strchr(h, '>'), *end = gt ? strstr(gt, "</a>") : NULL;
    if (*lt != '<' || strncmp(lt, "<a", 2) != 0 || !gt || !end)
        return 0;
    snprintf(tag, tsize, "%.*s", (int)(gt - lt + 1), lt);
    snprintf(label, lsize, "%.*s", (int)(end - gt - 1), gt + 1);
    return 1;
}

/* --- the board's own helpers ---------------------------------------------- */

/* Threads and posts of every category, as GET /api/forum counts them. */
static void board_totals(int *threads, int *posts)
{
    json_t *f = get_json("/api/forum", NULL, 200);
    *threads = *posts = 0;
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(f, "categories"), i, c) {
        *threads += (int)jint(c, "threads");
        *posts += (int)jint(c, "posts");
    }
    json_decref(f);
}

/* The listing of a category's page (200 wanted). */
static json_t *category_page(const char *cat, int page)
{
    char path[128];
    return get_json(path_fmt(path, sizeof path, "/api/forum/%s?page=%d", cat, page), NULL, 200);
}

static json_t *thread_in(json_t *listing, json_int_t id)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(listing, "threads"), i, t) if (jint(t, "id") == id)
        return t;
    return NULL;
}

static const char *html_of(json_t *post)
{
    const char *h = json_string_value(json_object_get(post, "html"));
    assert_non_null(h);
    return h;
}

/* The html of a thread's first page's post id, as `cookie` sees it (copied). */
static char *post_html(json_int_t thread, json_int_t id, const char *cookie)
{
    json_t *p = thread_page(thread, 1, cookie);
    json_t *post = post_in(p, id);
    assert_non_null(post);
    char *h = strdup(html_of(post));
    json_decref(p);
    return h;
}

/* --- categories, threads, replies ------------------------------------------- */

static void test_categories_are_listed(void **state)
{
    (void)state;
    static const char *const names[] = { "rampart", "keeps", "stratego", "support", "general" };
    json_t *f = get_json("/api/forum", NULL, 200);
    json_t *cats = json_object_get(f, "categories");
    assert_int_equal(json_array_size(cats), 5);
    for (size_t k = 0; k < 5; k++) {
        json_t *c = NULL, *x;
        size_t i;
        json_array_foreach(cats, i, x) if (strcmp(json_string_value(json_object_get(x, "name")),
                                                  names[k]) == 0) c = x;
        if (!c)
            fail_msg("category %s is not listed", names[k]);
        assert_true(json_is_string(json_object_get(c, "title")));
        assert_true(json_is_string(json_object_get(c, "about")));
        jint(c, "threads");
        jint(c, "posts");
        jint(c, "last_post");
        if (strcmp(names[k], "support") == 0)
            assert_string_equal(json_string_value(json_object_get(c, "title")),
                                "Technical Support");
        json_t *page = category_page(names[k], 1);
        json_t *cat = json_object_get(page, "category");
        assert_string_equal(json_string_value(json_object_get(cat, "name")), names[k]);
        assert_string_equal(json_string_value(json_object_get(cat, "title")),
                            json_string_value(json_object_get(c, "title")));
        assert_true(json_is_array(json_object_get(page, "threads")));
        assert_int_equal(jint(page, "page"), 1);
        assert_true(jint(page, "pages") >= 1);
        json_decref(page);
    }
    json_decref(f);
    json_t *none = get_json("/api/forum/nosuchcategory", NULL, 404);
    json_decref(none);
}

/* Players post at once; guests and visitors read, and are refused (401)
 * when they post, which stores nothing. */
static void test_players_post_guests_and_visitors_read(void **state)
{
    (void)state;
    char alice[80], bob[80], g[80], path[128];
    signup("alice", alice);
    signup("bob", bob);
    guest(g);
    int threads0, posts0;
    board_totals(&threads0, &posts0);
    json_int_t p0;
    json_int_t t = new_thread(alice, "general", "Hello board", "First *words* here", &p0);
    json_t *a = ok_call("POST", path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t),
                        bob, json_pack("{s:s}", "body", "A reply from bob"));
    json_int_t p1 = jint(a, "post");
    assert_int_equal(jint(a, "page"), 1);
    json_decref(a);

    /* the author sees her post's Markdown, and may edit it */
    json_t *page = thread_page(t, 1, alice);
    json_t *th = json_object_get(page, "thread");
    assert_int_equal(jint(th, "id"), t);
    assert_string_equal(json_string_value(json_object_get(th, "category")), "general");
    assert_string_equal(json_string_value(json_object_get(th, "title")), "Hello board");
    assert_string_equal(name_of(json_object_get(th, "author")), "alice");
    assert_int_equal(jint(th, "posts"), 2);
    assert_true(json_is_false(json_object_get(th, "locked")));
    assert_true(jint(th, "last_post") >= jint(th, "created"));
    json_t *posts = json_object_get(page, "posts");
    assert_int_equal(json_array_size(posts), 2);
    json_t *first = json_array_get(posts, 0), *second = json_array_get(posts, 1);
    assert_int_equal(jint(first, "id"), p0);   /* oldest first */
    assert_int_equal(jint(second, "id"), p1);
    assert_int_equal(jint(first, "thread"), t);
    assert_string_equal(name_of(json_object_get(first, "author")), "alice");
    assert_non_null(strstr(html_of(first), "<em>words</em>"));
    assert_true(json_is_true(json_object_get(first, "mine")));
    assert_true(json_is_true(json_object_get(first, "editable")));
    assert_int_equal(jint(first, "edited"), 0);
    assert_string_equal(json_string_value(json_object_get(first, "body")), "First *words* here");
    assert_true(json_is_false(json_object_get(second, "mine")));
    assert_null(json_object_get(second, "body"));   /* bob's Markdown is bob's */
    json_decref(page);

    /* a guest and a visitor read the same, and own none of it */
    const char *readers[] = { g, NULL };
    for (int k = 0; k < 2; k++) {
        page = thread_page(t, 1, readers[k]);
        assert_int_equal(json_array_size(json_object_get(page, "posts")), 2);
        size_t i;
        json_t *p;
        json_array_foreach(json_object_get(page, "posts"), i, p) {
            assert_true(json_is_false(json_object_get(p, "mine")));
            assert_true(json_is_false(json_object_get(p, "editable")));
            assert_null(json_object_get(p, "body"));
        }
        json_decref(page);
        refused(401, "POST", path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t),
                readers[k], json_pack("{s:s}", "body", "from a reader"), NULL);
        refused(401, "POST", "/api/forum/general", readers[k],
                json_pack("{s:s, s:s}", "title", "Reader's thread", "body", "from a reader"),
                NULL);
    }
    assert_int_equal(posts_of(t), 2);
    int threads1, posts1;
    board_totals(&threads1, &posts1);
    assert_int_equal(threads1, threads0 + 1);
    assert_int_equal(posts1, posts0 + 2);
    json_t *res = search("reader", NULL);
    assert_int_equal(json_array_size(json_object_get(res, "results")), 0);
    json_decref(res);

    /* the category lists it */
    json_t *list = category_page("general", 1);
    json_t *row = thread_in(list, t);
    assert_non_null(row);
    assert_int_equal(jint(row, "posts"), 2);
    assert_string_equal(name_of(json_object_get(row, "author")), "alice");
    json_decref(list);
}

/* 20 a page: 22 posts make two pages of a thread, 21 threads two pages
 * of a category; a reply's answer names the page it is on. */
static void test_lists_come_twenty_a_page(void **state)
{
    (void)state;
    char carl[80], dora[80], path[128];
    signup("carl", carl);
    signup("dora", dora);
    json_int_t p0, last = 0;
    json_int_t t = new_thread(carl, "rampart", "A long thread", "opening", &p0);
    for (int k = 1; k <= 21; k++) {
        char body[64];
        snprintf(body, sizeof body, "reply number %d", k);
        json_t *a = ok_call("POST",
                            path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t),
                            dora, json_pack("{s:s}", "body", body));
        assert_int_equal(jint(a, "page"), k / 20 + 1);   /* post k is the (k+1)-th */
        last = jint(a, "post");
        json_decref(a);
    }
    json_t *one = thread_page(t, 1, NULL), *two = thread_page(t, 2, NULL);
    assert_int_equal(jint(one, "page"), 1);
    assert_int_equal(jint(one, "pages"), 2);
    assert_int_equal(json_array_size(json_object_get(one, "posts")), 20);
    assert_int_equal(jint(json_array_get(json_object_get(one, "posts"), 0), "id"), p0);
    assert_int_equal(jint(two, "page"), 2);
    assert_int_equal(jint(two, "pages"), 2);
    assert_int_equal(json_array_size(json_object_get(two, "posts")), 2);
    assert_int_equal(jint(json_array_get(json_object_get(two, "posts"), 1), "id"), last);
    assert_int_equal(jint(json_object_get(one, "thread"), "posts"), 22);
    json_decref(one);
    json_decref(two);

    json_int_t oldest = 0;
    for (int k = 0; k < 21; k++) {
        char title[64];
        snprintf(title, sizeof title, "Stratego thread %d", k);
        json_int_t id = new_thread(carl, "stratego", title, "a body", NULL);
        if (k == 0)
            oldest = id;
    }
    json_t *c1 = category_page("stratego", 1), *c2 = category_page("stratego", 2);
    assert_int_equal(jint(c1, "pages"), 2);
    assert_int_equal(json_array_size(json_object_get(c1, "threads")), 20);
    assert_int_equal(jint(c2, "page"), 2);
    assert_int_equal(json_array_size(json_object_get(c2, "threads")), 1);
    assert_int_equal(jint(json_array_get(json_object_get(c2, "threads"), 0), "id"), oldest);
    json_decref(c1);
    json_decref(c2);
}

static void test_threads_come_newest_activity_first(void **state)
{
    (void)state;
    char eve[80];
    signup("eve", eve);
    json_int_t a = new_thread(eve, "keeps", "Older thread", "one", NULL);
    sleep_ms(30);
    json_int_t b = new_thread(eve, "keeps", "Newer thread", "two", NULL);
    json_t *l = category_page("keeps", 1);
    json_t *rows = json_object_get(l, "threads");
    assert_int_equal(jint(json_array_get(rows, 0), "id"), b);
    assert_int_equal(jint(json_array_get(rows, 1), "id"), a);
    json_decref(l);
    sleep_ms(30);
    reply_to(eve, a, "a reply brings it up");
    l = category_page("keeps", 1);
    rows = json_object_get(l, "threads");
    assert_int_equal(jint(json_array_get(rows, 0), "id"), a);
    assert_int_equal(jint(json_array_get(rows, 1), "id"), b);
    assert_true(jint(json_array_get(rows, 0), "last_post") > jint(json_array_get(rows, 0), "created"));
    json_decref(l);
}

/* The author only edits (and retitles with the opening post) and deletes;
 * an opening post with others' replies cannot be deleted (409). */
static void test_edit_and_delete_are_the_authors(void **state)
{
    (void)state;
    char fay[80], gus[80], path[128];
    signup("fay", fay);
    signup("gus", gus);
    json_int_t p0;
    json_int_t t = new_thread(fay, "general", "Old title", "old body", &p0);
    json_int_t rb = reply_to(gus, t, "gus was here");

    json_t *e = ok_call("POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/edit",
                                         (long long)p0),
                        fay, json_pack("{s:s, s:s}", "body", "new **body**", "title", "New title"));
    json_t *post = json_object_get(e, "post");
    assert_int_equal(jint(post, "id"), p0);
    assert_non_null(strstr(html_of(post), "<strong>body</strong>"));
    assert_true(jint(post, "edited") > 0);
    json_decref(e);
    json_t *page = thread_page(t, 1, NULL);
    assert_string_equal(json_string_value(json_object_get(json_object_get(page, "thread"), "title")),
                        "New title");
    assert_true(jint(post_in(page, p0), "edited") > 0);
    json_decref(page);

    /* not the author: 403, and nothing changes */
    refused(403, "POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/edit", (long long)p0),
            gus, json_pack("{s:s, s:s}", "body", "gus rewrote it", "title", "Gus title"), NULL);
    refused(403, "POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/edit", (long long)rb),
            fay, json_pack("{s:s}", "body", "fay rewrote it"), NULL);
    refused(403, "POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/delete", (long long)p0),
            gus, NULL, NULL);
    refused(403, "POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/delete", (long long)rb),
            fay, NULL, NULL);
    char *h = post_html(t, p0, NULL);
    assert_null(strstr(h, "gus rewrote"));
    free(h);
    h = post_html(t, rb, NULL);
    assert_non_null(strstr(h, "gus was here"));
    free(h);
    page = thread_page(t, 1, NULL);
    assert_string_equal(json_string_value(json_object_get(json_object_get(page, "thread"), "title")),
                        "New title");
    json_decref(page);

    /* others have replied: the opening post stays */
    refused(409, "POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/delete", (long long)p0),
            fay, NULL, NULL);
    assert_int_equal(posts_of(t), 2);

    /* gus deletes his own reply */
    json_t *ok = ok_call("POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/delete",
                                          (long long)rb),
                         gus, NULL);
    assert_true(json_is_true(json_object_get(ok, "ok")));
    json_decref(ok);
    page = thread_page(t, 1, NULL);
    assert_int_equal(jint(json_object_get(page, "thread"), "posts"), 1);
    assert_null(post_in(page, rb));
    char *text = json_dumps(page, 0);
    assert_null(strstr(text, "gus was here"));
    free(text);
    json_decref(page);
    refused(404, "POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/edit", (long long)rb),
            gus, json_pack("{s:s}", "body", "back again"), NULL);

    /* a thread with only its author's own replies goes with its opening post */
    json_int_t q0;
    json_int_t t2 = new_thread(fay, "general", "Short-lived", "soon gone", &q0);
    reply_to(fay, t2, "my own reply");
    ok = ok_call("POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/delete", (long long)q0),
                 fay, NULL);
    json_decref(ok);
    json_t *gone = get_json(path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t2),
                            NULL, 404);
    json_decref(gone);
    json_t *l = category_page("general", 1);
    assert_null(thread_in(l, t2));
    json_decref(l);
    refused(404, "POST", path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t2), fay,
            json_pack("{s:s}", "body", "into a deleted thread"), NULL);
}

/* --- what a person writes is checked ------------------------------------------ */

/* The account that writes the refused threads. */
static char checker[80];

/* A new thread with this raw body must be refused with 400, the error
 * naming `field` (if not NULL). */
static void bad_thread(const char *raw, const char *field)
{
    json_t *j = NULL;
    int st = call_raw("POST", "/api/forum/general", checker, raw, &j);
    if (st != 400)
        fail_msg("a thread of %.120s: %d, wanted 400", raw, st);
    const char *err = json_string_value(json_object_get(j, "error"));
    if (field && !strstr(err, field))
        fail_msg("a thread of %.120s: the error '%s' does not name %s", raw, err, field);
    json_decref(j);
}

static char *dump_thread(const char *title, const char *body)
{
    json_t *o = json_pack("{s:s, s:s}", "title", title, "body", body);
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return s;
}

static char *repeat(const char *unit, size_t times)
{
    size_t n = strlen(unit);
    char *s = malloc(n * times + 1);
    assert_non_null(s);
    for (size_t i = 0; i < times; i++)
        memcpy(s + i * n, unit, n);
    s[n * times] = '\0';
    return s;
}

/* Lengths are bytes; control characters only in bodies' newlines and
 * tabs; UTF-8 valid; bodies the JSON asked for: else 400 naming the field,
 * and nothing is stored. */
static void test_texts_are_checked_and_refusals_store_nothing(void **state)
{
    (void)state;
    signup("checker", checker);
    int threads0, posts0;
    board_totals(&threads0, &posts0);
    const char *W = "quuxrefused";
    char *long_title = repeat("a", 201), *e_title = repeat("\xc3\xa9", 101);
    char *e_title_ok = repeat("\xc3\xa9", 100), *z_title = repeat("z", 200);
    char *long_body = repeat("b", 10001), *euro_body = repeat("\xe2\x82\xac", 3334);
    struct {
        const char *title, *body, *field;
    } texts[] = {
        { long_title, W, "title" },        /* 201 bytes */
        { e_title, W, "title" },           /* 101 two-byte characters: 202 bytes */
        { "", W, "title" },
        { "bad\001title", W, "title" },
        { "two\nlines", W, "title" },      /* newlines only in bodies */
        { "a\ttab", W, "title" },
        { "A title", long_body, "body" },  /* 10,001 bytes */
        { "A title", euro_body, "body" },  /* 3334 characters, 10,002 bytes */
        { "A title", "", "body" },
        { "A title", "ring \a the bell quuxrefused", "body" },
        { "A title", "esc \033[31m quuxrefused", "body" },
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char *raw = dump_thread(texts[i].title, texts[i].body);
        bad_thread(raw, texts[i].field);
        free(raw);
    }
    static const char *const raws[] = {
        "{\"title\":\"bad \xff\xfe utf8\",\"body\":\"quuxrefused\"}",
        "{\"title\":\"overlong\",\"body\":\"quuxrefused \xc0\xaf\"}",
        "{\"title\":\"surrogate \xed\xa0\x80\",\"body\":\"quuxrefused\"}",
        "{\"title\":\"lone \\ud800 escape\",\"body\":\"quuxrefused\"}",
        "{\"title\":\"cut short\",\"body\":\"quuxrefused\"",
        "not json at all quuxrefused",
        "[\"title\",\"quuxrefused\"]",
        "\"quuxrefused\"",
        "{\"title\":5,\"body\":\"quuxrefused\"}",
        "{\"title\":\"types\",\"body\":[\"quuxrefused\"]}",
        "{\"title\":null,\"body\":\"quuxrefused\"}",
        "{\"title\":\"no body\"}",
        "{\"body\":\"no title quuxrefused\"}",
        "{\"title\":{\"x\":1},\"body\":\"quuxrefused\"}",
    };
    for (size_t i = 0; i < sizeof raws / sizeof raws[0]; i++)
        bad_thread(raws[i], NULL);
    int threads1, posts1;
    board_totals(&threads1, &posts1);
    assert_int_equal(threads1, threads0);
    assert_int_equal(posts1, posts0);

    /* the limits themselves are allowed: 200 bytes of title, 10,000 of
     * body, newlines and tabs in bodies */
    char *body_edge = repeat("d", 10000);
    memcpy(body_edge, "line\n\tindented\n", 15);
    json_int_t t = new_thread(checker, "general", e_title_ok, body_edge, NULL);
    json_int_t p2;
    json_int_t t2 = new_thread(checker, "general", z_title, "quuxaccepted", &p2);
    reply_to(checker, t2, body_edge);
    board_totals(&threads1, &posts1);
    assert_int_equal(threads1, threads0 + 2);
    assert_int_equal(posts1, posts0 + 3);
    json_t *page = thread_page(t, 1, checker);
    assert_string_equal(json_string_value(json_object_get(json_object_get(page, "thread"), "title")),
                        e_title_ok);
    assert_string_equal(json_string_value(json_object_get(json_array_get(
                            json_object_get(page, "posts"), 0), "body")),
                        body_edge);
    json_decref(page);

    /* replies and edits are checked the same way */
    char path[128], err[256];
    const char *bad_replies[] = { long_body, "", "bell \a quuxrefused" };
    for (size_t i = 0; i < 3; i++) {
        refused(400, "POST", path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t),
                checker, json_pack("{s:s}", "body", bad_replies[i]), err);
        assert_non_null(strstr(err, "body"));
    }
    static const char *const bad_reply_raws[] = {
        "{\"body\":5}", "{\"body\":\"cut", "{}", "{\"body\":\"\xff quuxrefused\"}", "[]",
    };
    for (size_t i = 0; i < sizeof bad_reply_raws / sizeof bad_reply_raws[0]; i++)
        assert_int_equal(call_raw("POST", path_fmt(path, sizeof path, "/api/forum/threads/%lld",
                                                   (long long)t),
                                  checker, bad_reply_raws[i], NULL),
                         400);
    assert_int_equal(posts_of(t), 1);
    refused(400, "POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/edit", (long long)p2),
            checker, json_pack("{s:s}", "body", long_body), err);
    assert_non_null(strstr(err, "body"));
    refused(400, "POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/edit", (long long)p2),
            checker, json_pack("{s:s, s:s}", "body", "fine", "title", long_title), err);
    assert_non_null(strstr(err, "title"));
    char *h = post_html(t2, p2, NULL);
    assert_non_null(strstr(h, "quuxaccepted"));
    free(h);
    json_t *r = search(W, NULL);
    assert_int_equal(json_array_size(json_object_get(r, "results")), 0);
    json_decref(r);
    free(long_title);
    free(e_title);
    free(e_title_ok);
    free(z_title);
    free(long_body);
    free(euro_body);
    free(body_edge);
}

/* --- search ---------------------------------------------------------------- */

/* Every word, each a prefix; hostile FTS syntax is only text (200). */
static void test_search_finds_word_prefixes_and_takes_any_query(void **state)
{
    (void)state;
    char ivy[80];
    signup("ivy", ivy);
    json_int_t p;
    json_int_t t = new_thread(ivy, "general", "Zanzibar notes",
                              "The zanzibarian flotilla sails at dawn", &p);
    static const char *const hits[] = { "zanzib", "zanzib flot", "flot zanzib", "zanzibarian",
                                        "zanzib\"", "\"zanzib", "zanzib*", "(zanzib)",
                                        "zanzib: flot" };
    for (size_t i = 0; i < sizeof hits / sizeof hits[0]; i++) {
        json_t *r = search(hits[i], NULL);
        if (!found_post(r, p))
            fail_msg("search '%s' does not find the post", hits[i]);
        assert_string_equal(json_string_value(json_object_get(r, "query")), hits[i]);
        assert_int_equal(jint(r, "page"), 1);
        assert_true(jint(r, "pages") >= 1);
        json_decref(r);
    }
    json_t *r = search("zanzib", NULL);
    json_t *hit = json_array_get(json_object_get(r, "results"), 0);
    assert_int_equal(jint(hit, "post"), p);
    json_t *th = json_object_get(hit, "thread");
    assert_int_equal(jint(th, "id"), t);
    assert_string_equal(json_string_value(json_object_get(th, "title")), "Zanzibar notes");
    assert_string_equal(json_string_value(json_object_get(th, "category")), "general");
    assert_string_equal(name_of(json_object_get(hit, "author")), "ivy");
    jint(hit, "created");
    const char *snip = json_string_value(json_object_get(hit, "snippet"));
    assert_non_null(snip);
    assert_true(holds_ci(snip, strlen(snip), "zanzibarian"));
    assert_null(strchr(snip, '<'));   /* plain text */
    json_decref(r);
    /* every word must be there, and each is a prefix, not a part */
    static const char *const misses[] = { "zanzib nonexistentwordxyz", "anzibarian", "flotillas" };
    for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++) {
        r = search(misses[i], NULL);
        if (found_post(r, p))
            fail_msg("search '%s' finds the post", misses[i]);
        json_decref(r);
    }
    static const char *const hostile[] = {
        "\"", "NEAR(", "*", "a OR", ")", "(", "NOT", "AND zanzib", "^", ":", "title:zanzib",
        "''", "%", "\\", "{", "-", "\"\"\"", "zanzib NEAR(flot", "a OR b AND NOT c", "",
        "\xe2\x82\xac\xe2\x82\xac", "*zanzib*", "NEAR(zanzib flot, 2)",
    };
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        r = search(hostile[i], NULL);
        assert_true(json_is_array(json_object_get(r, "results")));
        json_decref(r);
    }
    r = search("", NULL);
    assert_int_equal(json_array_size(json_object_get(r, "results")), 0);
    json_decref(r);
    char *huge = repeat("zanzib ", 40), path[600];   /* the test client's paths: < 560 bytes */
    url_encode(huge, path, sizeof path);
    free(huge);
    char full[700];
    json_t *j = NULL;
    int st = call_raw("GET", path_fmt(full, sizeof full, "/api/forum/search?q=%s", path), NULL,
                      NULL, &j);
    assert_true(st == 200 || st == 400 || st == 414);
    json_decref(j);
}

/* --- Markdown ---------------------------------------------------------------- */

static void test_markdown_runs_nothing(void **state)
{
    (void)state;
    char jay[80];
    signup("jay", jay);
    json_int_t p;
    json_int_t t = new_thread(jay, "general", "Tricks",
                              "<script>alert(1)</script>\n\n"
                              "<img src=x onerror=alert(1)>\n\n"
                              "[x](javascript:alert(1)) [y](JaVaScRiPt:alert(2)) "
                              "<javascript:alert(3)> [v](vbscript:msgbox) "
                              "[d](data:text/html;base64,PHNjcmlwdD4=)\n\n"
                              "<a href=\"javascript:alert(4)\" onclick=\"alert(5)\">raw</a>\n\n"
                              "[ok](https://example.org/page) [mail](mailto:someone@example.org) "
                              "[home](/ladder/rampart)\n\n"
                              "![pic](https://example.org/p.png)\n\n"
                              "<iframe src=\"https://example.org\"></iframe> "
                              "<style>body{display:none}</style>",
                              &p);
    char *h = post_html(t, p, NULL);
    assert_false(holds_ci(h, strlen(h), "<script"));
    assert_false(holds_ci(h, strlen(h), "<iframe"));
    assert_false(holds_ci(h, strlen(h), "<style"));
    assert_false(holds_ci(h, strlen(h), "<img"));
    assert_false(tag_holds(h, "onerror"));
    assert_false(tag_holds(h, "onclick"));
    assert_false(href_holds(h, "javascript"));
    assert_false(href_holds(h, "vbscript"));
    assert_false(href_holds(h, "data:"));
    /* raw HTML is shown as the text it is */
    assert_non_null(strstr(h, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_non_null(strstr(h, "&lt;img src=x onerror=alert(1)&gt;"));
    /* good links stay, marked */
    char tag[400], label[400];
    assert_true(anchor(h, "https://example.org/page", tag, sizeof tag, label, sizeof label));
    assert_non_null(strstr(tag, "rel=\"nofollow ugc\""));
    assert_string_equal(label, "ok");
    assert_true(anchor(h, "mailto:someone@example.org", tag, sizeof tag, label, sizeof label));
    assert_non_null(strstr(tag, "rel=\"nofollow ugc\""));
    assert_true(anchor(h, "/ladder/rampart", tag, sizeof tag, label, sizeof label));
    /* an image becomes a link to it */
    assert_true(anchor(h, "https://example.org/p.png", tag, sizeof tag, label, sizeof label));
    assert_non_null(strstr(tag, "rel=\"nofollow ugc\""));
    free(h);
}

/* `game N`, `game #N` and a /review/N URL become links to the review,
 * labelled with its players and result; @name links to the player and
 * tells them (a `mention`). */
static void test_games_and_players_named_in_posts(void **state)
{
    (void)state;
    char gw[80], hk[80], kim[80], carol[80];
    signup("gwen", gw);
    signup("hank", hk);
    signup("kim", kim);
    signup("carol", carol);
    ws_conn *a = connect_as(gw, NULL), *b = connect_as(hk, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\"", &d);
    int gwen_side = d.side[0] == a ? 0 : 1;
    send_fmt(a, "{\"type\":\"resign\",\"game\":%lld}", (long long)d.game);
    json_t *end = ws_expect(b, "end", WAIT);
    assert_non_null(end);
    json_decref(end);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
    ws_conn *cc = connect_as(carol, NULL);

    char review[64], forms[3][200];
    snprintf(review, sizeof review, "/review/%lld", (long long)d.game);
    snprintf(forms[0], sizeof forms[0], "What a finish in game %lld!", (long long)d.game);
    snprintf(forms[1], sizeof forms[1], "See game #%lld again.", (long long)d.game);
    snprintf(forms[2], sizeof forms[2], "Link: http://%s:%d/review/%lld", HOST, server.port,
             (long long)d.game);
    json_int_t t = new_thread(kim, "rampart", "Games to review", forms[0], NULL);
    for (int k = 0; k < 3; k++) {
        json_int_t p;
        if (k == 0) {
            json_t *page = thread_page(t, 1, NULL);
            p = jint(json_array_get(json_object_get(page, "posts"), 0), "id");
            json_decref(page);
        } else {
            p = reply_to(kim, t, forms[k]);
        }
        char *h = post_html(t, p, NULL);
        char tag[400], label[400];
        if (!anchor(h, review, tag, sizeof tag, label, sizeof label))
            fail_msg("'%s' has no link to %s: %s", forms[k], review, h);
        /* the label: the link's text, and what follows it up to the next tag */
        const char *after = strstr(strstr(h, tag) + strlen(tag), "</a>") + 4;
        snprintf(label + strlen(label), sizeof label - strlen(label), " %.*s",
                 (int)strcspn(after, "<"), after);
        if (!strstr(label, "gwen") || !strstr(label, "hank") ||
            !strstr(label, gwen_side == 0 ? "0-1" : "1-0"))
            fail_msg("the link to %s is not labelled with both players and the result "
                     "(%s): %s", review, gwen_side == 0 ? "0-1" : "1-0", h);
        free(h);
    }

    json_int_t p = reply_to(kim, t, "Thanks @carol, and hello @nobodyhere.");
    char *h = post_html(t, p, NULL);
    assert_true(href_holds(h, "carol"));
    assert_false(href_holds(h, "nobodyhere"));
    assert_non_null(strstr(h, "@nobodyhere"));
    free(h);
    json_t *n = ws_expect(cc, "notify", WAIT);
    assert_non_null(n);
    json_t *note = json_object_get(n, "notification");
    assert_string_equal(json_string_value(json_object_get(note, "kind")), "mention");
    assert_string_equal(name_of(json_object_get(note, "from")), "kim");
    assert_int_equal(jint(note, "thread"), t);
    assert_int_equal(jint(note, "post"), p);
    assert_string_equal(json_string_value(json_object_get(note, "title")), "Games to review");
    assert_true(json_is_false(json_object_get(note, "read")));
    assert_int_equal(jint(n, "unread"), 1);
    json_decref(n);
    json_t *list = get_json("/api/notifications", carol, 200);
    assert_int_equal(jint(list, "unread"), 1);
    assert_int_equal(json_array_size(json_object_get(list, "notifications")), 1);
    json_decref(list);
    ws_close(cc);
}

/* --- notifications --------------------------------------------------------------- */

/* A reply tells the thread's author, at once on every connection of
 * theirs and in their list, unless they wrote it; reading clears it. */
static void test_replies_notify_the_author(void **state)
{
    (void)state;
    char nora[80], olaf[80];
    signup("nora", nora);
    signup("olaf", olaf);
    ws_conn *c1 = connect_as(nora, NULL), *c2 = connect_as(nora, NULL);
    json_int_t t = new_thread(nora, "general", "Nora asks", "anyone?", NULL);
    json_int_t r1 = reply_to(olaf, t, "olaf answers");
    ws_conn *cs[2] = { c1, c2 };
    json_int_t first_id = 0;
    for (int k = 0; k < 2; k++) {
        json_t *n = ws_expect(cs[k], "notify", WAIT);
        assert_non_null(n);
        json_t *note = json_object_get(n, "notification");
        assert_string_equal(json_string_value(json_object_get(note, "kind")), "reply");
        assert_string_equal(name_of(json_object_get(note, "from")), "olaf");
        assert_int_equal(jint(note, "thread"), t);
        assert_int_equal(jint(note, "post"), r1);
        assert_string_equal(json_string_value(json_object_get(note, "title")), "Nora asks");
        assert_true(json_is_false(json_object_get(note, "read")));
        jint(note, "created");
        assert_int_equal(jint(n, "unread"), 1);
        first_id = jint(note, "id");
        json_decref(n);
    }
    reply_to(nora, t, "nora replies to herself");
    json_int_t r2 = reply_to(olaf, t, "olaf again");
    json_t *n = ws_expect(c1, "notify", WAIT);   /* the next one is olaf's, not nora's own */
    assert_non_null(n);
    assert_int_equal(jint(json_object_get(n, "notification"), "post"), r2);
    assert_int_equal(jint(n, "unread"), 2);
    json_decref(n);

    json_t *list = get_json("/api/notifications", nora, 200);
    assert_int_equal(jint(list, "unread"), 2);
    json_t *notes = json_object_get(list, "notifications");
    assert_int_equal(json_array_size(notes), 2);
    assert_int_equal(jint(json_array_get(notes, 0), "post"), r2);   /* newest first */
    assert_int_equal(jint(json_array_get(notes, 1), "id"), first_id);
    json_decref(list);
    list = get_json("/api/notifications", olaf, 200);
    assert_int_equal(jint(list, "unread"), 0);
    assert_int_equal(json_array_size(json_object_get(list, "notifications")), 0);
    json_decref(list);

    /* read up to the first: one left; then all */
    json_t *ok = ok_call("POST", "/api/notifications/read", nora,
                         json_pack("{s:I}", "upto", (json_int_t)first_id));
    assert_true(json_is_true(json_object_get(ok, "ok")));
    json_decref(ok);
    list = get_json("/api/notifications", nora, 200);
    assert_int_equal(jint(list, "unread"), 1);
    notes = json_object_get(list, "notifications");
    assert_true(json_is_false(json_object_get(json_array_get(notes, 0), "read")));
    assert_true(json_is_true(json_object_get(json_array_get(notes, 1), "read")));
    json_decref(list);
    ok = ok_call("POST", "/api/notifications/read", nora, json_object());
    json_decref(ok);
    list = get_json("/api/notifications", nora, 200);
    assert_int_equal(jint(list, "unread"), 0);
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(list, "notifications"), i, x)
        assert_true(json_is_true(json_object_get(x, "read")));
    json_decref(list);
    ws_close(c1);
    ws_close(c2);
}

/* --- bad input, other sites -------------------------------------------------------- */

static void test_bad_ids_are_refused_never_failed(void **state)
{
    (void)state;
    char lea[80], path[256];
    signup("lea", lea);
    static const char *const ids[] = { "abc", "-1", "99999999999999999999", "1.5", "0x10",
                                       "12abc", "0", "9223372036854775808", "1e3" };
    /* "%00" in a path is refused before any route (test_transport.c) */
    static const char *const forms[][2] = { { "/api/forum/threads/", "" },
                                            { "/api/forum/posts/", "/edit" },
                                            { "/api/forum/posts/", "/delete" } };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        int st = call("GET", path_fmt(path, sizeof path, "/api/forum/threads/%s", ids[i]), lea,
                      NULL, NULL);
        if (st != 400 && st != 404)
            fail_msg("GET %s: %d", path, st);
        for (size_t f = 0; f < 3; f++) {
            path_fmt(path, sizeof path, "%s%s%s", forms[f][0], ids[i], forms[f][1]);
            st = call("POST", path, lea, json_pack("{s:s}", "body", "to nowhere"), NULL);
            if (st != 400 && st != 404)
                fail_msg("POST %s: %d", path, st);
        }
    }
    refused(404, "GET", "/api/forum/threads/999999", lea, NULL, NULL);
    refused(404, "POST", "/api/forum/threads/999999", lea, json_pack("{s:s}", "body", "x"), NULL);
    refused(404, "POST", "/api/forum/posts/999999/edit", lea, json_pack("{s:s}", "body", "x"),
            NULL);
    refused(404, "POST", "/api/forum/posts/999999/delete", lea, NULL, NULL);
    refused(404, "POST", "/api/forum/nosuchcategory", lea,
            json_pack("{s:s, s:s}", "title", "Lost", "body", "nowhere"), NULL);
    static const char *const pages[] = { "abc", "-1", "0", "99999999999999999999", "1e9" };
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        int st = call("GET", path_fmt(path, sizeof path, "/api/forum/general?page=%s", pages[i]),
                      NULL, NULL, NULL);
        assert_true(st == 200 || st == 400);
        st = call("GET", path_fmt(path, sizeof path, "/api/forum/search?q=a&page=%s", pages[i]),
                  NULL, NULL, NULL);
        assert_true(st == 200 || st == 400);
    }
}

/* Another site's page cannot post for a visitor (403, nothing made); the
 * server's own page can. A body that is not application/json: 415. */
static void test_cross_site_posts_are_refused(void **state)
{
    (void)state;
    char max[80], path[256];
    signup("maxine", max);
    json_int_t t = new_thread(max, "general", "Origins", "home", NULL);
    int threads0, posts0;
    board_totals(&threads0, &posts0);
    client_headers("Origin: http://evil.example\r\n");
    refused(403, "POST", "/api/forum/general", max,
            json_pack("{s:s, s:s}", "title", "Evil", "body", "quuxevil"), NULL);
    refused(403, "POST", path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t), max,
            json_pack("{s:s}", "body", "quuxevil"), NULL);
    json_t *page = thread_page(t, 1, max);
    json_int_t p0 = jint(json_array_get(json_object_get(page, "posts"), 0), "id");
    json_decref(page);
    refused(403, "POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/edit", (long long)p0),
            max, json_pack("{s:s}", "body", "quuxevil"), NULL);
    refused(403, "POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/delete", (long long)p0),
            max, NULL, NULL);
    refused(403, "POST", "/api/notifications/read", max, json_object(), NULL);
    client_headers(NULL);
    int threads1, posts1;
    board_totals(&threads1, &posts1);
    assert_int_equal(threads1, threads0);
    assert_int_equal(posts1, posts0);
    json_t *r = search("quuxevil", NULL);
    assert_int_equal(json_array_size(json_object_get(r, "results")), 0);
    json_decref(r);
    char *h = post_html(t, p0, NULL);
    assert_non_null(strstr(h, "home"));
    free(h);

    char own[128];
    snprintf(own, sizeof own, "Origin: http://%s:%d\r\n", HOST, server.port);
    client_headers(own);
    reply_to(max, t, "from the server's own page");
    client_headers(NULL);
    assert_int_equal(posts_of(t), 2);

    char req[1024], *raw = NULL;
    size_t len = 0;
    const char *body = "{\"title\":\"Plain\",\"body\":\"quuxplain\"}";
    int n = snprintf(req, sizeof req,
                     "POST /api/forum/general HTTP/1.1\r\nHost: %s:%d\r\nConnection: close\r\n"
                     "Cookie: citadel_session=%s\r\nContent-Type: text/plain\r\n"
                     "Content-Length: %zu\r\n\r\n%s",
                     HOST, server.port, max, strlen(body), body);
    assert_true(http_raw(HOST, server.port, req, (size_t)n, &raw, &len, 5000) >= 0);
    http_resp resp;
    assert_int_equal(http_parse(raw, len, &resp), 0);
    assert_int_equal(resp.status, 415);
    http_resp_free(&resp);
    free(raw);
    board_totals(&threads1, &posts1);
    assert_int_equal(threads1, threads0);
}

/* --- the board's quotas ----------------------------------------------------------- */

/* posts-per-hour counts an account's threads and replies; past it 429 and
 * nothing made; other accounts still post. */
static void test_posts_per_hour(void **state)
{
    (void)state;
    server_proc saved;
    fixture_own_server(&saved, NO_LIMITS " --limit posts-per-hour=3");
    char pat[80], quinn[80], path[128];
    signup("pat", pat);
    signup("quinn", quinn);
    json_int_t t = new_thread(pat, "general", "Counting", "one", NULL);
    reply_to(pat, t, "two");
    reply_to(pat, t, "three");
    refused(429, "POST", path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t), pat,
            json_pack("{s:s}", "body", "four"), NULL);
    refused(429, "POST", "/api/forum/general", pat,
            json_pack("{s:s, s:s}", "title", "Another", "body", "five"), NULL);
    assert_int_equal(posts_of(t), 3);
    int threads, posts;
    board_totals(&threads, &posts);
    assert_int_equal(threads, 1);
    reply_to(quinn, t, "quinn is not pat");
    assert_int_equal(posts_of(t), 4);
    fixture_own_end(&saved);
}

/* Accounts less than a day old have new-account-posts-per-hour. */
static void test_new_account_posts_per_hour(void **state)
{
    (void)state;
    server_proc saved;
    fixture_own_server(&saved, NO_LIMITS " --limit new-account-posts-per-hour=2");
    char ray[80], path[128];
    signup("ray", ray);
    json_int_t t = new_thread(ray, "general", "New here", "one", NULL);
    reply_to(ray, t, "two");
    refused(429, "POST", path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t), ray,
            json_pack("{s:s}", "body", "three"), NULL);
    assert_int_equal(posts_of(t), 2);
    fixture_own_end(&saved);
}

static void test_searches_per_minute(void **state)
{
    (void)state;
    server_proc saved;
    fixture_own_server(&saved, NO_LIMITS " --limit searches-per-minute=3");
    for (int i = 0; i < 3; i++)
        json_decref(search("anything", NULL));
    refused(429, "GET", "/api/forum/search?q=anything", NULL, NULL, NULL);
    fixture_own_end(&saved);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_categories_are_listed),
        cmocka_unit_test(test_players_post_guests_and_visitors_read),
        cmocka_unit_test(test_lists_come_twenty_a_page),
        cmocka_unit_test(test_threads_come_newest_activity_first),
        cmocka_unit_test(test_edit_and_delete_are_the_authors),
        cmocka_unit_test(test_texts_are_checked_and_refusals_store_nothing),
        cmocka_unit_test(test_search_finds_word_prefixes_and_takes_any_query),
        cmocka_unit_test(test_markdown_runs_nothing),
        cmocka_unit_test(test_games_and_players_named_in_posts),
        cmocka_unit_test(test_replies_notify_the_author),
        cmocka_unit_test(test_bad_ids_are_refused_never_failed),
        cmocka_unit_test(test_cross_site_posts_are_refused),
        cmocka_unit_test(test_posts_per_hour),
        cmocka_unit_test(test_new_account_posts_per_hour),
        cmocka_unit_test(test_searches_per_minute),
    };
    return fixture_run_group(tests, &fixture);
}
