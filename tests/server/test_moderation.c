/* test_moderation.c -- game chat and moderation of `citadel serve` over the
 * wire, against docs/api.md ("The community": Chat, Reports and
 * moderation; "Who may ask"): the players' and spectators' rooms kept
 * apart, the chat in the `game` message, no chat for one-device games and
 * games with a bot, chat lines checked, chat-per-minute; mutes (chat,
 * posts, reports and ticket replies refused); reports of posts, chat lines
 * and players in the moderators' queue; hidden posts gone for everyone
 * (thread, search, board) but kept for the audit log; hidden chat lines
 * (chat_hidden); locked threads; staff routes refused to everyone else;
 * admins granting roles and closing accounts, and the last admin kept;
 * bad ids and another site's page refused. Staff are made with `citadel
 * admin grant`.
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
#include "wire.h"

static char mia[80], ada[80];   /* a moderator, an admin */

static const fixture_spec fixture = { .args = NO_LIMITS };

static void staff(void)
{
    if (!mia[0])
        make_staff("mia", "moderator", mia);
    if (!ada[0])
        make_staff("ada", "admin", ada);
}

/* --- chat helpers ---------------------------------------------------------------- */

/* Sends a chat line (hostile: a line the schema does not allow, sent on
 * purpose, left out of the wire log). */
static void chat_send(ws_conn *c, json_int_t game, const char *text, int hostile)
{
    json_t *m = json_pack("{s:s, s:I, s:s, s:i}", "type", "chat", "game", game, "text", text,
                          "ref", 77);
    char *s = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    assert_int_equal(hostile ? ws_send_hostile(c, s) : ws_send_text(c, s), 0);
    free(s);
}

/* c's next chat message must be line `text` (in `room` of `game`); it is
 * returned (caller decrefs). */
static json_t *hear(ws_conn *c, json_int_t game, const char *room, const char *text)
{
    json_t *m = ws_first_of(c, "chat", "error", WAIT);
    if (!m)
        fail_msg("no chat line '%.60s' came", text);
    if (strcmp(type_of(m), "error") == 0)
        fail_msg("an error instead of chat line '%.60s': %s", text,
                 json_string_value(json_object_get(m, "error")));
    assert_int_equal(jint(m, "game"), game);
    assert_string_equal(json_string_value(json_object_get(m, "room")), room);
    json_t *line = json_object_get(m, "line");
    const char *got = json_string_value(json_object_get(line, "text"));
    if (!got || strcmp(got, text) != 0)
        fail_msg("the next chat line is '%.60s', not '%.60s'", got ? got : "(none)", text);
    jint(line, "id");
    jint(line, "time");
    name_of(json_object_get(line, "from"));
    return m;
}

/* c says text and hears itself: the line's id. */
static json_int_t say(ws_conn *c, json_int_t game, const char *room, const char *text)
{
    chat_send(c, game, text, 0);
    json_t *m = hear(c, game, room, text);
    json_int_t id = jint(json_object_get(m, "line"), "id");
    json_decref(m);
    return id;
}

/* c's line is refused: an `error` with the request's ref, before any chat. */
static void say_refused(ws_conn *c, json_int_t game, const char *text)
{
    chat_send(c, game, text, 1);
    json_t *m = ws_first_of(c, "chat", "error", WAIT);
    assert_non_null(m);
    if (strcmp(type_of(m), "error") != 0)
        fail_msg("chat line '%.60s' was taken", text);
    assert_int_equal(jint(m, "ref"), 77);
    json_decref(m);
}

/* c watches game: the `game` message's game (caller decrefs). */
static json_t *watch(ws_conn *c, json_int_t game)
{
    send_fmt(c, "{\"type\":\"watch\",\"game\":%lld}", (long long)game);
    json_t *g = ws_expect(c, "game", WAIT);
    assert_non_null(g);
    json_t *inner = json_incref(json_object_get(g, "game"));
    json_decref(g);
    return inner;
}

/* 1 if the chat {room, lines} holds a line with text. */
static int chat_holds(json_t *chat, const char *text)
{
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(chat, "lines"), i, l) {
        const char *t = json_string_value(json_object_get(l, "text"));
        if (t && strcmp(t, text) == 0)
            return 1;
    }
    return 0;
}

static void check_room(json_t *game, const char *room)
{
    json_t *chat = json_object_get(game, "chat");
    if (!chat)
        fail_msg("the game message has no chat");
    assert_string_equal(json_string_value(json_object_get(chat, "room")), room);
    assert_true(json_is_array(json_object_get(chat, "lines")));
}

/* --- chat --------------------------------------------------------------------------- */

