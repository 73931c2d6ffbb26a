/* store_forum.c -- community.h's message board, on either backend (db.h):
 * its threads and posts, and their search (store.c tells the design;
 * schema 4 made the tables).
 *
 * Nothing here is ever deleted: an author's deletion and a moderator's
 * hiding set flags, and the lists for players leave the flagged rows out.
 *
 * The invariants, each kept by the one transaction that changes the rows:
 *   - forum_threads.posts is the number of the thread's posts that are
 *     neither hidden nor deleted;
 *   - forum_threads.first_post is the id of its opening post, and a thread
 *     whose opening post is deleted is deleted too;
 *   - forum_search has exactly one row per post, holding what the view
 *     forum_text gives for it (its body and, for an opening post, the
 *     thread's title). forum_search is an external-content FTS5 table, so
 *     a row leaves the index with the very text it went in with: every
 *     change of a body or a title takes the row out before the change and
 *     puts it back after. On PostgreSQL the index is the column
 *     forum_posts.search, rewritten from forum_text after each change.
 *     Flagged posts stay in the index; the search leaves them out as the
 *     lists do.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

#include "community.h"
#include "store_int.h"

#define SEARCH_WORDS 10     /* words of a search that count */
#define SEARCH_MAX 1000     /* hits a search counts and pages through */

/* --- statements --------------------------------------------------------- */

#define THREAD_COLS                                                                     \
    "t.id, t.category, t.title, t.author, coalesce(a.name, ''), t.created, t.last_post, " \
    "t.posts, t.locked, t.hidden, t.deleted, t.first_post "                              \
    "FROM forum_threads t LEFT JOIN players a ON a.id = t.author"
#define POST_COLS                                                                       \
    "p.id, p.thread, p.author, coalesce(a.name, ''), p.created, p.edited, p.hidden, "    \
    "p.deleted, p.body FROM forum_posts p LEFT JOIN players a ON a.id = p.author"
#define THREAD_VISIBLE "t.hidden = 0 AND t.deleted = 0"
#define POST_VISIBLE "p.hidden = 0 AND p.deleted = 0"
#define SEARCH_FROM                                                                     \
    "FROM forum_search f JOIN forum_posts p ON p.id = f.rowid "                         \
    "JOIN forum_threads t ON t.id = p.thread "                                          \
    "WHERE forum_search MATCH ?1 AND " POST_VISIBLE " AND " THREAD_VISIBLE

