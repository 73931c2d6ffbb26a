/* test_support.c -- support tickets of `citadel serve` over the wire, and the
 * mail they make, against docs/api.md ("The community": Support,
 * Notifications; "Limits"): who must give an address, the checks of every
 * field with nothing stored or mailed after a refusal, the mail to
 * --support-to (Reply-To the sender, the sender's words exactly) taken by
 * an SMTP server inside this test (smtp_sink.c), staff listing and
 * answering (a mail and an `answer` notification to the sender, the answer
 * shown on the ticket), who may see and close a ticket, follow-ups that
 * reopen it, support-per-hour, ticket-replies-per-hour, the count of every
 * write (writes-per-minute), and the mail queue: a mail waits while the
 * mail server is down and goes once it is up, also across a server killed
 * and started again, and goes once.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "community_wire.h"
#include "smtp_sink.h"
#include "wire.h"

static int sink_port;
static char group_args[1024];
static char mia[80];   /* a moderator */

/* The group's server mails through an SMTP server inside this test. */
static int sink_up(void)
{
    sink_port = smtp_sink_start(0);
    if (sink_port < 0) {
        fprintf(stderr, "the SMTP sink did not start\n");
        return -1;
    }
    snprintf(group_args, sizeof group_args, NO_LIMITS " " MAIL_ARGS_FMT, sink_port);
    return 0;
}

static const fixture_spec fixture = { .args = group_args, .before = sink_up,
                                      .after = smtp_sink_stop };

static void staff(void)
{
    if (!mia[0])
        make_staff("mia", "moderator", mia);
}

/* POST /api/support; the ticket's id ({"ticket", "received": true}). */
static json_int_t send_ticket(const char *cookie, const char *kind, const char *subject,
                              const char *body, const char *email)
{
    json_t *b = json_pack("{s:s, s:s, s:s}", "kind", kind, "subject", subject, "body", body);
    if (email)
        json_object_set_new(b, "email", json_string(email));
    json_t *a = ok_call("POST", "/api/support", cookie, b);
    assert_true(json_is_true(json_object_get(a, "received")));
    json_int_t id = jint(a, "ticket");
    json_decref(a);
    return id;
}

static json_t *ticket_in(json_t *list, json_int_t id)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(list, "tickets"), i, t) if (jint(t, "id") == id) return t;
    return NULL;
}

/* GET /api/staff/tickets?status=S (200 wanted, as staff). */
static json_t *staff_list(const char *status)
{
    char path[128];
    return get_json(path_fmt(path, sizeof path, "/api/staff/tickets?status=%s", status), mia, 200);
}

static json_t *ticket_page(json_int_t id, const char *cookie, int want)
{
    char path[128];
    return get_json(path_fmt(path, sizeof path, "/api/support/tickets/%lld", (long long)id), cookie,
                    want);
}

static void test_staff_are_made_on_the_command_line(void **state)
{
    (void)state;
    staff();
    char adm[80], pl[80], role[32];
    make_staff("ada", "admin", adm);
    signup("plain", pl);
    long long muted = -1;
    me_of(pl, role, sizeof role, &muted);
    assert_string_equal(role, "player");
    assert_int_equal(muted, 0);
}

/* Visitors and guests must give an address; every field is checked;
 * the ticket is mailed to --support-to with Reply-To the sender and the
 * sender's words as they wrote them. */