static void test_players_and_spectators_chat_apart(void **state)
{
    (void)state;
    char pa[80], pb[80], s1[80], s2[80], g1[80];
    signup("chata", pa);
    signup("chatb", pb);
    signup("specone", s1);
    signup("spectwo", s2);
    guest(g1);
    ws_conn *a = connect_as(pa, NULL), *b = connect_as(pb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\"", &d);
    check_room(d.state, "players");
    assert_int_equal(json_array_size(json_object_get(json_object_get(d.state, "chat"), "lines")), 0);
    ws_conn *s = connect_as(s1, NULL), *gs = connect_as(g1, NULL);
    json_t *g = watch(s, d.game);
    check_room(g, "spectators");
    json_decref(g);
    g = watch(gs, d.game);
    check_room(g, "spectators");   /* anyone may read */
    json_decref(g);

    json_int_t l1 = say(a, d.game, "players", "hello opponent");
    json_t *m = hear(b, d.game, "players", "hello opponent");
    assert_int_equal(jint(json_object_get(m, "line"), "id"), l1);
    assert_string_equal(name_of(json_object_get(json_object_get(m, "line"), "from")), "chata");
    json_decref(m);

    /* the spectator's first line is its own: it never got the players' */
    say(s, d.game, "spectators", "hello spectators");
    json_decref(hear(gs, d.game, "spectators", "hello spectators"));
    say_refused(gs, d.game, "a guest may not speak");   /* spectators must be signed in */
    /* and the players' next line is theirs: they never got the spectators' */
    say(a, d.game, "players", "second line");
    json_decref(hear(b, d.game, "players", "second line"));
    say(s, d.game, "spectators", "third spectator line");   /* nor did s get "second line" */
    json_decref(hear(gs, d.game, "spectators", "third spectator line"));

    /* watching later, each gets its own room's lines */
    ws_conn *s2c = connect_as(s2, NULL);
    g = watch(s2c, d.game);
    check_room(g, "spectators");
    json_t *chat = json_object_get(g, "chat");
    assert_true(chat_holds(chat, "hello spectators"));
    assert_false(chat_holds(chat, "hello opponent"));
    json_decref(g);
    g = watch(a, d.game);
    check_room(g, "players");
    chat = json_object_get(g, "chat");
    assert_true(chat_holds(chat, "hello opponent"));
    assert_true(chat_holds(chat, "second line"));
    assert_false(chat_holds(chat, "hello spectators"));
    json_t *line = json_array_get(json_object_get(chat, "lines"), 0);
    assert_int_equal(jint(line, "id"), l1);   /* oldest first */
    json_decref(g);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
    ws_close(s);
    ws_close(gs);
    ws_close(s2c);
}

static void test_chat_lines_are_checked(void **state)
{
    (void)state;
    char pa[80], pb[80];
    signup("checka", pa);
    signup("checkb", pb);
    ws_conn *a = connect_as(pa, NULL), *b = connect_as(pb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\"", &d);
    char line[402];
    memset(line, 'x', 401);
    line[401] = '\0';
    say_refused(a, d.game, line);   /* 401 bytes */
    say_refused(a, d.game, "");
    say_refused(a, d.game, "ring \a the bell");
    say_refused(a, d.game, "two\nlines");
    say_refused(a, d.game, "a\ttab");
    say_refused(a, d.game + 100000, "no such game");
    static const char *const hostile[] = {
        "{\"type\":\"chat\",\"game\":\"abc\",\"text\":\"x\",\"ref\":77}",
        "{\"type\":\"chat\",\"text\":\"no game\",\"ref\":77}",
        "{\"type\":\"chat\",\"game\":1,\"ref\":77}",
        "{\"type\":\"chat\",\"game\":1,\"text\":5,\"ref\":77}",
    };
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        assert_int_equal(ws_send_hostile(a, hostile[i]), 0);
        json_t *m = ws_first_of(a, "chat", "error", WAIT);
        assert_non_null(m);
        assert_string_equal(type_of(m), "error");
        json_decref(m);
    }
    /* 400 bytes (200 two-byte characters) are a line; b hears nothing before it */
    char *edge = malloc(401);
    for (int i = 0; i < 200; i++)
        memcpy(edge + 2 * i, "\xc3\xa9", 2);
    edge[400] = '\0';
    say(a, d.game, "players", edge);
    json_decref(hear(b, d.game, "players", edge));
    free(edge);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

/* One-device games and games with a bot have no chat. */
static void test_no_chat_without_two_people(void **state)
{
    (void)state;
    char p[80];
    signup("lonely", p);
    json_t *bots = get_json("/api/bots", NULL, 200);
    const char *bot = NULL;
    size_t i, k;
    json_t *x, *v;
    json_array_foreach(json_object_get(bots, "bots"), i, x) {
        json_array_foreach(json_object_get(x, "variants"), k, v)
            if (!bot && strcmp(json_string_value(v), "rampart") == 0)
                bot = json_string_value(json_object_get(x, "name"));
    }
    assert_non_null(bot);
    ws_conn *c = connect_as(p, NULL);
    send_fmt(c, "{\"type\":\"play_bot\",\"variant\":\"rampart\",\"bot\":\"%s\",\"side\":0}", bot);
    json_decref(bots);
    json_t *g = ws_expect(c, "game", WAIT);
    assert_non_null(g);
    json_int_t id = jint(json_object_get(g, "game"), "id");
    assert_null(json_object_get(json_object_get(g, "game"), "chat"));
    json_decref(g);
    say_refused(c, id, "hello bot");
    send_fmt(c, "{\"type\":\"resign\",\"game\":%lld}", (long long)id);
    json_decref(ws_expect(c, "end", WAIT));

    send_fmt(c, "{\"type\":\"local\",\"variant\":\"rampart\"}");
    g = ws_expect(c, "game", WAIT);
    assert_non_null(g);
    id = jint(json_object_get(g, "game"), "id");
    assert_null(json_object_get(json_object_get(g, "game"), "chat"));
    json_decref(g);
    say_refused(c, id, "hello me");
    ws_close(c);
}

/* chat-per-minute: lines sent at once beyond it are refused, and the
 * opponent hears only those taken. */