static const char *const sql[FS_COUNT] = {
    [FS_THREAD_ADD] = "INSERT INTO forum_threads (category, title, author, created, last_post, "
                      "posts) VALUES (?1, ?2, ?3, ?4, ?4, 1) RETURNING id",
    [FS_POST_ADD] = "INSERT INTO forum_posts (thread, author, created, body) "
                    "VALUES (?1, ?2, ?3, ?4) RETURNING id",
    [FS_THREAD_FIRST] = "UPDATE forum_threads SET first_post = ?2 WHERE id = ?1",
    [FS_INDEX_ADD] = "INSERT INTO forum_search (rowid, title, body) "
                     "SELECT id, title, body FROM forum_text WHERE id = ?1",
    [FS_INDEX_DEL] = "INSERT INTO forum_search (forum_search, rowid, title, body) "
                     "SELECT 'delete', id, title, body FROM forum_text WHERE id = ?1",
    [FS_THREAD_BUMP] = "UPDATE forum_threads SET last_post = ?2, posts = posts + 1 "
                       "WHERE id = ?1",
    [FS_POST_EDIT] = "UPDATE forum_posts SET body = ?2, edited = ?3 WHERE id = ?1",
    [FS_THREAD_FIRST_OF] = "SELECT first_post FROM forum_threads WHERE id = ?1",
    [FS_THREAD_RETITLE] = "UPDATE forum_threads SET title = ?2 WHERE id = ?1",
    /* before the post is flagged: the count loses it if it was visible */
    [FS_POST_UNCOUNT] = "UPDATE forum_threads SET posts = posts - 1 WHERE id = "
                        "(SELECT thread FROM forum_posts WHERE id = ?1 AND hidden = 0 "
                        "AND deleted = 0)",
    [FS_POST_DELETE] = "UPDATE forum_posts SET deleted = 1 WHERE id = ?1",
    [FS_THREAD_DELETE_IF_FIRST] = "UPDATE forum_threads SET deleted = 1 WHERE id = "
                                  "(SELECT thread FROM forum_posts WHERE id = ?1) "
                                  "AND first_post = ?1",
    /* before hidden becomes ?2: the count changes if the post's visibility does */
    [FS_POST_RECOUNT] = "UPDATE forum_threads SET posts = posts + "
                        "(CASE WHEN ?2 != 0 THEN -1 ELSE 1 END) WHERE id = "
                        "(SELECT thread FROM forum_posts WHERE id = ?1 AND deleted = 0 "
                        "AND hidden != ?2)",
    [FS_POST_HIDE] = "UPDATE forum_posts SET hidden = ?2 WHERE id = ?1",
    [FS_THREAD_HIDE] = "UPDATE forum_threads SET hidden = ?2 WHERE id = ?1",
    [FS_THREAD_LOCK] = "UPDATE forum_threads SET locked = ?2 WHERE id = ?1",
    [FS_THREAD_GET] = "SELECT " THREAD_COLS " WHERE t.id = ?1",
    [FS_POST_GET] = "SELECT " POST_COLS " WHERE p.id = ?1",
    [FS_THREADS_ALL] = "SELECT " THREAD_COLS " WHERE " THREAD_VISIBLE
                       " ORDER BY t.last_post DESC, t.id DESC LIMIT ?1 OFFSET ?2",
    [FS_THREADS_CAT] = "SELECT " THREAD_COLS " WHERE t.category = ?3 AND " THREAD_VISIBLE
                       " ORDER BY t.last_post DESC, t.id DESC LIMIT ?1 OFFSET ?2",
    [FS_THREADS_ALL_COUNT] = "SELECT count(*) FROM forum_threads t WHERE " THREAD_VISIBLE,
    [FS_THREADS_CAT_COUNT] = "SELECT count(*) FROM forum_threads t WHERE t.category = ?1 AND "
                             THREAD_VISIBLE,
    [FS_POSTS] = "SELECT " POST_COLS " WHERE p.thread = ?1 AND " POST_VISIBLE
                 " AND EXISTS (SELECT 1 FROM forum_threads t WHERE t.id = ?1 AND "
                 THREAD_VISIBLE ") ORDER BY p.id LIMIT ?2 OFFSET ?3",
    [FS_POSTS_COUNT] = "SELECT count(*) FROM forum_posts p WHERE p.thread = ?1 AND "
                       POST_VISIBLE " AND EXISTS (SELECT 1 FROM forum_threads t "
                       "WHERE t.id = ?1 AND " THREAD_VISIBLE ")",
    [FS_POST_INDEX] = "SELECT count(*) FROM forum_posts p WHERE p.thread = ?1 AND p.id < ?2 "
                      "AND " POST_VISIBLE,
    [FS_CATEGORY] = "SELECT count(*), coalesce(sum(t.posts), 0), coalesce(max(t.last_post), 0) "
                    "FROM forum_threads t WHERE t.category = ?1 AND " THREAD_VISIBLE,
    /* the snippet: up to 16 words of the body around the best match */
    [FS_SEARCH] = "SELECT p.id, p.thread, t.category, t.title, p.author, "
                  "coalesce((SELECT name FROM players WHERE id = p.author), ''), p.created, "
                  "snippet(forum_search, 1, char(1), char(2), '\xe2\x80\xa6', 16) " SEARCH_FROM
                  " ORDER BY f.rank, p.id DESC LIMIT ?2 OFFSET ?3",
    [FS_SEARCH_COUNT] = "SELECT count(*) FROM (SELECT 1 " SEARCH_FROM " LIMIT ?2) AS hits",
};

/* PostgreSQL's search: forum_posts.search holds each post's words (its
 * body and, for an opening post, the thread's title), set from forum_text
 * by FS_INDEX_ADD and read through a GIN index; ?1 is a tsquery (match_of). */
#define SEARCH_FROM_PG                                                                   \
    "FROM forum_posts p JOIN forum_threads t ON t.id = p.thread, "                       \
    "to_tsquery('simple', ?1) AS query "                                                 \
    "WHERE p.search @@ query AND " POST_VISIBLE " AND " THREAD_VISIBLE

