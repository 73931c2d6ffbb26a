/* markdown.c -- see markdown.h: board posts in Markdown made into HTML
 * that is safe in another player's page, with cmark (CommonMark).
 *
 * The invariant (markdown.h): nothing in the output runs code or loads
 * anything. It holds because the only HTML in the output is
 *   - what cmark's renderer writes for CommonMark's own nodes, with their
 *     text escaped, and
 *   - the opening and closing tags of links written here, into custom
 *     inline nodes, whose attribute values are escaped here (& < > " ')
 *     and whose href is a URL this file allowed (http:, https:, mailto:,
 *     a path of the site "/..." but not "//" nor "/\", or "#...").
 * To keep it so, the tree cmark parses is rewritten before rendering:
 * every raw HTML node becomes text showing the HTML, every link a custom
 * node (or only its text, if its URL is not allowed), every image a link
 * to the image (or its alt text). After the rewrite no HTML, LINK or IMAGE
 * node is left, and no link is inside another. The renderer still runs
 * in cmark's safe mode, which would drop raw HTML and unsafe URLs anyway.
 *
 * Game references and mentions are found in text nodes only (never in
 * code) and only outside links; a URL written in the text is never looked
 * into for mentions. Lookups go through the caller's hooks, each distinct
 * name or game at most once per post and at most MD_LOOKUPS of each, so a
 * post cannot make the server query the store without end.
 */
#include <cmark.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/sbuf.h"
#include "markdown.h"

#define MD_LOOKUPS (2 * MD_MAX_MENTIONS)  /* distinct names (or games) asked about */
#define MD_LABEL_MAX 256
#define MD_PARSE_OPTS (CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8)

static const char *sb_str(const sbuf *b)
{
    return b->p && !b->oom ? b->p : "";
}

/* An attribute value, escaped for a double-quoted attribute. */
static void put_attr(sbuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': sb_puts(b, "&amp;"); break;
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        case '\'': sb_puts(b, "&#39;"); break;
        default: sb_putc(b, *s);
        }
    }
}

/* A URL (already allowed) for an href: bytes that have no business in an
 * attribute or a URL percent-encoded, & escaped. */
static void put_href(sbuf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= 0x20 || c >= 0x7f || strchr("\"'<>`\\", c)) {
            char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
            sb_put(b, esc, 3);
        } else if (c == '&') {
            sb_puts(b, "&amp;");
        } else {
            sb_putc(b, (char)c);
        }
    }
}

/* A name for a path segment: anything but A-Za-z0-9 _ - . percent-encoded. */
static void put_segment(sbuf *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '_' || c == '-' || c == '.') {
            sb_putc(b, (char)c);
        } else {
            char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
            sb_put(b, esc, 3);
        }
    }
}

/* --- URLs ------------------------------------------------------------------------ */

static int prefix_ci(const char *s, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    return n >= k && strncasecmp(s, prefix, k) == 0;
}

/* Whether a link may point at url; *start and *len get the URL trimmed of
 * the spaces and control characters around it (as browsers trim them).
 * Any control character left inside refuses it: browsers drop tabs and
 * line ends from URLs, so "java\tscript:" and "/\t/host" are not what they
 * seem. */