static void test_support_from_visitors_and_guests(void **state)
{
    (void)state;
    staff();
    char g[80], err[256];
    guest(g);
    int base = smtp_sink_count();
    const char *no_mail[] = { NULL, g };
    for (int k = 0; k < 2; k++) {
        refused(400, "POST", "/api/support", no_mail[k],
                json_pack("{s:s, s:s, s:s}", "kind", "question", "subject", "quuxrefused",
                          "body", "no address given"),
                NULL);   /* required (docs: "email is required of visitors and guests") */
    }
    char long_mail[300];
    memset(long_mail, 'a', 250);
    snprintf(long_mail + 250, sizeof long_mail - 250, "@example.org");   /* 262 bytes */
    char *long_subject = calloc(1, 202), *long_body = calloc(1, 10002);
    memset(long_subject, 's', 201);
    memset(long_body, 'b', 10001);
    struct {
        const char *kind, *subject, *body, *email, *field;
    } bad[] = {
        { "question", "quuxrefused", "words", "not-an-address", NULL },
        { "question", "quuxrefused", "words", "two@@example.org", NULL },
        { "question", "quuxrefused", "words", "a b@example.org", NULL },
        { "question", "quuxrefused", "words", "<x@example.org>", NULL },
        { "question", "quuxrefused", "words", long_mail, "email" },
        { "complaint", "quuxrefused", "words", "vis@example.net", "kind" },
        { "question", long_subject, "quuxrefused", "vis@example.net", "subject" },
        { "question", "", "quuxrefused", "vis@example.net", "subject" },
        { "question", "two\nlines quuxrefused", "words", "vis@example.net", "subject" },
        { "question", "quuxrefused", long_body, "vis@example.net", "body" },
        { "question", "quuxrefused", "", "vis@example.net", "body" },
        { "question", "quuxrefused", "bell \a", "vis@example.net", "body" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        refused(400, "POST", "/api/support", NULL,
                json_pack("{s:s, s:s, s:s, s:s}", "kind", bad[i].kind, "subject", bad[i].subject,
                          "body", bad[i].body, "email", bad[i].email),
                err);
        if (bad[i].field && !strstr(err, bad[i].field))
            fail_msg("support case %zu: the error '%s' does not name %s", i, err, bad[i].field);
    }
    static const char *const raws[] = {
        "{\"kind\":\"question\",\"subject\":\"quuxrefused\",\"body\":5,\"email\":\"v@example.net\"}",
        "{\"kind\":\"question\",\"subject\":\"quuxrefused\",\"body\":\"x\",\"email\":[1]}",
        "{\"kind\":\"question\",\"subject\":\"quuxrefused\"",
        "{\"kind\":\"question\",\"subject\":\"quux\xff\",\"body\":\"x\",\"email\":\"v@example.net\"}",
        "[]",
    };
    for (size_t i = 0; i < sizeof raws / sizeof raws[0]; i++)
        assert_int_equal(call_raw("POST", "/api/support", NULL, raws[i], NULL), 400);
    free(long_subject);
    free(long_body);

    const char *words = "My pawn vanished at move 12; why? <b>bold</b> & \"quotes\" 'too' "
                        "\xc3\xbc" "n" "\xc3\xaf" "c" "\xc3\xb6" "d" "\xc3\xa9";
    char body[400];
    snprintf(body, sizeof body, "%s\n.a line that starts with a dot\nthe end", words);
    json_int_t id = send_ticket(NULL, "question", "Lost pawn", body, "vis@example.net");
    json_int_t gid = send_ticket(g, "account", "Guest asks", "quuxguest question",
                                 "guest@example.net");
    int i = mail_with("My pawn vanished at move 12", base, WAIT);
    if (i < 0)
        fail_msg("no mail of the ticket came to the SMTP server");
    const smtp_mail *m = smtp_sink_get(i);
    char h[512];
    assert_true(mail_to(m, "ops@example.org"));
    assert_true(smtp_mail_header(m, "To", h, sizeof h));
    assert_non_null(strstr(h, "ops@example.org"));
    assert_true(smtp_mail_header(m, "Reply-To", h, sizeof h));
    assert_non_null(strstr(h, "vis@example.net"));
    assert_true(smtp_mail_header(m, "From", h, sizeof h));
    assert_non_null(strstr(h, "citadel@example.org"));
    const char *mb = smtp_mail_body(m);
    if (!strstr(mb, words))
        fail_msg("the mail does not hold the sender's words as written:\n%s", mb);
    assert_non_null(strstr(mb, "\r\n.a line that starts with a dot\r\n"));
    assert_true(mail_with("quuxguest", base, WAIT) >= 0);
    assert_int_equal(mail_with("quuxrefused", base, 0), -1);   /* refusals mailed nothing */

    /* staff see both, with the addresses; nothing of the refusals */
    json_t *list = staff_list("all");
    json_t *t = ticket_in(list, id);
    assert_non_null(t);
    assert_string_equal(json_string_value(json_object_get(t, "email")), "vis@example.net");
    assert_true(json_is_null(json_object_get(t, "from")));
    assert_string_equal(json_string_value(json_object_get(t, "kind")), "question");
    assert_string_equal(json_string_value(json_object_get(t, "subject")), "Lost pawn");
    assert_string_equal(json_string_value(json_object_get(t, "status")), "open");
    t = ticket_in(list, gid);
    assert_non_null(t);
    assert_true(json_object_get(t, "from") != NULL);
    char *text = json_dumps(list, 0);
    assert_null(strstr(text, "quuxrefused"));
    free(text);
    json_decref(list);
    json_t *tp = ticket_page(id, mia, 200);
    json_t *msg = json_array_get(json_object_get(tp, "messages"), 0);
    assert_string_equal(json_string_value(json_object_get(msg, "body")), body);
    assert_true(json_is_false(json_object_get(msg, "staff")));
    json_decref(tp);
    /* the guest sees its own ticket */
    json_t *mine = get_json("/api/support/tickets", g, 200);
    assert_non_null(ticket_in(mine, gid));
    assert_null(ticket_in(mine, id));
    json_decref(mine);
}

/* Staff answer: the sender gets a mail, an `answer` notification (live
 * too) and sees the answer; nobody else sees the ticket; staff close it,
 * a follow-up reopens it and is mailed to --support-to. */
static void test_support_answered_by_staff(void **state)
{
    (void)state;
    staff();
    char sam[80], tom[80], g[80], path[128];
    signup("sam", sam);
    signup("tom", tom);
    guest(g);
    json_int_t id = send_ticket(sam, "bug", "Board bug", "The board ate my post.",
                                "sam@example.net");
    json_int_t quiet = send_ticket(sam, "question", "No address", "quuxnoaddress", NULL);

    json_t *mine = get_json("/api/support/tickets", sam, 200);
    json_t *t = ticket_in(mine, id);
    assert_non_null(t);
    assert_string_equal(json_string_value(json_object_get(t, "kind")), "bug");
    assert_string_equal(json_string_value(json_object_get(t, "subject")), "Board bug");
    assert_string_equal(json_string_value(json_object_get(t, "status")), "open");
    assert_string_equal(name_of(json_object_get(t, "from")), "sam");
    jint(t, "created");
    jint(t, "updated");
    assert_null(json_object_get(t, "email"));   /* for staff only */
    assert_non_null(ticket_in(mine, quiet));
    json_decref(mine);
    mine = get_json("/api/support/tickets", tom, 200);
    assert_null(ticket_in(mine, id));
    json_decref(mine);

    json_t *tp = ticket_page(id, sam, 200);
    assert_null(json_object_get(json_object_get(tp, "ticket"), "email"));
    json_t *msgs = json_object_get(tp, "messages");
    assert_int_equal(json_array_size(msgs), 1);
    assert_string_equal(name_of(json_object_get(json_array_get(msgs, 0), "author")), "sam");
    assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 0), "body")),
                        "The board ate my post.");
    json_decref(tp);
    json_decref(ticket_page(id, tom, 404));
    json_decref(ticket_page(id, g, 404));
    json_decref(ticket_page(id, NULL, 404));
    json_decref(get_json("/api/staff/tickets", sam, 403));
    json_decref(get_json("/api/staff/tickets?status=all", tom, 403));
    json_decref(get_json("/api/staff/tickets", NULL, 403));

    json_t *open = staff_list("open"), *closed = staff_list("closed");
    t = ticket_in(open, id);
    assert_non_null(t);
    assert_string_equal(json_string_value(json_object_get(t, "email")), "sam@example.net");
    assert_null(ticket_in(closed, id));
    assert_int_equal(jint(open, "page"), 1);
    assert_true(jint(open, "pages") >= 1);
    json_decref(open);
    json_decref(closed);

    /* the answer */
    ws_conn *c = connect_as(sam, NULL);
    int base = smtp_sink_count();
    json_t *a = ok_call("POST", path_fmt(path, sizeof path, "/api/support/tickets/%lld/reply",
                                         (long long)id),
                        mia, json_pack("{s:s}", "body", "Fixed it; try again, sam."));
    jint(a, "message");
    json_decref(a);
    json_t *n = ws_expect(c, "notify", WAIT);
    assert_non_null(n);
    json_t *note = json_object_get(n, "notification");
    assert_string_equal(json_string_value(json_object_get(note, "kind")), "answer");
    assert_int_equal(jint(note, "ticket"), id);
    assert_string_equal(json_string_value(json_object_get(note, "title")), "Board bug");
    json_t *from = json_object_get(note, "from");
    assert_true(json_is_null(from) || strcmp(name_of(from), "mia") == 0);
    json_decref(n);
    ws_close(c);
    json_t *notes = get_json("/api/notifications", sam, 200);
    assert_int_equal(jint(notes, "unread"), 1);
    assert_int_equal(jint(json_array_get(json_object_get(notes, "notifications"), 0), "ticket"), id);
    json_decref(notes);
    int i = mail_with("Fixed it; try again, sam.", base, WAIT);
    if (i < 0)
        fail_msg("the answer was not mailed to the sender");
    assert_true(mail_to(smtp_sink_get(i), "sam@example.net"));
    tp = ticket_page(id, sam, 200);
    msgs = json_object_get(tp, "messages");
    assert_int_equal(json_array_size(msgs), 2);
    assert_true(json_is_true(json_object_get(json_array_get(msgs, 1), "staff")));
    assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 1), "body")),
                        "Fixed it; try again, sam.");
    json_decref(tp);

    /* an answer to a ticket without an address: no mail, still the notification */
    a = ok_call("POST", path_fmt(path, sizeof path, "/api/support/tickets/%lld/reply",
                                 (long long)quiet),
                mia, json_pack("{s:s}", "body", "quuxquietanswer"));
    json_decref(a);
    notes = get_json("/api/notifications", sam, 200);
    assert_int_equal(jint(notes, "unread"), 2);
    json_decref(notes);

    /* nobody else replies or closes */
    int st = call("POST", path_fmt(path, sizeof path, "/api/support/tickets/%lld/reply",
                                   (long long)id),
                  tom, json_pack("{s:s}", "body", "tom butts in"), NULL);
    assert_true(st == 403 || st == 404);
    refused(403, "POST", path_fmt(path, sizeof path, "/api/support/tickets/%lld/close",
                                  (long long)id),
            sam, NULL, NULL);
    refused(403, "POST", path_fmt(path, sizeof path, "/api/support/tickets/%lld/close",
                                  (long long)id),
            tom, NULL, NULL);
    tp = ticket_page(id, sam, 200);
    assert_int_equal(json_array_size(json_object_get(tp, "messages")), 2);
    assert_string_equal(json_string_value(json_object_get(json_object_get(tp, "ticket"), "status")),
                        "open");
    json_decref(tp);

    json_t *ok = ok_call("POST", path_fmt(path, sizeof path, "/api/support/tickets/%lld/close",
                                          (long long)id),
                         mia, NULL);
    assert_true(json_is_true(json_object_get(ok, "ok")));
    json_decref(ok);
    tp = ticket_page(id, sam, 200);
    assert_string_equal(json_string_value(json_object_get(json_object_get(tp, "ticket"), "status")),
                        "closed");
    json_decref(tp);
    closed = staff_list("closed");
    assert_non_null(ticket_in(closed, id));
    json_decref(closed);
    open = staff_list("open");
    assert_null(ticket_in(open, id));
    json_decref(open);

    /* the sender's follow-up reopens it and goes to --support-to */
    base = smtp_sink_count();
    a = ok_call("POST", path_fmt(path, sizeof path, "/api/support/tickets/%lld/reply",
                                 (long long)id),
                sam, json_pack("{s:s}", "body", "Still broken after all, sorry."));
    json_decref(a);
    tp = ticket_page(id, sam, 200);
    assert_string_equal(json_string_value(json_object_get(json_object_get(tp, "ticket"), "status")),
                        "open");
    assert_int_equal(json_array_size(json_object_get(tp, "messages")), 3);
    json_decref(tp);
    i = mail_with("Still broken after all, sorry.", base, WAIT);
    if (i < 0)
        fail_msg("the follow-up was not mailed");
    assert_true(mail_to(smtp_sink_get(i), "ops@example.org"));
}