static const char *const sql_pg[FS_COUNT] = {
    [FS_INDEX_ADD] = "UPDATE forum_posts SET search = (SELECT to_tsvector('simple', "
                     "f.title || ' ' || f.body) FROM forum_text f WHERE f.id = ?1) "
                     "WHERE id = ?1",
    /* nothing to take out: FS_INDEX_ADD rewrites the post's words */
    [FS_INDEX_DEL] = "SELECT 1 WHERE ?1::bigint IS NULL",
    [FS_SEARCH] = "SELECT p.id, p.thread, t.category, t.title, p.author, "
                  "coalesce((SELECT name FROM players WHERE id = p.author), ''), p.created, "
                  "ts_headline('simple', p.body, query, 'StartSel=\"' || chr(1) || "
                  "'\", StopSel=\"' || chr(2) || '\", MaxWords=16, MinWords=8') "
                  SEARCH_FROM_PG " ORDER BY ts_rank(p.search, query) DESC, p.id DESC "
                  "LIMIT ?2 OFFSET ?3",
    [FS_SEARCH_COUNT] = "SELECT count(*) FROM (SELECT 1 " SEARCH_FROM_PG " LIMIT ?2) AS hits",
};

int store_forum_prepare(store *s, store_err *err)
{
    return prepare_each(s, sql, sql_pg, s->fst, FS_COUNT, "forum", err);
}

static dbq *fs(store *s, int id)
{
    return q_fresh(s->fst[id]);
}

/* Runs statement id on one row: ?1 = row. */
static int run_on(store *s, int id, int64_t row, store_err *err, const char *what)
{
    dbq *st = fs(s, id);
    q_int64(st, 1, row);
    return step_done(s, st, err, what);
}

/* A failed INSERT naming a player: says which way it failed. */
static int insert_fail(store *s, int rc, int64_t author, store_err *err, const char *what)
{
    if (rc == DB_FOREIGN)
        return fail(err, "%s: no player %lld", what, (long long)author);
    return db_fail(s, err, what);
}

static void read_thread(dbq *st, store_thread *t)
{
    memset(t, 0, sizeof *t);
    t->id = q_col_int64(st, 0);
    column_text(st, 1, t->category, sizeof t->category);
    column_text(st, 2, t->title, sizeof t->title);
    t->author = q_col_int64(st, 3);
    column_text(st, 4, t->author_name, sizeof t->author_name);
    t->created = q_col_int64(st, 5);
    t->last_post = q_col_int64(st, 6);
    t->posts = q_col_int(st, 7);
    t->locked = q_col_int(st, 8);
    t->hidden = q_col_int(st, 9);
    t->deleted = q_col_int(st, 10);
    t->first_post = q_col_int64(st, 11);
}

static void read_post(dbq *st, store_post *p)
{
    memset(p, 0, sizeof *p);
    p->id = q_col_int64(st, 0);
    p->thread = q_col_int64(st, 1);
    p->author = q_col_int64(st, 2);
    column_text(st, 3, p->author_name, sizeof p->author_name);
    p->created = q_col_int64(st, 4);
    p->edited = q_col_int64(st, 5);
    p->hidden = q_col_int(st, 6);
    p->deleted = q_col_int(st, 7);
    column_text(st, 8, p->body, sizeof p->body);
}

/* --- writing ------------------------------------------------------------ */

int store_thread_add(store *s, const char *category, const char *title, int64_t author,
                     const char *body, int64_t now, int64_t *thread, int64_t *post,
                     store_err *err)
{
    assert(s && category && title && body);
    if (!category[0] || !fits(category, STORE_CATEGORY_MAX))
        return fail(err, "a category has 1 to %d bytes", STORE_CATEGORY_MAX);
    if (!fits(title, STORE_TITLE_MAX))
        return fail(err, "a title has at most %d bytes", STORE_TITLE_MAX);
    if (!fits(body, STORE_POST_MAX))
        return fail(err, "a post has at most %d bytes", STORE_POST_MAX);
    store_write_begin(s, "add thread");
    if (begin(s, err, "add thread") != 0)
        return -1;
    dbq *st = fs(s, FS_THREAD_ADD);
    q_text(st, 1, category);
    q_text(st, 2, title);
    bind_player(st, 3, author);
    q_int64(st, 4, now);
    int rc = q_step(st);
    int64_t tid = rc == DB_ROW ? q_col_int64(st, 0) : 0;
    q_done(st);
    if (rc != DB_ROW) {
        insert_fail(s, rc, author, err, "add thread");
        return rollback(s);
    }
    st = fs(s, FS_POST_ADD);
    q_int64(st, 1, tid);
    bind_player(st, 2, author);
    q_int64(st, 3, now);
    q_text(st, 4, body);
    rc = q_step(st);
    int64_t pid = rc == DB_ROW ? q_col_int64(st, 0) : 0;
    q_done(st);
    if (rc != DB_ROW) {
        insert_fail(s, rc, author, err, "add thread: its post");
        return rollback(s);
    }
    st = fs(s, FS_THREAD_FIRST);
    q_int64(st, 1, tid);
    q_int64(st, 2, pid);
    if (step_done(s, st, err, "add thread") != 0 ||
        run_on(s, FS_INDEX_ADD, pid, err, "add thread: index") != 0)
        return rollback(s);
    if (commit(s, err, "add thread") != 0)
        return -1;
    if (thread)
        *thread = tid;
    if (post)
        *post = pid;
    return 0;
}

