/* moderation.c -- reports, and what staff do about them (docs/api.md,
 * "Reports and moderation"): hiding posts and chat lines, locking
 * threads, muting players; admins also change roles and close accounts,
 * and read the audit log.
 *
 * The invariant: every change a moderator or admin makes is written to
 * the audit log in the same request, with who, what, why and -- for what
 * was hidden -- the text itself, and nothing is deleted: hiding sets a
 * flag, so the log can always show what was there. Routes under /mod and
 * /admin answer 403 to anyone without the role before reading anything
 * else of the request.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/http.h"
#include "../core/srv.h"
#include "../play/chat.h"
#include "community.h"
#define PAGE 20
#define MAX_MUTE_MINUTES 525600

/* The reason of a body: NULL (answered 400) if it is not text that fits. */
static const char *reason_of(net_http *h, json_t *body, int *ok)
{
    json_t *r = json_object_get(body, "reason");
    const char *text = r ? json_string_value(r) : "";
    char err[160];
    *ok = 0;
    if (!text || text_check(text, STORE_REASON_MAX, 1, 1, "reason", err, sizeof err) != 0) {
        reply_error(h, 400, text ? err : "want reason as text");
        return NULL;
    }
    *ok = 1;
    return text;
}

static void audit(srv *s, const ident *me, const char *action, const char *kind,
                  int64_t target, const char *reason, const char *what)
{
    size_t size = strlen(reason) + (what ? strlen(what) : 0) + 32;
    char *detail = malloc(size);
    store_err e;
    if (!detail)
        return;
    if (what && what[0])
        snprintf(detail, size, "%s%s%s", reason, reason[0] ? "\n---\n" : "", what);
    else
        snprintf(detail, size, "%s", reason);
    if (store_audit_add(s->st, me->id, action, kind, target, detail, net_wall_ms(), &e) != 0)
        fprintf(stderr, "citadel serve: audit log: %s\n", e.msg);
    free(detail);
}

/* --- reports ---------------------------------------------------------------------- */

static void report_new(srv *s, net_http *h, const net_request *req)
{
    ident me;
    store_standing st;
    char err[160];
    if (ident_request_me(s, req, &me, &st) != 0 || me.guest) {
        reply_error(h, 401, "sign in to report");
        return;
    }
    json_t *body = req_body_object(req, h);
    if (!body)
        return;
    const char *kind = json_string_value(json_object_get(body, "kind"));
    json_t *jid = json_object_get(body, "id");
    const char *name = json_string_value(json_object_get(body, "name"));
    int ok;
    const char *reason = reason_of(h, body, &ok);
    store_report r;
    memset(&r, 0, sizeof r);
    store_err e;
    if (!ok)
        goto out;
    if (!req_may_write(s, &me, &st, err, sizeof err)) {
        reply_error(h, 403, err);
        goto out;
    }
    if (kind && (strcmp(kind, "post") == 0 || strcmp(kind, "chat") == 0)) {
        json_int_t id = json_is_integer(jid) ? json_integer_value(jid) : -1;
        store_post p;
        store_chat c;
        int found = id > 0 && (kind[0] == 'p' ? store_post_get(s->st, id, &p, &e) == 0 &&
                                                    !p.hidden && !p.deleted
                                              : store_chat_get(s->st, id, &c, &e) == 0 &&
                                                    !c.hidden);
        if (!found) {
            reply_error(h, 404, kind[0] == 'p' ? "no such post" : "no such chat line");
            goto out;
        }
        r.target = id;
    } else if (kind && strcmp(kind, "player") == 0) {
        store_player p;
        if (!name || strlen(name) > STORE_NAME_MAX ||
            store_player_by_name(s->st, name, &p, NULL, &e) != 0) {
            reply_error(h, 404, "no such player");
            goto out;
        }
        r.target = p.id;
    } else {
        reply_error(h, 400, "want kind: \"post\", \"chat\" or \"player\"");
        goto out;
    }
    char key[64];
    snprintf(key, sizeof key, "reports:%lld", (long long)me.id);
    int burst = s->cfg.limits[LIM_REPORTS];
    int64_t mono = net_mono_ms();
    if (!quota_take(s->quota, key, burst, 3600000, mono)) {
        reply_limited(h, quota_retry_s(s->quota, key, burst, 3600000, mono),
                      "too many reports; try again later");
        goto out;
    }
    r.reporter = me.id;
    snprintf(r.kind, sizeof r.kind, "%s", kind);
    snprintf(r.reason, sizeof r.reason, "%s", reason);
    int64_t id;
    if (store_report_add(s->st, &r, net_wall_ms(), &id, &e) != 0) {
        quota_refund(s->quota, key, burst, 3600000, mono);
        reply_error(h, 500, "could not store the report; try again");
    } else
        reply_json(h, 200, json_pack("{s:I}", "report", (json_int_t)id), NULL);
out:
    json_decref(body);
}

