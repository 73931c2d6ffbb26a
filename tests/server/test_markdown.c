/* test_markdown.c -- markdown.h and the pure half of mail.h on their own.
 *
 * Markdown: whatever a player writes, the HTML runs nothing and loads
 * nothing (raw HTML shown as escaped text, links only to http:, https:,
 * mailto: and the site's own paths, images turned into links); links carry
 * rel="nofollow ugc"; game references and mentions become links through
 * fake hooks (game 42 exists, players alice and bob exist), never inside
 * code or links; md_mentions lists each player once, up to its limit;
 * md_excerpt is plain text cut at a character boundary.
 *
 * Mail: mail_format writes the headers it must, encodes a non-ASCII
 * Subject (RFC 2047), lets no CR or LF into a header, ends every line
 * CRLF and turns to quoted-printable for a line past 998 bytes;
 * mail_address_ok takes addresses and refuses what is not one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "server/community/mail.h"
#include "server/community/markdown.h"

/* --- fake hooks ----------------------------------------------------------------- */

static int game_calls, player_calls;

static int fake_game(void *ctx, int64_t id, char *label, size_t size)
{
    (void)ctx;
    game_calls++;
    if (id != 42)
        return -1;
    snprintf(label, size, "alice vs bob, 1-0");
    return 0;
}

static int fake_player(void *ctx, const char *name, char *canon, size_t size)
{
    (void)ctx;
    player_calls++;
    if (strcasecmp(name, "alice") == 0) {
        snprintf(canon, size, "Alice");
        return 0;
    }
    if (strcasecmp(name, "bob") == 0) {
        snprintf(canon, size, "bob");
        return 0;
    }
    if (strncmp(name, "p", 1) == 0 && strlen(name) == 4) {  /* p000 .. p999 exist */
        snprintf(canon, size, "%s", name);
        return 0;
    }
    if (strcmp(name, "evil") == 0) {  /* a name the store should never hold */
        snprintf(canon, size, "e\"v<i>l");
        return 0;
    }
    return -1;
}

static const md_hooks hooks = {NULL, fake_game, fake_player};

static char *render(const char *src)
{
    char *html = md_render(src, strlen(src), &hooks);
    assert_non_null(html);
    return html;
}

/* The case-insensitive search of needle in hay. */
static const char *find_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return hay;
    return NULL;
}

static int count(const char *hay, const char *needle)
{
    int k = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        k++;
    return k;
}

/* Whether u may be an href: http:, https:, mailto:, "#..." or a path of
 * the site ("/..." but not "//" or "/\\"). */
static int href_ok(const char *u)
{
    return strncasecmp(u, "http:", 5) == 0 || strncasecmp(u, "https:", 6) == 0 ||
           strncasecmp(u, "mailto:", 7) == 0 || u[0] == '#' ||
           (u[0] == '/' && u[1] != '/' && u[1] != '\\');
}

/* What no output may ever hold, whatever the input. Every '<' in the
 * output must open a tag of the few CommonMark writes (text has its '<'
 * escaped), with only harmless attributes, double-quoted, and hrefs of
 * the allowed kinds; an <a> is one of the three kinds markdown.c writes. */