int store_post_add(store *s, int64_t thread, int64_t author, const char *body, int64_t now,
                   int64_t *post, store_err *err)
{
    assert(s && body);
    if (!fits(body, STORE_POST_MAX))
        return fail(err, "a post has at most %d bytes", STORE_POST_MAX);
    store_write_begin(s, "add post");
    if (begin(s, err, "add post") != 0)
        return -1;
    dbq *st = fs(s, FS_THREAD_BUMP);
    q_int64(st, 1, thread);
    q_int64(st, 2, now);
    int rc = update_one(s, st, err, "add post");
    if (rc != 0) {
        rollback(s);
        if (rc == STORE_NOT_FOUND)
            fail(err, "add post: no thread %lld", (long long)thread);
        return rc;
    }
    st = fs(s, FS_POST_ADD);
    q_int64(st, 1, thread);
    bind_player(st, 2, author);
    q_int64(st, 3, now);
    q_text(st, 4, body);
    rc = q_step(st);
    int64_t pid = rc == DB_ROW ? q_col_int64(st, 0) : 0;
    q_done(st);
    if (rc != DB_ROW) {
        insert_fail(s, rc, author, err, "add post");
        return rollback(s);
    }
    if (run_on(s, FS_INDEX_ADD, pid, err, "add post: index") != 0)
        return rollback(s);
    if (commit(s, err, "add post") != 0)
        return -1;
    if (post)
        *post = pid;
    return 0;
}

int store_post_edit(store *s, int64_t post, const char *body, int64_t now, store_err *err)
{
    assert(s && body);
    if (!fits(body, STORE_POST_MAX))
        return fail(err, "a post has at most %d bytes", STORE_POST_MAX);
    store_write_begin(s, "edit post");
    if (begin(s, err, "edit post") != 0)
        return -1;
    if (run_on(s, FS_INDEX_DEL, post, err, "edit post: index") != 0)
        return rollback(s);
    dbq *st = fs(s, FS_POST_EDIT);
    q_int64(st, 1, post);
    q_text(st, 2, body);
    q_int64(st, 3, now);
    int rc = update_one(s, st, err, "edit post");
    if (rc != 0) {
        rollback(s);
        return rc;
    }
    if (run_on(s, FS_INDEX_ADD, post, err, "edit post: index") != 0)
        return rollback(s);
    return commit(s, err, "edit post");
}

int store_thread_retitle(store *s, int64_t thread, const char *title, store_err *err)
{
    assert(s && title);
    if (!fits(title, STORE_TITLE_MAX))
        return fail(err, "a title has at most %d bytes", STORE_TITLE_MAX);
    store_write_begin(s, "retitle thread");
    if (begin(s, err, "retitle thread") != 0)
        return -1;
    dbq *st = fs(s, FS_THREAD_FIRST_OF);
    q_int64(st, 1, thread);
    int rc = q_step(st);
    int64_t first = rc == DB_ROW ? q_col_int64(st, 0) : 0;
    q_done(st);
    if (rc == DB_DONE) {
        rollback(s);
        fail(err, "retitle thread: no thread %lld", (long long)thread);
        return STORE_NOT_FOUND;
    }
    if (rc != DB_ROW) {
        db_fail(s, err, "retitle thread");
        return rollback(s);
    }
    if (run_on(s, FS_INDEX_DEL, first, err, "retitle thread: index") != 0)
        return rollback(s);
    st = fs(s, FS_THREAD_RETITLE);
    q_int64(st, 1, thread);
    q_text(st, 2, title);
    if (step_done(s, st, err, "retitle thread") != 0 ||
        run_on(s, FS_INDEX_ADD, first, err, "retitle thread: index") != 0)
        return rollback(s);
    return commit(s, err, "retitle thread");
}