static int url_allowed(const char *url, const char **start, size_t *len)
{
    const char *p = url ? url : "";
    while (*p && (unsigned char)*p <= 0x20)
        p++;
    size_t n = strlen(p);
    while (n && (unsigned char)p[n - 1] <= 0x20)
        n--;
    *start = p;
    *len = n;
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
            return 0;
    if (p[0] == '#')
        return 1;
    if (p[0] == '/')
        return n == 1 || (p[1] != '/' && p[1] != '\\');
    return prefix_ci(p, n, "http:") || prefix_ci(p, n, "https:") ||
           prefix_ci(p, n, "mailto:");
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Letters, digits, '_' and every byte of a non-ASCII character. */
static int word_char(char c)
{
    unsigned char u = (unsigned char)c;
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || is_digit(c) || u == '_' ||
           u >= 0x80;
}

static int name_char(char c)
{
    unsigned char u = (unsigned char)c;
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || is_digit(c) || u == '_' ||
           u == '-';
}

/* 1 to 18 digits at s (n bytes), not 0: the number, and *used how many.
 * A 19th digit is only looked at (it makes the number too long): 18
 * digits fit in an int64_t, 19 may not. */
static int64_t game_number(const char *s, size_t n, size_t *used)
{
    size_t k = 0;
    int64_t v = 0;
    while (k < n && is_digit(s[k]) && k < 19) {
        if (k < 18)
            v = v * 10 + (s[k] - '0');
        k++;
    }
    if (k == 0 || k > 18 || v <= 0)
        return 0;
    *used = k;
    return v;
}

/* The game of a URL http(s)://HOST/game/N or /review/N (an optional "/"
 * after), or 0. */
static int64_t game_url(const char *u, size_t n)
{
    size_t i;
    if (prefix_ci(u, n, "https://"))
        i = 8;
    else if (prefix_ci(u, n, "http://"))
        i = 7;
    else
        return 0;
    size_t host = i;
    while (i < n && u[i] != '/') {
        char c = u[i];
        if (!(word_char(c) || c == '.' || c == '-' || c == ':' || c == '[' || c == ']'))
            return 0;
        i++;
    }
    if (i == host)
        return 0;
    if (prefix_ci(u + i, n - i, "/game/"))
        i += 6;
    else if (prefix_ci(u + i, n - i, "/review/"))
        i += 8;
    else
        return 0;
    size_t used = 0;
    int64_t id = game_number(u + i, n - i, &used);
    if (!id)
        return 0;
    i += used;
    if (i < n && u[i] == '/')
        i++;
    return i == n ? id : 0;
}

/* A URL written in text at s[i] ("http://" or "https://" and what follows
 * up to a space, less the punctuation that ends a sentence): its end, or
 * 0 if none starts there. */
static size_t url_token(const char *s, size_t n, size_t i)
{
    size_t j;
    if (prefix_ci(s + i, n - i, "https://"))
        j = i + 8;
    else if (prefix_ci(s + i, n - i, "http://"))
        j = i + 7;
    else
        return 0;
    size_t scheme = j;
    while (j < n && (unsigned char)s[j] > 0x20 && !strchr("<>\"'`", s[j]))
        j++;
    while (j > scheme && strchr(".,;:!?)]}", s[j - 1]))
        j--;
    return j;
}

/* "game 42" or "game #42" at s[i] (any case), not followed by a word
 * character: its end and the game, or 0. */
static size_t game_words(const char *s, size_t n, size_t i, int64_t *id)
{
    if (!prefix_ci(s + i, n - i, "game "))
        return 0;
    size_t j = i + 5;
    if (j < n && s[j] == '#')
        j++;
    size_t used = 0;
    *id = game_number(s + j, n - j, &used);
    if (!*id)
        return 0;
    j += used;
    if (j < n && word_char(s[j]))
        return 0;
    return j;
}

/* "@name" at s[i] (3 to 20 name characters, then neither another nor an
 * '@', which would make it an address): its end, or 0. */
static size_t mention_words(const char *s, size_t n, size_t i)
{
    size_t j = i + 1;
    while (j < n && name_char(s[j]))
        j++;
    size_t len = j - i - 1;
    if (len < 3 || len > 20 || (j < n && s[j] == '@'))
        return 0;
    return j;
}

/* --- lookups ----------------------------------------------------------------------- */

typedef struct scan {
    const md_hooks *hooks;
    int render;          /* 1: make links; 0: only collect the names */
    int games, mentions; /* references made (or counted) so far */
    struct {
        int64_t id;
        int ok;
        char label[MD_LABEL_MAX];
    } game[MD_LOOKUPS];
    int ngame;
    struct {
        char name[24];
        int ok;
        char canon[MD_NAME_MAX + 1];
    } player[MD_LOOKUPS];
    int nplayer;
    char (*names)[MD_NAME_MAX + 1]; /* md_mentions */
    int nnames, maxnames;
} scan;

/* 0 and the game's label if game id exists and may still be linked. */
static int game_lookup(scan *sc, int64_t id, const char **label)
{
    if (!sc->hooks || !sc->hooks->game || sc->games >= MD_MAX_GAMES)
        return -1;
    for (int i = 0; i < sc->ngame; i++)
        if (sc->game[i].id == id) {
            *label = sc->game[i].label;
            return sc->game[i].ok ? 0 : -1;
        }
    if (sc->ngame >= MD_LOOKUPS)
        return -1;
    int k = sc->ngame++;
    sc->game[k].id = id;
    sc->game[k].label[0] = '\0';
    sc->game[k].ok =
        sc->hooks->game(sc->hooks->ctx, id, sc->game[k].label, sizeof sc->game[k].label) == 0;
    sc->game[k].label[MD_LABEL_MAX - 1] = '\0';
    *label = sc->game[k].label;
    return sc->game[k].ok ? 0 : -1;
}

/* 0 and the player's name as they spell it if name is a player who may
 * still be mentioned. */
static int player_lookup(scan *sc, const char *name, const char **canon)
{
    if (!sc->hooks || !sc->hooks->player || sc->mentions >= MD_MAX_MENTIONS)
        return -1;
    for (int i = 0; i < sc->nplayer; i++)
        if (strcmp(sc->player[i].name, name) == 0) {
            *canon = sc->player[i].canon;
            return sc->player[i].ok ? 0 : -1;
        }
    if (sc->nplayer >= MD_LOOKUPS)
        return -1;
    int k = sc->nplayer++;
    snprintf(sc->player[k].name, sizeof sc->player[k].name, "%s", name);
    sc->player[k].canon[0] = '\0';
    sc->player[k].ok = sc->hooks->player(sc->hooks->ctx, name, sc->player[k].canon,
                                         sizeof sc->player[k].canon) == 0;
    sc->player[k].canon[MD_NAME_MAX] = '\0';
    if (!sc->player[k].canon[0])
        sc->player[k].ok = 0;
    *canon = sc->player[k].canon;
    return sc->player[k].ok ? 0 : -1;
}

static void note_name(scan *sc, const char *canon)
{
    for (int i = 0; i < sc->nnames; i++)
        if (strcasecmp(sc->names[i], canon) == 0)
            return;
    if (sc->nnames >= sc->maxnames)
        return;
    snprintf(sc->names[sc->nnames], MD_NAME_MAX + 1, "%s", canon);
    sc->nnames++;
}

/* --- nodes ------------------------------------------------------------------------- */

static cmark_node *text_node(const char *s, size_t n)
{
    cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
    char *copy = malloc(n + 1);
    if (!t || !copy) {
        free(copy);
        if (t)
            cmark_node_free(t);
        return NULL;
    }
    memcpy(copy, s, n);
    copy[n] = '\0';
    cmark_node_set_literal(t, copy);
    free(copy);
    return t;
}

/* Puts what (or frees it, if it cannot go there) before node. */
static void put_before(cmark_node *node, cmark_node *what)
{
    if (what && !cmark_node_insert_before(node, what))
        cmark_node_free(what);
}

/* Replaces node by what (node freed either way). */
static void replace(cmark_node *node, cmark_node *what)
{
    put_before(node, what);
    cmark_node_free(node);
}

/* node's children put in its place, node freed. */
static void unwrap(cmark_node *node)
{
    cmark_node *c;
    while ((c = cmark_node_first_child(node)))
        if (!cmark_node_insert_before(node, c))
            cmark_node_free(c);
    cmark_node_free(node);
}

static cmark_node *custom_link(const char *on_enter)
{
    cmark_node *a = cmark_node_new(CMARK_NODE_CUSTOM_INLINE);
    if (!a)
        return NULL;
    cmark_node_set_on_enter(a, on_enter);
    cmark_node_set_on_exit(a, "</a>");
    return a;
}

/* The opening tag of a link to an allowed URL. */
static void link_tag(sbuf *b, const char *url, size_t len, const char *title)
{
    sb_puts(b, "<a href=\"");
    put_href(b, url, len);
    sb_puts(b, "\" rel=\"nofollow ugc\"");
    if (title && *title) {
        sb_puts(b, " title=\"");
        put_attr(b, title);
        sb_putc(b, '"');
    }
    sb_putc(b, '>');
}

/* The text of a subtree: text and code as written, a space for each line
 * break and, with blocks, after each block. */
static void plain_text(sbuf *b, cmark_node *root, int blocks)
{
    cmark_iter *it = cmark_iter_new(root);
    if (!it) {
        b->oom = 1;
        return;
    }
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        int block = t >= CMARK_NODE_FIRST_BLOCK && t <= CMARK_NODE_LAST_BLOCK;
        if (ev == CMARK_EVENT_ENTER) {
            switch (t) {
            case CMARK_NODE_TEXT:
            case CMARK_NODE_CODE:
            case CMARK_NODE_HTML_INLINE:
            case CMARK_NODE_CODE_BLOCK:
            case CMARK_NODE_HTML_BLOCK: {
                const char *lit = cmark_node_get_literal(n);
                sb_puts(b, lit ? lit : "");
                break;
            }
            case CMARK_NODE_SOFTBREAK:
            case CMARK_NODE_LINEBREAK:
                sb_putc(b, ' ');
                break;
            default:
                break;
            }
        }
        /* leaves have no EXIT: their block's end is right after ENTER */
        if (blocks && block &&
            (ev == CMARK_EVENT_EXIT || t == CMARK_NODE_CODE_BLOCK ||
             t == CMARK_NODE_HTML_BLOCK || t == CMARK_NODE_THEMATIC_BREAK))
            sb_putc(b, ' ');
    }
    cmark_iter_free(it);
}