static void assert_safe(const char *html)
{
    static const char *const tags[] = {"p", "em", "strong", "a", "code", "pre", "br",
                                       "blockquote", "ul", "ol", "li", "h1", "h2", "h3",
                                       "h4", "h5", "h6", "hr"};
    static const char *const attrs[] = {"href", "rel", "title", "class", "start"};
    assert_null(find_ci(html, "<script"));
    assert_null(find_ci(html, "<img"));
    for (const char *p = strchr(html, '<'); p; p = strchr(p + 1, '<')) {
        const char *q = p + 1;
        if (*q == '/')
            q++;
        size_t n = 0;
        while ((q[n] >= 'a' && q[n] <= 'z') || (q[n] >= '0' && q[n] <= '9'))
            n++;
        int known = 0;
        for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
            known |= strlen(tags[i]) == n && strncmp(q, tags[i], n) == 0;
        if (!known)
            fail_msg("a tag not CommonMark's at \"%.20s\" in: %s", p, html);
        int anchor = n == 1 && q[0] == 'a' && p[1] != '/';
        int nofollow = 0, game = 0, mention = 0;
        q += n;
        for (;;) {
            while (*q == ' ')
                q++;
            if (*q == '>' || (q[0] == '/' && q[1] == '>'))
                break;
            size_t an = 0;
            while (q[an] >= 'a' && q[an] <= 'z')
                an++;
            int ok = 0;
            for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++)
                ok |= strlen(attrs[i]) == an && strncmp(q, attrs[i], an) == 0;
            if (!ok || q[an] != '=' || q[an + 1] != '"')
                fail_msg("an attribute not allowed at \"%.20s\" in: %s", q, html);
            const char *v = q + an + 2;
            const char *e = strchr(v, '"');
            assert_non_null(e);
            for (const char *c = v; c < e; c++)
                if (*c == '<' || *c == '>' || *c == '\'')
                    fail_msg("unescaped %c in an attribute of: %s", *c, html);
            if (an == 4 && strncmp(q, "href", 4) == 0) {
                if (!href_ok(v))
                    fail_msg("bad href in: %s", html);
                game = strncmp(v, "/review/", 8) == 0;
                mention = strncmp(v, "/players/", 9) == 0;
            }
            if (an == 3 && strncmp(q, "rel", 3) == 0)
                nofollow = strncmp(v, "nofollow ugc\"", 13) == 0;
            q = e + 1;
        }
        if (anchor && !nofollow && !game && !mention)
            fail_msg("an <a> not written by markdown.c: %s", html);
    }
}

static void assert_render_safe(const char *src)
{
    char *html = render(src);
    assert_safe(html);
    free(html);
}

/* --- raw HTML -------------------------------------------------------------------- */

static void test_script_shown_as_text(void **state)
{
    (void)state;
    char *html = render("<script>alert(1)</script>");
    assert_safe(html);
    assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    free(html);

    html = render("hello <script>alert(1)</script> world");  /* inline HTML */
    assert_safe(html);
    assert_non_null(strstr(html, "&lt;script&gt;"));
    assert_non_null(strstr(html, "hello"));
    free(html);
}

static void test_img_onerror_shown_as_text(void **state)
{
    (void)state;
    char *html = render("<img src=x onerror=alert(1)>");
    assert_safe(html);
    assert_non_null(strstr(html, "&lt;img src=x onerror=alert(1)&gt;"));
    free(html);

    html = render("text <img src=x onerror=alert(1)> more");
    assert_safe(html);
    assert_non_null(strstr(html, "&lt;img"));
    free(html);
}

static void test_raw_anchor_shown_as_text(void **state)
{
    (void)state;
    char *html = render("<a href=\"javascript:alert(1)\">click</a>");
    assert_safe(html);
    assert_null(strstr(html, "<a "));
    assert_non_null(strstr(html, "&lt;a href=&quot;javascript:alert(1)&quot;&gt;"));
    free(html);
    assert_render_safe("<div onmouseover=\"alert(1)\">\n*x*\n</div>");
    assert_render_safe("<iframe src=\"https://evil\"></iframe>");
    assert_render_safe("<svg/onload=alert(1)>");
    assert_render_safe("<style>*{}</style>");
    assert_render_safe("<!-- <script>alert(1)</script> -->");
    assert_render_safe("<?php echo 1; ?>");
    assert_render_safe("<![CDATA[<script>]]>");
}

/* --- links ------------------------------------------------------------------------ */

static void test_javascript_links_dropped(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "[x](javascript:alert(1))",
        "[x](JaVaScRiPt:alert(1))",
        "[x](java&#x09;script:alert(1))",
        "[x](java&#9;script:alert(1))",
        "[x](  javascript:alert(1))",
        "[x](<javascript:alert(1)>)",
        "[x](&#106;avascript:alert(1))",
        "[x](vbscript:msgbox(1))",
        "[x](data:text/html,<script>alert(1)</script>)",
        "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "[x](\"onmouseover=\"alert(1))",
        "[x](file:///etc/passwd)",
        "<javascript:alert(1)>",
        "<JAVASCRIPT:alert(1)>",
        "[x][r]\n\n[r]: javascript:alert(1)",
        "[x]\n\n[x]: javascript:alert(1)",
        "*[x](javascript:alert(1))*",
        "**[*x*](javascript:alert(1))**",
        "[[x](http://ok)](javascript:alert(1))",
        "[x](javascript:alert(1) \"title\")",
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *html = render(cases[i]);
        assert_safe(html);
        if (find_ci(html, "href=\"javascript") || find_ci(html, "href=\"data") ||
            find_ci(html, "href=\"vbscript") || find_ci(html, "href=\"file"))
            fail_msg("%s -> %s", cases[i], html);
        free(html);
    }
    /* the text of a dropped link stays */
    char *html = render("[click me](javascript:alert(1))");
    assert_non_null(strstr(html, "click me"));
    assert_null(strstr(html, "<a"));
    free(html);
}

