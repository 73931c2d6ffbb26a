/* test_revoke.c -- a credential revoked ends what it opened, over the wire
 * (docs/api.md "Identity", docs/bot-api.md "Tokens"):
 * a Bot API event stream ends at once when its token is deleted, or when
 * an admin closes its account, and tells nothing after (not even the
 * challenge made right after); a stream of another token of the same
 * player stays; a WebSocket of a session signed out is closed, while one of
 * another session of the same player stays; a password changed ends every
 * other session of the account and closes their WebSockets, while the
 * session that changed it and the account's Bot API streams stay; a
 * challenge to a closed account is refused (404, as a name nobody holds). The streams are read
 * with api_stream.h; test_cluster.c checks the same across servers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api_stream.h"
#include "community_wire.h"
#include "wire.h"

static char ada[80];   /* an admin */

static const fixture_spec fixture = { .args = NO_LIMITS };

/* --- the tests ----------------------------------------------------------------- */

static void test_a_deleted_token_ends_its_streams(void **state)
{
    (void)state;
    char tia[80], cal[80], tok[64], other[64], ctok[64], path[96];
    signup("tia", tia);
    signup("cal", cal);
    json_int_t id = token_new(tia, "board:play", tok);
    token_new(tia, "board:play", other);
    token_new(cal, "challenge:write", ctok);
    stream s, keep;
    stream_open(&s, tok);
    stream_open(&keep, other);
    json_decref(ok_call("DELETE", path_fmt(path, sizeof path, "/api/account/tokens/%lld",
                                           (long long)id), tia, NULL));
    size_t at = s.len;   /* what the stream had told before the token went */
    assert_int_equal(challenge(ctok, "tia"), 200);   /* tia's account is open */
    if (!stream_wait_end(&s, PROMPT_MS))
        fail_msg("the deleted token's stream is still open %d ms later", PROMPT_MS);
    if (strstr(s.buf + at, "\"challenge\""))
        fail_msg("the deleted token's stream told a challenge: %s", s.buf + at);
    /* the other token's stream stays, and hears of the challenge */
    assert_false(stream_wait_end(&keep, 500));
    assert_non_null(strstr(keep.buf, "\"challenge\""));
    stream_close(&s);
    stream_close(&keep);
}

static void test_a_closed_account_ends_its_streams(void **state)
{
    (void)state;
    char kit[80], dan[80], tok[64], dtok[64];
    if (!ada[0])
        make_staff("ada", "admin", ada);
    signup("kit", kit);
    signup("dan", dan);
    token_new(kit, "board:play", tok);
    token_new(dan, "challenge:write", dtok);
    stream s;
    stream_open(&s, tok);
    ws_conn *w = connect_as(kit, NULL);
    json_decref(ok_call("POST", "/api/admin/players/kit/close", ada,
                        json_pack("{s:s}", "reason", "revoked")));
    size_t at = s.len;
    /* a challenge to the closed account is refused: it names no one now */
    char err[256];
    char hdr[128];
    snprintf(hdr, sizeof hdr, "Authorization: Bearer %s\r\n", dtok);
    client_headers(hdr);
    refused(404, "POST", "/api/challenge/kit", NULL, json_pack("{s:s}", "variant", "rampart"),
            err);
    client_headers(NULL);
    assert_non_null(strstr(err, "no such player"));
    if (!stream_wait_end(&s, PROMPT_MS))
        fail_msg("the closed account's stream is still open %d ms later", PROMPT_MS);
    assert_null(strstr(s.buf + at, "\"challenge\""));
    /* and its WebSocket is closed as well */
    long long deadline = wall_ms() + PROMPT_MS;
    while (!ws_is_closed(w) && wall_ms() < deadline)
        free(ws_recv_text(w, 100));
    assert_true(ws_is_closed(w));
    ws_close(w);
    stream_close(&s);
}

static void test_a_signed_out_session_loses_its_sockets(void **state)
{
    (void)state;
    char one[80], two[256];
    signup("sol", one);
    http_resp r;   /* a second session of sol's, from a sign-in */
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/signin", NULL,
                                  "{\"name\":\"sol\",\"password\":\"password-sol\"}", &r), 0);
    assert_int_equal(r.status, 200);
    snprintf(two, sizeof two, "%s", r.cookie);
    http_resp_free(&r);
    assert_string_not_equal(one, two);
    ws_conn *a = connect_as(one, NULL), *b = connect_as(two, NULL);
    json_decref(ok_call("POST", "/api/signout", one, NULL));
    long long deadline = wall_ms() + PROMPT_MS;
    while (!ws_is_closed(a) && wall_ms() < deadline)
        free(ws_recv_text(a, 100));
    if (!ws_is_closed(a))
        fail_msg("the signed-out session's WebSocket is still open %d ms later", PROMPT_MS);
    /* the other session's stays, and still answers */
    free(ws_recv_text(b, 300));
    assert_false(ws_is_closed(b));
    json_t *me = get_json("/api/me", two, 200);
    assert_string_equal(name_of(json_object_get(me, "player")), "sol");
    json_decref(me);
    ws_close(a);
    ws_close(b);
}