/* Runs of white space made one space, and none at either end. */
static void squeeze(sbuf *b)
{
    if (!b->p || b->oom)
        return;
    size_t w = 0;
    int space = 1;
    for (size_t r = 0; r < b->n; r++) {
        char c = b->p[r];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            if (!space)
                b->p[w++] = ' ';
            space = 1;
        } else {
            b->p[w++] = c;
            space = 0;
        }
    }
    if (w && b->p[w - 1] == ' ')
        w--;
    b->n = w;
    b->p[w] = '\0';
}

/* An autolink (<http://...>, its text its URL) to a game: its id, or 0. */
static int64_t game_autolink(cmark_node *link)
{
    cmark_node *c = cmark_node_first_child(link);
    if (!c || cmark_node_next(c) || cmark_node_get_type(c) != CMARK_NODE_TEXT)
        return 0;
    const char *url = cmark_node_get_url(link);
    const char *text = cmark_node_get_literal(c);
    if (!url || !text || strcmp(url, text) != 0)
        return 0;
    return game_url(url, strlen(url));
}

/* --- the rewrite, first pass: HTML, links, images --------------------------------- */

typedef struct nodelist {
    cmark_node **v;
    unsigned char *inside; /* inside a link or image */
    size_t n, cap;
} nodelist;