static json_t *target_json(srv *s, const store_report *r)
{
    store_err e;
    if (strcmp(r->kind, "post") == 0) {
        store_post *p = malloc(sizeof *p);
        json_t *j = json_null();
        if (p && store_post_get(s->st, r->target, p, &e) == 0)
            j = json_pack("{s:I, s:I, s:o, s:s, s:b}", "id", (json_int_t)p->id, "thread",
                          (json_int_t)p->thread, "author",
                          req_player_ref(s, p->author, p->author_name), "body", p->body, "hidden",
                          p->hidden || p->deleted);
        free(p);
        return j;
    }
    if (strcmp(r->kind, "chat") == 0) {
        store_chat c;
        if (store_chat_get(s->st, r->target, &c, &e) != 0)
            return json_null();
        return json_pack("{s:I, s:I, s:o, s:s, s:b}", "id", (json_int_t)c.id, "game",
                         (json_int_t)c.game, "author", req_player_ref(s, c.author, c.author_name),
                         "text", c.text, "hidden", c.hidden);
    }
    store_standing st;
    if (store_standing_get(s->st, r->target, &st, &e) != 0)
        return json_null();
    return json_pack("{s:o, s:I}", "player", req_player_ref(s, r->target, ""), "muted_until",
                     (json_int_t)st.muted_until);
}

