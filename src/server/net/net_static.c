/* net_static.c -- the files of the web root, served by net.c: the page's
 * built files, its routes (paths without a file extension are the page's
 * own, /play/..., /learn, and get index.html), and /favicon.ico.
 *
 * A file the build compressed (NAME.br and NAME.gz beside NAME, made by
 * web/build.mjs) is sent as the brotli copy if the request's
 * Accept-Encoding takes br, else as the gzip copy if it takes gzip, else
 * as it is; each answer for such a file says that it varies by
 * Accept-Encoding, so that caches keep the copies apart.
 *
 * The invariant: only a path that names a file under the web root is
 * served (no "..", no dot-files, no source maps), and only a file whose
 * name carries a content hash ("app.3f9a61c0.js") may be cached for good;
 * every other is checked again each time.
 */
#include <dirent.h>
#include <uv.h>  /* before libwebsockets.h, as in net.c */
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "net_frames.h"
#include "net_static.h"

static const char *mime_of(const char *path)
{
    static const struct { const char *ext, *mime; } types[] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".ico", "image/x-icon"},
        {".json", "application/json"},
        {".txt", "text/plain; charset=utf-8"},
        {".wav", "audio/wav"},
        {".mp3", "audio/mpeg"},
        {".webmanifest", "application/manifest+json"},
        {".wasm", "application/wasm"},
    };
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return NULL;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dot, types[i].ext) == 0)
            return types[i].mime;
    return "application/octet-stream";
}

/* 1 if a file name carries a content hash: a dot, at least 8 lower-case
 * hex digits, a dot ("app.3f9a61c0.js"). */
static int hashed_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (const char *d = strchr(base, '.'); d; d = strchr(d + 1, '.')) {
        size_t n = strspn(d + 1, "0123456789abcdef");
        if (n >= 8 && d[1 + n] == '.')
            return 1;
    }
    return 0;
}

/* 1 if a path may name a file of the web root: absolute, no "..", no
 * backslash, no segment starting with a dot, no source map. */
static int servable(const char *path)
{
    if (path[0] != '/' || strstr(path, "..") || strchr(path, '\\') || strstr(path, "/."))
        return 0;
    size_t n = strlen(path);
    return !(n >= 4 && strcmp(path + n - 4, ".map") == 0);
}

/* The site's icon for /favicon.ico, which browsers ask for by themselves
 * (for a text/plain game record, say): static/icon.svg of the web root, or
 * the build's static/icon.HASH.svg. 0 and the file's path, or -1. */
static int favicon_file(const char *webroot, char *file, size_t size)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/static", webroot);
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int found = -1;
    for (struct dirent *e; found < 0 && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, "icon.", 5) == 0 && n >= 8 &&
            strcmp(e->d_name + n - 4, ".svg") == 0 && (n == 8 || hashed_name(e->d_name))) {
            snprintf(file, size, "%s/%s", dir, e->d_name);
            found = 0;
        }
    }
    closedir(d);
    return found;
}

/* 1 if an Accept-Encoding value takes `coding`: the coding is listed
 * (in any case), and not with a weight of 0 ("br;q=0"). */
static int accepts(const char *list, const char *coding)
{
    size_t want = strlen(coding);
    for (const char *p = list; *p;) {
        size_t item = strcspn(p, ",");
        const char *end = p + item;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        size_t name = strcspn(p, " \t;,");
        if (name == want && strncasecmp(p, coding, want) == 0) {
            double q = 1;
            for (const char *a = p + name; a < end; a++)
                if (*a == ';') {
                    const char *v = a + 1 + strspn(a + 1, " \t");
                    if ((v[0] == 'q' || v[0] == 'Q') && v[1] == '=')
                        q = strtod(v + 2, NULL);
                }
            return q > 0;
        }
        p = *end ? end + 1 : end;
    }
    return 0;
}

static int regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The answer is whole: the next bytes begin a new request's head. */
static int completed(struct lws *wsi)
{
    net_frames_next(lws_get_socket_fd(wsi));
    return lws_http_transaction_completed(wsi);
}

int net_static_serve(struct lws *wsi, const char *webroot, const char *headers, const char *path)
{
    if (!webroot[0] || !servable(path)) {
        lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
        return completed(wsi) ? -1 : 0;
    }
    char file[2048];
    const char *mime = mime_of(path);
    int favicon = strcmp(path, "/favicon.ico") == 0;
    if (favicon) {
        mime = "image/svg+xml";
        if (favicon_file(webroot, file, sizeof file) != 0)
            file[0] = 0;
    } else if (!mime || strcmp(path, "/") == 0) {
        snprintf(file, sizeof file, "%s/index.html", webroot);
        mime = "text/html; charset=utf-8";
    } else {
        snprintf(file, sizeof file, "%s%s", webroot, path);
    }
    struct stat st;
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
        lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
        return completed(wsi) ? -1 : 0;
    }
    /* The build's compressed copies, and which of them this browser takes. */
    char br[2100], gz[2100], accept[512] = "";
    snprintf(br, sizeof br, "%s.br", file);
    snprintf(gz, sizeof gz, "%s.gz", file);
    int has_br = !favicon && regular_file(br), has_gz = !favicon && regular_file(gz);
    if ((has_br || has_gz) &&
        lws_hdr_copy(wsi, accept, sizeof accept, WSI_TOKEN_HTTP_ACCEPT_ENCODING) < 0)
        accept[0] = 0;
    const char *send = file, *coding = NULL;
    if (has_br && accepts(accept, "br"))
        send = br, coding = "br";
    else if (has_gz && accepts(accept, "gzip"))
        send = gz, coding = "gzip";
    char extra[2048], encoding[80] = "";
    if (coding)
        snprintf(encoding, sizeof encoding, "content-encoding: %s\r\n", coding);
    snprintf(extra, sizeof extra, "%scache-control: %s\r\n%s%s",
             headers ? headers : "",
             hashed_name(file) && !favicon ? "public, max-age=31536000, immutable" : "no-cache",
             encoding, has_br || has_gz ? "vary: accept-encoding\r\n" : "");
    int r = lws_serve_http_file(wsi, send, mime, extra, (int)strlen(extra));
    if (r < 0 || (r > 0 && completed(wsi)))
        return -1;
    return 0;
}