static int push(nodelist *l, cmark_node *node, int inside)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        cmark_node **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        unsigned char *in = realloc(l->inside, cap);
        if (!in)
            return -1;
        l->inside = in;
        l->cap = cap;
    }
    l->v[l->n] = node;
    l->inside[l->n] = (unsigned char)inside;
    l->n++;
    return 0;
}

static void nodelist_free(nodelist *l)
{
    free(l->v);
    free(l->inside);
}

/* Raw HTML shown as text. A block becomes a paragraph of its lines. */
static void html_to_text(cmark_node *node)
{
    const char *lit = cmark_node_get_literal(node);
    if (!lit)
        lit = "";
    if (cmark_node_get_type(node) == CMARK_NODE_HTML_INLINE) {
        replace(node, text_node(lit, strlen(lit)));
        return;
    }
    cmark_node *para = cmark_node_new(CMARK_NODE_PARAGRAPH);
    if (!para) {
        cmark_node_free(node);
        return;
    }
    size_t n = strlen(lit);
    while (n && (lit[n - 1] == '\n' || lit[n - 1] == '\r'))
        n--;
    size_t i = 0;
    while (i < n) {
        size_t e = i;
        while (e < n && lit[e] != '\n')
            e++;
        size_t len = e - i;
        if (len && lit[i + len - 1] == '\r')
            len--;
        if (i > 0) {
            cmark_node *br = cmark_node_new(CMARK_NODE_LINEBREAK);
            if (br && !cmark_node_append_child(para, br))
                cmark_node_free(br);
        }
        cmark_node *t = text_node(lit + i, len);
        if (t && !cmark_node_append_child(para, t))
            cmark_node_free(t);
        i = e + 1;
    }
    replace(node, para);
}

