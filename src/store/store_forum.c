/* store_forum.c -- community.h on SQLite: the message board, its threads
 * and posts, and their search (store_sqlite.c tells the design; schema 4
 * made the tables).
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
 *     puts it back after. Flagged posts stay in the index; the search
 *     leaves them out as the lists do.
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
                      "posts) VALUES (?1, ?2, ?3, ?4, ?4, 1)",
    [FS_POST_ADD] = "INSERT INTO forum_posts (thread, author, created, body) "
                    "VALUES (?1, ?2, ?3, ?4)",
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
                        "(CASE WHEN ?2 THEN -1 ELSE 1 END) WHERE id = "
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
    [FS_SEARCH_COUNT] = "SELECT count(*) FROM (SELECT 1 " SEARCH_FROM " LIMIT ?2)",
};

int store_forum_prepare(store *s, store_err *err)
{
    return prepare_each(s, sql, s->fst, FS_COUNT, "forum", err);
}

static sqlite3_stmt *fs(store *s, int id)
{
    return fresh(s->fst[id]);
}

/* Runs statement id on one row: ?1 = row. */
static int run_on(store *s, int id, int64_t row, store_err *err, const char *what)
{
    sqlite3_stmt *st = fs(s, id);
    sqlite3_bind_int64(st, 1, row);
    return step_done(s, st, err, what);
}

/* A failed INSERT naming a player: says which way it failed. */
static int insert_fail(store *s, int rc, int64_t author, store_err *err, const char *what)
{
    if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
        return fail(err, "%s: no player %lld", what, (long long)author);
    return db_fail(s, err, what);
}

static void read_thread(sqlite3_stmt *st, store_thread *t)
{
    memset(t, 0, sizeof *t);
    t->id = sqlite3_column_int64(st, 0);
    column_text(st, 1, t->category, sizeof t->category);
    column_text(st, 2, t->title, sizeof t->title);
    t->author = sqlite3_column_int64(st, 3);
    column_text(st, 4, t->author_name, sizeof t->author_name);
    t->created = sqlite3_column_int64(st, 5);
    t->last_post = sqlite3_column_int64(st, 6);
    t->posts = sqlite3_column_int(st, 7);
    t->locked = sqlite3_column_int(st, 8);
    t->hidden = sqlite3_column_int(st, 9);
    t->deleted = sqlite3_column_int(st, 10);
    t->first_post = sqlite3_column_int64(st, 11);
}

