/* forum.c -- the message board of docs/api.md: fixed categories, threads,
 * posts in Markdown (rendered by markdown.c), editing and deleting one's
 * own posts, search, and the `reply` and `mention` notifications a post
 * sends.
 *
 * The invariant: a request either does everything it asked or changes
 * nothing. Every check (who asks, the thread's state, the text, the rate
 * limits) comes before the first write; a rate-limit token taken for an
 * action that then fails is given back; and what is hidden or deleted is
 * answered 404 to everyone, as if it had never been. The only HTML any
 * answer holds is a post's `html`, made here by md_render from the
 * stored Markdown when read (kept for a minute, so a game's label follows
 * its result).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/http.h"
#include "../core/srv.h"
#include "community.h"
#include "markdown.h"
#define PER_PAGE 20
#define EDIT_MS (30LL * 60 * 1000)
#define DAY_MS (24LL * 3600 * 1000)
#define HOUR_MS 3600000LL
#define MINUTE_MS 60000LL
#define SEARCH_MAX 200            /* bytes of a search */

typedef struct category {
    const char *name, *title, *about;
} category;

static const category categories[] = {
    {"rampart", "Rampart", "Rampart: openings, enclosures, games worth a second look."},
    {"keeps", "Keeps & Moats Chess", "Four kingdoms, their alliances and their moats."},
    {"stratego", "Stratego", "Setups, bluffs and hidden ranks."},
    {"support", "Technical Support", "Something not working? Ask here (or send a support ticket)."},
    {"general", "General", "Everything else: the site, events, other games."},
};
#define NCATEGORIES (int)(sizeof categories / sizeof categories[0])

static const category *category_find(const char *name)
{
    for (int i = 0; i < NCATEGORIES; i++)
        if (strcmp(categories[i].name, name) == 0)
            return &categories[i];
    return NULL;
}

/* --- small helpers ---------------------------------------------------------------- */

/* body[key] checked as text of 1..max bytes (`what` names it in errors):
 * 0 with *out the text, or NULL if absent (or null) and optional; -1 after
 * answering 400 (text_check: blanks alone are empty too). */
static int text_field(net_http *h, json_t *body, const char *key, const char *what,
                      size_t max, int multiline, int required, const char **out)
{
    json_t *v = json_object_get(body, key);
    char err[200];
    *out = NULL;
    if (!v || json_is_null(v)) {
        if (!required)
            return 0;
        snprintf(err, sizeof err, "the %s is missing", what);
        reply_error(h, 400, err);
        return -1;
    }
    const char *text = json_string_value(v);
    if (!text) {
        snprintf(err, sizeof err, "the %s must be text", what);
        reply_error(h, 400, err);
        return -1;
    }
    if (strlen(text) != json_string_length(v) ||
        text_check(text, max, multiline, 0, what, err, sizeof err) != 0) {
        if (strlen(text) != json_string_length(v))
            snprintf(err, sizeof err, "the %s holds a NUL character", what);
        reply_error(h, 400, err);
        return -1;
    }
    *out = text;
    return 0;
}

/* --- rendering ---------------------------------------------------------------------- */

/* What md_render's hooks looked up during one request, so that a page of
 * posts naming the same games and players asks the store once each. */
#define RENDER_CACHE 32

typedef struct render_ctx {
    srv *s;
    int locked;            /* the thread is locked to its reader: nothing is editable */
    int ngames, nnames;
    struct {
        int64_t id;
        int ok;
        char label[192];
    } games[RENDER_CACHE];
    struct {
        char name[STORE_NAME_MAX + 1];
        int ok;
        store_player p;
    } names[RENDER_CACHE];
} render_ctx;

static void cat(char *out, size_t size, const char *text)
{
    size_t n = strlen(out);
    if (n + 1 < size)
        snprintf(out + n, size - n, "%s", text);
}

