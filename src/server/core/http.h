/* http.h -- what every route of the HTTP API uses (the routes are in
 * ../api.c and the folders' own headers): answers (reply.c), the checks
 * of who asks and of what they write, and the pieces of a request
 * (request.c); and core's own route, the account (account.c).
 *
 * Every handler here answers its request exactly once (reply_json or
 * reply_error, or a job that answers later), and changes nothing when it
 * answers with an error.
 */
#ifndef CITADEL_SERVER_HTTP_H
#define CITADEL_SERVER_HTTP_H

#include <jansson.h>

#include "srv.h"

/* account.c: /api/me, /api/signup, /api/signin, /api/signout */
void account_http(srv *s, net_http *h, const net_request *req, const char *path);

/* text.c */
/* 0 if text is valid UTF-8 of 1..max bytes (0..max if may_be_empty)
 * without control characters (multiline: newlines and tabs allowed);
 * else -1 with why in err ("the title is too long (at most 200 bytes)",
 * `what` naming the field). */
int text_check(const char *text, size_t max, int multiline, int may_be_empty,
               const char *what, char *err, size_t errlen);
/* Makes s valid UTF-8 in place: each byte of a broken or cut sequence
 * becomes '?' (JSON strings must be UTF-8; an error quoting input may cut
 * a character in two). */
void text_utf8(char *s);
/* request.c */
/* {"id", "name", "bot", "guest"} of a stored player; name alone if the
 * store does not know it. */
json_t *req_player_ref(srv *s, int64_t id, const char *name);
/* 1 if the player may write now: not muted, not closed; else 0 with why. */
int req_may_write(srv *s, const ident *me, const struct store_standing *st, char *err,
                  size_t errlen);
/* "player", "moderator", "admin" and back (-1: none of them). */
const char *req_role_name(int role);
int req_role_parse(const char *name);
/* ?page=N of a query (1 if none or bad). */
int req_query_page(const char *query);
/* The value of ?name= in a query (which the net has URL-decoded) into
 * out: 1 if there, 0 if not, -1 if it does not fit. */
int req_query_param(const char *query, const char *name, char *out, size_t size);
/* The id at the start of a path piece ("12/edit": 12, rest "/edit"): 1-18
 * digits, no sign, no leading zero; -1 if there is none. */
int64_t req_path_id(const char *s, const char **rest);
/* How many pages `total` rows make (at least 1). */
int req_pages_of(int total, int per_page);
/* 1 for moderators and admins. */
int req_is_staff(const struct store_standing *st);
/* The request's body as a JSON object ({} if empty); NULL after answering
 * 400 if it is not one. */
json_t *req_body_object(const net_request *req, net_http *h);
/* The request's body as a JSON object, a key given twice refused; NULL
 * after answering 400 "malformed JSON: why" (an empty body included). */
json_t *req_body_strict(const net_request *req, net_http *h);
/* 1 if a Content-Type is `type` (any case, with any parameters:
 * "application/json; charset=utf-8" is application/json). */
int req_type_is(const char *ct, const char *type);
/* The fields of a request's body: a JSON object, or a form
 * (application/x-www-form-urlencoded: every value a string), {} if empty;
 * NULL after answering 400 (malformed, a form's field given twice). */
json_t *req_body_fields(const net_request *req, net_http *h);
/* reply.c: the answer, a JSON body (taken, whatever happens), or
 * {"error": what}. */
void reply_json(net_http *h, int status, json_t *body, const char *headers);
/* A 429 from reply_error carries Retry-After: REPLY_RETRY_AFTER_S seconds
 * (the refusal knows no better); reply_limited answers 429 with
 * Retry-After: retry_s (quota_retry_s of the quota that refused). */
#define REPLY_RETRY_AFTER_S 60
void reply_error(net_http *h, int status, const char *what);
void reply_limited(net_http *h, int retry_s, const char *what);

#endif