static void test_images_become_links(void **state)
{
    (void)state;
    char *html = render("![x](javascript:alert(1))");
    assert_safe(html);
    assert_null(strstr(html, "<a"));
    assert_non_null(strstr(html, "x"));
    free(html);

    html = render("![a cat](https://example.org/cat.png)");
    assert_safe(html);
    assert_non_null(
        strstr(html, "<a href=\"https://example.org/cat.png\" rel=\"nofollow ugc\">a cat</a>"));
    free(html);

    /* an image inside a link: no anchor inside an anchor */
    html = render("[![alt](https://x/i.png)](https://example.org/)");
    assert_safe(html);
    assert_int_equal(count(html, "<a "), 1);
    assert_non_null(strstr(html, ">alt</a>"));
    free(html);

    /* a link inside an image's alt text */
    html = render("![[inner](https://in/)](https://x/i.png)");
    assert_safe(html);
    assert_int_equal(count(html, "<a "), 1);
    free(html);

    assert_render_safe("![x](data:image/svg+xml,<svg onload=alert(1)>)");
    assert_render_safe("![x\" onerror=\"alert(1)](https://x/i.png)");
    assert_render_safe("![x](https://x/i.png \"\\\" onerror=\\\"alert(1)\")");
}

static void test_allowed_links(void **state)
{
    (void)state;
    char *html = render("[a](http://example.org/) [b](https://example.org/?q=1&r=2) "
                        "[c](mailto:x@example.org) [d](/forum/1) [e](#top) [f](HTTPS://X.ORG)");
    assert_safe(html);
    assert_non_null(strstr(html, "<a href=\"http://example.org/\" rel=\"nofollow ugc\">a</a>"));
    assert_non_null(
        strstr(html, "href=\"https://example.org/?q=1&amp;r=2\" rel=\"nofollow ugc\""));
    assert_non_null(strstr(html, "href=\"mailto:x@example.org\""));
    assert_non_null(strstr(html, "href=\"/forum/1\""));
    assert_non_null(strstr(html, "href=\"#top\""));
    assert_non_null(strstr(html, "href=\"HTTPS://X.ORG\""));
    assert_int_equal(count(html, "rel=\"nofollow ugc\""), 6);
    free(html);

    /* protocol-relative and relative links are dropped */
    html = render("[a](//evil.org/) [b](/\\evil.org) [c](evil.html) [d](./x) [e](www.evil.org)");
    assert_safe(html);
    assert_null(strstr(html, "<a"));
    free(html);

    /* autolinks */
    html = render("<https://example.org/x>");
    assert_non_null(strstr(html, "<a href=\"https://example.org/x\" rel=\"nofollow ugc\">"));
    free(html);

    /* titles and URLs cannot break out of the attribute */
    html = render("[x](https://a.org/\"onmouseover=\"alert(1) \"t\\\" onclick=\\\"y\")");
    assert_safe(html);
    assert_null(strstr(html, "\" onclick"));
    free(html);
    html = render("[x](<https://a.org/ \"x'y>)");
    assert_safe(html);
    assert_null(strstr(html, "/ \""));
    free(html);
}

static void test_nested_tricks(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "[<img src=x onerror=alert(1)>](https://ok/)",
        "[x](https://ok/)<img src=x onerror=alert(1)>",
        "*<script>*alert(1)*</script>*",
        "`<script>alert(1)</script>`",
        "```\n<script>alert(1)</script>\n```",
        "```html\" onmouseover=\"alert(1)\n<b>\n```",
        "> <script>alert(1)</script>",
        "- <img src=x onerror=alert(1)>\n- [x](javascript:1)",
        "[x](https://ok/ 'a\" onmouseover=\"alert(1)')",
        "[a\n](javascript:alert(1))",
        "[<a href=\"javascript:1\">x</a>](https://ok/)",
        "<a href=\"https://ok/\">[x](javascript:1)</a>",
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "\\<script>alert(1)\\</script>",
        "# <script>alert(1)</script>",
        "[x](https://ok/)\n\n[y]: javascript:alert(1)\n\n[y]",
        "[![x](javascript:1)](javascript:2)",
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *html = render(cases[i]);
        assert_safe(html);
        if (find_ci(html, "href=\"javascript"))
            fail_msg("%s -> %s", cases[i], html);
        free(html);
    }
    char *html = render("`<script>` and ```<b>```");
    assert_non_null(strstr(html, "<code>&lt;script&gt;</code>"));
    free(html);
}