/* "alice vs bob, 1-0" (½-½, "in play", "aborted"); more than two sides:
 * "a, b, c, d: a and c won" (or "drawn", "in play", "aborted"). */
static void game_label(srv *s, const store_game *g, char *out, size_t size)
{
    char names[STORE_MAX_SIDES][STORE_NAME_MAX + 1];
    int n = g->nsides < 0 ? 0 : g->nsides > STORE_MAX_SIDES ? STORE_MAX_SIDES : g->nsides;
    store_err e;
    for (int i = 0; i < n; i++) {
        store_player p;
        snprintf(names[i], sizeof names[i], "%s",
                 store_player_by_id(s->st, g->players[i], &p, &e) == 0 ? p.name : "?");
    }
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            cat(out, size, n == 2 ? " vs " : ", ");
        cat(out, size, names[i]);
    }
    cat(out, size, n == 2 ? ", " : ": ");
    if (g->status == STORE_GAME_LIVE) {
        cat(out, size, "in play");
        return;
    }
    if (g->status != STORE_GAME_OVER) {
        cat(out, size, "aborted");
        return;
    }
    if (n == 2) {
        cat(out, size, g->winner < 0 ? "\xc2\xbd-\xc2\xbd" : g->winner == 0 ? "1-0"
                                                            : g->winner == 1 ? "0-1"
                                                                             : "over");
        return;
    }
    if (g->winner < 0) {
        cat(out, size, "drawn");
        return;
    }
    /* The winner is a team: which sides it holds, the start position says. */
    int team[STORE_MAX_SIDES];
    for (int i = 0; i < n; i++)
        team[i] = i;
    const game_variant *v = game_variant_find(g->variant);
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    game_error ge;
    if (v && v->nsides == n && v->ops->team_of && v->ops->parse(v, pos, g->start, &ge) == 0)
        for (int i = 0; i < n; i++)
            team[i] = v->ops->team_of(pos, i);
    int won = 0;
    for (int i = 0; i < n; i++)
        if (team[i] == g->winner) {
            if (won)
                cat(out, size, " and ");
            cat(out, size, names[i]);
            won++;
        }
    cat(out, size, won ? " won" : "over");
}

static int hook_game(void *ctx, int64_t id, char *label, size_t size)
{
    render_ctx *r = ctx;
    for (int i = 0; i < r->ngames; i++)
        if (r->games[i].id == id) {
            if (r->games[i].ok)
                snprintf(label, size, "%s", r->games[i].label);
            return r->games[i].ok ? 0 : -1;
        }
    store_game g;
    store_err e;
    char text[192];
    int ok = store_game_get(r->s->st, id, &g, &e) == 0;
    if (ok)
        game_label(r->s, &g, text, sizeof text);
    if (r->ngames < RENDER_CACHE) {
        r->games[r->ngames].id = id;
        r->games[r->ngames].ok = ok;
        if (ok)
            memcpy(r->games[r->ngames].label, text, sizeof text);
        r->ngames++;
    }
    if (ok)
        snprintf(label, size, "%s", text);
    return ok ? 0 : -1;
}

/* The player named `name` (any case), or NULL. */
static const store_player *lookup_player(render_ctx *r, const char *name, store_player *tmp)
{
    if (strlen(name) > STORE_NAME_MAX)
        return NULL;
    for (int i = 0; i < r->nnames; i++)
        if (strcasecmp(r->names[i].name, name) == 0)
            return r->names[i].ok ? &r->names[i].p : NULL;
    store_err e;
    int ok = store_player_by_name(r->s->st, name, tmp, NULL, &e) == 0;
    if (r->nnames < RENDER_CACHE) {
        snprintf(r->names[r->nnames].name, sizeof r->names[r->nnames].name, "%s", name);
        r->names[r->nnames].ok = ok;
        if (ok)
            r->names[r->nnames].p = *tmp;
        r->nnames++;
    }
    return ok ? tmp : NULL;
}

