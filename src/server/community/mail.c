/* mail.c -- see mail.h: the mail queue, sent over SMTP with libcurl, one
 * mail at a time, on a worker thread of its own (s->mail_pool).
 *
 * The invariant (mail.h): a mail is in the store before mail_queue says
 * it is queued, and the store marks it sent only when libcurl reports
 * that the SMTP server accepted it; any failure leaves it in the queue
 * with attempts + 1 and next_try = now + min(1 s << attempts, 1 h). At
 * most one mail is out (s->mail_busy): mail_pump sends the oldest mail
 * due, and the job's `done` (on the loop thread) records the outcome and
 * pumps again, so a queue drains mail after mail; a mail not yet due is
 * left for the server's sweep, which calls mail_pump once a second.
 *
 * The job holds copies of all it needs (URL, sender, recipient, the whole
 * formatted message), so the worker touches nothing of the server's.
 * Addresses reach the SMTP commands only once checked (mail_address_ok
 * for recipients, sender_ok for --mail-from): no CR, LF, space, '<' or
 * '>' can get into MAIL FROM or RCPT TO.
 *
 * TLS: smtps:// URLs are TLS from the start. For smtp:// URLs STARTTLS is
 * used when the server offers it (CURLUSESSL_TRY), except to a mail
 * server on this machine (localhost, 127.x.x.x, [::1]), where the mail
 * never crosses a network and a local relay's certificate is rarely one
 * that verifies. TRY cannot stop someone on the path from hiding the
 * offer; an operator who needs TLS guaranteed gives an smtps:// URL.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail.h"
#include "../core/srv.h"

#define MAIL_RETRY_MIN_MS 1000
#define MAIL_RETRY_MAX_MS 3600000LL

typedef struct mail_job {
    job base;              /* first: workers.c frees a job with free() */
    int64_t id;
    int attempts;          /* failed attempts before this one */
    int loopback;          /* smtp:// to this machine: no STARTTLS */
    char url[sizeof ((srv_config *)0)->smtp];
    char from[STORE_EMAIL_MAX + 3];  /* "<address>" */
    char to[STORE_EMAIL_MAX + 3];
    int ok;                /* set by run */
    char error[200];       /* set by run when !ok */
    size_t len, pos;
    char msg[];            /* the message, len bytes */
} mail_job;

/* --- on the worker thread ----------------------------------------------------------- */

/* An error text fit for the store and one line of the log: printable
 * ASCII, at most 199 bytes (touches nothing but its arguments: used on
 * both threads). */
static void clean_error(char *out, size_t size, const char *in)
{
    size_t w = 0;
    for (; *in && w + 1 < size && w < 199; in++) {
        unsigned char c = (unsigned char)*in;
        out[w++] = c >= 0x20 && c < 0x7f ? (char)c : ' ';
    }
    while (w && out[w - 1] == ' ')
        w--;
    out[w] = '\0';
    if (!w)
        snprintf(out, size, "failed");
}

static size_t read_message(char *buf, size_t size, size_t nitems, void *arg)
{
    mail_job *j = arg;
    size_t room = size * nitems, left = j->len - j->pos;
    size_t n = left < room ? left : room;
    memcpy(buf, j->msg + j->pos, n);
    j->pos += n;
    return n;
}

static void mail_run(job *base)
{
    mail_job *j = (mail_job *)base;
    char errbuf[CURL_ERROR_SIZE];
    errbuf[0] = '\0';
    CURL *c = curl_easy_init();
    struct curl_slist *rcpt = curl_slist_append(NULL, j->to);
    if (!c || !rcpt) {
        snprintf(j->error, sizeof j->error, "out of memory");
        curl_slist_free_all(rcpt);
        if (c)
            curl_easy_cleanup(c);
        return;
    }
    curl_easy_setopt(c, CURLOPT_URL, j->url);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
#endif
    curl_easy_setopt(c, CURLOPT_MAIL_FROM, j->from);
    curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt);
    curl_easy_setopt(c, CURLOPT_READFUNCTION, read_message);
    curl_easy_setopt(c, CURLOPT_READDATA, j);
    curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 60L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_USE_SSL,
                     j->loopback ? (long)CURLUSESSL_NONE : (long)CURLUSESSL_TRY);
    CURLcode rc = curl_easy_perform(c);
    if (rc == CURLE_OK) {
        j->ok = 1;
    } else {
        clean_error(j->error, sizeof j->error, errbuf[0] ? errbuf : curl_easy_strerror(rc));
    }
    curl_slist_free_all(rcpt);
    curl_easy_cleanup(c);
}