static void test_chat_per_minute(void **state)
{
    (void)state;
    server_proc saved;
    fixture_own_server(&saved, NO_LIMITS " --limit chat-per-minute=4");
    char pa[80], pb[80];
    signup("fasta", pa);
    signup("fastb", pb);
    ws_conn *a = connect_as(pa, NULL), *b = connect_as(pb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\"", &d);
    for (int i = 0; i < 8; i++) {
        char text[32];
        snprintf(text, sizeof text, "quick line %d", i);
        chat_send(a, d.game, text, 0);
    }
    int taken = 0, refusals = 0;
    while (taken + refusals < 8) {
        json_t *m = ws_first_of(a, "chat", "error", WAIT);
        assert_non_null(m);
        if (strcmp(type_of(m), "error") == 0)
            refusals++;
        else
            taken++;
        json_decref(m);
    }
    assert_true(taken >= 1);
    assert_true(taken <= 4);
    int heard = 0;
    json_t *m;
    while ((m = ws_expect(b, "chat", 1500)) != NULL) {
        heard++;
        json_decref(m);
    }
    assert_int_equal(heard, taken);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
    fixture_own_end(&saved);
}

/* --- mutes -------------------------------------------------------------------------------- */

static void test_muted_players_cannot_write(void **state)
{
    (void)state;
    staff();
    char mutt[80], other[80], path[128], role[32];
    signup("mutt", mutt);
    signup("other", other);
    json_int_t t = new_thread(mutt, "general", "Before the mute", "still mine", NULL);
    json_int_t op;
    new_thread(other, "general", "Someone else's", "a post to report", &op);
    json_t *tk = ok_call("POST", "/api/support", mutt,
                         json_pack("{s:s, s:s, s:s}", "kind", "question", "subject", "Help",
                                   "body", "a question"));
    json_int_t ticket = jint(tk, "ticket");
    json_decref(tk);
    ws_conn *a = connect_as(mutt, NULL), *b = connect_as(other, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\"", &d);

    refused(403, "POST", "/api/mod/players/mutt/mute", other,
            json_pack("{s:i}", "minutes", 10), NULL);
    long long until;
    me_of(mutt, role, sizeof role, &until);
    assert_int_equal(until, 0);

    long long before = wall_ms();
    json_t *mu = ok_call("POST", "/api/mod/players/mutt/mute", mia,
                         json_pack("{s:i, s:s}", "minutes", 10, "reason", "spam"));
    long long got = jint(mu, "muted_until");
    json_decref(mu);
    assert_true(got >= before + 600000 - 5000 && got <= wall_ms() + 600000 + 5000);
    me_of(mutt, role, sizeof role, &until);
    assert_int_equal(until, got);

    refused(403, "POST", "/api/forum/general", mutt,
            json_pack("{s:s, s:s}", "title", "Muted", "body", "quuxmuted"), NULL);
    refused(403, "POST", path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t), mutt,
            json_pack("{s:s}", "body", "quuxmuted"), NULL);
    refused(403, "POST", "/api/reports", mutt,
            json_pack("{s:s, s:I, s:s}", "kind", "post", "id", (json_int_t)op, "reason", "x"),
            NULL);
    refused(403, "POST", path_fmt(path, sizeof path, "/api/support/tickets/%lld/reply",
                                  (long long)ticket),
            mutt, json_pack("{s:s}", "body", "quuxmuted"), NULL);
    say_refused(a, d.game, "quuxmuted line");
    assert_int_equal(posts_of(t), 1);
    json_t *r = search("quuxmuted", NULL);
    assert_int_equal(json_array_size(json_object_get(r, "results")), 0);
    json_decref(r);

    static const char *const bad[] = { "{\"minutes\":-1}", "{\"minutes\":525601}",
                                       "{\"minutes\":\"ten\"}", "{\"minutes\":1.5}", "{}",
                                       "{\"minutes\":10,\"reason\":5}" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(call_raw("POST", "/api/mod/players/mutt/mute", mia, bad[i], NULL), 400);
    refused(404, "POST", "/api/mod/players/nobodyatall/mute", mia,
            json_pack("{s:i}", "minutes", 10), NULL);
    mu = ok_call("POST", "/api/mod/players/mutt/mute", mia, json_pack("{s:i}", "minutes", 525600));
    assert_true(jint(mu, "muted_until") >= before + 525600LL * 60000 - 5000);
    json_decref(mu);

    /* 0 unmutes: mutt writes again */
    mu = ok_call("POST", "/api/mod/players/mutt/mute", mia, json_pack("{s:i}", "minutes", 0));
    assert_int_equal(jint(mu, "muted_until"), 0);
    json_decref(mu);
    me_of(mutt, role, sizeof role, &until);
    assert_int_equal(until, 0);
    reply_to(mutt, t, "free again");
    say(a, d.game, "players", "free to speak");
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

/* --- reports -------------------------------------------------------------------------- */

static json_t *report_in(json_t *list, json_int_t id)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(list, "reports"), i, r) if (jint(r, "id") == id) return r;
    return NULL;
}

static json_t *reports(const char *status)
{
    char path[128];
    return get_json(path_fmt(path, sizeof path, "/api/mod/reports?status=%s", status), mia, 200);
}

static json_int_t report(const char *cookie, json_t *body)
{
    json_t *a = ok_call("POST", "/api/reports", cookie, body);
    json_int_t id = jint(a, "report");
    json_decref(a);
    return id;
}

/* Any account reports a post, a chat line or a player; staff see them
 * with their targets, and resolve them. */