static int hook_player(void *ctx, const char *name, char *canon, size_t size)
{
    store_player tmp;
    const store_player *p = lookup_player(ctx, name, &tmp);
    if (!p)
        return -1;
    snprintf(canon, size, "%s", p->name);
    return 0;
}

static md_hooks hooks_of(render_ctx *r)
{
    md_hooks k = {.ctx = r, .game = hook_game, .player = hook_player};
    return k;
}

/* --- JSON ------------------------------------------------------------------------------ */

static json_t *thread_json(srv *s, const store_thread *t)
{
    return json_pack("{s:I, s:s, s:s, s:o, s:I, s:I, s:i, s:b}", "id", (json_int_t)t->id,
                     "category", t->category, "title", t->title, "author",
                     req_player_ref(s, t->author, t->author_name), "created",
                     (json_int_t)t->created, "last_post", (json_int_t)t->last_post, "posts",
                     t->posts, "locked", t->locked);
}

/* Posts rendered lately, so that a page read again and again (by a
 * stranger, say) costs a copy, not a render: a long post takes cmark about
 * half a millisecond. Direct-mapped by id, at most HTML_CACHE posts
 * (a few MB at worst); an entry serves for HTML_CACHE_MS, so that a
 * game's label catches up with its result within a minute, and only for
 * the same edit of the post. The loop thread alone uses it. */
#define HTML_CACHE 256
#define HTML_CACHE_MS 60000

static struct {
    int64_t id, edited, made;
    char *html;
} html_cache[HTML_CACHE];

static char *post_html(render_ctx *r, const store_post *p)
{
    unsigned k = (unsigned)(p->id % HTML_CACHE);
    int64_t now = net_mono_ms();
    if (html_cache[k].html && html_cache[k].id == p->id && html_cache[k].edited == p->edited &&
        now - html_cache[k].made < HTML_CACHE_MS)
        return strdup(html_cache[k].html);
    md_hooks hooks = hooks_of(r);
    char *html = md_render(p->body, strlen(p->body), &hooks);
    char *keep = html ? strdup(html) : NULL;
    if (keep) {
        free(html_cache[k].html);
        html_cache[k].html = keep;
        html_cache[k].id = p->id;
        html_cache[k].edited = p->edited;
        html_cache[k].made = now;
    }
    return html;
}

void forum_free_cache(void)
{
    for (int i = 0; i < HTML_CACHE; i++) {
        free(html_cache[i].html);
        html_cache[i].html = NULL;
    }
}

/* A post as `me` (NULL: a visitor) sees it; NULL if out of memory. */
static json_t *post_json(render_ctx *r, const store_post *p, const ident *me, int64_t now)
{
    char *html = post_html(r, p);
    if (!html)
        return NULL;
    int mine = me && me->id == p->author;
    json_t *j = json_pack("{s:I, s:I, s:o, s:I, s:I, s:s, s:b, s:b}", "id", (json_int_t)p->id,
                          "thread", (json_int_t)p->thread, "author",
                          req_player_ref(r->s, p->author, p->author_name), "created",
                          (json_int_t)p->created, "edited", (json_int_t)p->edited, "html", html,
                          "mine", mine, "editable", mine && !r->locked && now < p->created + EDIT_MS);
    free(html);
    if (j && mine)
        json_object_set_new(j, "body", json_string(p->body));
    return j;
}

/* --- posting: who, how often, who is told ------------------------------------------- */

/* The signed-in account that writes (401 if none, 403 if muted or closed),
 * and its standing into *st; 0, or -1 after answering. */
static int poster(srv *s, net_http *h, const net_request *req, ident *me, store_standing *st,
                  const char *no)
{
    char err[200];
    if (ident_request_me(s, req, me, st) != 0 || me->guest || me->bot) {
        reply_error(h, 401, no);
        return -1;
    }
    if (!req_may_write(s, me, st, err, sizeof err)) {
        reply_error(h, 403, err);
        return -1;
    }
    return 0;
}

