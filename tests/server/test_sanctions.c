/* test_sanctions.c -- what moderation hides and whom it may touch, over
 * the wire, against docs/api.md ("The community": Notifications, Reports
 * and moderation): a thread or post a moderator hides is gone from its
 * readers' notifications (title, unread count) and back when shown again;
 * only an admin mutes staff (a moderator mutes players only); an author
 * cannot edit a post in a locked thread, staff still can. Staff are made
 * with `citadel admin grant`.
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

/* 1 if the player's GET /api/notifications names `needle` anywhere; its
 * unread count into *unread. */
static int notes_hold(const char *cookie, const char *needle, long long *unread)
{
    json_t *n = get_json("/api/notifications", cookie, 200);
    char *text = json_dumps(n, JSON_COMPACT);
    int found = strstr(text, needle) != NULL;
    *unread = jint(n, "unread");
    free(text);
    json_decref(n);
    return found;
}

static void hide(json_int_t post, int hidden)
{
    char path[128];
    json_decref(ok_call("POST",
                        path_fmt(path, sizeof path, "/api/mod/posts/%lld/hide", (long long)post),
                        mia, json_pack("{s:b, s:s}", "hidden", hidden, "reason", "test")));
}

/* Once a moderator hides the thread (or the post) that mentioned bob,
 * bob's notifications no longer name it, nor count it unread; shown
 * again, it is back. */
static void test_hidden_things_leave_the_notifications(void **state)
{
    (void)state;
    staff();
    char bob[80], eve[80];
    signup("bobby", bob);
    signup("evelyn", eve);
    json_int_t op;
    new_thread(eve, "general", "Notequux secret title", "hello @bobby", &op);
    json_int_t t = new_thread(eve, "general", "Open thread", "nothing here", NULL);
    json_int_t rp = reply_to(eve, t, "psst @bobby notepostquux");
    long long unread = 0;
    assert_true(notes_hold(bob, "Notequux secret title", &unread));
    assert_int_equal(unread, 2);
    hide(op, 1);
    if (notes_hold(bob, "Notequux secret title", &unread))
        fail_msg("a hidden thread's title is still in its reader's notifications");
    assert_int_equal(unread, 1);
    /* a hidden reply: its mention goes too */
    hide(rp, 1);
    json_t *n = get_json("/api/notifications", bob, 200);
    assert_int_equal(json_array_size(json_object_get(n, "notifications")), 0);
    assert_int_equal(jint(n, "unread"), 0);
    json_decref(n);
    /* shown again */
    hide(op, 0);
    assert_true(notes_hold(bob, "Notequux secret title", &unread));
    assert_int_equal(unread, 1);
}

/* Only an admin acts on staff: a moderator may mute players, not a
 * moderator nor an admin; an admin may mute either. */
static void test_moderators_cannot_mute_staff(void **state)
{
    (void)state;
    staff();
    char mod2[80], adm2[80], role[32];
    make_staff("modtwo", "moderator", mod2);
    make_staff("admtwo", "admin", adm2);
    long long until = -1;
    refused(403, "POST", "/api/mod/players/ada/mute", mia,
            json_pack("{s:i, s:s}", "minutes", 10, "reason", "revenge"), NULL);
    refused(403, "POST", "/api/mod/players/modtwo/mute", mia,
            json_pack("{s:i, s:s}", "minutes", 10, "reason", "rivalry"), NULL);
    refused(403, "POST", "/api/mod/players/mia/mute", mia,   /* nor itself */
            json_pack("{s:i}", "minutes", 0), NULL);
    me_of(ada, role, sizeof role, &until);
    assert_int_equal(until, 0);
    me_of(mod2, role, sizeof role, &until);
    assert_int_equal(until, 0);
    json_decref(ok_call("POST", "/api/mod/players/modtwo/mute", ada,
                        json_pack("{s:i, s:s}", "minutes", 10, "reason", "warned")));
    me_of(mod2, role, sizeof role, &until);
    assert_true(until > 0);
    json_decref(ok_call("POST", "/api/mod/players/modtwo/mute", ada,
                        json_pack("{s:i}", "minutes", 0)));
    json_decref(ok_call("POST", "/api/mod/players/admtwo/mute", ada,
                        json_pack("{s:i}", "minutes", 0)));
}

/* An author may not edit a post in a locked thread (nor is it shown
 * editable); staff may edit theirs; unlocked, the author may again. */
static void test_locked_threads_take_no_edit(void **state)
{
    (void)state;
    staff();
    char ned[80], path[128], lock[128];
    signup("nedward", ned);
    json_int_t op;
    json_int_t t = new_thread(ned, "general", "Lockedit", "lockeditquux original", &op);
    json_int_t sp = reply_to(mia, t, "a moderator's word");
    path_fmt(lock, sizeof lock, "/api/mod/threads/%lld/lock", (long long)t);
    json_decref(ok_call("POST", lock, mia, json_pack("{s:b, s:s}", "locked", 1, "reason", "done")));
    refused(403, "POST", path_fmt(path, sizeof path, "/api/forum/posts/%lld/edit", (long long)op),
            ned, json_pack("{s:s}", "body", "lockeditquux rewritten"), NULL);
    json_t *p = thread_page(t, 1, ned);
    char *text = json_dumps(p, JSON_COMPACT);
    assert_null(strstr(text, "rewritten"));
    free(text);
    json_t *first = json_array_get(json_object_get(p, "posts"), 0);
    assert_false(json_is_true(json_object_get(first, "editable")));
    json_decref(p);
    json_decref(ok_call("POST",
                        path_fmt(path, sizeof path, "/api/forum/posts/%lld/edit", (long long)sp),
                        mia, json_pack("{s:s}", "body", "a moderator's word, amended")));
    json_decref(ok_call("POST", lock, mia, json_pack("{s:b}", "locked", 0)));
    json_decref(ok_call("POST",
                        path_fmt(path, sizeof path, "/api/forum/posts/%lld/edit", (long long)op),
                        ned, json_pack("{s:s}", "body", "lockeditquux unlocked edit")));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hidden_things_leave_the_notifications),
        cmocka_unit_test(test_moderators_cannot_mute_staff),
        cmocka_unit_test(test_locked_threads_take_no_edit),
    };
    return fixture_run_group(tests, &fixture);
}