static void test_reports_reach_the_moderators(void **state)
{
    (void)state;
    staff();
    char rita[80], ron[80], g[80], path[128], err[256];
    signup("rita", rita);
    signup("ron", ron);
    guest(g);
    json_int_t post;
    json_int_t t = new_thread(ron, "general", "Ron's thread", "quuxreported post", &post);
    ws_conn *a = connect_as(rita, NULL), *b = connect_as(ron, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\"", &d);
    json_int_t line = say(b, d.game, "players", "quuxreported line");
    json_decref(hear(a, d.game, "players", "quuxreported line"));

    json_int_t rp = report(rita, json_pack("{s:s, s:I, s:s}", "kind", "post", "id",
                                           (json_int_t)post, "reason", "spam"));
    json_int_t rc = report(rita, json_pack("{s:s, s:I, s:s}", "kind", "chat", "id",
                                           (json_int_t)line, "reason", "rude"));
    json_int_t rpl = report(rita, json_pack("{s:s, s:s, s:s}", "kind", "player", "name", "ron",
                                            "reason", ""));
    const char *strangers[] = { NULL, g };
    for (int k = 0; k < 2; k++) {
        int st = call("POST", "/api/reports", strangers[k],
                      json_pack("{s:s, s:I, s:s}", "kind", "post", "id", (json_int_t)post,
                                "reason", "quuxstranger"),
                      NULL);
        assert_true(st == 401 || st == 403);
    }
    char *long_reason = calloc(1, 502);
    memset(long_reason, 'r', 501);
    refused(400, "POST", "/api/reports", rita,
            json_pack("{s:s, s:I, s:s}", "kind", "post", "id", (json_int_t)post, "reason",
                      long_reason),
            err);
    assert_non_null(strstr(err, "reason"));
    free(long_reason);
    refused(400, "POST", "/api/reports", rita,
            json_pack("{s:s, s:I, s:s}", "kind", "post", "id", (json_int_t)post, "reason",
                      "bell \a"),
            err);
    assert_non_null(strstr(err, "reason"));
    refused(400, "POST", "/api/reports", rita,
            json_pack("{s:s, s:I, s:s}", "kind", "thing", "id", (json_int_t)post, "reason", "x"),
            NULL);
    int st = call("POST", "/api/reports", rita, json_pack("{s:s, s:s}", "kind", "post", "reason",
                                                          "no id"), NULL);
    assert_true(st == 400 || st == 404);
    refused(404, "POST", "/api/reports", rita,
            json_pack("{s:s, s:i, s:s}", "kind", "post", "id", 999999, "reason", "x"), NULL);
    refused(404, "POST", "/api/reports", rita,
            json_pack("{s:s, s:i, s:s}", "kind", "chat", "id", 999999, "reason", "x"), NULL);
    refused(404, "POST", "/api/reports", rita,
            json_pack("{s:s, s:s, s:s}", "kind", "player", "name", "nobodyatall", "reason", "x"),
            NULL);
    assert_int_equal(call_raw("POST", "/api/reports", rita, "{\"kind\":\"post\",", NULL), 400);

    json_t *open = reports("open");
    assert_int_equal(jint(open, "page"), 1);
    assert_true(jint(open, "pages") >= 1);
    json_t *r = report_in(open, rp);
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(r, "kind")), "post");
    assert_string_equal(name_of(json_object_get(r, "reporter")), "rita");
    assert_string_equal(json_string_value(json_object_get(r, "reason")), "spam");
    assert_string_equal(json_string_value(json_object_get(r, "status")), "open");
    jint(r, "created");
    json_t *target = json_object_get(r, "target");
    assert_int_equal(jint(target, "id"), post);
    assert_int_equal(jint(target, "thread"), t);
    assert_string_equal(name_of(json_object_get(target, "author")), "ron");
    assert_string_equal(json_string_value(json_object_get(target, "body")), "quuxreported post");
    assert_true(json_is_false(json_object_get(target, "hidden")));
    r = report_in(open, rc);
    assert_non_null(r);
    target = json_object_get(r, "target");
    assert_int_equal(jint(target, "id"), line);
    assert_int_equal(jint(target, "game"), d.game);
    assert_string_equal(name_of(json_object_get(target, "author")), "ron");
    assert_string_equal(json_string_value(json_object_get(target, "text")), "quuxreported line");
    assert_true(json_is_false(json_object_get(target, "hidden")));
    r = report_in(open, rpl);
    assert_non_null(r);
    target = json_object_get(r, "target");
    assert_string_equal(name_of(json_object_get(target, "player")), "ron");
    assert_int_equal(jint(target, "muted_until"), 0);
    char *text = json_dumps(open, 0);
    assert_null(strstr(text, "quuxstranger"));
    free(text);
    json_decref(open);

    json_decref(get_json("/api/mod/reports?status=open", rita, 403));
    refused(403, "POST", path_fmt(path, sizeof path, "/api/mod/reports/%lld/resolve", (long long)rp),
            rita, NULL, NULL);
    json_t *ok = ok_call("POST", path_fmt(path, sizeof path, "/api/mod/reports/%lld/resolve",
                                          (long long)rp),
                         mia, NULL);
    assert_true(json_is_true(json_object_get(ok, "ok")));
    json_decref(ok);
    open = reports("open");
    assert_null(report_in(open, rp));
    assert_non_null(report_in(open, rc));
    json_decref(open);
    json_t *done = reports("resolved");
    r = report_in(done, rp);
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(r, "status")), "resolved");
    json_decref(done);
    refused(404, "POST", "/api/mod/reports/999999/resolve", mia, NULL, NULL);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

/* --- hiding, locking -------------------------------------------------------------------- */

/* The thread page, as cookie sees it, as text. */
static char *thread_text(json_int_t t, const char *cookie)
{
    json_t *p = thread_page(t, 1, cookie);
    char *s = json_dumps(p, 0);
    json_decref(p);
    return s;
}