/* POST /api/signin as name with password: the answer's status, and its
 * cookie into cookie (256 bytes) when it is 200. */
static int sign_in(const char *name, const char *password, char *cookie)
{
    char body[200];
    http_resp r;
    snprintf(body, sizeof body, "{\"name\":\"%s\",\"password\":\"%s\"}", name, password);
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/signin", NULL, body, &r), 0);
    int status = r.status;
    if (status == 200)
        snprintf(cookie, 256, "%s", r.cookie);
    http_resp_free(&r);
    return status;
}

static void test_a_changed_password_ends_the_other_sessions(void **state)
{
    (void)state;
    char one[80], two[256], three[256], tok[64], err[256];
    signup("pam", one);
    assert_int_equal(sign_in("pam", "password-pam", two), 200);
    token_new(one, "board:play", tok);
    stream s;
    stream_open(&s, tok);
    ws_conn *a = connect_as(one, NULL), *b = connect_as(two, NULL);
    /* refused, and nothing ends: a wrong current password, a short new one */
    refused(401, "POST", "/api/account/password", one,
            json_pack("{s:s, s:s}", "password", "not-pams-password", "new_password",
                      "a new password"), err);
    assert_non_null(strstr(err, "current password"));
    refused(400, "POST", "/api/account/password", one,
            json_pack("{s:s, s:s}", "password", "password-pam", "new_password", "short"), err);
    refused(400, "POST", "/api/account/password", one,
            json_pack("{s:s}", "password", "password-pam"), err);
    free(ws_recv_text(b, 300));
    assert_false(ws_is_closed(b));
    assert_int_equal(sign_in("pam", "password-pam", three), 200);
    /* changed: every other session ends (b's socket closes, two and three
     * name nobody), this one, its socket and the token's stream stay */
    json_decref(ok_call("POST", "/api/account/password", one,
                        json_pack("{s:s, s:s}", "password", "password-pam", "new_password",
                                  "a new password")));
    long long deadline = wall_ms() + PROMPT_MS;
    while (!ws_is_closed(b) && wall_ms() < deadline)
        free(ws_recv_text(b, 100));
    if (!ws_is_closed(b))
        fail_msg("the other session's WebSocket is still open %d ms later", PROMPT_MS);
    free(ws_recv_text(a, 300));
    assert_false(ws_is_closed(a));
    assert_false(stream_wait_end(&s, 500));
    json_t *me = get_json("/api/me", one, 200);
    assert_string_equal(name_of(json_object_get(me, "player")), "pam");
    json_decref(me);
    const char *ended[] = {two, three};
    for (int i = 0; i < 2; i++) {
        me = get_json("/api/me", ended[i], 200);   /* a new guest: the session is gone */
        assert_string_not_equal(name_of(json_object_get(me, "player")), "pam");
        json_decref(me);
    }
    /* the old password no longer signs in; the new one does */
    assert_int_equal(sign_in("pam", "password-pam", three), 401);
    assert_int_equal(sign_in("pam", "a new password", three), 200);
    ws_close(a);
    ws_close(b);
    stream_close(&s);
}

static void test_a_guest_has_no_password_to_change(void **state)
{
    (void)state;
    char guest[256], err[256];
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "GET", "/api/me", NULL, NULL, &r), 0);
    snprintf(guest, sizeof guest, "%s", r.cookie);
    http_resp_free(&r);
    refused(401, "POST", "/api/account/password", guest,
            json_pack("{s:s, s:s}", "password", "", "new_password", "a new password"), err);
    refused(401, "POST", "/api/account/password", NULL,
            json_pack("{s:s, s:s}", "password", "x", "new_password", "a new password"), err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_deleted_token_ends_its_streams),
        cmocka_unit_test(test_a_closed_account_ends_its_streams),
        cmocka_unit_test(test_a_signed_out_session_loses_its_sockets),
        cmocka_unit_test(test_a_changed_password_ends_the_other_sessions),
        cmocka_unit_test(test_a_guest_has_no_password_to_change),
    };
    return fixture_run_group(tests, &fixture);
}