/* --- on the loop thread --------------------------------------------------------------- */

/* Whether url is plain smtp:// to this machine. */
static int smtp_loopback(const char *url)
{
    if (strncasecmp(url, "smtp://", 7) != 0)
        return 0;
    const char *h = url + 7;
    size_t end = strcspn(h, "/?#");
    for (size_t i = end; i > 0; i--)
        if (h[i - 1] == '@') {  /* user:password@ */
            end -= i;
            h += i;
            break;
        }
    size_t n;
    if (h[0] == '[') {
        n = strcspn(h, "]");
        if (n >= end)
            return 0;
        return n == 4 && strncmp(h, "[::1", 4) == 0;
    }
    n = strcspn(h, ":/?#");
    if (n > end)
        n = end;
    if (n == 9 && strncasecmp(h, "localhost", 9) == 0)
        return 1;
    if (n < 4 || strncmp(h, "127.", 4) != 0)
        return 0;
    for (size_t i = 4; i < n; i++)
        if (!((h[i] >= '0' && h[i] <= '9') || h[i] == '.'))
            return 0;
    return 1;
}

static int64_t retry_delay(int attempts)
{
    if (attempts < 0)
        attempts = 0;
    if (attempts >= 12)  /* 1 s << 12 is past the hour already */
        return MAIL_RETRY_MAX_MS;
    int64_t d = (int64_t)MAIL_RETRY_MIN_MS << attempts;
    return d < MAIL_RETRY_MAX_MS ? d : MAIL_RETRY_MAX_MS;
}

/* An attempt failed: back in the queue for later. */
static void mail_retry(srv *s, int64_t id, int attempts, const char *why)
{
    char error[200];
    clean_error(error, sizeof error, why);
    int64_t delay = retry_delay(attempts);
    store_err e;
    if (store_mail_failed(s->st, id, net_wall_ms() + delay, error, &e) != 0)
        fprintf(stderr, "citadel serve: mail %lld: %s (and not recorded: %s)\n", (long long)id,
                error, e.msg);
    else
        fprintf(stderr, "citadel serve: mail %lld: %s, again in %lld s\n", (long long)id, error,
                (long long)(delay / 1000));
}

static void mail_done(void *app, job *base)
{
    srv *s = app;
    mail_job *j = (mail_job *)base;
    if (j->ok) {
        store_err e;
        if (store_mail_sent(s->st, j->id, net_wall_ms(), &e) != 0)
            fprintf(stderr, "citadel serve: mail %lld: sent, but not recorded: %s\n",
                    (long long)j->id, e.msg);
    } else {
        mail_retry(s, j->id, j->attempts, j->error);
    }
    free(j);
    s->mail_busy = 0;
    mail_pump(s);
}

/* The domain of an address, for Message-IDs: its letters, digits, dots
 * and hyphens, or "citadel". */
static void msgid_domain(const char *addr, char *out, size_t size)
{
    const char *at = strrchr(addr, '@');
    size_t w = 0;
    for (const char *p = at ? at + 1 : ""; *p && w + 1 < size; p++) {
        char c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '.' || c == '-')
            out[w++] = c;
    }
    out[w] = '\0';
    if (!w)
        snprintf(out, size, "citadel");
}

/* "<addr>" (addresses passed mail_address_ok: at most 254 bytes). */
static void bracket(char *out, size_t size, const char *addr)
{
    size_t n = strlen(addr);
    if (n + 3 > size)
        n = size - 3;
    out[0] = '<';
    memcpy(out + 1, addr, n);
    out[n + 1] = '>';
    out[n + 2] = '\0';
}

