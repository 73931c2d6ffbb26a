/* support.c -- Technical Support by e-mail: the contact form's tickets,
 * staff's answers, and the notifications routes (docs/api.md, "Support"
 * and "Notifications").
 *
 * The invariant: a ticket and each of its messages is in the store before
 * the sender is told it was received, and the mail that carries it is
 * queued in the same store (mail.c) before that answer too, so neither a
 * mail server that is down nor a restart loses a word. A ticket is shown
 * only to its sender's session and to staff; anyone else gets 404, as if
 * it did not exist.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/http.h"
#include "../core/srv.h"
#include "community.h"
#include "mail.h"
#define PAGE 20
#define MAX_MESSAGES 200
#define HOUR_MS 3600000LL

static const char *const kinds[] = {"bug", "account", "question", NULL};

static const char *kind_title(const char *kind)
{
    if (strcmp(kind, "bug") == 0)
        return "Bug report";
    if (strcmp(kind, "account") == 0)
        return "Account problem";
    return "Question";
}

static json_t *ticket_json(srv *s, const store_ticket *t, int staff)
{
    json_t *j = json_pack(
        "{s:I, s:s, s:s, s:s, s:I, s:I, s:o, s:i}", "id", (json_int_t)t->id, "kind", t->kind,
        "subject", t->subject, "status", t->status == STORE_TICKET_OPEN ? "open" : "closed",
        "created", (json_int_t)t->created, "updated", (json_int_t)t->updated, "from",
        t->player ? req_player_ref(s, t->player, t->player_name) : json_null(), "messages",
        t->messages);
    if (staff)
        json_object_set_new(j, "email", json_string(t->email));
    return j;
}

/* The site's address for links in mail, or "" (a relative path is still
 * better than none). */
static const char *site(srv *s)
{
    return s->cfg.site;
}

/* Mails the operator a ticket's message (new, or a follow-up). */
static void mail_operator(srv *s, const store_ticket *t, const char *body, int followup)
{
    if (!s->cfg.support_to[0])
        return;
    char subject[STORE_TITLE_MAX + 64];
    snprintf(subject, sizeof subject, "[Citadel #%lld] %s%s: %s", (long long)t->id,
             followup ? "Re: " : "", kind_title(t->kind), t->subject);
    size_t size = strlen(body) + 1024;
    char *text = malloc(size);
    if (!text)
        return;
    snprintf(text, size,
             "%s\n\n-- \nTicket %lld (%s) from %s%s%s%s\nAnswer it at %s/staff/tickets/%lld\n",
             body, (long long)t->id, t->kind, t->player_name[0] ? t->player_name : "a visitor",
             t->email[0] ? " <" : "", t->email, t->email[0] ? ">" : "", site(s),
             (long long)t->id);
    if (mail_queue(s, s->cfg.support_to, t->email, subject, text) != 0)
        fprintf(stderr, "citadel serve: ticket %lld: its mail was not queued\n",
                (long long)t->id);
    free(text);
}