/* --- references ---------------------------------------------------------------------- */

static void test_game_references(void **state)
{
    (void)state;
    char *html = render("see game 42 now");
    assert_non_null(strstr(html, "see <a href=\"/review/42\" class=\"game-link\">game 42</a> "
                                 "(alice vs bob, 1-0) now"));
    free(html);

    html = render("Game #42!");
    assert_non_null(strstr(html, "<a href=\"/review/42\" class=\"game-link\">Game #42</a>"));
    free(html);

    html = render("https://play.example.org/game/42 and http://x:8080/review/42.");
    assert_int_equal(count(html, "<a href=\"/review/42\" class=\"game-link\">game 42</a> "
                                 "(alice vs bob, 1-0)"), 2);
    assert_null(strstr(html, "play.example.org"));
    free(html);

    html = render("<https://play.example.org/review/42>");
    assert_non_null(strstr(html, "<a href=\"/review/42\" class=\"game-link\">game 42</a>"));
    assert_null(strstr(html, "nofollow"));
    free(html);

    /* a missing game stays as written (an autolink stays a link) */
    html = render("game 43 and https://x.org/game/43 and <https://x.org/game/43>");
    assert_null(strstr(html, "game-link"));
    assert_non_null(strstr(
        html, "game 43 and https://x.org/game/43 and <a href=\"https://x.org/game/43\""));
    free(html);

    /* not a number longer than 18 digits (19 nines overflowed an int64_t
     * while it was read) */
    html = render("game 9999999999999999999, game #99999999999999999999 and "
                  "https://x.org/game/9999999999999999999");
    assert_null(strstr(html, "game-link"));
    assert_non_null(strstr(html, "game 9999999999999999999, game #99999999999999999999"));
    free(html);

    /* not words that only contain it, not other URLs */
    html = render("endgame 42, game 42x, game42, https://x.org/game/42/moves");
    assert_null(strstr(html, "game-link"));
    free(html);

    /* not in code, not in links */
    html = render("`game 42`\n\n    game 42\n\n[game 42](https://x.org/) [see game 42](/forum)");
    assert_null(strstr(html, "game-link"));
    assert_non_null(strstr(html, "<code>game 42</code>"));
    free(html);

    /* the label is text, escaped */
    html = render("game 42 **game 42**");
    assert_int_equal(count(html, "class=\"game-link\""), 2);
    free(html);
}

static void test_game_limit(void **state)
{
    (void)state;
    char src[2048] = "";
    for (int i = 0; i < MD_MAX_GAMES + 5; i++)
        strcat(src, "game 42 ");
    game_calls = 0;
    char *html = render(src);
    assert_int_equal(count(html, "class=\"game-link\""), MD_MAX_GAMES);
    assert_int_equal(game_calls, 1);  /* asked once */
    free(html);

    /* many distinct missing games: a bounded number of lookups */
    src[0] = '\0';
    for (int i = 0; i < 150; i++) {
        char w[32];
        snprintf(w, sizeof w, "game %d ", 100 + i);
        strcat(src, w);
    }
    game_calls = 0;
    html = render(src);
    assert_true(game_calls <= 2 * MD_MAX_GAMES);
    free(html);
}