static void test_support_bad_ids(void **state)
{
    (void)state;
    staff();
    char path[256];
    static const char *const ids[] = { "abc", "-1", "99999999999999999999", "0", "1.5", "999999" };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        int st = call("GET", path_fmt(path, sizeof path, "/api/support/tickets/%s", ids[i]), mia,
                      NULL, NULL);
        assert_true(st == 400 || st == 404);
        st = call("POST", path_fmt(path, sizeof path, "/api/support/tickets/%s/reply", ids[i]),
                  mia, json_pack("{s:s}", "body", "to nowhere"), NULL);
        assert_true(st == 400 || st == 404);
        st = call("POST", path_fmt(path, sizeof path, "/api/support/tickets/%s/close", ids[i]),
                  mia, NULL, NULL);
        assert_true(st == 400 || st == 404);
    }
    refused(404, "GET", "/api/support/tickets/999999", mia, NULL, NULL);
    int st = call("GET", "/api/staff/tickets?status=nonsense", mia, NULL, NULL);
    assert_true(st == 200 || st == 400);
    /* another site's page can neither send a ticket nor answer one */
    int base = smtp_sink_count();
    client_headers("Origin: http://evil.example\r\n");
    refused(403, "POST", "/api/support", NULL,
            json_pack("{s:s, s:s, s:s, s:s}", "kind", "bug", "subject", "Evil", "body",
                      "quuxevilticket", "email", "evil@example.net"),
            NULL);
    client_headers(NULL);
    json_t *list = staff_list("all");
    char *text = json_dumps(list, 0);
    assert_null(strstr(text, "Evil"));
    free(text);
    json_decref(list);
    assert_int_equal(mail_with("quuxevilticket", base, 1000), -1);
}