typedef struct post_quota {
    char key[64], young_key[64];
    int young;
} post_quota;

/* Takes a post's tokens: 1, or 0 after answering 429 (nothing taken). */
static int quota_post_take(srv *s, net_http *h, const ident *me, post_quota *pq)
{
    store_player p;
    store_err e;
    int64_t now = net_mono_ms();
    snprintf(pq->key, sizeof pq->key, "posts:%lld", (long long)me->id);
    snprintf(pq->young_key, sizeof pq->young_key, "newposts:%lld", (long long)me->id);
    /* an account the store cannot tell the age of counts as new */
    pq->young = store_player_by_id(s->st, me->id, &p, &e) != 0 ||
                net_wall_ms() - p.created < DAY_MS;
    if (!quota_take(s->quota, pq->key, s->cfg.limits[LIM_POSTS], HOUR_MS, now)) {
        reply_limited(h, quota_retry_s(s->quota, pq->key, s->cfg.limits[LIM_POSTS], HOUR_MS, now),
                      "too many posts; try again later");
        return 0;
    }
    if (pq->young &&
        !quota_take(s->quota, pq->young_key, s->cfg.limits[LIM_NEW_POSTS], HOUR_MS, now)) {
        quota_refund(s->quota, pq->key, s->cfg.limits[LIM_POSTS], HOUR_MS, now);
        reply_limited(h,
                      quota_retry_s(s->quota, pq->young_key, s->cfg.limits[LIM_NEW_POSTS],
                                    HOUR_MS, now),
                      "too many posts; try again later");
        return 0;
    }
    return 1;
}

static void quota_post_refund(srv *s, const post_quota *pq)
{
    int64_t now = net_mono_ms();
    quota_refund(s->quota, pq->key, s->cfg.limits[LIM_POSTS], HOUR_MS, now);
    if (pq->young)
        quota_refund(s->quota, pq->young_key, s->cfg.limits[LIM_NEW_POSTS], HOUR_MS, now);
}

static void note_send(srv *s, int64_t to, const char *kind, const ident *from,
                      const store_thread *t, int64_t post, int64_t now)
{
    store_note n;
    memset(&n, 0, sizeof n);
    n.player = to;
    snprintf(n.kind, sizeof n.kind, "%s", kind);
    n.from = from->id;
    snprintf(n.from_name, sizeof n.from_name, "%s", from->name);
    n.thread = t->id;
    n.post = post;
    snprintf(n.title, sizeof n.title, "%s", t->title);
    n.created = now;
    notify_player(s, &n);
}

/* A new post (a reply when `reply`) was stored: the thread's author is
 * told of a reply, every account it names of the mention; nobody twice,
 * never the writer, never a bot or a guest. */
static void post_notify(srv *s, const ident *me, const store_thread *t, int64_t post,
                        const char *body, int reply)
{
    int64_t now = net_wall_ms();
    int64_t told = 0;
    if (reply && t->author != me->id) {
        note_send(s, t->author, "reply", me, t, post, now);
        told = t->author;
    }
    render_ctx *r = calloc(1, sizeof *r);
    char (*names)[MD_NAME_MAX + 1] = malloc(MD_MAX_MENTIONS * sizeof *names);
    if (r && names) {
        r->s = s;
        md_hooks hooks = hooks_of(r);
        int n = md_mentions(body, strlen(body), &hooks, names, MD_MAX_MENTIONS);
        for (int i = 0; i < n; i++) {
            store_player tmp;
            const store_player *p = lookup_player(r, names[i], &tmp);
            if (p && !p->is_bot && !p->is_guest && p->id != me->id && p->id != told)
                note_send(s, p->id, "mention", me, t, post, now);
        }
    }
    free(names);
    free(r);
}