int store_post_delete(store *s, int64_t post, store_err *err)
{
    assert(s);
    store_write_begin(s, "delete post");
    if (begin(s, err, "delete post") != 0)
        return -1;
    if (run_on(s, FS_POST_UNCOUNT, post, err, "delete post: count") != 0)
        return rollback(s);
    dbq *st = fs(s, FS_POST_DELETE);
    q_int64(st, 1, post);
    int rc = update_one(s, st, err, "delete post");
    if (rc != 0) {
        rollback(s);
        return rc;
    }
    if (run_on(s, FS_THREAD_DELETE_IF_FIRST, post, err, "delete post: its thread") != 0)
        return rollback(s);
    return commit(s, err, "delete post");
}

int store_post_set_hidden(store *s, int64_t post, int hidden, store_err *err)
{
    assert(s);
    store_write_begin(s, "hide post");
    if (begin(s, err, "hide post") != 0)
        return -1;
    for (int k = 0; k < 2; k++) {
        dbq *st = fs(s, k == 0 ? FS_POST_RECOUNT : FS_POST_HIDE);
        q_int64(st, 1, post);
        q_int(st, 2, hidden != 0);
        int rc = k == 0 ? step_done(s, st, err, "hide post: count")
                        : update_one(s, st, err, "hide post");
        if (rc != 0) {
            rollback(s);
            return rc;
        }
    }
    return commit(s, err, "hide post");
}

/* One flag of a thread, in one statement. */
static int thread_flag(store *s, int id, int64_t thread, int value, store_err *err,
                       const char *what)
{
    store_write_begin(s, what);
    dbq *st = fs(s, id);
    q_int64(st, 1, thread);
    q_int(st, 2, value != 0);
    return update_one(s, st, err, what);
}

int store_thread_set_hidden(store *s, int64_t thread, int hidden, store_err *err)
{
    assert(s);
    return thread_flag(s, FS_THREAD_HIDE, thread, hidden, err, "hide thread");
}

int store_thread_set_locked(store *s, int64_t thread, int locked, store_err *err)
{
    assert(s);
    return thread_flag(s, FS_THREAD_LOCK, thread, locked, err, "lock thread");
}

/* --- reading ------------------------------------------------------------ */

int store_thread_get(store *s, int64_t id, store_thread *out, store_err *err)
{
    assert(s && out);
    dbq *st = fs(s, FS_THREAD_GET);
    q_int64(st, 1, id);
    int rc = q_step(st);
    if (rc == DB_ROW)
        read_thread(st, out);
    q_done(st);
    if (rc == DB_DONE) {
        fail(err, "no thread %lld", (long long)id);
        return STORE_NOT_FOUND;
    }
    return rc == DB_ROW ? 0 : db_fail(s, err, "read thread");
}

int store_post_get(store *s, int64_t id, store_post *out, store_err *err)
{
    assert(s && out);
    dbq *st = fs(s, FS_POST_GET);
    q_int64(st, 1, id);
    int rc = q_step(st);
    if (rc == DB_ROW)
        read_post(st, out);
    q_done(st);
    if (rc == DB_DONE) {
        fail(err, "no post %lld", (long long)id);
        return STORE_NOT_FOUND;
    }
    return rc == DB_ROW ? 0 : db_fail(s, err, "read post");
}

int store_threads(store *s, const char *category, int offset, int max, store_thread *out,
                  int *total, store_err *err)
{
    assert(s && category && (out || max <= 0));
    if (!page_ok(offset, max, err))
        return -1;
    if (total)
        *total = 0;
    if (!fits(category, STORE_CATEGORY_MAX))
        return 0;  /* no such category */
    int all = category[0] == '\0';
    if (total) {
        dbq *st = fs(s, all ? FS_THREADS_ALL_COUNT : FS_THREADS_CAT_COUNT);
        if (!all)
            q_text(st, 1, category);
        if (count_of(s, st, total, err, "count threads") != 0)
            return -1;
    }
    dbq *st = fs(s, all ? FS_THREADS_ALL : FS_THREADS_CAT);
    q_int(st, 1, max);
    q_int(st, 2, offset);
    if (!all)
        q_text(st, 3, category);
    int n = 0, rc = DB_DONE;
    while (n < max && (rc = q_step(st)) == DB_ROW)
        read_thread(st, &out[n++]);
    if (n == max)
        rc = DB_DONE;
    q_done(st);
    return rc == DB_DONE ? n : db_fail(s, err, "list threads");
}