/* support-per-hour: per address. */
static void test_support_per_hour(void **state)
{
    (void)state;
    server_proc saved;
    fixture_own_server(&saved, NO_LIMITS " --limit support-per-hour=2");
    send_ticket(NULL, "question", "One", "first", "one@example.net");
    send_ticket(NULL, "question", "Two", "second", "two@example.net");
    refused(429, "POST", "/api/support", NULL,
            json_pack("{s:s, s:s, s:s, s:s}", "kind", "question", "subject", "Three", "body",
                      "third", "email", "three@example.net"),
            NULL);
    client_source("127.0.0.7");   /* another address has its own count */
    send_ticket(NULL, "question", "Elsewhere", "from another address", "four@example.net");
    client_source(NULL);
    fixture_own_end(&saved);
}

static int mails_with(const char *needle, int from);

/* ticket-replies-per-hour (default 30): a burst of follow-ups to one's own
 * ticket is refused with 429 past the limit, and nothing past it is stored
 * or mailed; the count is per account and per address. */
static void test_followups_per_hour(void **state)
{
    (void)state;
    char args[1024], pat[80], path[128];
    snprintf(args, sizeof args, NO_LIMITS " " MAIL_ARGS_FMT, sink_port);
    server_proc saved;
    fixture_own_server(&saved, args);
    signup("patsy", pat);
    json_int_t id = send_ticket(pat, "bug", "Flood", "quuxflood opening", NULL);
    path_fmt(path, sizeof path, "/api/support/tickets/%lld/reply", (long long)id);
    int base = smtp_sink_count(), limit = 30, stored = 0, refused_n = 0;
    for (int i = 0; i < limit + 10; i++) {
        char text[64];
        snprintf(text, sizeof text, "quuxfollowup %d", i);
        int status = call("POST", path, pat, json_pack("{s:s}", "body", text), NULL);
        if (status == 200)
            stored++;
        else {
            assert_int_equal(status, 429);
            refused_n++;
        }
    }
    assert_int_equal(stored, limit);
    assert_int_equal(refused_n, 10);
    json_t *tp = ticket_page(id, pat, 200);
    assert_int_equal(json_array_size(json_object_get(tp, "messages")), 1 + limit);
    json_decref(tp);
    /* the same address, another account: its address has used its hour */
    char kim[80];
    signup("kimber", kim);
    json_int_t other = send_ticket(kim, "bug", "Other", "quuxother opening", NULL);
    refused(429, "POST",
            path_fmt(path, sizeof path, "/api/support/tickets/%lld/reply", (long long)other),
            kim, json_pack("{s:s}", "body", "quuxfollowup kim"), NULL);
    client_source("127.0.0.7");   /* from elsewhere kim has its own hour */
    json_decref(ok_call("POST", path, kim, json_pack("{s:s}", "body", "quuxfollowup elsewhere")));
    client_source(NULL);
    /* staff answers are not counted */
    char mo[80];
    make_staff("moira", "moderator", mo);
    json_decref(ok_call("POST",
                        path_fmt(path, sizeof path, "/api/support/tickets/%lld/reply",
                                 (long long)id),
                        mo, json_pack("{s:s}", "body", "quuxanswer from staff")));
    for (int waited = 0; mails_with("quuxfollowup", base) < limit + 1 && waited < WAIT;
         waited += 100)
        sleep_ms(100);
    sleep_ms(1000);   /* and no more come */
    assert_int_equal(mails_with("quuxfollowup", base), limit + 1);
    fixture_own_end(&saved);
}

