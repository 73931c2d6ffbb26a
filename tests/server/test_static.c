/* test_static.c -- the web root's compressed copies, over real
 * connections: a file the build compressed (NAME.br and NAME.gz beside it,
 * web/build.mjs) is sent in the coding the request's Accept-Encoding
 * takes, brotli first, with the headers a browser and a cache need; a
 * file without copies, or a browser that takes neither, gets the file as
 * it is.
 *
 * The copies here hold marks instead of compressed bytes: the server
 * sends them as they are, and the mark tells which one came. That real
 * browsers read the real copies is what the browser tests show, on the
 * built page.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "wire.h"

static char dir[] = "/tmp/citadel-static-XXXXXX";
static char args[200];
static fixture_spec fixture;

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

typedef struct answer {
    int status;
    char type[128], encoding[64], vary[128], cache[128];
    char body[256];
} answer;

/* GET path with the Accept-Encoding line `accept` (none if NULL). */
static answer get(const char *path, const char *accept)
{
    char req[1200];
    snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n%s%s%sConnection: close\r\n\r\n", path,
             accept ? "Accept-Encoding: " : "", accept ? accept : "", accept ? "\r\n" : "");
    char *resp;
    size_t n;
    assert_true(http_raw(HOST, server.port, req, strlen(req), &resp, &n, 3000) >= 0);
    answer a;
    memset(&a, 0, sizeof a);
    assert_int_equal(sscanf(resp, "HTTP/1.1 %d", &a.status), 1);
    char *end = strstr(resp, "\r\n\r\n");
    assert_non_null(end);
    *end = 0;
    http_header(resp, "content-type", a.type, sizeof a.type);
    http_header(resp, "content-encoding", a.encoding, sizeof a.encoding);
    http_header(resp, "vary", a.vary, sizeof a.vary);
    http_header(resp, "cache-control", a.cache, sizeof a.cache);
    snprintf(a.body, sizeof a.body, "%.*s", (int)(n - (size_t)(end + 4 - resp)), end + 4);
    free(resp);
    return a;
}

/* A browser that takes brotli gets the brotli copy, one that takes only
 * gzip the gzip copy, and each answer says it varies by Accept-Encoding;
 * the type and the caching are the file's own. */
static void test_the_coding_the_browser_takes(void **state)
{
    (void)state;
    static const struct {
        const char *accept, *body, *encoding;
    } cases[] = {
        { "gzip, deflate, br, zstd", "BROTLI", "br" },
        { "BR", "BROTLI", "br" },
        { "gzip", "GZIP", "gzip" },
        { "br;q=0, gzip;q=0.5", "GZIP", "gzip" },
        { "br; q=0.8", "BROTLI", "br" },
        { "identity", "plain();", "" },
        { "gzip;q=0", "plain();", "" },
        { "brotli, xgzip", "plain();", "" },
        { NULL, "plain();", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        answer a = get("/app.0123456789.js", cases[i].accept);
        assert_int_equal(a.status, 200);
        assert_string_equal(a.body, cases[i].body);
        assert_string_equal(a.encoding, cases[i].encoding);
        assert_string_equal(a.vary, "accept-encoding");
        assert_non_null(strstr(a.type, "text/javascript"));
        assert_non_null(strstr(a.cache, "immutable"));
    }
}

/* The page's routes get index.html's copies, as HTML, checked again on
 * every visit. */
static void test_the_page_comes_compressed_on_every_route(void **state)
{
    (void)state;
    static const char *const paths[] = { "/", "/play/12", "/learn" };
    for (size_t i = 0; i < 3; i++) {
        answer a = get(paths[i], "gzip, br");
        assert_int_equal(a.status, 200);
        assert_string_equal(a.body, "HTML-BROTLI");
        assert_string_equal(a.encoding, "br");
        assert_non_null(strstr(a.type, "text/html"));
        assert_string_equal(a.cache, "no-cache");
    }
}

/* A file without copies is sent as it is, and says nothing of codings;
 * an Accept-Encoding too long to read, or of nothing but separators, is
 * taken as none ("br;q=" has a weight of 0). */
static void test_files_without_copies_and_odd_headers(void **state)
{
    (void)state;
    answer a = get("/static/style.0123456789.css", "br, gzip");
    assert_int_equal(a.status, 200);
    assert_string_equal(a.body, "body{}");
    assert_string_equal(a.encoding, "");
    assert_string_equal(a.vary, "");
    char longer[1000];
    memset(longer, ',', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    memcpy(longer + 900, "br", 2);
    static const char *odd[] = { NULL, ",,, ;;; ,", ";q=1", "br;q=", "gzip;q=0.0, br;q=0.000" };
    odd[0] = longer;
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        a = get("/app.0123456789.js", odd[i]);
        assert_int_equal(a.status, 200);
        assert_string_equal(a.encoding, "");
    }
    a = get("/app.0123456789.js.br.br", "br");
    assert_int_equal(a.status, 404);
}

static int make_root(void)
{
    if (!mkdtemp(dir))
        return -1;
    char path[600];
    snprintf(path, sizeof path, "%s/static", dir);
    if (mkdir(path, 0700) != 0)
        return -1;
    return 0;
}

static void drop_root(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_static: could not remove %s\n", dir);
}

int main(void)
{
    if (make_root() != 0)
        return 1;
    write_file("index.html", "<!doctype html><title>t</title>");
    write_file("index.html.br", "HTML-BROTLI");
    write_file("index.html.gz", "HTML-GZIP");
    write_file("app.0123456789.js", "plain();");
    write_file("app.0123456789.js.br", "BROTLI");
    write_file("app.0123456789.js.gz", "GZIP");
    write_file("static/style.0123456789.css", "body{}");
    snprintf(args, sizeof args, "--web %s --limit signups-per-hour=0 --limit guests-per-hour=0", dir);
    fixture.args = args;
    fixture.after = drop_root;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_coding_the_browser_takes),
        cmocka_unit_test(test_the_page_comes_compressed_on_every_route),
        cmocka_unit_test(test_files_without_copies_and_odd_headers),
    };
    return fixture_run_group(tests, &fixture);
}