static void test_mentions(void **state)
{
    (void)state;
    char *html = render("hi @alice and @BOB, not @carol, not bob@alice.org, (@alice)");
    assert_safe(html);
    assert_int_equal(count(html, "<a href=\"/players/Alice\" class=\"mention\">@Alice</a>"), 2);
    assert_non_null(strstr(html, "<a href=\"/players/bob\" class=\"mention\">@bob</a>"));
    assert_non_null(strstr(html, "@carol"));
    assert_non_null(strstr(html, "bob@alice.org"));
    assert_int_equal(count(html, "class=\"mention\""), 3);
    free(html);

    /* too short, too long, an address, in code, in a link, in a URL */
    html = render("@ab @alicealicealicealicex @alice@host `@alice` [@alice](https://x/) "
                  "https://x.org/@alice <https://x.org/@bob>");
    assert_null(strstr(html, "class=\"mention\""));
    free(html);

    /* a name the store should never hold is still escaped */
    html = render("@evil");
    assert_safe(html);
    assert_null(strstr(html, "<i>"));
    assert_non_null(strstr(html, "/players/e%22v%3Ci%3El"));
    assert_non_null(strstr(html, "@e&quot;v&lt;i&gt;l"));
    free(html);

    /* no hooks: text as written */
    html = md_render("@alice game 42", 14, NULL);
    assert_non_null(html);
    assert_non_null(strstr(html, "<p>@alice game 42</p>"));
    free(html);
}

static void test_md_mentions(void **state)
{
    (void)state;
    char names[8][MD_NAME_MAX + 1];
    const char *src = "@bob @alice @ALICE @carol `@p001` [@p002](https://x/) @bob @p003";
    int n = md_mentions(src, strlen(src), &hooks, names, 8);
    assert_int_equal(n, 3);
    assert_string_equal(names[0], "bob");
    assert_string_equal(names[1], "Alice");
    assert_string_equal(names[2], "p003");

    n = md_mentions(src, strlen(src), &hooks, names, 2);
    assert_int_equal(n, 2);
    assert_string_equal(names[1], "Alice");

    /* at most MD_MAX_MENTIONS, however many are written */
    char big[4096] = "";
    for (int i = 0; i < 60; i++) {
        char w[16];
        snprintf(w, sizeof w, "@p%03d ", i);
        strcat(big, w);
    }
    char many[64][MD_NAME_MAX + 1];
    n = md_mentions(big, strlen(big), &hooks, many, 64);
    assert_int_equal(n, MD_MAX_MENTIONS);
    assert_string_equal(many[0], "p000");
    char *html = render(big);
    assert_int_equal(count(html, "class=\"mention\""), MD_MAX_MENTIONS);
    free(html);

    assert_int_equal(md_mentions("", 0, &hooks, names, 8), 0);
    assert_int_equal(md_mentions("@alice", 6, NULL, names, 8), 0);
}

/* --- excerpts ---------------------------------------------------------------------- */

static void test_excerpt(void **state)
{
    (void)state;
    char out[64];
    const char *src = "# Title\n\nSome *emphasis* and `code`\nnext line.\n\n- item <b>x</b>";
    md_excerpt(src, strlen(src), out, sizeof out);
    assert_string_equal(out, "Title Some emphasis and code next line. item <b>x</b>");

    /* cut at a character boundary, with the ellipsis in the room */
    const char *u = "ééééé";  /* 10 bytes */
    char small[9];
    md_excerpt(u, strlen(u), small, sizeof small);
    /* 8 bytes of room: "éé" (4) + "…" (3) = 7; a third é would not fit */
    assert_string_equal(small, "éé…");
    char exact[11];
    md_excerpt(u, strlen(u), exact, sizeof exact);
    assert_string_equal(exact, "ééééé");
    char ten[10];
    md_excerpt(u, strlen(u), ten, sizeof ten);  /* 9 bytes: "ééé" + "…" */
    assert_string_equal(ten, "ééé…");

    const char *w = "a €uro"; /* € is 3 bytes */
    char five[7];
    md_excerpt(w, strlen(w), five, sizeof five);
    assert_string_equal(five, "a…");
    for (size_t size = 1; size < 12; size++) {
        char buf[12];
        md_excerpt(w, strlen(w), buf, size);
        assert_true(strlen(buf) < size);
        for (size_t i = 0; buf[i]; i++)  /* no piece of € without the rest */
            if ((unsigned char)buf[i] == 0xE2 && strncmp(buf + i, "€", 3) != 0 &&
                strncmp(buf + i, "…", 3) != 0)
                fail_msg("cut inside a character at %zu", size);
    }
    md_excerpt("", 0, out, sizeof out);
    assert_string_equal(out, "");
}

/* --- mail -------------------------------------------------------------------------- */

