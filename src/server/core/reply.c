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

static void error_with(net_http *h, int status, const char *what, const char *headers)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", what);
    text_utf8(buf);
    reply_json(h, status, json_pack("{s:s}", "error", buf), headers);
}

void reply_limited(net_http *h, int retry_s, const char *what)
{
    /* RFC 6585 4 and RFC 9110 10.2.3: a 429 says when to come back */
    char retry[40];
    snprintf(retry, sizeof retry, "Retry-After: %d\r\n", retry_s > 0 ? retry_s : 1);
    error_with(h, 429, what, retry);
}

void reply_error(net_http *h, int status, const char *what)
{
    if (status == 429)
        reply_limited(h, REPLY_RETRY_AFTER_S, what);
    else
        error_with(h, status, what, NULL);
}
