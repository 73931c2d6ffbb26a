/* account.c -- /api/me, sign-up, sign-in, sign-out and the password's
 * change: the HTTP side of who a visitor is (identity.c reads sessions,
 * makes guests and checks Origins for it).
 *
 * Passwords are hashed with Argon2id (libsodium's crypto_pwhash_str, the
 * cost in srv_config) on the hashing pool, never on the loop: the
 * request's answer waits for the job. At most `hashing-queue` hashings
 * are out at once; beyond that a request is answered 503 at once.
 *
 * Sign-in attempts are counted before the hash is checked, so concurrent
 * guesses cannot outrun the count: each attempt takes a token of its
 * address's bucket and, unless the address has signed in to that account
 * before, one of the name's bucket; a correct password gives both back.
 * So a stranger's guesses lock the name for strangers only, never for its
 * owner at an address the owner has used (remembered in the store, the
 * last KNOWN_ADDRS of them per account).
 *
 * A password is changed by a signed-in person who gives the current one
 * (counted as a sign-in attempt of the address and the name, given back
 * when it is right); the new one ends every other session of the account,
 * and what they opened, at once (core/revoke.c). Bot API tokens stay: each
 * was made on purpose and is revoked on its own (docs/api.md).
 */
#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http.h"
#include "identity.h"
#include "srv.h"

#define KNOWN_PREFIX "signin-from:"
#define KNOWN_ADDRS 16
#define MINUTE_MS 60000LL
#define HOUR_MS 3600000LL

/* --- sign up and sign in ------------------------------------------------------------ */

enum { PW_SIGNUP, PW_SIGNIN, PW_CHANGE };

typedef struct pw_job {
    job base;
    int kind;
    net_http *h;
    int64_t player;
    char name[STORE_NAME_MAX + 1];
    char pw[129];
    char new_pw[129];    /* PW_CHANGE: the new password, pw the current one */
    char keep[65];       /* PW_CHANGE: the session that asked, which stays */
    char hash[STORE_TEXT_MAX];
    char addr[64];
    int name_token;      /* sign-in took a token of the name's bucket */
    unsigned long long ops;
    size_t mem;
    int ok;
} pw_job;

static void pw_run(job *j)
{
    pw_job *p = (pw_job *)j;
    if (p->kind == PW_SIGNUP)
        p->ok = crypto_pwhash_str(p->hash, p->pw, strlen(p->pw), p->ops, p->mem) == 0;
    else if (p->kind == PW_CHANGE) {
        /* ok: 1 changed, 0 the current password is wrong, -1 no hash made */
        p->ok = p->hash[0] && crypto_pwhash_str_verify(p->hash, p->pw, strlen(p->pw)) == 0;
        if (p->ok && crypto_pwhash_str(p->hash, p->new_pw, strlen(p->new_pw), p->ops,
                                       p->mem) != 0)
            p->ok = -1;
        sodium_memzero(p->new_pw, sizeof p->new_pw);
    } else if (p->hash[0])
        p->ok = crypto_pwhash_str_verify(p->hash, p->pw, strlen(p->pw)) == 0;
    else {
        /* no such account: spend the same time, so that timing tells nothing */
        char dummy[crypto_pwhash_STRBYTES];
        if (crypto_pwhash_str(dummy, p->pw, strlen(p->pw), p->ops, p->mem) != 0)
            dummy[0] = 0;
        p->ok = 0;
    }
    sodium_memzero(p->pw, sizeof p->pw);
}

