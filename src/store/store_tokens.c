/* store_tokens.c -- the Bot API's rows (store.h): personal API tokens and
 * the accounts that play only through the API.
 *
 * The invariant: a token row holds the SHA-256 of its token, never the
 * token, and a player holds at most STORE_TOKENS_PER_PLAYER of them (the
 * count and the insert run in one transaction). An account becomes an API
 * bot only while it has no game, by one guarded UPDATE.
 */
#include <assert.h>

#include "store_int.h"

static void read_token(dbq *st, store_token *t)
{
    memset(t, 0, sizeof *t);
    t->id = q_col_int64(st, 0);
    t->player = q_col_int64(st, 1);
    column_text(st, 2, t->scopes, sizeof t->scopes);
    column_text(st, 3, t->description, sizeof t->description);
    t->created = q_col_int64(st, 4);
    t->used = q_col_int64(st, 5);
}

int store_token_add(store *s, int64_t player, const char *hash, const char *scopes,
                    const char *description, int64_t now, int64_t *id, store_err *err)
{
    assert(s && hash && scopes && description && id);
    if (strlen(hash) != 64)
        return fail(err, "a token's hash has 64 hex characters");
    if (!fits(scopes, STORE_TOKEN_SCOPES_MAX))
        return fail(err, "scopes longer than %d bytes", STORE_TOKEN_SCOPES_MAX);
    if (!fits(description, STORE_TOKEN_DESC_MAX))
        return fail(err, "a description longer than %d bytes", STORE_TOKEN_DESC_MAX);
    store_write_begin(s, "add token");
    if (begin(s, err, "add token") != 0)
        return -1;
    /* on PostgreSQL the player's row is locked first, so two adds of one
     * player count one after the other */
    dbq *st = use(s, ST_PLAYER_LOCK);
    q_int64(st, 1, player);
    int rc = q_step(st);
    q_done(st);
    if (rc != DB_ROW && rc != DB_DONE) {
        db_fail(s, err, "add token");
        return rollback(s);
    }
    st = use(s, ST_TOKEN_COUNT);
    q_int64(st, 1, player);
    int n = 0;
    if (count_of(s, st, &n, err, "add token") != 0)
        return rollback(s);
    if (n >= STORE_TOKENS_PER_PLAYER) {
        rollback(s);
        fail(err, "at most %d tokens an account", STORE_TOKENS_PER_PLAYER);
        return STORE_TAKEN;
    }
    st = use(s, ST_TOKEN_ADD);
    q_int64(st, 1, player);
    q_text(st, 2, hash);
    q_text(st, 3, scopes);
    q_text(st, 4, description);
    q_int64(st, 5, now);
    rc = q_step(st);
    if (rc == DB_ROW)
        *id = q_col_int64(st, 0);
    q_done(st);
    if (rc != DB_ROW) {
        db_fail(s, err, "add token");
        return rollback(s);
    }
    return commit(s, err, "add token");
}

int store_token_by_hash(store *s, const char *hash, store_token *t, store_err *err)
{
    assert(s && hash && t);
    dbq *st = use(s, ST_TOKEN_BY_HASH);
    q_text(st, 1, hash);
    int rc = q_step(st);
    if (rc == DB_ROW)
        read_token(st, t);
    q_done(st);
    if (rc == DB_DONE) {
        fail(err, "no such token");
        return STORE_NOT_FOUND;
    }
    return rc == DB_ROW ? 0 : db_fail(s, err, "find token");
}

int store_tokens(store *s, int64_t player, store_token *out, int max, store_err *err)
{
    assert(s && out && max >= 0);
    dbq *st = use(s, ST_TOKENS);
    q_int64(st, 1, player);
    q_int64(st, 2, max);
    int n = 0, rc;
    while ((rc = q_step(st)) == DB_ROW && n < max)
        read_token(st, &out[n++]);
    q_done(st);
    return rc == DB_DONE || rc == DB_ROW ? n : db_fail(s, err, "read tokens");
}

int store_token_del(store *s, int64_t player, int64_t id, store_err *err)
{
    assert(s);
    store_write_begin(s, "revoke token");
    dbq *st = use(s, ST_TOKEN_DEL);
    q_int64(st, 1, id);
    q_int64(st, 2, player);
    return update_one(s, st, err, "revoke token");
}

int store_token_used(store *s, int64_t id, int64_t now, store_err *err)
{
    assert(s);
    store_write_begin(s, "token used");
    dbq *st = use(s, ST_TOKEN_USED);
    q_int64(st, 1, id);
    q_int64(st, 2, now);
    return step_done(s, st, err, "token used");
}

int store_player_api_bot(store *s, int64_t player, store_err *err)
{
    assert(s);
    store_write_begin(s, "make a bot account");
    dbq *st = use(s, ST_PLAYER_API_BOT);
    q_int64(st, 1, player);
    int rc = update_one(s, st, err, "make a bot account");
    if (rc == STORE_NOT_FOUND)
        fail(err, "only an account that has played no game may become a bot");
    return rc;
}