/* --- reading ---------------------------------------------------------------------------- */

static void board_page(srv *s, net_http *h)
{
    const char *names[NCATEGORIES];
    store_category got[NCATEGORIES];
    store_err e;
    for (int i = 0; i < NCATEGORIES; i++)
        names[i] = categories[i].name;
    if (store_categories(s->st, names, NCATEGORIES, got, &e) < 0) {
        reply_error(h, 500, "could not read the board; try again");
        return;
    }
    json_t *a = json_array();
    for (int i = 0; i < NCATEGORIES; i++)
        json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:i, s:i, s:I}", "name",
                                           categories[i].name, "title", categories[i].title,
                                           "about", categories[i].about, "threads",
                                           got[i].threads, "posts", got[i].posts,
                                           "last_post", (json_int_t)got[i].last_post));
    reply_json(h, 200, json_pack("{s:o}", "categories", a), NULL);
}

static void category_page(srv *s, net_http *h, const net_request *req, const category *c)
{
    int page = req_query_page(req->query), total = 0;
    store_thread *list = malloc(PER_PAGE * sizeof *list);
    store_err e;
    int n = list ? store_threads(s->st, c->name, (page - 1) * PER_PAGE, PER_PAGE, list, &total,
                                 &e)
                 : -1;
    if (n < 0) {
        free(list);
        reply_error(h, 500, "could not read the board; try again");
        return;
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, thread_json(s, &list[i]));
    free(list);
    reply_json(h, 200,
               json_pack("{s:{s:s, s:s, s:s}, s:o, s:i, s:i}", "category", "name", c->name,
                         "title", c->title, "about", c->about, "threads", a, "page", page,
                         "pages", req_pages_of(total, PER_PAGE)),
               NULL);
}

/* The thread `id` as players may see it: 0; -1 after answering 404 (also
 * for a hidden or deleted one) or 500. */
static int visible_thread(srv *s, net_http *h, int64_t id, store_thread *t)
{
    store_err e;
    int rc = store_thread_get(s->st, id, t, &e);
    if (rc < 0) {
        reply_error(h, 500, "could not read the board; try again");
        return -1;
    }
    if (rc == STORE_NOT_FOUND || t->hidden || t->deleted) {
        reply_error(h, 404, "no such thread");
        return -1;
    }
    return 0;
}

static void thread_page(srv *s, net_http *h, const net_request *req, int64_t id)
{
    store_thread t;
    if (visible_thread(s, h, id, &t) != 0)
        return;
    ident me;
    store_standing st;
    int known = ident_request_me(s, req, &me, &st) == 0;
    int page = req_query_page(req->query), total = 0;
    store_post *list = malloc(PER_PAGE * sizeof *list);
    render_ctx *r = calloc(1, sizeof *r);
    store_err e;
    int n = list && r ? store_posts(s->st, id, (page - 1) * PER_PAGE, PER_PAGE, list, &total, &e)
                      : -1;
    json_t *a = n >= 0 ? json_array() : NULL;
    int64_t now = net_wall_ms();
    if (r) {
        r->s = s;
        r->locked = t.locked && !(known && req_is_staff(&st));
    }
    for (int i = 0; a && i < n; i++) {
        json_t *p = post_json(r, &list[i], known ? &me : NULL, now);
        if (!p) {
            json_decref(a);
            a = NULL;
        } else {
            json_array_append_new(a, p);
        }
    }
    free(list);
    free(r);
    if (!a) {
        reply_error(h, 500, n < 0 ? "could not read the thread; try again" : "out of memory");
        return;
    }
    reply_json(h, 200,
               json_pack("{s:o, s:o, s:i, s:i}", "thread", thread_json(s, &t), "posts", a,
                         "page", page, "pages", req_pages_of(total, PER_PAGE)),
               NULL);
}

