/* smtp_sink.h -- a tiny SMTP server for the tests, inside the test process:
 * it takes every mail the server under test sends and keeps it for the
 * test to read.
 *
 * One thread listens on 127.0.0.1 and serves one connection at a time with
 * enough of RFC 5321 for libcurl: the 220 greeting, EHLO/HELO (8BITMIME and
 * SIZE, no STARTTLS, no AUTH), MAIL, RCPT, DATA (354, then the text until
 * CRLF.CRLF, dot-unstuffed), RSET, NOOP, QUIT. A mail counts once its final
 * dot has been answered 250. The sink may stop and start again on the same
 * port (SO_REUSEADDR), so a test can show mail waiting while the mail
 * server is down; the mails it took stay across a stop (smtp_sink_clear
 * drops them).
 */
#ifndef CITADEL_TEST_SMTP_SINK_H
#define CITADEL_TEST_SMTP_SINK_H

#include <stddef.h>

#define SMTP_SINK_RCPT_MAX 16

typedef struct smtp_mail {
    char from[256];                              /* MAIL FROM:<...>, without the brackets */
    char rcpt[SMTP_SINK_RCPT_MAX][256];          /* RCPT TO:<...>, in order */
    int nrcpt;
    char *data;   /* the DATA text, dot-unstuffed, CRLF line ends, without the final dot */
    size_t len;
} smtp_mail;

/* Starts listening on 127.0.0.1:port (0: any free port). Returns the port,
 * or -1 (already running, or the port cannot be had). */
int smtp_sink_start(int port);
/* Stops listening and ends the connection being served, if any; waits for
 * the thread. Harmless when not running. */
void smtp_sink_stop(void);
/* How many mails have arrived (since the start of the process or the last
 * smtp_sink_clear). */
int smtp_sink_count(void);
/* Waits until at least n mails have arrived: 1, or 0 if timeout_ms passed
 * first. */
int smtp_sink_wait(int n, int timeout_ms);
/* The i-th mail (0 first), or NULL if there is none such. Valid until
 * smtp_sink_clear. */
const smtp_mail *smtp_sink_get(int i);
/* Forgets every mail taken (not while a test still holds one). */
void smtp_sink_clear(void);

/* The value of header `name` (case-insensitive, unfolded) in the header
 * block of a mail's data, into out: 1 if found, 0 if not. */
int smtp_mail_header(const smtp_mail *m, const char *name, char *out, size_t size);
/* The body of a mail: the data after the blank line that ends its
 * headers ("" if none). */
const char *smtp_mail_body(const smtp_mail *m);

#endif