/* writes-per-minute, address-writes-per-minute: every request that may
 * write is counted per account and per address, whatever its route (here
 * one with no quota of its own), refused with 429 past the limit. */
static void test_every_write_is_counted(void **state)
{
    (void)state;
    server_proc saved;
    char una[80], ursula[80];
    fixture_own_server(&saved, "--limit signups-per-hour=0 --limit guests-per-hour=0 "
                               "--limit writes-per-minute=3 "
                               "--limit address-writes-per-minute=5");
    client_source("127.0.0.8");
    signup("unamae", una);   /* a write of the address's */
    for (int i = 0; i < 3; i++)
        json_decref(ok_call("POST", "/api/notifications/read", una, json_pack("{}")));
    refused(429, "POST", "/api/notifications/read", una, json_pack("{}"), NULL);
    client_source("127.0.0.9");   /* the account's count follows it */
    refused(429, "POST", "/api/notifications/read", una, json_pack("{}"), NULL);
    signup("ursula", ursula);
    client_source("127.0.0.8");   /* this address has made 5 */
    refused(429, "POST", "/api/notifications/read", ursula, json_pack("{}"), NULL);
    refused(429, "POST", "/api/support", NULL,
            json_pack("{s:s, s:s, s:s, s:s}", "kind", "question", "subject", "S", "body", "b",
                      "email", "s@example.net"),
            NULL);
    client_source(NULL);
    fixture_own_end(&saved);
}