/* The value of header name in msg, or NULL (into out). */
static const char *header_of(const char *msg, const char *name, char *out, size_t size)
{
    size_t n = strlen(name);
    const char *end = strstr(msg, "\r\n\r\n");
    for (const char *p = msg; p && p < end; p = strstr(p, "\r\n"), p = p ? p + 2 : NULL) {
        if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
            const char *v = p + n + 1;
            while (*v == ' ')
                v++;
            size_t w = 0;
            /* unfold */
            while (*v && w + 1 < size) {
                if (v[0] == '\r' && v[1] == '\n' && (v[2] == ' ' || v[2] == '\t')) {
                    v += 3;
                    continue;
                }
                if (v[0] == '\r')
                    break;
                out[w++] = *v++;
            }
            out[w] = '\0';
            return out;
        }
    }
    return NULL;
}

static void assert_crlf_only(const char *msg)
{
    for (size_t i = 0; msg[i]; i++) {
        if (msg[i] == '\n')
            assert_true(i > 0 && msg[i - 1] == '\r');
        if (msg[i] == '\r')
            assert_int_equal(msg[i + 1], '\n');
    }
}

static void test_mail_headers(void **state)
{
    (void)state;
    char *m = mail_format("citadel@example.org", "op@example.org", "player@example.net",
                          "Hello", "line one\nline two\r\nline three\rend", 1700000000123LL,
                          "mail1.abc@example.org");
    assert_non_null(m);
    char v[512];
    assert_string_equal(header_of(m, "From", v, sizeof v), "citadel@example.org");
    assert_string_equal(header_of(m, "To", v, sizeof v), "op@example.org");
    assert_string_equal(header_of(m, "Reply-To", v, sizeof v), "player@example.net");
    assert_string_equal(header_of(m, "Subject", v, sizeof v), "Hello");
    assert_string_equal(header_of(m, "Date", v, sizeof v), "Tue, 14 Nov 2023 22:13:20 +0000");
    assert_string_equal(header_of(m, "Message-ID", v, sizeof v), "<mail1.abc@example.org>");
    assert_string_equal(header_of(m, "MIME-Version", v, sizeof v), "1.0");
    assert_string_equal(header_of(m, "Content-Type", v, sizeof v), "text/plain; charset=UTF-8");
    assert_string_equal(header_of(m, "Content-Transfer-Encoding", v, sizeof v), "8bit");
    const char *body = strstr(m, "\r\n\r\n") + 4;
    assert_string_equal(body, "line one\r\nline two\r\nline three\r\nend\r\n");
    assert_crlf_only(m);
    free(m);

    /* no Reply-To when none */
    m = mail_format("a@b.org", "c@d.org", "", "s", "b", 0, "<x@y>");
    assert_null(header_of(m, "Reply-To", v, sizeof v));
    assert_string_equal(header_of(m, "Message-ID", v, sizeof v), "<x@y>");
    assert_string_equal(header_of(m, "Date", v, sizeof v), "Thu, 01 Jan 1970 00:00:00 +0000");
    free(m);
}

/* Decodes the encoded-words of a Subject value (unfolded) into out. */
static void decode_words(const char *v, char *out, size_t size)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t w = 0;
    while ((v = strstr(v, "=?UTF-8?B?")) != NULL) {
        v += 10;
        const char *e = strstr(v, "?=");
        assert_non_null(e);
        unsigned acc = 0;
        int bits = 0;
        for (; v < e; v++) {
            if (*v == '=')
                continue;
            const char *p = strchr(abc, *v);
            assert_non_null(p);
            acc = (acc << 6) | (unsigned)(p - abc);
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                if (w + 1 < size)
                    out[w++] = (char)((acc >> bits) & 0xff);
            }
        }
        v = e + 2;
    }
    out[w] = '\0';
}