static json_t *audit_entry(const char *needle, json_int_t target)
{
    json_t *a = get_json("/api/admin/audit", ada, 200);
    assert_int_equal(jint(a, "page"), 1);
    size_t i;
    json_t *e, *found = NULL;
    json_array_foreach(json_object_get(a, "entries"), i, e) {
        const char *det = json_string_value(json_object_get(e, "detail"));
        if (!found && jint(e, "target") == target && det && strstr(det, needle))
            found = json_incref(e);
    }
    json_decref(a);
    return found;
}

/* A hidden post is out of the thread, the board and search for everyone,
 * its author too; staff see it in the queue and the audit log. */
static void test_hidden_posts_are_gone_but_audited(void **state)
{
    (void)state;
    staff();
    char hal[80], ike[80], g[80], path[128];
    signup("hal", hal);
    signup("ike", ike);
    guest(g);
    json_int_t t = new_thread(hal, "general", "Hal's thread", "harmless opening", NULL);
    json_int_t rp = reply_to(ike, t, "flamingoquux insult");
    json_int_t rep = report(hal, json_pack("{s:s, s:I, s:s}", "kind", "post", "id",
                                           (json_int_t)rp, "reason", "insult"));
    json_t *ok = ok_call("POST", path_fmt(path, sizeof path, "/api/mod/posts/%lld/hide",
                                          (long long)rp),
                         mia, json_pack("{s:b, s:s}", "hidden", 1, "reason", "rude words"));
    assert_true(json_is_true(json_object_get(ok, "ok")));
    json_decref(ok);
    const char *who[] = { hal, ike, g, NULL, mia };
    for (int k = 0; k < 5; k++) {
        char *s = thread_text(t, who[k]);
        if (strstr(s, "flamingoquux"))
            fail_msg("the hidden post shows in its thread (reader %d): %s", k, s);
        free(s);
        json_t *r = search("flamingoquux", who[k]);
        assert_int_equal(json_array_size(json_object_get(r, "results")), 0);
        json_decref(r);
    }
    assert_int_equal(posts_of(t), 1);
    json_t *list = get_json("/api/forum/general", NULL, 200);
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(list, "threads"), i, x) if (jint(x, "id") == t)
        assert_int_equal(jint(x, "posts"), 1);
    json_decref(list);
    json_t *q = reports("open");
    json_t *target = json_object_get(report_in(q, rep), "target");
    assert_true(json_is_true(json_object_get(target, "hidden")));
    assert_string_equal(json_string_value(json_object_get(target, "body")), "flamingoquux insult");
    json_decref(q);
    json_t *e = audit_entry("flamingoquux", rp);
    if (!e)
        fail_msg("the audit log does not keep the hidden post");
    assert_string_equal(json_string_value(json_object_get(e, "target_kind")), "post");
    assert_string_equal(name_of(json_object_get(e, "actor")), "mia");
    assert_non_null(strstr(json_string_value(json_object_get(e, "detail")), "rude words"));
    assert_true(json_is_string(json_object_get(e, "action")));
    jint(e, "created");
    json_decref(e);
    json_decref(get_json("/api/admin/audit", mia, 403));   /* admins only */

    /* shown again */
    ok = ok_call("POST", path_fmt(path, sizeof path, "/api/mod/posts/%lld/hide", (long long)rp),
                 mia, json_pack("{s:b}", "hidden", 0));
    json_decref(ok);
    char *s = thread_text(t, NULL);
    assert_non_null(strstr(s, "flamingoquux"));
    free(s);
    json_t *r = search("flamingoquux", NULL);
    assert_true(found_post(r, rp));
    json_decref(r);

    /* hiding an opening post hides its thread */
    json_int_t op;
    json_int_t t2 = new_thread(hal, "general", "Secret thread", "secretopeningquux", &op);
    ok = ok_call("POST", path_fmt(path, sizeof path, "/api/mod/posts/%lld/hide", (long long)op),
                 mia, json_pack("{s:b, s:s}", "hidden", 1, "reason", "off topic"));
    json_decref(ok);
    for (int k = 0; k < 5; k++) {
        json_decref(get_json(path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t2),
                             who[k], 404));
        r = search("secretopeningquux", who[k]);
        assert_int_equal(json_array_size(json_object_get(r, "results")), 0);
        json_decref(r);
    }
    list = get_json("/api/forum/general", NULL, 200);
    json_array_foreach(json_object_get(list, "threads"), i, x) assert_int_not_equal(jint(x, "id"), t2);
    json_decref(list);
    refused(404, "POST", path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t2), ike,
            json_pack("{s:s}", "body", "into the hidden thread"), NULL);
    e = audit_entry("secretopeningquux", op);
    assert_non_null(e);
    json_decref(e);
}

/* A hidden chat line: its room gets chat_hidden, and it is gone from the
 * chat a watcher gets; the other room is not told. */