/* The job that sends m, or NULL if out of memory. */
static mail_job *mail_job_new(srv *s, const store_mail *m)
{
    char token[17], domain[128], msgid[200];
    ident_random_token(token, 8);
    msgid_domain(s->cfg.mail_from, domain, sizeof domain);
    snprintf(msgid, sizeof msgid, "mail%lld.%s@%s", (long long)m->id, token, domain);
    const char *reply_to = mail_address_ok(m->reply_to) ? m->reply_to : "";
    char *text = mail_format(s->cfg.mail_from, m->to, reply_to, m->subject, m->body,
                             net_wall_ms(), msgid);
    if (!text)
        return NULL;
    size_t len = strlen(text);
    mail_job *j = calloc(1, sizeof *j + len + 1);
    if (!j) {
        free(text);
        return NULL;
    }
    memcpy(j->msg, text, len + 1);
    free(text);
    j->len = len;
    j->base.run = mail_run;
    j->base.done = mail_done;
    j->id = m->id;
    j->attempts = m->attempts;
    j->loopback = smtp_loopback(s->cfg.smtp);
    snprintf(j->url, sizeof j->url, "%s", s->cfg.smtp);
    bracket(j->from, sizeof j->from, s->cfg.mail_from);
    bracket(j->to, sizeof j->to, m->to);
    return j;
}

/* Whether the sender may go into MAIL FROM:<...> and the From header:
 * printable ASCII, no space, no '<', '>' or '"', one '@' or more. Looser
 * than mail_address_ok, which wants a dot in the domain: the default
 * sender is citadel@localhost. */
static int sender_ok(const char *from)
{
    if (!from[0] || !strchr(from, '@'))
        return 0;
    for (const char *p = from; *p; p++)
        if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f || strchr("<>\"\\,", *p))
            return 0;
    return 1;
}

void mail_pump(srv *s)
{
    static int curl_ready;
    if (!s || s->mail_busy || s->stopping || !s->cfg.smtp[0] || !s->net)
        return;
    if (!s->mail_pool) {
        /* once, on the loop thread, before any thread of the pool exists */
        if (!curl_ready) {
            if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
                return;
            curl_ready = 1;
        }
        s->mail_pool = workers_new(1, s->net);
        if (!s->mail_pool)
            return;
    }
    store_mail *m = malloc(sizeof *m);
    if (!m)
        return;
    store_err e;
    if (store_mail_due(s->st, net_wall_ms(), m, 1, &e) != 1) {
        free(m);
        return;
    }
    int to_ok = mail_address_ok(m->to);
    if (!to_ok || !sender_ok(s->cfg.mail_from)) {
        /* never sendable as it stands; kept (and retried) all the same */
        mail_retry(s, m->id, m->attempts,
                   !to_ok ? "not an address to send to" : "--mail-from is not an address");
        free(m);
        return;
    }
    mail_job *j = mail_job_new(s, m);
    free(m);
    if (!j)
        return;  /* out of memory: the sweep tries again */
    s->mail_busy = 1;
    workers_submit(s->mail_pool, &j->base);
}

int mail_queue(srv *s, const char *to, const char *reply_to, const char *subject,
               const char *body)
{
    if (!s->cfg.smtp[0])
        return 0;
    if (!to || !mail_address_ok(to))
        return -1;
    if (!reply_to || !mail_address_ok(reply_to))
        reply_to = "";
    if (!subject)
        subject = "";
    if (!body)
        body = "";
    store_mail *m = calloc(1, sizeof *m);
    if (!m)
        return -1;
    size_t nt = strlen(to), nr = strlen(reply_to), ns = strlen(subject), nb = strlen(body);
    if (nt >= sizeof m->to || nr >= sizeof m->reply_to || ns >= sizeof m->subject ||
        nb >= sizeof m->body) {
        free(m);
        return -1;
    }
    memcpy(m->to, to, nt + 1);
    memcpy(m->reply_to, reply_to, nr + 1);
    memcpy(m->subject, subject, ns + 1);
    memcpy(m->body, body, nb + 1);
    int64_t id;
    store_err e;
    int rc = store_mail_add(s->st, m, net_wall_ms(), &id, &e);
    free(m);
    if (rc != 0) {
        fprintf(stderr, "citadel serve: a mail was not queued: %s\n", e.msg);
        return -1;
    }
    mail_pump(s);
    return 0;
}