static void test_mail_subject(void **state)
{
    (void)state;
    char *m = mail_format("a@b.org", "c@d.org", NULL, "Ünïcode", "x", 0, "id@x");
    char v[2048], d[2048];
    header_of(m, "Subject", v, sizeof v);
    assert_string_equal(v, "=?UTF-8?B?w5xuw69jb2Rl?=");
    free(m);

    /* a long one: several words, each at most 75 characters, each whole
     * characters, one to a line */
    char subject[400] = "";
    for (int i = 0; i < 40; i++)
        strcat(subject, "é€");
    m = mail_format("a@b.org", "c@d.org", NULL, subject, "x", 0, "id@x");
    assert_crlf_only(m);
    const char *s = strstr(m, "Subject: ");
    const char *end = strstr(s, "\r\n\r\n");
    int words = 0;
    for (const char *p = s; p < end;) {
        const char *w = strstr(p, "=?UTF-8?B?");
        if (!w || w > end)
            break;
        const char *e = strstr(w, "?=");
        assert_true(e - w + 2 <= 75);
        words++;
        p = e + 2;
    }
    assert_true(words > 1);
    header_of(m, "Subject", v, sizeof v);
    decode_words(v, d, sizeof d);
    assert_string_equal(d, subject);
    /* each word decodes to whole characters */
    for (const char *w = strstr(v, "=?UTF-8?B?"); w; w = strstr(w + 1, "=?UTF-8?B?")) {
        char one[128], piece[200];
        const char *e = strstr(w, "?=");
        snprintf(piece, sizeof piece, "%.*s", (int)(e - w + 2), w);
        decode_words(piece, one, sizeof one);
        assert_true(((unsigned char)one[0] & 0xC0) != 0x80);
        size_t n = strlen(one);
        assert_true(n > 0);
        unsigned char last = (unsigned char)one[n - 1];
        assert_true(last < 0x80 || (last & 0xC0) == 0x80);
    }
    free(m);

    /* something that looks like an encoded-word is encoded too */
    m = mail_format("a@b.org", "c@d.org", NULL, "=?UTF-8?B?SGk=?=", "x", 0, "id@x");
    header_of(m, "Subject", v, sizeof v);
    decode_words(v, d, sizeof d);
    assert_string_equal(d, "=?UTF-8?B?SGk=?=");
    free(m);
}

static void test_mail_no_header_injection(void **state)
{
    (void)state;
    char *m = mail_format("a@b.org\r\nBcc: x@evil.org", "c@d.org\nBcc: y@evil.org",
                          "r@e.org\rBcc: z@evil.org", "Hi\r\nBcc: victim@evil.org\r\n\r\nbody",
                          "text", 0, "id@x\r\nX-Evil: 1");
    assert_non_null(m);
    assert_crlf_only(m);
    char v[512];
    assert_null(header_of(m, "Bcc", v, sizeof v));
    assert_null(header_of(m, "X-Evil", v, sizeof v));
    assert_string_equal(header_of(m, "Subject", v, sizeof v), "HiBcc: victim@evil.orgbody");
    assert_string_equal(header_of(m, "From", v, sizeof v), "a@b.orgBcc: x@evil.org");
    /* the header block ends once, and the body is the body */
    assert_string_equal(strstr(m, "\r\n\r\n") + 4, "text\r\n");
    free(m);

    /* non-ASCII with CR LF in it: dropped before encoding */
    m = mail_format("a@b.org", "c@d.org", NULL, "Ü\r\nBcc: x", "t", 0, "id@x");
    char d[256];
    header_of(m, "Subject", v, sizeof v);
    decode_words(v, d, sizeof d);
    assert_string_equal(d, "ÜBcc: x");
    assert_null(header_of(m, "Bcc", v, sizeof v));
    free(m);
}

static void test_mail_long_line_quoted_printable(void **state)
{
    (void)state;
    char *body = malloc(3000);
    memset(body, 'a', 1500);
    memcpy(body + 1500, " = é \nshort\t\n", 15);
    body[1515] = '\0';
    char *m = mail_format("a@b.org", "c@d.org", NULL, "s", body, 0, "id@x");
    char v[256];
    assert_string_equal(header_of(m, "Content-Transfer-Encoding", v, sizeof v),
                        "quoted-printable");
    assert_crlf_only(m);
    const char *text = strstr(m, "\r\n\r\n") + 4;
    /* lines of at most 76; decoding gives the body back with CRLF */
    size_t line = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '\r') {
            assert_true(line <= 76);
            line = 0;
            p++;
            continue;
        }
        line++;
    }
    char *dec = malloc(4000);
    size_t w = 0;
    for (const char *p = text; *p;) {
        if (p[0] == '=' && p[1] == '\r' && p[2] == '\n') {
            p += 3;
        } else if (p[0] == '=') {
            unsigned x;
            char hex[3] = {p[1], p[2], 0};
            assert_int_equal(sscanf(hex, "%2X", &x), 1);
            dec[w++] = (char)x;
            p += 3;
        } else {
            dec[w++] = *p++;
        }
    }
    dec[w] = '\0';
    char *want = malloc(4000);
    memset(want, 'a', 1500);
    strcpy(want + 1500, " = é \r\nshort\t\r\n");
    assert_string_equal(dec, want);
    /* white space before a line end is encoded */
    assert_non_null(strstr(text, "=20\r\nshort=09\r\n"));
    free(want);
    free(dec);
    free(m);

    /* 998 bytes is still 8bit */
    memset(body, 'b', 998);
    body[998] = '\0';
    m = mail_format("a@b.org", "c@d.org", NULL, "s", body, 0, "id@x");
    assert_string_equal(header_of(m, "Content-Transfer-Encoding", v, sizeof v), "8bit");
    free(m);
    free(body);
}