static void test_hidden_chat_lines(void **state)
{
    (void)state;
    staff();
    char pa[80], pb[80], sp[80], path[128];
    signup("hidea", pa);
    signup("hideb", pb);
    signup("hidespec", sp);
    ws_conn *a = connect_as(pa, NULL), *b = connect_as(pb, NULL), *s = connect_as(sp, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\"", &d);
    json_decref(watch(s, d.game));
    json_int_t l = say(a, d.game, "players", "chatquux bad line");
    json_decref(hear(b, d.game, "players", "chatquux bad line"));
    json_int_t rep = report(pb, json_pack("{s:s, s:I, s:s}", "kind", "chat", "id", (json_int_t)l,
                                          "reason", "rude"));
    json_t *ok = ok_call("POST", path_fmt(path, sizeof path, "/api/mod/chat/%lld/hide",
                                          (long long)l),
                         mia, json_pack("{s:b, s:s}", "hidden", 1, "reason", "rude line"));
    assert_true(json_is_true(json_object_get(ok, "ok")));
    json_decref(ok);
    ws_conn *both[2] = { a, b };
    for (int k = 0; k < 2; k++) {
        json_t *h = ws_expect(both[k], "chat_hidden", WAIT);
        assert_non_null(h);
        assert_int_equal(jint(h, "game"), d.game);
        assert_int_equal(jint(h, "id"), l);
        json_decref(h);
    }
    /* the spectators' room was not told: its next message is its own line */
    chat_send(s, d.game, "after the hiding", 0);
    json_t *m = ws_first_of(s, "chat", "chat_hidden", WAIT);
    assert_non_null(m);
    assert_string_equal(type_of(m), "chat");
    json_decref(m);
    json_t *g = watch(b, d.game);
    assert_false(chat_holds(json_object_get(g, "chat"), "chatquux bad line"));
    json_decref(g);
    json_t *q = reports("open");
    assert_true(json_is_true(json_object_get(json_object_get(report_in(q, rep), "target"),
                                             "hidden")));
    json_decref(q);
    json_t *e = audit_entry("chatquux", l);
    if (!e)
        fail_msg("the audit log does not keep the hidden chat line");
    assert_string_equal(json_string_value(json_object_get(e, "target_kind")), "chat");
    json_decref(e);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
    ws_close(s);
}

static void test_locked_threads_take_no_reply(void **state)
{
    (void)state;
    staff();
    char lou[80], max[80], path[128], lock[128];
    signup("lou", lou);
    signup("maxwell", max);
    json_int_t t = new_thread(lou, "general", "Heated", "calm start", NULL);
    path_fmt(lock, sizeof lock, "/api/mod/threads/%lld/lock", (long long)t);
    path_fmt(path, sizeof path, "/api/forum/threads/%lld", (long long)t);
    refused(403, "POST", lock, lou, json_pack("{s:b}", "locked", 1), NULL);
    reply_to(max, t, "not locked yet");
    json_t *ok = ok_call("POST", lock, mia, json_pack("{s:b, s:s}", "locked", 1, "reason", "heated"));
    json_decref(ok);
    json_t *p = thread_page(t, 1, NULL);
    assert_true(json_is_true(json_object_get(json_object_get(p, "thread"), "locked")));
    json_decref(p);
    refused(403, "POST", path, lou, json_pack("{s:s}", "body", "the author may not either"), NULL);
    refused(403, "POST", path, max, json_pack("{s:s}", "body", "locked out"), NULL);
    assert_int_equal(posts_of(t), 2);
    ok = ok_call("POST", lock, mia, json_pack("{s:b}", "locked", 0));
    json_decref(ok);
    reply_to(max, t, "open again");
    assert_int_equal(posts_of(t), 3);
    refused(404, "POST", "/api/mod/threads/999999/lock", mia, json_pack("{s:b}", "locked", 1), NULL);
}

/* --- who may moderate ---------------------------------------------------------------------- */

static void test_staff_routes_refuse_everyone_else(void **state)
{
    (void)state;
    staff();
    char pl[80], g[80], tgt[80], mods[1200];
    signup("plainjoe", pl);
    signup("target", tgt);
    guest(g);
    json_int_t post;
    json_int_t t = new_thread(tgt, "general", "Target's thread", "untouched", &post);
    json_int_t rep = report(pl, json_pack("{s:s, s:I, s:s}", "kind", "post", "id",
                                          (json_int_t)post, "reason", "test"));
    json_t *tk = ok_call("POST", "/api/support", tgt,
                         json_pack("{s:s, s:s, s:s}", "kind", "bug", "subject", "Open ticket",
                                   "body", "open"));
    json_int_t ticket = jint(tk, "ticket");
    json_decref(tk);
    struct {
        const char *method;
        char path[128];
        const char *body;
        int admin;   /* admins only */
    } routes[] = {
        { "GET", "/api/mod/reports", NULL, 0 },
        { "GET", "/api/mod/reports?status=resolved", NULL, 0 },
        { "POST", "", "{}", 0 },
        { "POST", "", "{\"hidden\":true}", 0 },
        { "POST", "/api/mod/chat/1/hide", "{\"hidden\":true}", 0 },
        { "POST", "", "{\"locked\":true}", 0 },
        { "POST", "/api/mod/players/target/mute", "{\"minutes\":60}", 0 },
        { "GET", "/api/staff/tickets", NULL, 0 },
        { "GET", "/api/staff/tickets?status=all", NULL, 0 },
        { "POST", "", NULL, 0 },
        { "POST", "/api/admin/players/target/role", "{\"role\":\"admin\"}", 1 },
        { "POST", "/api/admin/players/target/close", "{\"reason\":\"x\"}", 1 },
        { "GET", "/api/admin/audit", NULL, 1 },
    };
    snprintf(routes[2].path, sizeof routes[2].path, "/api/mod/reports/%lld/resolve", (long long)rep);
    snprintf(routes[3].path, sizeof routes[3].path, "/api/mod/posts/%lld/hide", (long long)post);
    snprintf(routes[5].path, sizeof routes[5].path, "/api/mod/threads/%lld/lock", (long long)t);
    snprintf(routes[9].path, sizeof routes[9].path, "/api/support/tickets/%lld/close",
             (long long)ticket);
    const char *who[] = { pl, g, NULL, mia };
    for (int k = 0; k < 4; k++)
        for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
            if (k == 3 && !routes[i].admin)
                continue;   /* moderators may */
            int st = call_raw(routes[i].method, routes[i].path, who[k], routes[i].body, NULL);
            if (st != 403)
                fail_msg("%s %s as %s: %d, wanted 403", routes[i].method, routes[i].path,
                         k == 0 ? "a player" : k == 1 ? "a guest" : k == 2 ? "a visitor" : "a moderator",
                         st);
        }
    /* and nothing changed */
    char role[32];
    long long until;
    me_of(tgt, role, sizeof role, &until);
    assert_string_equal(role, "player");
    assert_int_equal(until, 0);
    json_t *p = thread_page(t, 1, NULL);
    assert_non_null(post_in(p, post));
    assert_true(json_is_false(json_object_get(json_object_get(p, "thread"), "locked")));
    json_decref(p);
    json_t *q = reports("open");
    assert_non_null(report_in(q, rep));
    json_decref(q);
    json_t *tp = get_json(path_fmt(mods, sizeof mods, "/api/support/tickets/%lld",
                                   (long long)ticket),
                          tgt, 200);
    assert_string_equal(json_string_value(json_object_get(json_object_get(tp, "ticket"), "status")),
                        "open");
    json_decref(tp);
    json_t *in = ok_call("POST", "/api/signin", NULL,
                         json_pack("{s:s, s:s}", "name", "target", "password", "password-target"));
    json_decref(in);
}