int store_posts(store *s, int64_t thread, int offset, int max, store_post *out, int *total,
                store_err *err)
{
    assert(s && (out || max <= 0));
    if (!page_ok(offset, max, err))
        return -1;
    if (total) {
        dbq *st = fs(s, FS_POSTS_COUNT);
        q_int64(st, 1, thread);
        if (count_of(s, st, total, err, "count posts") != 0)
            return -1;
    }
    dbq *st = fs(s, FS_POSTS);
    q_int64(st, 1, thread);
    q_int(st, 2, max);
    q_int(st, 3, offset);
    int n = 0, rc = DB_DONE;
    while (n < max && (rc = q_step(st)) == DB_ROW)
        read_post(st, &out[n++]);
    if (n == max)
        rc = DB_DONE;
    q_done(st);
    return rc == DB_DONE ? n : db_fail(s, err, "list posts");
}

int store_post_index(store *s, int64_t thread, int64_t post, store_err *err)
{
    assert(s);
    dbq *st = fs(s, FS_POST_INDEX);
    q_int64(st, 1, thread);
    q_int64(st, 2, post);
    int n = 0;
    return count_of(s, st, &n, err, "place of a post") != 0 ? -1 : n;
}

int store_categories(store *s, const char *const *names, int n, store_category *out,
                     store_err *err)
{
    assert(s && (n <= 0 || (names && out)));
    if (n < 0)
        return fail(err, "negative number of categories (%d)", n);
    for (int i = 0; i < n; i++) {
        assert(names[i]);
        if (!fits(names[i], STORE_CATEGORY_MAX))
            return fail(err, "a category has at most %d bytes", STORE_CATEGORY_MAX);
        store_category *c = &out[i];
        memset(c, 0, sizeof *c);
        snprintf(c->name, sizeof c->name, "%s", names[i]);
        dbq *st = fs(s, FS_CATEGORY);
        q_text(st, 1, names[i]);
        int rc = q_step(st);
        if (rc == DB_ROW) {
            c->threads = q_col_int(st, 0);
            c->posts = q_col_int(st, 1);
            c->last_post = q_col_int64(st, 2);
        }
        q_done(st);
        if (rc != DB_ROW)
            return db_fail(s, err, "count a category");
    }
    return 0;
}

/* --- search ------------------------------------------------------------- */

/* Bytes of a word: ASCII letters and digits, and every byte of a UTF-8
 * sequence (letters of other scripts; the index's tokenizer sorts out the
 * rest). */
static int word_byte(unsigned char c)
{
    return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z');
}

/* Are the n bytes at p whole UTF-8 characters (no overlong forms, no
 * surrogates)? PostgreSQL refuses any other text. */
static int utf8_ok(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
                   : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (len == 0 || i + len > n)
            return 0;
        unsigned cp = len == 1 ? c : c & (0x7Fu >> len);
        for (size_t k = 1; k < len; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (p[i + k] & 0x3Fu);
        }
        static const unsigned least[] = { 0, 0, 0x80, 0x800, 0x10000 };
        if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += len;
    }
    return 1;
}

/* The search expression for the user's words: each of the first
 * SEARCH_WORDS as a quoted prefix, all of them required; in FTS5's syntax
 * ("word"* "word"*) or, for PostgreSQL, a tsquery's ('word':* & 'word':*).
 * A word holds no quote, so nothing the user writes is read as syntax; for
 * PostgreSQL a word that is not UTF-8 (it could match nothing) is left
 * out. "" if no word; NULL if out of memory. */
static char *match_of(const char *words, int pg)
{
    char *out = malloc(strlen(words) + 7 * SEARCH_WORDS + 1), *at = out;
    if (!out)
        return NULL;
    const unsigned char *p = (const unsigned char *)words;
    for (int n = 0; n < SEARCH_WORDS; n++) {
        while (*p && !word_byte(*p))
            p++;
        if (!*p)
            break;
        const unsigned char *start = p;
        while (word_byte(*p))
            p++;
        if (pg && !utf8_ok(start, (size_t)(p - start))) {
            n--;
            continue;
        }
        if (n && pg)
            at += sprintf(at, " & ");
        else if (n)
            *at++ = ' ';
        *at++ = pg ? '\'' : '"';
        memcpy(at, start, (size_t)(p - start));
        at += p - start;
        at += sprintf(at, pg ? "':*" : "\"*");
    }
    *at = '\0';
    return out;
}