static void signin_keys(const char *name, const char *addr, char *kname, char *kaddr,
                        size_t size)
{
    snprintf(kname, size, "signin-name:%s", name);
    for (char *p = kname; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    snprintf(kaddr, size, "signin-addr:%s", addr);
}

/* Remembers addr as one the player signed in from, keeping the newest
 * KNOWN_ADDRS. */
static void remember_addr(srv *s, int64_t player, const char *addr)
{
    char key[128], when[32];
    store_err e;
    snprintf(key, sizeof key, KNOWN_PREFIX "%s", addr);
    snprintf(when, sizeof when, "%020lld", (long long)net_wall_ms());
    if (store_kv_put(s->st, player, key, when, &e) != 0)
        return;
    store_kv kv[KNOWN_ADDRS + 1];
    int n = store_kv_list(s->st, player, KNOWN_PREFIX, kv, KNOWN_ADDRS + 1, &e);
    if (n > KNOWN_ADDRS) {
        int oldest = 0;
        for (int i = 1; i < n; i++)
            if (strcmp(kv[i].value, kv[oldest].value) < 0)
                oldest = i;
        store_kv_del(s->st, player, kv[oldest].key, &e);
    }
}

static int known_addr(srv *s, int64_t player, const char *addr)
{
    char key[128], when[64];
    store_err e;
    snprintf(key, sizeof key, KNOWN_PREFIX "%s", addr);
    return store_kv_get(s->st, player, key, when, sizeof when, &e) == 0;
}

/* /api/me's answer, and sign-in's: the player, with their role and mute. */
static json_t *me_json(srv *s, const ident *me)
{
    store_standing st = {0};
    store_err e;
    store_standing_get(s->st, me->id, &st, &e);
    return json_pack("{s:o, s:s, s:I}", "player", ident_json(me), "role", req_role_name(st.role),
                     "muted_until", (json_int_t)st.muted_until);
}

static void signed_in(srv *s, net_http *h, int64_t player, int status)
{
    char token[65], headers[256];
    ident me;
    if (ident_session_new(s, player, SRV_SESSION_MS, token) != 0 ||
        ident_load(s, player, &me) != 0) {
        reply_error(h, 500, "could not store the session; try again");
        return;
    }
    ident_cookie_header(s, headers, sizeof headers, token, SRV_SESSION_MS);
    reply_json(h, status, me_json(s, &me), headers);
}

static int account_closed(srv *s, int64_t player)
{
    store_standing st;
    store_err e;
    return store_standing_get(s->st, player, &st, &e) != 0 || st.closed;
}

/* The end of a password change: stored with the other sessions ended, then
 * what those sessions opened ended here and on every server. */
static void password_changed(srv *s, pw_job *p)
{
    int fails = s->cfg.limits[LIM_SIGNIN_FAILS];
    int64_t now = net_mono_ms();
    char kname[96], kaddr[96];
    store_err e;
    signin_keys(p->name, p->addr, kname, kaddr, sizeof kname);
    if (p->ok == 0) {
        reply_error(p->h, 401, "the current password is wrong");
        return;
    }
    quota_refund(s->quota, kaddr, fails, MINUTE_MS, now);
    quota_refund(s->quota, kname, fails, MINUTE_MS, now);
    if (p->ok < 0 || store_password_set(s->st, p->player, p->hash, p->keep, &e) != 0) {
        reply_error(p->h, 500, "could not store the new password; try again");
        return;
    }
    revoked r = {.kind = REVOKE_OTHERS, .player = p->player};
    revoke_session_id(p->keep, r.session);
    revoke_end(s, &r);
    reply_json(p->h, 200, json_pack("{s:b}", "ok", 1), NULL);
}

static void pw_done(void *app, job *j)
{
    srv *s = app;
    pw_job *p = (pw_job *)j;
    s->hashing--;
    int64_t now = net_mono_ms();
    if (p->kind == PW_SIGNUP) {
        store_err e;
        int64_t id;
        char kaddr[96];
        snprintf(kaddr, sizeof kaddr, "signup:%s", p->addr);
        int r = p->ok ? store_player_add(s->st, p->name, p->hash, 0, 0, "", net_wall_ms(), &id, &e)
                      : -1;
        if (r != 0)
            quota_refund(s->quota, kaddr, s->cfg.limits[LIM_SIGNUPS], HOUR_MS, now);
        if (r == STORE_TAKEN)
            reply_error(p->h, 409, "that name is taken");
        else if (r != 0)
            reply_error(p->h, 500, "could not store the account; try again");
        else {
            remember_addr(s, id, p->addr);
            signed_in(s, p->h, id, 201);
        }
    } else if (p->kind == PW_CHANGE) {
        password_changed(s, p);
    } else if (!p->ok) {
        reply_error(p->h, 401, "wrong name or password");
    } else if (account_closed(s, p->player)) {
        reply_error(p->h, 403, "this account is closed");
    } else {
        int fails = s->cfg.limits[LIM_SIGNIN_FAILS];
        char kname[96], kaddr[96];
        signin_keys(p->name, p->addr, kname, kaddr, sizeof kname);
        quota_refund(s->quota, kaddr, fails, MINUTE_MS, now);
        if (p->name_token)
            quota_refund(s->quota, kname, fails, MINUTE_MS, now);
        remember_addr(s, p->player, p->addr);
        signed_in(s, p->h, p->player, 200);
    }
    free(p);
}

static int name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n < 3 || n > 20)
        return 0;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
            return 0;
    return strncasecmp(name, "guest-", 6) != 0 && strncasecmp(name, "bot-", 4) != 0;
}