static void test_admins_grant_roles_and_close_accounts(void **state)
{
    (void)state;
    staff();
    char vic[80], zed[80], role[32];
    signup("vic", vic);
    signup("zed", zed);
    json_t *ok = ok_call("POST", "/api/admin/players/vic/role", ada,
                         json_pack("{s:s}", "role", "moderator"));
    assert_true(json_is_true(json_object_get(ok, "ok")));
    json_decref(ok);
    me_of(vic, role, sizeof role, NULL);
    assert_string_equal(role, "moderator");
    json_decref(get_json("/api/mod/reports?status=open", vic, 200));
    refused(403, "POST", "/api/admin/players/zed/role", vic, json_pack("{s:s}", "role", "admin"),
            NULL);   /* moderators are not admins */
    ok = ok_call("POST", "/api/admin/players/vic/role", ada, json_pack("{s:s}", "role", "player"));
    json_decref(ok);
    me_of(vic, role, sizeof role, NULL);
    assert_string_equal(role, "player");
    json_decref(get_json("/api/mod/reports?status=open", vic, 403));
    refused(400, "POST", "/api/admin/players/vic/role", ada, json_pack("{s:s}", "role", "king"), NULL);
    refused(400, "POST", "/api/admin/players/vic/role", ada, json_pack("{s:i}", "role", 2), NULL);
    refused(404, "POST", "/api/admin/players/nobodyatall/role", ada,
            json_pack("{s:s}", "role", "moderator"), NULL);
    refused(404, "POST", "/api/admin/players/nobodyatall/close", ada, json_object(), NULL);

    ok = ok_call("POST", "/api/admin/players/zed/close", ada,
                 json_pack("{s:s}", "reason", "spam account"));
    assert_true(json_is_true(json_object_get(ok, "ok")));
    json_decref(ok);
    /* its session is over: the cookie is nobody's (or a fresh guest's) */
    json_t *me = get_json("/api/me", zed, 200);
    assert_string_not_equal(name_of(json_object_get(me, "player")), "zed");
    json_decref(me);
    int st = call("POST", "/api/forum/general", zed,
                  json_pack("{s:s, s:s}", "title", "Closed", "body", "quuxclosed"), NULL);
    assert_true(st == 401 || st == 403);
    json_t *r = search("quuxclosed", NULL);
    assert_int_equal(json_array_size(json_object_get(r, "results")), 0);
    json_decref(r);
    json_t *hello = NULL;
    ws_conn *c = connect_as(zed, &hello);
    assert_string_not_equal(name_of(json_object_get(hello, "player")), "zed");
    json_decref(hello);
    ws_close(c);
    /* and it cannot sign in again */
    st = call("POST", "/api/signin", NULL,
              json_pack("{s:s, s:s}", "name", "zed", "password", "password-zed"), NULL);
    assert_true(st == 401 || st == 403);
    json_t *zp = get_json("/api/players/zed", NULL, 200);
    json_int_t zed_id = jint(json_object_get(zp, "player"), "id");
    json_decref(zp);
    json_t *e = audit_entry("spam account", zed_id);
    if (!e)
        fail_msg("the audit log does not name the closing");
    assert_string_equal(name_of(json_object_get(e, "actor")), "ada");
    assert_string_equal(json_string_value(json_object_get(e, "target_kind")), "player");
    json_decref(e);
}