/* POST /api/support */
static void support_new(srv *s, net_http *h, const net_request *req)
{
    json_t *body = req_body_object(req, h);
    if (!body)
        return;
    ident me;
    store_standing st;
    int signed_in = ident_request_me(s, req, &me, &st) == 0;
    const char *kind = json_string_value(json_object_get(body, "kind"));
    const char *subject = json_string_value(json_object_get(body, "subject"));
    const char *text = json_string_value(json_object_get(body, "body"));
    json_t *jemail = json_object_get(body, "email");
    const char *email = json_string_value(jemail);
    char err[160];
    int known = 0;
    for (int i = 0; kind && kinds[i]; i++)
        known |= strcmp(kind, kinds[i]) == 0;
    if (!known) {
        reply_error(h, 400, "want kind: \"bug\", \"account\" or \"question\"");
        goto out;
    }
    if (text_check(subject, STORE_TITLE_MAX, 0, 0, "subject", err, sizeof err) != 0 ||
        text_check(text, STORE_POST_MAX, 1, 0, "body", err, sizeof err) != 0) {
        reply_error(h, 400, err);
        goto out;
    }
    if (jemail && !json_is_null(jemail) && !email) {
        reply_error(h, 400, "want email as text");
        goto out;
    }
    if (email && !email[0])
        email = NULL;
    if (email && !mail_address_ok(email)) {
        reply_error(h, 400, "the email does not look like an address (name@example.org)");
        goto out;
    }
    if (!email && (!signed_in || me.guest)) {
        reply_error(h, 400, "give an email address, so that we can answer you");
        goto out;
    }
    if (signed_in && !req_may_write(s, &me, &st, err, sizeof err)) {
        reply_error(h, 403, err);
        goto out;
    }
    char addr[64], key[96];
    ident_request_addr(s, req, addr, sizeof addr);
    snprintf(key, sizeof key, "tickets:%s", addr);
    int burst = s->cfg.limits[LIM_TICKETS];
    int64_t mono = net_mono_ms();
    if (!quota_take(s->quota, key, burst, 3600000, mono)) {
        reply_limited(h, quota_retry_s(s->quota, key, burst, 3600000, mono),
                      "too many support messages from here; try again in an hour");
        goto out;
    }
    store_ticket t;
    memset(&t, 0, sizeof t);
    t.player = signed_in ? me.id : 0;
    snprintf(t.player_name, sizeof t.player_name, "%s", signed_in ? me.name : "");
    snprintf(t.email, sizeof t.email, "%s", email ? email : "");
    snprintf(t.kind, sizeof t.kind, "%s", kind);
    snprintf(t.subject, sizeof t.subject, "%s", subject);
    store_err e;
    if (store_ticket_add(s->st, &t, text, net_wall_ms(), &t.id, &e) != 0) {
        quota_refund(s->quota, key, burst, 3600000, mono);
        reply_error(h, 500, "could not store the message; try again");
        goto out;
    }
    mail_operator(s, &t, text, 0);
    reply_json(h, 200, json_pack("{s:I, s:b}", "ticket", (json_int_t)t.id, "received", 1), NULL);
out:
    json_decref(body);
}

/* The ticket of a request, if the visitor may see it: 0; else answered. */
static int ticket_for(srv *s, net_http *h, const net_request *req, int64_t id,
                      store_ticket *t, ident *me, store_standing *st, int *staff)
{
    store_err e;
    int signed_in = ident_request_me(s, req, me, st) == 0;
    *staff = signed_in && req_is_staff(st);
    if (id <= 0 || store_ticket_get(s->st, id, t, &e) != 0 ||
        (!*staff && (!signed_in || t->player != me->id))) {
        reply_error(h, 404, "no such ticket");
        return -1;
    }
    return 0;
}