static int read_credentials(net_http *h, const net_request *req, const char **name,
                            const char **pw, json_t **body)
{
    *body = req_body_strict(req, h);
    if (!*body)
        return -1;
    *name = json_string_value(json_object_get(*body, "name"));
    *pw = json_string_value(json_object_get(*body, "password"));
    if (!*name || !*pw) {
        reply_error(h, 400, "name and password are required strings");
        return -1;
    }
    return 0;
}

/* A hashing job for the request, or NULL after answering it (the queue is
 * full, or no memory). */
static pw_job *pw_job_new(srv *s, net_http *h, int kind, const char *name, const char *pw,
                          const char *addr)
{
    int max = s->cfg.limits[LIM_HASH_QUEUE];
    if (max > 0 && s->hashing >= max) {
        reply_error(h, 503, "the server is busy signing people in; try again in a moment");
        return NULL;
    }
    pw_job *j = calloc(1, sizeof *j);
    if (!j) {
        reply_error(h, 500, "out of memory");
        return NULL;
    }
    j->base.run = pw_run;
    j->base.done = pw_done;
    j->kind = kind;
    j->h = h;
    j->ops = s->cfg.pw_ops;
    j->mem = s->cfg.pw_mem;
    snprintf(j->name, sizeof j->name, "%s", name);
    snprintf(j->pw, sizeof j->pw, "%s", pw);
    snprintf(j->addr, sizeof j->addr, "%s", addr);
    return j;
}

static void pw_submit(srv *s, pw_job *j)
{
    s->hashing++;
    workers_submit(s->hash_pool, &j->base);
}

static void signup(srv *s, net_http *h, const net_request *req, const char *addr)
{
    const char *name, *pw;
    json_t *body;
    if (read_credentials(h, req, &name, &pw, &body) != 0) {
        json_decref(body);
        return;
    }
    size_t pwlen = strlen(pw);
    store_player p;
    store_err e;
    char kaddr[96];
    snprintf(kaddr, sizeof kaddr, "signup:%s", addr);
    int burst = s->cfg.limits[LIM_SIGNUPS];
    if (!name_ok(name))
        reply_error(h, 400,
                    "names are 3-20 letters, digits, '_' or '-', not starting guest- or bot-");
    else if (pwlen < 8 || pwlen > 128)
        reply_error(h, 400, "passwords are 8-128 bytes");
    else if (store_player_by_name(s->st, name, &p, NULL, &e) == 0)
        reply_error(h, 409, "that name is taken");
    else if (!quota_take(s->quota, kaddr, burst, HOUR_MS, net_mono_ms()))
        reply_limited(h, quota_retry_s(s->quota, kaddr, burst, HOUR_MS, net_mono_ms()),
                      "too many new accounts from your address; try again later");
    else {
        pw_job *j = pw_job_new(s, h, PW_SIGNUP, name, pw, addr);
        if (j)
            pw_submit(s, j);
        else
            quota_refund(s->quota, kaddr, burst, HOUR_MS, net_mono_ms());
    }
    json_decref(body);
}