static void report_list(srv *s, net_http *h, const net_request *req)
{
    char want[16];
    int status = STORE_REPORT_OPEN;
    if (req_query_param(req->query, "status", want, sizeof want) == 1) {
        if (strcmp(want, "resolved") == 0)
            status = STORE_REPORT_RESOLVED;
        else if (strcmp(want, "open") != 0) {
            reply_error(h, 400, "status is open or resolved");
            return;
        }
    }
    int page = req_query_page(req->query), total = 0;
    store_report rs[PAGE];
    store_err e;
    int n = store_reports(s->st, status, (page - 1) * PAGE, PAGE, rs, &total, &e);
    if (n < 0) {
        reply_error(h, 500, "could not read the reports");
        return;
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(
            a, json_pack("{s:I, s:s, s:o, s:s, s:I, s:s, s:o}", "id", (json_int_t)rs[i].id,
                         "kind", rs[i].kind, "reporter",
                         req_player_ref(s, rs[i].reporter, rs[i].reporter_name), "reason",
                         rs[i].reason, "created", (json_int_t)rs[i].created, "status",
                         rs[i].status == STORE_REPORT_OPEN ? "open" : "resolved", "target",
                         target_json(s, &rs[i])));
    reply_json(h, 200, json_pack("{s:o, s:i, s:i}", "reports", a, "page", page, "pages",
                                 req_pages_of(total, PAGE)),
               NULL);
}

/* --- what staff do ---------------------------------------------------------------- */

static int flag_of(net_http *h, json_t *body, const char *name, int *value)
{
    json_t *v = json_object_get(body, name);
    if (!json_is_boolean(v)) {
        char msg[64];
        snprintf(msg, sizeof msg, "want %s: true or false", name);
        reply_error(h, 400, msg);
        return -1;
    }
    *value = json_is_true(v);
    return 0;
}

static void hide_post(srv *s, net_http *h, const ident *me, int64_t id, json_t *body)
{
    int hidden, ok;
    store_err e;
    store_post *p = malloc(sizeof *p);
    const char *reason = reason_of(h, body, &ok);
    if (!ok || flag_of(h, body, "hidden", &hidden) != 0)
        goto out;
    if (!p || store_post_get(s->st, id, p, &e) != 0) {
        reply_error(h, 404, "no such post");
        goto out;
    }
    store_thread t;
    if (store_thread_get(s->st, p->thread, &t, &e) != 0) {
        reply_error(h, 404, "no such post");
        goto out;
    }
    int opening = t.first_post == p->id;
    if (store_post_set_hidden(s->st, id, hidden, &e) != 0 ||
        (opening && store_thread_set_hidden(s->st, t.id, hidden, &e) != 0)) {
        reply_error(h, 500, "could not change the post; try again");
        goto out;
    }
    char *what = malloc(STORE_TITLE_MAX + STORE_POST_MAX + 64);
    if (what)
        snprintf(what, STORE_TITLE_MAX + STORE_POST_MAX + 64, "%s%s%s by %s:\n%s",
                 opening ? "thread \"" : "", opening ? t.title : "", opening ? "\"," : "",
                 p->author_name, p->body);
    audit(s, me, hidden ? "hide-post" : "show-post", "post", id, reason, what ? what : "");
    free(what);
    reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
out:
    free(p);
}

static void hide_chat(srv *s, net_http *h, const ident *me, int64_t id, json_t *body)
{
    int hidden, ok;
    store_err e;
    store_chat c;
    const char *reason = reason_of(h, body, &ok);
    if (!ok || flag_of(h, body, "hidden", &hidden) != 0)
        return;
    if (store_chat_get(s->st, id, &c, &e) != 0) {
        reply_error(h, 404, "no such chat line");
        return;
    }
    int changed = c.hidden != hidden;
    if (store_chat_set_hidden(s->st, id, hidden, &e) != 0) {
        reply_error(h, 500, "could not change the line; try again");
        return;
    }
    c.hidden = hidden;
    char what[STORE_CHAT_MAX + 96];
    snprintf(what, sizeof what, "game %lld, %s: %s", (long long)c.game, c.author_name, c.text);
    audit(s, me, hidden ? "hide-chat" : "show-chat", "chat", id, reason, what);
    if (changed) {
        chat_line_changed(s, &c);
        if (s->hooks.chat_changed)  /* the game may be another server's */
            s->hooks.chat_changed(s, id);
    }
    reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
}

static void lock_thread(srv *s, net_http *h, const ident *me, int64_t id, json_t *body)
{
    int locked, ok;
    store_err e;
    store_thread t;
    const char *reason = reason_of(h, body, &ok);
    if (!ok || flag_of(h, body, "locked", &locked) != 0)
        return;
    if (store_thread_get(s->st, id, &t, &e) != 0) {
        reply_error(h, 404, "no such thread");
        return;
    }
    if (store_thread_set_locked(s->st, id, locked, &e) != 0) {
        reply_error(h, 500, "could not change the thread; try again");
        return;
    }
    audit(s, me, locked ? "lock-thread" : "unlock-thread", "thread", id, reason, t.title);
    reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
}

static int player_named(srv *s, net_http *h, const char *name, store_player *p)
{
    store_err e;
    if (!name[0] || strlen(name) > STORE_NAME_MAX ||
        store_player_by_name(s->st, name, p, NULL, &e) != 0) {
        reply_error(h, 404, "no such player");
        return -1;
    }
    return 0;
}

/* Only an admin acts on staff: a moderator mutes players, never a
 * moderator (itself included) nor an admin, so that no moderator can
 * silence the people who oversee it or each other; an admin mutes anyone. */
static void mute(srv *s, net_http *h, const ident *me, int my_role, const char *name,
                 json_t *body)
{
    int ok;
    store_player p;
    store_standing target;
    store_err e;
    const char *reason = reason_of(h, body, &ok);
    json_t *m = json_object_get(body, "minutes");
    if (!ok)
        return;
    if (!json_is_integer(m) || json_integer_value(m) < 0 ||
        json_integer_value(m) > MAX_MUTE_MINUTES) {
        reply_error(h, 400, "want minutes: 0 (unmute) to 525600");
        return;
    }
    if (player_named(s, h, name, &p) != 0)
        return;
    if (store_standing_get(s->st, p.id, &target, &e) != 0) {
        reply_error(h, 500, "could not read the player");
        return;
    }
    if (target.role != STORE_ROLE_PLAYER && my_role != STORE_ROLE_ADMIN) {
        reply_error(h, 403, "only an admin may mute staff");
        return;
    }
    json_int_t minutes = json_integer_value(m);
    int64_t until = minutes ? net_wall_ms() + (int64_t)minutes * 60000 : 0;
    if (store_mute_set(s->st, p.id, until, &e) != 0) {
        reply_error(h, 500, "could not mute; try again");
        return;
    }
    char what[96];
    snprintf(what, sizeof what, "%s for %lld minutes", p.name, (long long)minutes);
    audit(s, me, minutes ? "mute" : "unmute", "player", p.id, reason, what);
    reply_json(h, 200, json_pack("{s:I}", "muted_until", (json_int_t)until), NULL);
}

static void set_role(srv *s, net_http *h, const ident *me, const char *name, json_t *body)
{
    store_player p;
    store_standing st;
    store_err e;
    int role = req_role_parse(json_string_value(json_object_get(body, "role")));
    if (role < 0) {
        reply_error(h, 400, "want role: \"player\", \"moderator\" or \"admin\"");
        return;
    }
    if (player_named(s, h, name, &p) != 0)
        return;
    if (p.is_guest || p.is_bot) {
        reply_error(h, 400, "guests and bots hold no role");
        return;
    }
    if (store_standing_get(s->st, p.id, &st, &e) != 0) {
        reply_error(h, 500, "could not read the player");
        return;
    }
    if (st.role == STORE_ROLE_ADMIN && role != STORE_ROLE_ADMIN &&
        store_role_count(s->st, STORE_ROLE_ADMIN, &e) <= 1) {
        reply_error(h, 409, "the last admin cannot step down here (use citadel admin)");
        return;
    }
    if (store_role_set(s->st, p.id, role, &e) != 0) {
        reply_error(h, 500, "could not change the role; try again");
        return;
    }
    char what[96];
    snprintf(what, sizeof what, "%s: %s -> %s", p.name, req_role_name(st.role),
             req_role_name(role));
    audit(s, me, "role", "player", p.id, "", what);
    reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
}

static void close_account(srv *s, net_http *h, const ident *me, const char *name, json_t *body)
{
    int ok;
    store_player p;
    store_standing st;
    store_err e;
    const char *reason = reason_of(h, body, &ok);
    if (!ok || player_named(s, h, name, &p) != 0)
        return;
    if (p.is_bot || store_standing_get(s->st, p.id, &st, &e) != 0) {
        reply_error(h, 400, "bots' accounts are not closed here");
        return;
    }
    if (st.role == STORE_ROLE_ADMIN) {
        reply_error(h, 409, "an admin's account is closed only after its role is revoked");
        return;
    }
    if (store_account_close(s->st, p.id, &e) != 0) {
        reply_error(h, 500, "could not close the account; try again");
        return;
    }
    /* its connections and Bot API streams end with it, here and elsewhere */
    revoke_end(s, &(revoked){.kind = REVOKE_PLAYER, .player = p.id});
    audit(s, me, "close-account", "player", p.id, reason, p.name);
    reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
}

static void audit_list(srv *s, net_http *h, const net_request *req)
{
    int page = req_query_page(req->query), total = 0;
    store_audit_row *rows = malloc(PAGE * sizeof *rows);
    store_err e;
    int n = rows ? store_audit(s->st, (page - 1) * PAGE, PAGE, rows, &total, &e) : -1;
    if (n < 0) {
        free(rows);
        reply_error(h, 500, "could not read the audit log");
        return;
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(
            a, json_pack("{s:I, s:o, s:s, s:s, s:I, s:s, s:I}", "id", (json_int_t)rows[i].id,
                         "actor",
                         rows[i].actor ? req_player_ref(s, rows[i].actor, rows[i].actor_name)
                                       : json_null(),
                         "action", rows[i].action, "target_kind", rows[i].target_kind, "target",
                         (json_int_t)rows[i].target, "detail", rows[i].detail, "created",
                         (json_int_t)rows[i].created));
    free(rows);
    reply_json(h, 200, json_pack("{s:o, s:i, s:i}", "entries", a, "page", page, "pages",
                                 req_pages_of(total, PAGE)),
               NULL);
}

/* "NAME/what" of a path: the name into name, the rest returned; NULL if none. */
static const char *name_then(const char *p, char *name, size_t size)
{
    const char *slash = strchr(p, '/');
    size_t n = slash ? (size_t)(slash - p) : 0;
    if (!slash || n == 0 || n >= size)
        return NULL;
    memcpy(name, p, n);
    name[n] = 0;
    return slash;
}

void moderation_http(srv *s, net_http *h, const net_request *req, const char *path)
{
    int get = strcmp(req->method, "GET") == 0, post = strcmp(req->method, "POST") == 0;
    if (strcmp(path, "/reports") == 0) {
        if (post)
            report_new(s, h, req);
        else
            reply_error(h, 405, "POST only");
        return;
    }
    int admin_route = strncmp(path, "/admin/", 7) == 0;
    ident me;
    store_standing st;
    if (ident_request_me(s, req, &me, &st) != 0 || !req_is_staff(&st) ||
        (admin_route && st.role != STORE_ROLE_ADMIN)) {
        reply_error(h, 403, admin_route ? "admins only" : "staff only");
        return;
    }
    const char *p = path + (admin_route ? 7 : 5); /* after "/admin/" or "/mod/" */
    const char *rest;
    char name[STORE_NAME_MAX + 1];
    int64_t id;
    if (!admin_route && strcmp(p, "reports") == 0 && get) {
        report_list(s, h, req);
        return;
    }
    if (admin_route && strcmp(p, "audit") == 0 && get) {
        audit_list(s, h, req);
        return;
    }
    if (!post) {
        reply_error(h, 404, "no such endpoint");
        return;
    }
    json_t *body = req_body_object(req, h);
    if (!body)
        return;
    store_err e;
    if (!admin_route && strncmp(p, "reports/", 8) == 0 && (id = req_path_id(p + 8, &rest)) > 0 &&
        strcmp(rest, "/resolve") == 0) {
        store_report r;
        if (store_report_get(s->st, id, &r, &e) != 0)
            reply_error(h, 404, "no such report");
        else if (store_report_resolve(s->st, id, me.id, net_wall_ms(), &e) != 0)
            reply_error(h, 500, "could not resolve the report; try again");
        else {
            audit(s, &me, "resolve-report", "report", id, r.reason, r.kind);
            reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
        }
    } else if (!admin_route && strncmp(p, "posts/", 6) == 0 &&
               (id = req_path_id(p + 6, &rest)) > 0 && strcmp(rest, "/hide") == 0)
        hide_post(s, h, &me, id, body);
    else if (!admin_route && strncmp(p, "chat/", 5) == 0 && (id = req_path_id(p + 5, &rest)) > 0 &&
             strcmp(rest, "/hide") == 0)
        hide_chat(s, h, &me, id, body);
    else if (!admin_route && strncmp(p, "threads/", 8) == 0 &&
             (id = req_path_id(p + 8, &rest)) > 0 && strcmp(rest, "/lock") == 0)
        lock_thread(s, h, &me, id, body);
    else if (!admin_route && strncmp(p, "players/", 8) == 0 &&
             (rest = name_then(p + 8, name, sizeof name)) && strcmp(rest, "/mute") == 0)
        mute(s, h, &me, st.role, name, body);
    else if (admin_route && strncmp(p, "players/", 8) == 0 &&
             (rest = name_then(p + 8, name, sizeof name)) && strcmp(rest, "/role") == 0)
        set_role(s, h, &me, name, body);
    else if (admin_route && strncmp(p, "players/", 8) == 0 &&
             (rest = name_then(p + 8, name, sizeof name)) && strcmp(rest, "/close") == 0)
        close_account(s, h, &me, name, body);
    else
        reply_error(h, 404, "no such endpoint");
    json_decref(body);
}