static void read_post(sqlite3_stmt *st, store_post *p)
{
    memset(p, 0, sizeof *p);
    p->id = sqlite3_column_int64(st, 0);
    p->thread = sqlite3_column_int64(st, 1);
    p->author = sqlite3_column_int64(st, 2);
    column_text(st, 3, p->author_name, sizeof p->author_name);
    p->created = sqlite3_column_int64(st, 4);
    p->edited = sqlite3_column_int64(st, 5);
    p->hidden = sqlite3_column_int(st, 6);
    p->deleted = sqlite3_column_int(st, 7);
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
    sqlite3_stmt *st = fs(s, FS_THREAD_ADD);
    bind_text(st, 1, category);
    bind_text(st, 2, title);
    bind_player(st, 3, author);
    sqlite3_bind_int64(st, 4, now);
    int rc = sqlite3_step(st);
    done(st);
    if (rc != SQLITE_DONE) {
        insert_fail(s, rc, author, err, "add thread");
        return rollback(s);
    }
    int64_t tid = sqlite3_last_insert_rowid(s->db);
    st = fs(s, FS_POST_ADD);
    sqlite3_bind_int64(st, 1, tid);
    bind_player(st, 2, author);
    sqlite3_bind_int64(st, 3, now);
    bind_text(st, 4, body);
    rc = sqlite3_step(st);
    done(st);
    if (rc != SQLITE_DONE) {
        insert_fail(s, rc, author, err, "add thread: its post");
        return rollback(s);
    }
    int64_t pid = sqlite3_last_insert_rowid(s->db);
    st = fs(s, FS_THREAD_FIRST);
    sqlite3_bind_int64(st, 1, tid);
    sqlite3_bind_int64(st, 2, pid);
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
    sqlite3_stmt *st = fs(s, FS_THREAD_BUMP);
    sqlite3_bind_int64(st, 1, thread);
    sqlite3_bind_int64(st, 2, now);
    int rc = update_one(s, st, err, "add post");
    if (rc != 0) {
        rollback(s);
        if (rc == STORE_NOT_FOUND)
            fail(err, "add post: no thread %lld", (long long)thread);
        return rc;
    }
    st = fs(s, FS_POST_ADD);
    sqlite3_bind_int64(st, 1, thread);
    bind_player(st, 2, author);
    sqlite3_bind_int64(st, 3, now);
    bind_text(st, 4, body);
    rc = sqlite3_step(st);
    done(st);
    if (rc != SQLITE_DONE) {
        insert_fail(s, rc, author, err, "add post");
        return rollback(s);
    }
    int64_t pid = sqlite3_last_insert_rowid(s->db);
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
    sqlite3_stmt *st = fs(s, FS_POST_EDIT);
    sqlite3_bind_int64(st, 1, post);
    bind_text(st, 2, body);
    sqlite3_bind_int64(st, 3, now);
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
    sqlite3_stmt *st = fs(s, FS_THREAD_FIRST_OF);
    sqlite3_bind_int64(st, 1, thread);
    int rc = sqlite3_step(st);
    int64_t first = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    done(st);
    if (rc == SQLITE_DONE) {
        rollback(s);
        fail(err, "retitle thread: no thread %lld", (long long)thread);
        return STORE_NOT_FOUND;
    }
    if (rc != SQLITE_ROW) {
        db_fail(s, err, "retitle thread");
        return rollback(s);
    }
    if (run_on(s, FS_INDEX_DEL, first, err, "retitle thread: index") != 0)
        return rollback(s);
    st = fs(s, FS_THREAD_RETITLE);
    sqlite3_bind_int64(st, 1, thread);
    bind_text(st, 2, title);
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
    sqlite3_stmt *st = fs(s, FS_POST_DELETE);
    sqlite3_bind_int64(st, 1, post);
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
        sqlite3_stmt *st = fs(s, k == 0 ? FS_POST_RECOUNT : FS_POST_HIDE);
        sqlite3_bind_int64(st, 1, post);
        sqlite3_bind_int(st, 2, hidden != 0);
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
    sqlite3_stmt *st = fs(s, id);
    sqlite3_bind_int64(st, 1, thread);
    sqlite3_bind_int(st, 2, value != 0);
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
    sqlite3_stmt *st = fs(s, FS_THREAD_GET);
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        read_thread(st, out);
    done(st);
    if (rc == SQLITE_DONE) {
        fail(err, "no thread %lld", (long long)id);
        return STORE_NOT_FOUND;
    }
    return rc == SQLITE_ROW ? 0 : db_fail(s, err, "read thread");
}

int store_post_get(store *s, int64_t id, store_post *out, store_err *err)
{
    assert(s && out);
    sqlite3_stmt *st = fs(s, FS_POST_GET);
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        read_post(st, out);
    done(st);
    if (rc == SQLITE_DONE) {
        fail(err, "no post %lld", (long long)id);
        return STORE_NOT_FOUND;
    }
    return rc == SQLITE_ROW ? 0 : db_fail(s, err, "read post");
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
        sqlite3_stmt *st = fs(s, all ? FS_THREADS_ALL_COUNT : FS_THREADS_CAT_COUNT);
        if (!all)
            bind_text(st, 1, category);
        if (count_of(s, st, total, err, "count threads") != 0)
            return -1;
    }
    sqlite3_stmt *st = fs(s, all ? FS_THREADS_ALL : FS_THREADS_CAT);
    sqlite3_bind_int(st, 1, max);
    sqlite3_bind_int(st, 2, offset);
    if (!all)
        bind_text(st, 3, category);
    int n = 0, rc = SQLITE_DONE;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW)
        read_thread(st, &out[n++]);
    if (n == max)
        rc = SQLITE_DONE;
    done(st);
    return rc == SQLITE_DONE ? n : db_fail(s, err, "list threads");
}