static void ticket_page(srv *s, net_http *h, const net_request *req, int64_t id)
{
    store_ticket t;
    ident me;
    store_standing st;
    int staff;
    if (ticket_for(s, h, req, id, &t, &me, &st, &staff) != 0)
        return;
    store_ticket_msg *msgs = malloc(MAX_MESSAGES * sizeof *msgs);
    store_err e;
    int n = msgs ? store_ticket_messages(s->st, id, msgs, MAX_MESSAGES, &e) : -1;
    if (n < 0) {
        free(msgs);
        reply_error(h, 500, "could not read the ticket");
        return;
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(
            a, json_pack("{s:I, s:o, s:b, s:s, s:I}", "id", (json_int_t)msgs[i].id, "author",
                         msgs[i].author ? req_player_ref(s, msgs[i].author, msgs[i].author_name)
                                        : json_null(),
                         "staff", msgs[i].staff, "body", msgs[i].body, "created",
                         (json_int_t)msgs[i].created));
    free(msgs);
    reply_json(h, 200, json_pack("{s:o, s:o}", "ticket", ticket_json(s, &t, staff), "messages", a),
               NULL);
}

/* A sender's follow-ups are counted per account and per address
 * (ticket-replies-per-hour): each one is stored and mailed to the operator,
 * so without a count one visitor could fill both. Staff answers are not
 * counted. */
typedef struct followup_quota {
    char account[48], addr[96];
    int64_t mono;
    int retry_s;  /* after a refusal: when the bucket that refused has room */
} followup_quota;

/* Takes one follow-up from both counts: 1, or 0 (nothing taken). */
static int followup_take(srv *s, const net_request *req, const ident *me, followup_quota *fq)
{
    int burst = s->cfg.limits[LIM_TICKET_REPLIES];
    char addr[64];
    ident_request_addr(s, req, addr, sizeof addr);
    snprintf(fq->account, sizeof fq->account, "followups:%lld", (long long)me->id);
    snprintf(fq->addr, sizeof fq->addr, "followups-at:%s", addr);
    fq->mono = net_mono_ms();
    if (!quota_take(s->quota, fq->account, burst, HOUR_MS, fq->mono)) {
        fq->retry_s = quota_retry_s(s->quota, fq->account, burst, HOUR_MS, fq->mono);
        return 0;
    }
    if (!quota_take(s->quota, fq->addr, burst, HOUR_MS, fq->mono)) {
        quota_refund(s->quota, fq->account, burst, HOUR_MS, fq->mono);
        fq->retry_s = quota_retry_s(s->quota, fq->addr, burst, HOUR_MS, fq->mono);
        return 0;
    }
    return 1;
}

static void followup_refund(srv *s, const followup_quota *fq)
{
    int burst = s->cfg.limits[LIM_TICKET_REPLIES];
    quota_refund(s->quota, fq->account, burst, HOUR_MS, fq->mono);
    quota_refund(s->quota, fq->addr, burst, HOUR_MS, fq->mono);
}

static void ticket_reply(srv *s, net_http *h, const net_request *req, int64_t id)
{
    store_ticket t;
    ident me;
    store_standing st;
    int staff;
    if (ticket_for(s, h, req, id, &t, &me, &st, &staff) != 0)
        return;
    json_t *body = req_body_object(req, h);
    if (!body)
        return;
    const char *text = json_string_value(json_object_get(body, "body"));
    char err[160];
    store_err e;
    int64_t msg;
    /* staff answering their own ticket are its sender there */
    int answer = staff && t.player != me.id;
    followup_quota fq;
    if (text_check(text, STORE_POST_MAX, 1, 0, "body", err, sizeof err) != 0)
        reply_error(h, 400, err);
    else if (!req_may_write(s, &me, &st, err, sizeof err))
        reply_error(h, 403, err);
    else if (!answer && !followup_take(s, req, &me, &fq))
        reply_limited(h, fq.retry_s, "too many follow-ups; try again later");
    else if (store_ticket_reply(s->st, id, me.id, answer, text, STORE_TICKET_OPEN,
                                net_wall_ms(), &msg, &e) != 0) {
        if (!answer)
            followup_refund(s, &fq);
        reply_error(h, 500, "could not store the message; try again");
    } else {
        if (!answer)
            mail_operator(s, &t, text, 1);
        else {
            if (t.email[0]) {
                char subject[STORE_TITLE_MAX + 64];
                snprintf(subject, sizeof subject, "Re: [Citadel #%lld] %s", (long long)t.id,
                         t.subject);
                size_t size = strlen(text) + 512;
                char *mailtext = malloc(size);
                if (mailtext) {
                    char where[256] = "";
                    if (t.player)
                        snprintf(where, sizeof where,
                                 "You can read it and answer on the site: %s/support/ticket/%lld\n",
                                 site(s), (long long)t.id);
                    snprintf(mailtext, size,
                             "%s\n\n-- \n%s answered your message to Citadel's support "
                             "(ticket %lld).\n%s",
                             text, me.name, (long long)t.id, where);
                    mail_queue(s, t.email, s->cfg.support_to, subject, mailtext);
                    free(mailtext);
                }
            }
            if (t.player) {
                store_note n;
                memset(&n, 0, sizeof n);
                n.player = t.player;
                snprintf(n.kind, sizeof n.kind, "answer");
                n.from = me.id;
                snprintf(n.from_name, sizeof n.from_name, "%s", me.name);
                n.ticket = t.id;
                snprintf(n.title, sizeof n.title, "%s", t.subject);
                notify_player(s, &n);
            }
        }
        reply_json(h, 200, json_pack("{s:I}", "message", (json_int_t)msg), NULL);
    }
    json_decref(body);
}

static void ticket_close(srv *s, net_http *h, const net_request *req, int64_t id)
{
    store_ticket t;
    ident me;
    store_standing st;
    store_err e;
    /* staff only: anyone else is refused before the ticket is looked up,
     * so the answer says nothing of whether it exists */
    if (ident_request_me(s, req, &me, &st) != 0 || !req_is_staff(&st))
        reply_error(h, 403, "only staff close tickets");
    else if (store_ticket_get(s->st, id, &t, &e) != 0)
        reply_error(h, 404, "no such ticket");
    else if (store_ticket_set_status(s->st, id, STORE_TICKET_CLOSED, net_wall_ms(), &e) != 0)
        reply_error(h, 500, "could not close the ticket; try again");
    else {
        store_audit_add(s->st, me.id, "close-ticket", "ticket", id, "", net_wall_ms(), &e);
        reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
    }
}

/* GET /api/support/tickets (own) and /api/staff/tickets (everyone's) */
static void ticket_list(srv *s, net_http *h, const net_request *req, int all)
{
    ident me;
    store_standing st;
    if (ident_request_me(s, req, &me, &st) != 0) {
        if (all)
            reply_error(h, 403, "staff only");
        else
            reply_json(h, 200, json_pack("{s:[]}", "tickets"), NULL);
        return;
    }
    if (all && !req_is_staff(&st)) {
        reply_error(h, 403, "staff only");
        return;
    }
    int status = -1;
    char want[16];
    if (all) {
        status = STORE_TICKET_OPEN;
        if (req_query_param(req->query, "status", want, sizeof want) == 1) {
            if (strcmp(want, "closed") == 0)
                status = STORE_TICKET_CLOSED;
            else if (strcmp(want, "all") == 0)
                status = -1;
            else if (strcmp(want, "open") != 0) {
                reply_error(h, 400, "status is open, closed or all");
                return;
            }
        }
    }
    int page = all ? req_query_page(req->query) : 1;
    int max = all ? PAGE : 100;
    store_ticket *ts = malloc((size_t)max * sizeof *ts);
    store_err e;
    int total = 0;
    int n = ts ? store_tickets(s->st, all ? 0 : me.id, status, (page - 1) * max, max, ts,
                               &total, &e)
               : -1;
    if (n < 0) {
        free(ts);
        reply_error(h, 500, "could not read the tickets");
        return;
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, ticket_json(s, &ts[i], all));
    free(ts);
    if (all)
        reply_json(h, 200, json_pack("{s:o, s:i, s:i}", "tickets", a, "page", page, "pages",
                                     req_pages_of(total, PAGE)),
                   NULL);
    else
        reply_json(h, 200, json_pack("{s:o}", "tickets", a), NULL);
}

static void notifications(srv *s, net_http *h, const net_request *req, int post)
{
    ident me;
    store_err e;
    if (ident_request_me(s, req, &me, NULL) != 0) {
        if (post)
            reply_error(h, 401, "sign in first");
        else
            reply_json(h, 200, json_pack("{s:i, s:[]}", "unread", 0, "notifications"), NULL);
        return;
    }
    if (post) {
        json_t *body = req_body_object(req, h);
        if (!body)
            return;
        json_t *upto = json_object_get(body, "upto");
        if (upto && !json_is_integer(upto))
            reply_error(h, 400, "want upto as a notification's id");
        else if (store_notes_read(s->st, me.id, upto ? json_integer_value(upto) : 0, &e) != 0)
            reply_error(h, 500, "could not mark them read; try again");
        else
            reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
        json_decref(body);
        return;
    }
    store_note *notes = malloc(50 * sizeof *notes);
    int unread = 0;
    int n = notes ? store_notes(s->st, me.id, 50, notes, &unread, &e) : -1;
    if (n < 0)
        reply_error(h, 500, "could not read the notifications");
    else
        reply_json(h, 200, json_pack("{s:i, s:o}", "unread", unread, "notifications",
                                     notes_json(s, notes, n)),
                   NULL);
    free(notes);
}

void support_http(srv *s, net_http *h, const net_request *req, const char *path)
{
    int get = strcmp(req->method, "GET") == 0, post = strcmp(req->method, "POST") == 0;
    const char *rest;
    int64_t id;
    if (strcmp(path, "/support") == 0 && post)
        support_new(s, h, req);
    else if (strcmp(path, "/support/tickets") == 0 && get)
        ticket_list(s, h, req, 0);
    else if (strcmp(path, "/staff/tickets") == 0 && get)
        ticket_list(s, h, req, 1);
    else if (strncmp(path, "/support/tickets/", 17) == 0 &&
             (id = req_path_id(path + 17, &rest)) > 0) {
        if (!rest[0] && get)
            ticket_page(s, h, req, id);
        else if (strcmp(rest, "/reply") == 0 && post)
            ticket_reply(s, h, req, id);
        else if (strcmp(rest, "/close") == 0 && post)
            ticket_close(s, h, req, id);
        else
            reply_error(h, 404, "no such endpoint");
    } else if (strcmp(path, "/notifications") == 0 && get)
        notifications(s, h, req, 0);
    else if (strcmp(path, "/notifications/read") == 0 && post)
        notifications(s, h, req, 1);
    else
        reply_error(h, 404, "no such endpoint");
}
