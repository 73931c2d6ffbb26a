/* mail.h -- mail the server sends (support tickets, their answers), kept
 * in the store's queue until an SMTP server has taken it.
 *
 * The invariant: a mail is in the store before anyone is told it will be
 * sent, and leaves the queue only when the SMTP server has accepted it
 * (libcurl's SMTP, on a thread of its own so a slow mail server stalls no
 * game). A failed attempt is tried again later, after 1 s, then twice as
 * long each time, at most an hour apart, for as long as the server runs
 * and across restarts. Without --smtp nothing is sent and nothing is
 * queued: tickets are still stored and shown to staff.
 */
#ifndef CITADEL_MAIL_H
#define CITADEL_MAIL_H

#include <stddef.h>
#include <stdint.h>

typedef struct srv srv;

/* Queues a mail to `to` (Reply-To reply_to, may be "" or NULL): 0 once it
 * is stored (or when there is no --smtp: nothing to do), -1 if the store
 * refused. Sending starts at once if nothing else is being sent. */
int mail_queue(srv *s, const char *to, const char *reply_to, const char *subject,
               const char *body);
/* Sends the next mail that is due, if none is being sent (from the sweep,
 * and after each mail is done). */
void mail_pump(srv *s);

/* The whole message (RFC 5322 headers and body, CRLF line ends), malloc'd:
 * From, To, Reply-To (if any), Subject (RFC 2047 encoded when not ASCII),
 * Date (from `now`, ms), Message-ID (<msgid>), MIME-Version and a UTF-8
 * text/plain body, 8bit, or quoted-printable if a line would pass 998
 * bytes. CR and LF in the header values are dropped (no header injection).
 * NULL if out of memory. */
char *mail_format(const char *from, const char *to, const char *reply_to,
                  const char *subject, const char *body, int64_t now, const char *msgid);

/* 1 if text looks like an address mail can go to: local@domain, at most
 * 254 bytes, printable ASCII with no spaces, quotes, <, >, commas, or
 * backslashes, one @, a dot in the domain. */
int mail_address_ok(const char *text);

#endif