int store_posts(store *s, int64_t thread, int offset, int max, store_post *out, int *total,
                store_err *err)
{
    assert(s && (out || max <= 0));
    if (!page_ok(offset, max, err))
        return -1;
    if (total) {
        sqlite3_stmt *st = fs(s, FS_POSTS_COUNT);
        sqlite3_bind_int64(st, 1, thread);
        if (count_of(s, st, total, err, "count posts") != 0)
            return -1;
    }
    sqlite3_stmt *st = fs(s, FS_POSTS);
    sqlite3_bind_int64(st, 1, thread);
    sqlite3_bind_int(st, 2, max);
    sqlite3_bind_int(st, 3, offset);
    int n = 0, rc = SQLITE_DONE;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW)
        read_post(st, &out[n++]);
    if (n == max)
        rc = SQLITE_DONE;
    done(st);
    return rc == SQLITE_DONE ? n : db_fail(s, err, "list posts");
}

int store_post_index(store *s, int64_t thread, int64_t post, store_err *err)
{
    assert(s);
    sqlite3_stmt *st = fs(s, FS_POST_INDEX);
    sqlite3_bind_int64(st, 1, thread);
    sqlite3_bind_int64(st, 2, post);
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
        sqlite3_stmt *st = fs(s, FS_CATEGORY);
        bind_text(st, 1, names[i]);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            c->threads = sqlite3_column_int(st, 0);
            c->posts = sqlite3_column_int(st, 1);
            c->last_post = sqlite3_column_int64(st, 2);
        }
        done(st);
        if (rc != SQLITE_ROW)
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

/* The FTS5 expression for the user's words: each of the first SEARCH_WORDS
 * as a quoted prefix ("word"*), all of them required. A word holds no
 * quote, so nothing the user writes is read as FTS5 syntax. "" if no word;
 * NULL if out of memory. */
static char *match_of(const char *words)
{
    char *out = malloc(strlen(words) + 4 * SEARCH_WORDS + 1), *at = out;
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
        if (n)
            *at++ = ' ';
        *at++ = '"';
        memcpy(at, start, (size_t)(p - start));
        at += p - start;
        *at++ = '"';
        *at++ = '*';
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
static void snippet_copy(sqlite3_stmt *st, int i, char *dst, size_t size)
{
    static const char ellipsis[] = "\xe2\x80\xa6";
    const size_t elen = sizeof ellipsis - 1;
    const char *text = (const char *)sqlite3_column_text(st, i);
    size_t len = text ? (size_t)sqlite3_column_bytes(st, i) : 0;
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
    char *match = match_of(words);
    if (!match)
        return fail(err, "search: out of memory");
    if (!match[0]) {
        free(match);
        return 0;
    }
    if (total) {
        sqlite3_stmt *st = fs(s, FS_SEARCH_COUNT);
        bind_text(st, 1, match);
        sqlite3_bind_int(st, 2, SEARCH_MAX);
        if (count_of(s, st, total, err, "search") != 0) {
            free(match);
            return -1;
        }
    }
    if (offset >= SEARCH_MAX)
        max = 0;
    else if (max > SEARCH_MAX - offset)
        max = SEARCH_MAX - offset;
    int n = 0, rc = SQLITE_DONE;
    if (max > 0) {
        sqlite3_stmt *st = fs(s, FS_SEARCH);
        bind_text(st, 1, match);
        sqlite3_bind_int(st, 2, max);
        sqlite3_bind_int(st, 3, offset);
        while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            store_hit *h = &out[n++];
            memset(h, 0, sizeof *h);
            h->post = sqlite3_column_int64(st, 0);
            h->thread = sqlite3_column_int64(st, 1);
            column_text(st, 2, h->category, sizeof h->category);
            column_text(st, 3, h->title, sizeof h->title);
            h->author = sqlite3_column_int64(st, 4);
            column_text(st, 5, h->author_name, sizeof h->author_name);
            h->created = sqlite3_column_int64(st, 6);
            snippet_copy(st, 7, h->snippet, sizeof h->snippet);
        }
        if (n == max)
            rc = SQLITE_DONE;
        done(st);
    }
    free(match);
    return rc == SQLITE_DONE ? n : db_fail(s, err, "search");
}