/* A port where nothing listens (the sink's, once it stopped). */
static int dead_port(void)
{
    int p = smtp_sink_start(0);
    assert_true(p > 0);
    smtp_sink_stop();
    return p;
}

/* The mails from `from` on whose data hold needle. */
static int mails_with(const char *needle, int from)
{
    int n = 0;
    for (int i = from; i < smtp_sink_count(); i++)
        n += strstr(smtp_sink_get(i)->data, needle) != NULL;
    return n;
}

/* The mail server is down: the ticket is still received, the mail waits
 * in the queue, and goes once the mail server is up. */
static void test_mail_waits_while_the_mail_server_is_down(void **state)
{
    (void)state;
    smtp_sink_stop();
    int port = dead_port();
    char args[1024];
    snprintf(args, sizeof args, NO_LIMITS " " MAIL_ARGS_FMT, port);
    server_proc saved;
    fixture_own_server(&saved, args);
    int base = smtp_sink_count();
    send_ticket(NULL, "bug", "While down", "quuxwhiledown please", "down@example.net");
    sleep_ms(1500);   /* an attempt or two fail meanwhile */
    assert_int_equal(smtp_sink_start(port), port);
    int i = mail_with("quuxwhiledown", base, 20000);
    if (i < 0)
        fail_msg("the mail did not go once the mail server was up (log: %s)", server.log);
    assert_true(mail_to(smtp_sink_get(i), "ops@example.org"));
    sleep_ms(1500);
    assert_int_equal(mails_with("quuxwhiledown", base), 1);   /* once */
    fixture_own_end(&saved);
    smtp_sink_stop();
    assert_int_equal(smtp_sink_start(sink_port), sink_port);
}

