/* reply.c -- answers to HTTP requests, as every route of the API gives
 * them: a JSON body, or an error {"error": why}.
 *
 * Each route answers its request exactly once (http.h); these take the
 * body they are given, whatever happens, and always answer: a body that
 * cannot be written out becomes a 500.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "srv.h"

void reply_json(net_http *h, int status, json_t *body, const char *headers)
{
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    if (!text) {
        net_http_reply(h, 500, "application/json", NULL, "{\"error\":\"internal\"}", 20);
        return;
    }
    net_http_reply(h, status, "application/json", headers, text, strlen(text));
    free(text);
}

void reply_error(net_http *h, int status, const char *what)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", what);
    text_utf8(buf);
    /* RFC 6585 4: every 429 says when to come back. A refusal that knows
     * when its quota gives a token back answers through reply_limited;
     * one that does not says a fixed REPLY_RETRY_AFTER_S. */
    char retry[40];
    snprintf(retry, sizeof retry, "Retry-After: %d\r\n", REPLY_RETRY_AFTER_S);
    reply_json(h, status, json_pack("{s:s}", "error", buf), status == 429 ? retry : NULL);
}