static void signin(srv *s, net_http *h, const net_request *req, const char *addr)
{
    const char *name, *pw;
    json_t *body;
    if (read_credentials(h, req, &name, &pw, &body) != 0) {
        json_decref(body);
        return;
    }
    if (strlen(name) > STORE_NAME_MAX || strlen(pw) > 128) {
        reply_error(h, 401, "wrong name or password");
        json_decref(body);
        return;
    }
    store_player p;
    store_err e;
    char hash[STORE_TEXT_MAX];
    int exists = store_player_by_name(s->st, name, &p, hash, &e) == 0 && !p.is_bot &&
                 !p.is_guest;
    int fails = s->cfg.limits[LIM_SIGNIN_FAILS];
    int64_t now = net_mono_ms();
    char kname[96], kaddr[96];
    signin_keys(name, addr, kname, kaddr, sizeof kname);
    int known = exists && known_addr(s, p.id, addr);
    if (!quota_take(s->quota, kaddr, fails, MINUTE_MS, now)) {
        reply_limited(h, quota_retry_s(s->quota, kaddr, fails, MINUTE_MS, now),
                      "too many failed sign-ins from your address; wait a minute");
    } else if (!known && !quota_take(s->quota, kname, fails, MINUTE_MS, now)) {
        quota_refund(s->quota, kaddr, fails, MINUTE_MS, now);
        reply_limited(h, quota_retry_s(s->quota, kname, fails, MINUTE_MS, now),
                      "too many failed sign-ins for that name; wait a minute");
    } else {
        pw_job *j = pw_job_new(s, h, PW_SIGNIN, name, pw, addr);
        if (!j) {
            quota_refund(s->quota, kaddr, fails, MINUTE_MS, now);
            if (!known)
                quota_refund(s->quota, kname, fails, MINUTE_MS, now);
        } else {
            j->name_token = !known;
            if (exists) {
                snprintf(j->hash, sizeof j->hash, "%s", hash);
                j->player = p.id;
            }
            pw_submit(s, j);
        }
    }
    sodium_memzero(hash, sizeof hash);
    json_decref(body);
}

/* POST /api/account/password {password, new_password}: the signed-in
 * person's (not a guest's) password changed, answered once it is stored. */
static void password_change(srv *s, net_http *h, const net_request *req, const char *addr)
{
    ident me;
    char token[65];
    ident_cookie_token(req->cookie, token);
    if (!token[0] || ident_request_me(s, req, &me, NULL) != 0 || me.guest || me.bot) {
        reply_error(h, 401, "sign in to change your password");
        return;
    }
    json_error_t jerr;
    json_t *body = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &jerr);
    const char *pw = json_string_value(json_object_get(body, "password"));
    const char *new_pw = json_string_value(json_object_get(body, "new_password"));
    store_player p;
    store_err e;
    char hash[STORE_TEXT_MAX] = "";
    int fails = s->cfg.limits[LIM_SIGNIN_FAILS];
    int64_t now = net_mono_ms();
    char kname[96], kaddr[96];
    signin_keys(me.name, addr, kname, kaddr, sizeof kname);
    if (!json_is_object(body))
        reply_error(h, 400, "send {\"password\": the current one, \"new_password\": the new one}");
    else if (!pw || !new_pw)
        reply_error(h, 400, "password and new_password are required strings");
    else if (strlen(new_pw) < 8 || strlen(new_pw) > 128)
        reply_error(h, 400, "passwords are 8-128 bytes");
    else if (strlen(pw) > 128)
        reply_error(h, 401, "the current password is wrong");
    else if (store_player_by_name(s->st, me.name, &p, hash, &e) != 0 || p.id != me.id)
        reply_error(h, 500, "could not read the account; try again");
    else if (!quota_take(s->quota, kaddr, fails, MINUTE_MS, now))
        reply_limited(h, quota_retry_s(s->quota, kaddr, fails, MINUTE_MS, now),
                      "too many wrong passwords from your address; wait a minute");
    else if (!quota_take(s->quota, kname, fails, MINUTE_MS, now)) {
        quota_refund(s->quota, kaddr, fails, MINUTE_MS, now);
        reply_limited(h, quota_retry_s(s->quota, kname, fails, MINUTE_MS, now),
                      "too many wrong passwords for this account; wait a minute");
    } else {
        pw_job *j = pw_job_new(s, h, PW_CHANGE, me.name, pw, addr);
        if (!j) {
            quota_refund(s->quota, kaddr, fails, MINUTE_MS, now);
            quota_refund(s->quota, kname, fails, MINUTE_MS, now);
        } else {
            j->player = me.id;
            snprintf(j->new_pw, sizeof j->new_pw, "%s", new_pw);
            snprintf(j->keep, sizeof j->keep, "%s", token);
            snprintf(j->hash, sizeof j->hash, "%s", hash);
            pw_submit(s, j);
        }
    }
    sodium_memzero(hash, sizeof hash);
    json_decref(body);
}

/* --- the endpoints ------------------------------------------------------------------ */