static void test_mail_address_ok(void **state)
{
    (void)state;
    static const char *const good[] = {
        "a@b.co", "player@example.org", "first.last+tag@mail.example.org",
        "o'brien@example.ie", "x_y-z@sub-domain.example.com", "1@2.io",
    };
    static const char *const bad[] = {
        "", "plain", "@example.org", "a@", "a@b", "a@@b.org", "a@b@c.org",
        "a b@c.org", "a@b .org", "\"a\"@b.org", "a<b@c.org", "a>@c.org", "a,b@c.org",
        "a\\b@c.org", "a@b.org\r\nBcc: x@y.org", "a@b.org\n", "a@.org", "a@b.org.",
        "a@b..org", "é@b.org", "a;b@c.org", "a:b@c.org", "(a)@b.org", "a@[1.2.3.4]",
        ".a@b.org", "a.@b.org", "a\t@b.org",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        if (!mail_address_ok(good[i]))
            fail_msg("refused %s", good[i]);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (mail_address_ok(bad[i]))
            fail_msg("took %s", bad[i]);
    assert_false(mail_address_ok(NULL));
    char longest[300];
    memset(longest, 'a', 60);
    longest[60] = '@';
    memset(longest + 61, 'b', 189);
    strcpy(longest + 250, ".org");  /* 254 bytes */
    assert_int_equal(strlen(longest), 254);
    assert_true(mail_address_ok(longest));
    strcpy(longest + 250, ".orgx");
    assert_false(mail_address_ok(longest));
}

/* --- odd input ------------------------------------------------------------------------ */

static void test_odd_input(void **state)
{
    (void)state;
    /* NUL bytes, broken UTF-8, deep nesting: safe output, no crash */
    const char nul[] = "a\0<script>b";
    char *html = md_render(nul, sizeof nul - 1, &hooks);
    assert_non_null(html);
    assert_safe(html);
    free(html);
    assert_render_safe("\xff\xfe<\xc0script>");
    char deep[6000];
    size_t k = 0;
    for (int i = 0; i < 1000; i++)
        deep[k++] = '>';
    for (int i = 0; i < 1000; i++)
        deep[k++] = '[';
    memcpy(deep + k, "x](javascript:1)", 16);
    k += 16;
    for (int i = 0; i < 1000; i++)
        deep[k++] = '*';
    deep[k] = '\0';
    assert_render_safe(deep);
    html = md_render(NULL, 0, &hooks);
    assert_non_null(html);
    assert_string_equal(html, "");
    free(html);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_script_shown_as_text),
        cmocka_unit_test(test_img_onerror_shown_as_text),
        cmocka_unit_test(test_raw_anchor_shown_as_text),
        cmocka_unit_test(test_javascript_links_dropped),
        cmocka_unit_test(test_images_become_links),
        cmocka_unit_test(test_allowed_links),
        cmocka_unit_test(test_nested_tricks),
        cmocka_unit_test(test_game_references),
        cmocka_unit_test(test_game_limit),
        cmocka_unit_test(test_mentions),
        cmocka_unit_test(test_md_mentions),
        cmocka_unit_test(test_excerpt),
        cmocka_unit_test(test_mail_headers),
        cmocka_unit_test(test_mail_subject),
        cmocka_unit_test(test_mail_no_header_injection),
        cmocka_unit_test(test_mail_long_line_quoted_printable),
        cmocka_unit_test(test_mail_address_ok),
        cmocka_unit_test(test_odd_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