static void test_the_last_admin_stays(void **state)
{
    (void)state;
    staff();
    char ann[80], role[32];
    refused(409, "POST", "/api/admin/players/ada/role", ada, json_pack("{s:s}", "role", "player"),
            NULL);
    refused(409, "POST", "/api/admin/players/ada/role", ada,
            json_pack("{s:s}", "role", "moderator"), NULL);
    me_of(ada, role, sizeof role, NULL);
    assert_string_equal(role, "admin");
    signup("ann", ann);
    json_decref(ok_call("POST", "/api/admin/players/ann/role", ada,
                        json_pack("{s:s}", "role", "admin")));
    me_of(ann, role, sizeof role, NULL);
    assert_string_equal(role, "admin");
    json_decref(ok_call("POST", "/api/admin/players/ann/role", ann,
                        json_pack("{s:s}", "role", "player")));   /* one admin is left */
    me_of(ann, role, sizeof role, NULL);
    assert_string_equal(role, "player");
    refused(409, "POST", "/api/admin/players/ada/role", ada, json_pack("{s:s}", "role", "player"),
            NULL);
    me_of(ada, role, sizeof role, NULL);
    assert_string_equal(role, "admin");
}

/* --- bad input, other sites ------------------------------------------------------------------ */

static void test_moderation_bad_ids_and_other_sites(void **state)
{
    (void)state;
    staff();
    char path[256], vin[80];
    signup("vincent", vin);
    json_int_t post;
    json_int_t t = new_thread(vin, "general", "Vincent's", "quuxvincent", &post);
    static const char *const ids[] = { "abc", "-1", "99999999999999999999", "0", "1.5", "999999" };
    static const char *const forms[][2] = {
        { "/api/mod/posts/", "/hide" }, { "/api/mod/chat/", "/hide" },
        { "/api/mod/threads/", "/lock" }, { "/api/mod/reports/", "/resolve" },
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        for (size_t f = 0; f < 4; f++) {
            path_fmt(path, sizeof path, "%s%s%s", forms[f][0], ids[i], forms[f][1]);
            int st = call_raw("POST", path, mia, "{\"hidden\":true,\"locked\":true}", NULL);
            if (st != 400 && st != 404)
                fail_msg("POST %s: %d", path, st);
            if (strcmp(ids[i], "999999") == 0 && st != 404)
                fail_msg("POST %s: %d, wanted 404", path, st);
        }
    path_fmt(path, sizeof path, "/api/mod/posts/%lld/hide", (long long)post);
    static const char *const bad_hides[] = { "{\"hidden\":\"yes\"}", "{}", "{\"hidden\":null}",
                                             "not json", "{\"hidden\":true,\"reason\":5}" };
    for (size_t i = 0; i < sizeof bad_hides / sizeof bad_hides[0]; i++)
        assert_int_equal(call_raw("POST", path, mia, bad_hides[i], NULL), 400);
    char *long_reason = calloc(1, 502), err[256];
    memset(long_reason, 'r', 501);
    refused(400, "POST", path, mia, json_pack("{s:b, s:s}", "hidden", 1, "reason", long_reason),
            err);
    assert_non_null(strstr(err, "reason"));
    free(long_reason);
    json_t *p = thread_page(t, 1, NULL);
    assert_non_null(post_in(p, post));   /* none of that hid it */
    json_decref(p);

    /* another site's page cannot moderate with staff's sessions */
    client_headers("Origin: http://evil.example\r\n");
    refused(403, "POST", path, mia, json_pack("{s:b}", "hidden", 1), NULL);
    refused(403, "POST", "/api/mod/players/vincent/mute", mia, json_pack("{s:i}", "minutes", 60),
            NULL);
    refused(403, "POST", "/api/admin/players/vincent/role", ada,
            json_pack("{s:s}", "role", "admin"), NULL);
    refused(403, "POST", "/api/admin/players/vincent/close", ada, json_object(), NULL);
    refused(403, "POST", "/api/reports", vin,
            json_pack("{s:s, s:I, s:s}", "kind", "post", "id", (json_int_t)post, "reason", "x"),
            NULL);
    client_headers(NULL);
    p = thread_page(t, 1, NULL);
    assert_non_null(post_in(p, post));
    json_decref(p);
    char role[32];
    long long until;
    me_of(vin, role, sizeof role, &until);
    assert_string_equal(role, "player");
    assert_int_equal(until, 0);
}

static void test_reports_per_hour(void **state)
{
    (void)state;
    server_proc saved;
    fixture_own_server(&saved, NO_LIMITS " --limit reports-per-hour=2");
    char a[80], b[80];
    signup("reporter", a);
    signup("reported", b);
    json_int_t post;
    new_thread(b, "general", "Reported", "text", &post);
    for (int i = 0; i < 2; i++)
        report(a, json_pack("{s:s, s:I, s:s}", "kind", "post", "id", (json_int_t)post, "reason",
                            "again"));
    refused(429, "POST", "/api/reports", a,
            json_pack("{s:s, s:I, s:s}", "kind", "post", "id", (json_int_t)post, "reason", "3"),
            NULL);
    fixture_own_end(&saved);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_players_and_spectators_chat_apart),
        cmocka_unit_test(test_chat_lines_are_checked),
        cmocka_unit_test(test_no_chat_without_two_people),
        cmocka_unit_test(test_chat_per_minute),
        cmocka_unit_test(test_muted_players_cannot_write),
        cmocka_unit_test(test_reports_reach_the_moderators),
        cmocka_unit_test(test_hidden_posts_are_gone_but_audited),
        cmocka_unit_test(test_hidden_chat_lines),
        cmocka_unit_test(test_locked_threads_take_no_reply),
        cmocka_unit_test(test_staff_routes_refuse_everyone_else),
        cmocka_unit_test(test_admins_grant_roles_and_close_accounts),
        cmocka_unit_test(test_the_last_admin_stays),
        cmocka_unit_test(test_moderation_bad_ids_and_other_sites),
        cmocka_unit_test(test_reports_per_hour),
    };
    return fixture_run_group(tests, &fixture);
}