/* A link made a custom node with the tag written here, or its text only
 * if its URL is not allowed. */
static int convert_link(cmark_node *node)
{
    const char *url;
    size_t len;
    if (!url_allowed(cmark_node_get_url(node), &url, &len)) {
        unwrap(node);
        return 0;
    }
    sbuf tag = {0};
    link_tag(&tag, url, len, cmark_node_get_title(node));
    if (tag.oom) {
        free(tag.p);
        return -1;
    }
    cmark_node *a = custom_link(tag.p);
    free(tag.p);
    if (!a)
        return -1;
    cmark_node *c;
    while ((c = cmark_node_first_child(node)))
        if (!cmark_node_append_child(a, c))
            cmark_node_free(c);
    replace(node, a);
    return 0;
}

/* An image made a link to it showing its alt text, or the alt text only
 * (inside a link, or if its URL is not allowed). */
static int convert_image(cmark_node *node, int inside)
{
    sbuf alt = {0};
    plain_text(&alt, node, 0);
    squeeze(&alt);
    if (alt.oom) {
        free(alt.p);
        return -1;
    }
    const char *url;
    size_t len;
    if (inside || !url_allowed(cmark_node_get_url(node), &url, &len)) {
        if (alt.n)
            replace(node, text_node(alt.p, alt.n));
        else
            cmark_node_free(node);
        free(alt.p);
        return 0;
    }
    sbuf tag = {0};
    link_tag(&tag, url, len, cmark_node_get_title(node));
    cmark_node *a = tag.oom ? NULL : custom_link(tag.p);
    free(tag.p);
    if (!a) {
        free(alt.p);
        return -1;
    }
    cmark_node *t = alt.n ? text_node(alt.p, alt.n) : text_node("image", 5);
    free(alt.p);
    if (t && !cmark_node_append_child(a, t))
        cmark_node_free(t);
    replace(node, a);
    return 0;
}

/* The first pass. Nodes are taken children first (on leaving them), so
 * each is rewritten after everything inside it and freeing it frees only
 * nodes already done. Autolinks to games are left for the second pass,
 * which takes references in the order they are written. */
static int rewrite(cmark_node *doc)
{
    nodelist l = {0};
    cmark_iter *it = cmark_iter_new(doc);
    if (!it)
        return -1;
    int depth = 0, rc = 0;
    cmark_event_type ev;
    while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) {
            if (ev == CMARK_EVENT_ENTER) {
                depth++;
            } else {
                depth--;
                rc = push(&l, n, depth > 0);
            }
        } else if (t == CMARK_NODE_HTML_INLINE || t == CMARK_NODE_HTML_BLOCK) {
            rc = push(&l, n, depth > 0);
        }
    }
    cmark_iter_free(it);
    for (size_t i = 0; rc == 0 && i < l.n; i++) {
        cmark_node *n = l.v[i];
        switch (cmark_node_get_type(n)) {
        case CMARK_NODE_HTML_INLINE:
        case CMARK_NODE_HTML_BLOCK:
            html_to_text(n);
            break;
        case CMARK_NODE_LINK:
            if (l.inside[i])
                unwrap(n);  /* a link in an image's alt text: its text */
            else if (!game_autolink(n))
                rc = convert_link(n);
            break;
        case CMARK_NODE_IMAGE:
            rc = convert_image(n, l.inside[i]);
            break;
        default:
            break;
        }
    }
    nodelist_free(&l);
    return rc;
}