/* A guest made for GET /api/me by the store's writer, off the loop: its
 * two writes join the writer's next batch, and the answer (with the
 * session's cookie) goes once they are committed. */
typedef struct guest_job {
    wjob base;
    net_http *h;
    char key[96];          /* its quota's, refunded if nothing was made */
    char names[5][16];     /* names to try, in turn, should one be taken */
    char token[65];
    int64_t now, id;
} guest_job;

static int guest_run(store *st, wjob *j)
{
    guest_job *g = (guest_job *)j;
    for (int i = 0; i < 5; i++) {
        int r = store_player_add(st, g->names[i], "", 0, 1, "", g->now, &g->id, &j->err);
        if (r == STORE_TAKEN)
            continue;
        if (r != 0)
            return -1;
        return store_session_add(st, g->token, g->id, g->now, g->now + SRV_GUEST_SESSION_MS,
                                 &j->err);
    }
    return -1;
}

static void guest_done(void *app, wjob *j)
{
    srv *s = app;
    guest_job *g = (guest_job *)j;
    ident me;
    if (j->ok && ident_load(s, g->id, &me) == 0) {
        char headers[256];
        ident_cookie_header(s, headers, sizeof headers, g->token, SRV_GUEST_SESSION_MS);
        reply_json(g->h, 200, me_json(s, &me), headers);
    } else {
        quota_refund(s->quota, g->key, s->cfg.limits[LIM_GUESTS], HOUR_MS, net_mono_ms());
        reply_error(g->h, 500, "could not make a guest session; try again");
    }
    free(g);
}

/* GET /api/me without a session: a guest, answered when it is stored. */
static void guest_for_http(srv *s, net_http *h, const char *addr)
{
    guest_job *g = calloc(1, sizeof *g);
    if (!g) {
        reply_error(h, 500, "could not make a guest session; try again");
        return;
    }
    snprintf(g->key, sizeof g->key, "guest:%s", addr);
    if (!quota_take(s->quota, g->key, s->cfg.limits[LIM_GUESTS], HOUR_MS, net_mono_ms())) {
        int retry = quota_retry_s(s->quota, g->key, s->cfg.limits[LIM_GUESTS], HOUR_MS,
                                  net_mono_ms());
        free(g);
        reply_limited(h, retry, "too many new guests from your address; sign in, or try again later");
        return;
    }
    g->base.run = guest_run;
    g->base.done = guest_done;
    g->h = h;
    for (int i = 0; i < 5; i++) {
        char hex[7];
        ident_random_token(hex, 3);
        snprintf(g->names[i], sizeof g->names[i], "guest-%s", hex);
    }
    ident_random_token(g->token, 32);
    g->now = net_wall_ms();
    writer_submit(s->writer, &g->base);
}

/* --- preferences ----------------------------------------------------------------- */

/* What an account keeps of how the page looks and sounds (docs/api.md,
 * "Preferences"): each setting, its values (the first the default). */
static const struct pref {
    const char *name;
    const char *values[4];  /* a string setting's values; NULL first: a boolean */
    int on;                 /* a boolean's default */
} prefs[] = {
    { "theme", { "system", "light", "dark", NULL }, 0 },
    { "board", { "green", "brown", "blue", NULL }, 0 },
    { "pieces", { "figures", "letters", NULL }, 0 },
    { "sound", { NULL }, 0 },
};
#define NPREFS (sizeof prefs / sizeof prefs[0])

/* The stored preferences of `player` over the defaults (a stored value no
 * longer offered is dropped). */
static json_t *prefs_of(srv *s, int64_t player)
{
    json_t *out = json_object();
    for (size_t i = 0; i < NPREFS; i++)
        json_object_set_new(out, prefs[i].name, prefs[i].values[0] ? json_string(prefs[i].values[0])
                                                                   : json_boolean(prefs[i].on));
    char text[STORE_TEXT_MAX];
    store_err e;
    json_t *kept = store_kv_get(s->st, player, "prefs", text, sizeof text, &e) == 0
                       ? json_loads(text, 0, NULL) : NULL;
    for (size_t i = 0; i < NPREFS; i++) {
        json_t *v = json_object_get(kept, prefs[i].name);
        int ok = 0;
        if (prefs[i].values[0])
            for (int k = 0; k < 4 && prefs[i].values[k] && json_is_string(v); k++)
                ok |= strcmp(json_string_value(v), prefs[i].values[k]) == 0;
        else
            ok = json_is_boolean(v);
        if (ok)
            json_object_set(out, prefs[i].name, v);
    }
    json_decref(kept);
    return out;
}