static void search_page(srv *s, net_http *h, const net_request *req)
{
    char q[1024], err[200];
    /* the net has decoded the query already (net.h): "c%2B%2B" is "c++" */
    int got = req_query_param(req->query, "q", q, sizeof q);
    if (got == -1 || (got == 1 && q[0] &&
                      text_check(q, SEARCH_MAX, 0, 1, "search", err, sizeof err) != 0)) {
        if (got == -1)
            snprintf(err, sizeof err, "the search is too long (at most %d bytes)", SEARCH_MAX);
        reply_error(h, 400, err);
        return;
    }
    int page = req_query_page(req->query), total = 0, n = 0;
    store_hit *hits = NULL;
    if (q[0]) {
        char addr[64], key[96];
        ident_request_addr(s, req, addr, sizeof addr);
        snprintf(key, sizeof key, "search:%s", addr);
        int64_t mono = net_mono_ms();
        if (!quota_take(s->quota, key, s->cfg.limits[LIM_SEARCHES], MINUTE_MS, mono)) {
            reply_limited(h,
                          quota_retry_s(s->quota, key, s->cfg.limits[LIM_SEARCHES], MINUTE_MS,
                                        mono),
                          "too many searches; try again in a minute");
            return;
        }
        store_err e;
        hits = malloc(PER_PAGE * sizeof *hits);
        n = hits ? store_forum_search(s->st, q, (page - 1) * PER_PAGE, PER_PAGE, hits, &total,
                                      &e)
                 : -1;
        if (n < 0) {
            quota_refund(s->quota, key, s->cfg.limits[LIM_SEARCHES], MINUTE_MS, mono);
            free(hits);
            reply_error(h, 500, "could not search the board; try again");
            return;
        }
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(
            a, json_pack("{s:I, s:{s:I, s:s, s:s}, s:o, s:I, s:s}", "post",
                         (json_int_t)hits[i].post, "thread", "id", (json_int_t)hits[i].thread,
                         "title", hits[i].title, "category", hits[i].category, "author",
                         req_player_ref(s, hits[i].author, hits[i].author_name), "created",
                         (json_int_t)hits[i].created, "snippet", hits[i].snippet));
    free(hits);
    reply_json(h, 200,
               json_pack("{s:s, s:o, s:i, s:i}", "query", q, "results", a, "page", page,
                         "pages", req_pages_of(total, PER_PAGE)),
               NULL);
}

/* --- writing --------------------------------------------------------------------------- */

static void new_thread(srv *s, net_http *h, const net_request *req, const category *c)
{
    ident me;
    store_standing st;
    if (poster(s, h, req, &me, &st, "sign in to post") != 0)
        return;
    json_t *body = req_body_object(req, h);
    const char *title, *text;
    post_quota pq;
    if (!body || text_field(h, body, "title", "title", STORE_TITLE_MAX, 0, 1, &title) != 0 ||
        text_field(h, body, "body", "body", STORE_POST_MAX, 1, 1, &text) != 0 ||
        !quota_post_take(s, h, &me, &pq)) {
        json_decref(body);
        return;
    }
    store_thread t;
    store_err e;
    memset(&t, 0, sizeof t);
    int64_t now = net_wall_ms(), post = 0;
    if (store_thread_add(s->st, c->name, title, me.id, text, now, &t.id, &post, &e) != 0) {
        quota_post_refund(s, &pq);
        reply_error(h, 500, "could not store the post; try again");
        json_decref(body);
        return;
    }
    t.author = me.id;
    snprintf(t.title, sizeof t.title, "%s", title);
    post_notify(s, &me, &t, post, text, 0);
    json_decref(body);
    reply_json(h, 200, json_pack("{s:I, s:I}", "thread", (json_int_t)t.id, "post",
                                 (json_int_t)post),
               NULL);
}

static void reply_post(srv *s, net_http *h, const net_request *req, int64_t id)
{
    ident me;
    store_standing st;
    store_thread t;
    if (poster(s, h, req, &me, &st, "sign in to post") != 0 || visible_thread(s, h, id, &t) != 0)
        return;
    if (t.locked) {
        reply_error(h, 403, "this thread is locked");
        return;
    }
    json_t *body = req_body_object(req, h);
    const char *text;
    post_quota pq;
    if (!body || text_field(h, body, "body", "body", STORE_POST_MAX, 1, 1, &text) != 0 ||
        !quota_post_take(s, h, &me, &pq)) {
        json_decref(body);
        return;
    }
    store_err e;
    int64_t post = 0;
    int rc = store_post_add(s->st, id, me.id, text, net_wall_ms(), &post, &e);
    if (rc != 0) {
        quota_post_refund(s, &pq);
        reply_error(h, rc == STORE_NOT_FOUND ? 404 : 500,
                    rc == STORE_NOT_FOUND ? "no such thread"
                                          : "could not store the post; try again");
        json_decref(body);
        return;
    }
    int before = store_post_index(s->st, id, post, &e);
    if (before < 0)
        before = t.posts;  /* the newest, then */
    post_notify(s, &me, &t, post, text, 1);
    json_decref(body);
    reply_json(h, 200, json_pack("{s:I, s:i}", "post", (json_int_t)post, "page",
                                 before / PER_PAGE + 1),
               NULL);
}

/* The post `id` and its thread, both visible, written by me: 0; -1 after
 * answering 404, 403 or 500. */
static int own_post(srv *s, net_http *h, int64_t id, const ident *me, store_post *p,
                    store_thread *t, const char *only)
{
    store_err e;
    int rc = store_post_get(s->st, id, p, &e);
    if (rc < 0) {
        reply_error(h, 500, "could not read the board; try again");
        return -1;
    }
    if (rc == STORE_NOT_FOUND || p->hidden || p->deleted) {
        reply_error(h, 404, "no such post");
        return -1;
    }
    if (visible_thread(s, h, p->thread, t) != 0)
        return -1;
    if (p->author != me->id) {
        reply_error(h, 403, only);
        return -1;
    }
    return 0;
}

static void edit_post(srv *s, net_http *h, const net_request *req, int64_t id)
{
    ident me;
    store_standing st;
    store_post *p = malloc(sizeof *p);
    store_thread t;
    if (!p) {
        reply_error(h, 500, "out of memory");
        return;
    }
    if (poster(s, h, req, &me, &st, "sign in to edit your posts") != 0 ||
        own_post(s, h, id, &me, p, &t, "only its author may edit a post") != 0) {
        free(p);
        return;
    }
    int64_t now = net_wall_ms();
    json_t *body = NULL;
    const char *title = NULL, *text = NULL;
    /* a locked thread takes no new words, edits included; staff may still
     * edit their own (to correct a moderator's note) */
    int locked = t.locked && !req_is_staff(&st);
    if (locked)
        reply_error(h, 403, "this thread is locked");
    else if (now >= p->created + EDIT_MS)
        reply_error(h, 403, "posts can be edited for 30 minutes");
    else if ((body = req_body_object(req, h)) == NULL ||
             text_field(h, body, "body", "body", STORE_POST_MAX, 1, 1, &text) != 0 ||
             text_field(h, body, "title", "title", STORE_TITLE_MAX, 0, 0, &title) != 0)
        ;  /* answered */
    else if (title && p->id != t.first_post)
        reply_error(h, 400, "only a thread's opening post has a title");
    else {
        store_err e;
        int retitled = title && strcmp(title, t.title) != 0;
        if (retitled && store_thread_retitle(s->st, t.id, title, &e) != 0) {
            reply_error(h, 500, "could not store the edit; try again");
        } else if (store_post_edit(s->st, p->id, text, now, &e) != 0) {
            if (retitled)  /* put the title back: the edit did not happen */
                store_thread_retitle(s->st, t.id, t.title, &e);
            reply_error(h, 500, "could not store the edit; try again");
        } else {
            snprintf(p->body, sizeof p->body, "%s", text);
            p->edited = now;
            render_ctx *r = calloc(1, sizeof *r);
            json_t *j = NULL;
            if (r) {
                r->s = s;
                j = post_json(r, p, &me, now);
            }
            free(r);
            if (j)
                reply_json(h, 200, json_pack("{s:o}", "post", j), NULL);
            else
                reply_error(h, 500, "out of memory");
        }
    }
    json_decref(body);
    free(p);
}

/* 1 if someone besides `author` has a visible post in the thread; -1 if
 * the store could not say. */
static int others_replied(srv *s, int64_t thread, int64_t author)
{
    store_post *list = malloc(PER_PAGE * sizeof *list);
    store_err e;
    int found = list ? 0 : -1, total = 0;
    for (int offset = 0; list && !found && offset < INT_MAX - PER_PAGE; offset += PER_PAGE) {
        int n = store_posts(s->st, thread, offset, PER_PAGE, list, &total, &e);
        if (n < 0)
            found = -1;
        for (int i = 0; i < n && !found; i++)
            found = list[i].author != author;
        if (n < PER_PAGE)
            break;
    }
    free(list);
    return found;
}

static void delete_post(srv *s, net_http *h, const net_request *req, int64_t id)
{
    ident me;
    store_post *p = malloc(sizeof *p);
    store_thread t;
    store_err e;
    /* not `writer`: a muted account may still take its own words back */
    if (!p)
        reply_error(h, 500, "out of memory");
    else if (ident_request_me(s, req, &me, NULL) != 0 || me.guest)
        reply_error(h, 401, "sign in to delete your posts");
    else if (own_post(s, h, id, &me, p, &t, "only its author may delete a post") != 0)
        ;  /* answered */
    else {
        int others = p->id == t.first_post && t.posts > 1 ? others_replied(s, t.id, me.id) : 0;
        if (others < 0)
            reply_error(h, 500, "could not read the thread; try again");
        else if (others)
            reply_error(h, 409, "others have replied; edit it instead");
        else if (store_post_delete(s->st, p->id, &e) != 0)
            reply_error(h, 500, "could not delete the post; try again");
        else
            reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
    }
    free(p);
}

/* --- the router ------------------------------------------------------------------------ */

void forum_http(srv *s, net_http *h, const net_request *req, const char *path)
{
    int get = strcmp(req->method, "GET") == 0, post = strcmp(req->method, "POST") == 0;
    const char *rest = "";
    int64_t id;
    const category *c;
    if (!get && !post)
        reply_error(h, 405, "GET or POST only");
    else if (!path[0] || strcmp(path, "/search") == 0) {
        if (!get)
            reply_error(h, 404, "no such endpoint");
        else if (!path[0])
            board_page(s, h);
        else
            search_page(s, h, req);
    } else if (strncmp(path, "/threads/", 9) == 0) {
        if ((id = req_path_id(path + 9, &rest)) < 0 || rest[0])
            reply_error(h, 404, "no such thread");
        else if (get)
            thread_page(s, h, req, id);
        else
            reply_post(s, h, req, id);
    } else if (strncmp(path, "/posts/", 7) == 0) {
        if ((id = req_path_id(path + 7, &rest)) < 0)
            reply_error(h, 404, "no such post");
        else if (post && strcmp(rest, "/edit") == 0)
            edit_post(s, h, req, id);
        else if (post && strcmp(rest, "/delete") == 0)
            delete_post(s, h, req, id);
        else
            reply_error(h, 404, "no such endpoint");
    } else if (path[0] == '/' && (c = category_find(path + 1)) != NULL) {
        if (get)
            category_page(s, h, req, c);
        else
            new_thread(s, h, req, c);
    } else
        reply_error(h, 404, "no such category");
}