/* --- the second pass: game references and mentions --------------------------------- */

/* Text s[0..n) before node, unless empty. */
static void text_before(cmark_node *node, const char *s, size_t n)
{
    if (n)
        put_before(node, text_node(s, n));
}

/* A link to game id's review (text as written, or "game N"), then its
 * label, before node. */
static void game_before(scan *sc, cmark_node *node, int64_t id, const char *text, size_t n,
                        const char *label)
{
    char tag[96], word[40];
    snprintf(tag, sizeof tag, "<a href=\"/review/%lld\" class=\"game-link\">", (long long)id);
    if (!text) {
        snprintf(word, sizeof word, "game %lld", (long long)id);
        text = word;
        n = strlen(word);
    }
    cmark_node *a = custom_link(tag);
    if (a) {
        cmark_node *t = text_node(text, n);
        if (t && !cmark_node_append_child(a, t))
            cmark_node_free(t);
        put_before(node, a);
    }
    if (label && *label) {
        sbuf b = {0};
        sb_puts(&b, " (");
        sb_puts(&b, label);
        sb_puts(&b, ")");
        if (!b.oom)
            put_before(node, text_node(b.p, b.n));
        free(b.p);
    }
    sc->games++;
}

static void mention_before(cmark_node *node, const char *canon)
{
    sbuf tag = {0};
    sb_puts(&tag, "<a href=\"/players/");
    sbuf seg = {0};
    put_segment(&seg, canon);
    put_attr(&tag, sb_str(&seg));
    free(seg.p);
    sb_puts(&tag, "\" class=\"mention\">");
    cmark_node *a = tag.oom ? NULL : custom_link(tag.p);
    free(tag.p);
    if (!a)
        return;
    sbuf text = {0};
    sb_putc(&text, '@');
    sb_puts(&text, canon);
    cmark_node *t = text.oom ? NULL : text_node(text.p, text.n);
    free(text.p);
    if (t && !cmark_node_append_child(a, t))
        cmark_node_free(t);
    put_before(node, a);
}

/* Finds the references in a text node; when rendering, the node is split
 * around the links made. */
static void scan_text(scan *sc, cmark_node *node)
{
    const char *s = cmark_node_get_literal(node);
    if (!s)
        return;
    size_t n = strlen(s), i = 0, from = 0;
    int made = 0;
    while (i < n) {
        int boundary = i == 0 || !word_char(s[i - 1]);
        size_t end;
        int64_t id = 0;
        const char *found;
        if (boundary && (end = url_token(s, n, i)) != 0) {
            id = game_url(s + i, end - i);
            if (sc->render && id && game_lookup(sc, id, &found) == 0) {
                text_before(node, s + from, i - from);
                game_before(sc, node, id, NULL, 0, found);
                from = end;
                made = 1;
            }
            i = end;  /* a URL is never looked into for mentions */
            continue;
        }
        if (boundary && (end = game_words(s, n, i, &id)) != 0) {
            if (sc->render && game_lookup(sc, id, &found) == 0) {
                text_before(node, s + from, i - from);
                game_before(sc, node, id, s + i, end - i, found);
                from = end;
                made = 1;
            }
            i = end;
            continue;
        }
        if (s[i] == '@' && boundary && (end = mention_words(s, n, i)) != 0) {
            char name[24];
            memcpy(name, s + i + 1, end - i - 1);
            name[end - i - 1] = '\0';
            if (player_lookup(sc, name, &found) == 0) {
                if (sc->render) {
                    text_before(node, s + from, i - from);
                    mention_before(node, found);
                    from = end;
                    made = 1;
                } else {
                    note_name(sc, found);
                }
                sc->mentions++;
            }
            i = end;
            continue;
        }
        i++;
    }
    if (made) {
        text_before(node, s + from, n - from);
        cmark_node_free(node);
    }
}

/* An autolink to a game: a game link if the game exists, else a link. */
static int scan_autolink(scan *sc, cmark_node *node)
{
    if (!sc->render)
        return 0;
    int64_t id = game_autolink(node);
    const char *label;
    if (id && game_lookup(sc, id, &label) == 0) {
        game_before(sc, node, id, NULL, 0, label);
        cmark_node_free(node);
        return 0;
    }
    return convert_link(node);
}