/* Where a snippet's match begins and ends, as FTS5 marks it for us: bytes
 * no text of a post is meant to hold (any that one does are dropped). */
#define MARK_IN '\x01'
#define MARK_OUT '\x02'
#define SNIPPET_BEFORE 100  /* bytes kept before the match, about */

static int continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

/* Copies column i, a snippet with its matches marked, into dst (room for
 * size bytes) as plain text: whole if it fits, else the part around the
 * first match, cut where UTF-8 characters begin and marked "…" where cut. */
static void snippet_copy(dbq *st, int i, char *dst, size_t size)
{
    static const char ellipsis[] = "\xe2\x80\xa6";
    const size_t elen = sizeof ellipsis - 1;
    size_t len;
    const char *text = q_col_text(st, i, &len);
    char *plain = malloc(len + 1);
    dst[0] = '\0';
    if (!plain)
        return;
    size_t n = 0, match = SIZE_MAX;
    for (size_t k = 0; k < len; k++) {
        if (text[k] == MARK_IN && match == SIZE_MAX)
            match = n;
        if (text[k] != MARK_IN && text[k] != MARK_OUT)
            plain[n++] = text[k];
    }
    if (n < size) {
        memcpy(dst, plain, n);
        dst[n] = '\0';
        free(plain);
        return;
    }
    size_t from = match != SIZE_MAX && match > SNIPPET_BEFORE ? match - SNIPPET_BEFORE : 0;
    while (from < n && continuation((unsigned char)plain[from]))
        from++;
    /* begin at a word if one begins soon after */
    for (size_t k = from; from > 0 && k < from + 20 && k < match && k < n; k++)
        if (plain[k] == ' ') {
            from = k + 1;
            break;
        }
    size_t at = 0;
    if (from > 0) {
        memcpy(dst, ellipsis, elen);
        at = elen;
    }
    size_t room = size - 1 - at, to = n;
    if (n - from > room) {
        to = from + room - elen;
        while (to > from && continuation((unsigned char)plain[to]))
            to--;
    }
    memcpy(dst + at, plain + from, to - from);
    at += to - from;
    if (to < n) {
        memcpy(dst + at, ellipsis, elen);
        at += elen;
    }
    dst[at] = '\0';
    free(plain);
}

int store_forum_search(store *s, const char *words, int offset, int max, store_hit *out,
                       int *total, store_err *err)
{
    assert(s && words && (out || max <= 0));
    if (!page_ok(offset, max, err))
        return -1;
    if (total)
        *total = 0;
    char *match = match_of(words, s->db->kind == DB_POSTGRES);
    if (!match)
        return fail(err, "search: out of memory");
    if (!match[0]) {
        free(match);
        return 0;
    }
    if (total) {
        dbq *st = fs(s, FS_SEARCH_COUNT);
        q_text(st, 1, match);
        q_int(st, 2, SEARCH_MAX);
        if (count_of(s, st, total, err, "search") != 0) {
            free(match);
            return -1;
        }
    }
    if (offset >= SEARCH_MAX)
        max = 0;
    else if (max > SEARCH_MAX - offset)
        max = SEARCH_MAX - offset;
    int n = 0, rc = DB_DONE;
    if (max > 0) {
        dbq *st = fs(s, FS_SEARCH);
        q_text(st, 1, match);
        q_int(st, 2, max);
        q_int(st, 3, offset);
        while (n < max && (rc = q_step(st)) == DB_ROW) {
            store_hit *h = &out[n++];
            memset(h, 0, sizeof *h);
            h->post = q_col_int64(st, 0);
            h->thread = q_col_int64(st, 1);
            column_text(st, 2, h->category, sizeof h->category);
            column_text(st, 3, h->title, sizeof h->title);
            h->author = q_col_int64(st, 4);
            column_text(st, 5, h->author_name, sizeof h->author_name);
            h->created = q_col_int64(st, 6);
            snippet_copy(st, 7, h->snippet, sizeof h->snippet);
        }
        if (n == max)
            rc = DB_DONE;
        q_done(st);
    }
    free(match);
    return rc == DB_DONE ? n : db_fail(s, err, "search");
}
