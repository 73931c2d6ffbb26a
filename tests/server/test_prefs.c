/* test_prefs.c -- an account's preferences over HTTP (docs/api.md,
 * GET and POST /api/account/prefs): defaults until set, each setting
 * changed alone, every bad request refused with a reason and nothing
 * changed, and a guest told its settings stay in its browser.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wire.h"

static const fixture_spec fixture = {
    .args = "--limit signups-per-hour=0 --limit guests-per-hour=0"
};

/* The answer's status, and its JSON body in *out (NULL if none). */
static int ask(const char *method, const char *cookie, const char *body, json_t **out)
{
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, method, "/api/account/prefs", cookie, body, &r), 0);
    int status = r.status;
    *out = r.body ? json_loads(r.body, 0, NULL) : NULL;
    http_resp_free(&r);
    return status;
}

static void assert_prefs(json_t *p, const char *theme, const char *board, int sound)
{
    assert_non_null(p);
    assert_int_equal(json_object_size(p), 4);
    assert_string_equal(json_string_value(json_object_get(p, "theme")), theme);
    assert_string_equal(json_string_value(json_object_get(p, "board")), board);
    assert_true(json_is_boolean(json_object_get(p, "sound")));
    assert_int_equal(json_is_true(json_object_get(p, "sound")), sound);
}

static void test_an_accounts_settings_are_kept(void **state)
{
    (void)state;
    char cookie[80];
    signup("nora", cookie);
    json_t *p;
    assert_int_equal(ask("GET", cookie, NULL, &p), 200);
    assert_prefs(p, "system", "green", 0);
    json_decref(p);
    assert_int_equal(ask("POST", cookie, "{\"theme\":\"dark\"}", &p), 200);
    assert_prefs(p, "dark", "green", 0);
    json_decref(p);
    assert_int_equal(ask("POST", cookie, "{\"board\":\"blue\",\"sound\":false}", &p), 200);
    assert_prefs(p, "dark", "blue", 0);
    json_decref(p);
    assert_int_equal(ask("GET", cookie, NULL, &p), 200);
    assert_prefs(p, "dark", "blue", 0);
    assert_string_equal(json_string_value(json_object_get(p, "pieces")), "figures");
    json_decref(p);
    assert_int_equal(ask("POST", cookie, "{\"pieces\":\"letters\"}", &p), 200);
    assert_string_equal(json_string_value(json_object_get(p, "pieces")), "letters");
    assert_prefs(p, "dark", "blue", 0);
    json_decref(p);
}

static void test_bad_settings_change_nothing(void **state)
{
    (void)state;
    char cookie[80];
    signup("omar", cookie);
    json_t *p;
    assert_int_equal(ask("POST", cookie, "{\"theme\":\"light\"}", &p), 200);
    json_decref(p);
    static const struct { const char *body, *why; } bad[] = {
        { "{\"theme\":\"purple\"}", "theme is one of system, light, dark" },
        { "{\"pieces\":\"photos\"}", "pieces is one of figures, letters" },
        { "{\"volume\":3}", "no setting 'volume'" },
        { "{\"sound\":\"no\"}", "sound is true or false" },
        { "{\"board\":\"blue\",\"theme\":7}", "theme is one of" },
        { "[\"dark\"]", "JSON object" },
        { "{\"theme\":\"dark\",\"theme\":\"dark\"}", "JSON object" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ask("POST", cookie, bad[i].body, &p), 400);
        assert_non_null(strstr(json_string_value(json_object_get(p, "error")), bad[i].why));
        json_decref(p);
    }
    assert_int_equal(ask("GET", cookie, NULL, &p), 200);
    assert_prefs(p, "light", "green", 0);  /* the blue of the refused request did not stay */
    json_decref(p);
}

static void test_a_guests_settings_stay_in_its_browser(void **state)
{
    (void)state;
    char cookie[80];
    guest(cookie);
    json_t *p;
    assert_int_equal(ask("GET", cookie, NULL, &p), 401);
    assert_non_null(strstr(json_string_value(json_object_get(p, "error")), "browser"));
    json_decref(p);
    assert_int_equal(ask("POST", cookie, "{\"theme\":\"dark\"}", &p), 401);
    json_decref(p);
    assert_int_equal(ask("GET", NULL, NULL, &p), 401);
    json_decref(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_accounts_settings_are_kept),
        cmocka_unit_test(test_bad_settings_change_nothing),
        cmocka_unit_test(test_a_guests_settings_stay_in_its_browser),
    };
    return fixture_run_group(tests, &fixture);
}