/* The second pass, in the order things are written: text outside links,
 * and the autolinks the first pass left. */
static int references(cmark_node *doc, scan *sc)
{
    cmark_consolidate_text_nodes(doc);
    nodelist l = {0};
    cmark_iter *it = cmark_iter_new(doc);
    if (!it)
        return -1;
    int depth = 0, rc = 0;
    cmark_event_type ev;
    while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        if (t == CMARK_NODE_LINK || t == CMARK_NODE_CUSTOM_INLINE) {
            if (ev == CMARK_EVENT_ENTER) {
                if (depth == 0 && t == CMARK_NODE_LINK)
                    rc = push(&l, n, 0);
                depth++;
            } else {
                depth--;
            }
        } else if (t == CMARK_NODE_TEXT && depth == 0) {
            rc = push(&l, n, 0);
        }
    }
    cmark_iter_free(it);
    for (size_t i = 0; rc == 0 && i < l.n; i++) {
        if (cmark_node_get_type(l.v[i]) == CMARK_NODE_LINK)
            rc = scan_autolink(sc, l.v[i]);
        else
            scan_text(sc, l.v[i]);
    }
    nodelist_free(&l);
    return rc;
}

/* --- the interface ----------------------------------------------------------------- */

static cmark_node *parse(const char *src, size_t len)
{
    if (!src)
        src = "", len = 0;
    return cmark_parse_document(src, len, MD_PARSE_OPTS);
}

char *md_render(const char *src, size_t len, const md_hooks *hooks)
{
    cmark_node *doc = parse(src, len);
    if (!doc)
        return NULL;
    scan *sc = calloc(1, sizeof *sc);
    if (!sc) {
        cmark_node_free(doc);
        return NULL;
    }
    sc->hooks = hooks;
    sc->render = 1;
    char *html = NULL;
    if (rewrite(doc) == 0 && references(doc, sc) == 0)
        html = cmark_render_html(doc, CMARK_OPT_DEFAULT);
    free(sc);
    cmark_node_free(doc);
    return html;
}

int md_mentions(const char *src, size_t len, const md_hooks *hooks,
                char names[][MD_NAME_MAX + 1], int max)
{
    if (max <= 0 || !hooks || !hooks->player)
        return 0;
    cmark_node *doc = parse(src, len);
    if (!doc)
        return 0;
    scan *sc = calloc(1, sizeof *sc);
    if (!sc) {
        cmark_node_free(doc);
        return 0;
    }
    sc->hooks = hooks;
    sc->names = names;
    sc->maxnames = max;
    int n = 0;
    if (rewrite(doc) == 0 && references(doc, sc) == 0)
        n = sc->nnames;
    free(sc);
    cmark_node_free(doc);
    return n;
}

void md_excerpt(const char *src, size_t len, char *out, size_t size)
{
    if (!out || size == 0)
        return;
    out[0] = '\0';
    cmark_node *doc = parse(src, len);
    if (!doc)
        return;
    sbuf b = {0};
    plain_text(&b, doc, 1);
    cmark_node_free(doc);
    squeeze(&b);
    if (b.oom || !b.p) {
        free(b.p);
        return;
    }
    size_t room = size - 1;
    if (b.n <= room) {
        memcpy(out, b.p, b.n + 1);
        free(b.p);
        return;
    }
    static const char ellipsis[] = "\xE2\x80\xA6";  /* … */
    size_t cut = room >= 3 ? room - 3 : room;
    while (cut > 0 && ((unsigned char)b.p[cut] & 0xC0) == 0x80)
        cut--;  /* b.p[cut] is where the cut falls: not inside a character */
    while (cut > 0 && b.p[cut - 1] == ' ')
        cut--;
    memcpy(out, b.p, cut);
    if (room >= 3) {
        memcpy(out + cut, ellipsis, 3);
        cut += 3;
    }
    out[cut] = '\0';
    free(b.p);
}
