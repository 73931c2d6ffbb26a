/* test_revoke.c -- a credential revoked ends what it opened, over the wire
 * (docs/api.md "Identity", docs/bot-api.md "Tokens"):
 * a Bot API event stream ends at once when its token is deleted, or when
 * an admin closes its account, and tells nothing after (not even the
 * challenge made right after); a stream of another token of the same
 * player stays; a WebSocket of a session signed out is closed, while one of
 * another session of the same player stays; a challenge to a closed
 * account is refused (404, as a name nobody holds). The streams are read
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_deleted_token_ends_its_streams),
        cmocka_unit_test(test_a_closed_account_ends_its_streams),
        cmocka_unit_test(test_a_signed_out_session_loses_its_sockets),
    };
    return fixture_run_group(tests, &fixture);
}