/* A server killed while a mail waits sends it after it starts again. */
static void test_mail_waits_across_a_restart(void **state)
{
    (void)state;
    smtp_sink_stop();
    int port = dead_port();
    char args[1024];
    snprintf(args, sizeof args, NO_LIMITS " " MAIL_ARGS_FMT, port);
    server_proc saved;
    fixture_own_server(&saved, args);
    int base = smtp_sink_count();
    send_ticket(NULL, "bug", "Across a restart", "quuxacrossrestart please",
                "restart@example.net");
    sleep_ms(300);
    char db[sizeof server.db];
    memcpy(db, server.db, sizeof db);
    server_kill(&server, SIGKILL);
    if (server_start(&server, server_binary(), db, args) != 0)
        fail_msg("the server did not start again on %s", db);
    assert_int_equal(smtp_sink_start(port), port);
    int i = mail_with("quuxacrossrestart", base, 20000);
    if (i < 0)
        fail_msg("the waiting mail was not sent after the restart (log: %s)", server.log);
    assert_true(mail_to(smtp_sink_get(i), "ops@example.org"));
    sleep_ms(1500);
    assert_int_equal(mails_with("quuxacrossrestart", base), 1);
    fixture_own_end(&saved);
    smtp_sink_stop();
    assert_int_equal(smtp_sink_start(sink_port), sink_port);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_staff_are_made_on_the_command_line),
        cmocka_unit_test(test_support_from_visitors_and_guests),
        cmocka_unit_test(test_support_answered_by_staff),
        cmocka_unit_test(test_support_bad_ids),
        cmocka_unit_test(test_support_per_hour),
        cmocka_unit_test(test_followups_per_hour),
        cmocka_unit_test(test_every_write_is_counted),
        cmocka_unit_test(test_mail_waits_while_the_mail_server_is_down),
        cmocka_unit_test(test_mail_waits_across_a_restart),
    };
    return fixture_run_group(tests, &fixture);
}