/* GET and POST /api/account/prefs: an account's preferences; a POST sets
 * the ones it names (each checked: an unknown name or value changes
 * nothing and says why). A guest's stay in its browser: 401. */
static void account_prefs(srv *s, net_http *h, const net_request *req)
{
    ident me;
    if (ident_session_player(s, req->cookie, &me) != 0 || me.guest) {
        reply_error(h, 401, "sign in to keep settings on an account (a guest's stay in the browser)");
        return;
    }
    if (strcmp(req->method, "GET") == 0) {
        reply_json(h, 200, prefs_of(s, me.id), NULL);
        return;
    }
    json_t *body = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, NULL);
    if (!json_is_object(body)) {
        json_decref(body);
        reply_error(h, 400, "send the settings as a JSON object");
        return;
    }
    json_t *now = prefs_of(s, me.id), *v;
    const char *key;
    char why[160] = "";
    json_object_foreach(body, key, v) {
        size_t i = 0;
        while (i < NPREFS && strcmp(prefs[i].name, key) != 0)
            i++;
        int ok = 0;
        if (i < NPREFS && prefs[i].values[0])
            for (int k = 0; k < 4 && prefs[i].values[k] && json_is_string(v); k++)
                ok |= strcmp(json_string_value(v), prefs[i].values[k]) == 0;
        else if (i < NPREFS)
            ok = json_is_boolean(v);
        if (i == NPREFS)
            snprintf(why, sizeof why, "no setting '%.40s' (theme, board, pieces, sound)", key);
        else if (!ok && prefs[i].values[0]) {
            size_t n = (size_t)snprintf(why, sizeof why, "%s is one of", key);
            for (int k = 0; k < 4 && prefs[i].values[k] && n < sizeof why; k++)
                n += (size_t)snprintf(why + n, sizeof why - n, "%s %s", k ? "," : "", prefs[i].values[k]);
        }
        else if (!ok)
            snprintf(why, sizeof why, "%s is true or false", key);
        if (why[0])
            break;
        json_object_set(now, key, v);
    }
    json_decref(body);
    char *text = why[0] ? NULL : json_dumps(now, JSON_COMPACT | JSON_SORT_KEYS);
    store_err e;
    if (why[0])
        reply_error(h, 400, why);
    else if (!text || store_kv_put(s->st, me.id, "prefs", text, &e) != 0)
        reply_error(h, 500, "could not keep the settings; try again");
    else {
        reply_json(h, 200, now, NULL);
        now = NULL;
    }
    free(text);
    json_decref(now);
}

void account_http(srv *s, net_http *h, const net_request *req, const char *path)
{
    char addr[64];
    ident_request_addr(s, req, addr, sizeof addr);
    if (strcmp(path, "/signup") == 0)
        signup(s, h, req, addr);
    else if (strcmp(path, "/signin") == 0)
        signin(s, h, req, addr);
    else if (strcmp(path, "/account/password") == 0)
        password_change(s, h, req, addr);
    else if (strcmp(path, "/account/prefs") == 0)
        account_prefs(s, h, req);
    else if (strcmp(path, "/signout") == 0) {
        char token[65], headers[200];
        store_err e;
        ident_cookie_token(req->cookie, token);
        if (token[0] && store_session_del(s->st, token, &e) != 0) {
            reply_error(h, 500, "could not end the session; try again");
            return;
        }
        if (token[0]) {  /* its WebSockets close with it, here and elsewhere */
            revoked r = {.kind = REVOKE_SESSION};
            revoke_session_id(token, r.session);
            revoke_end(s, &r);
        }
        ident_cookie_header(s, headers, sizeof headers, NULL, 0);
        reply_json(h, 200, json_pack("{s:b}", "ok", 1), headers);
    } else {  /* GET /me */
        ident me;
        if (ident_session_player(s, req->cookie, &me) == 0)
            reply_json(h, 200, me_json(s, &me), NULL);
        else
            guest_for_http(s, h, addr);
    }
}
