/* db_pg.c -- db.h on PostgreSQL through libpq.
 *
 * A statement's text has its ?N parameters turned into $N; it is prepared
 * on the server at its first run, with the types its parameters were bound
 * with then (an integer is int8, a real float8, text text, NULL left to the
 * server to infer), under a name of its connection's. Parameters go as
 * text, rows come back as text and are read with strtoll/strtod, so the
 * store reads the same values from either backend.
 *
 * The invariants: a run's result is kept until q_done; DB_UNIQUE is exactly
 * SQLSTATE 23505 (unique_violation), DB_FOREIGN 23503; a COMMIT the server turned into a
 * ROLLBACK (the transaction had failed) is an error, never a success.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

enum { OID_INT8 = 20, OID_TEXT = 25, OID_FLOAT8 = 701 };

typedef struct {
    db head;
    PGconn *conn;
    long changes;
    int named;  /* statements prepared so far, for their names */
    char err[512];
} pgdb;

typedef struct {
    dbq head;
    char *text;      /* with $N */
    char name[16];
    int prepared;
    int nparams;
    const char **vals;  /* [nparams]: a pointer into num or the caller's text */
    Oid *types;
    char (*num)[32];
    PGresult *res;
    int row, nrows;
} pgq;

#define PG(d) ((pgdb *)(d))
#define Q(q) ((pgq *)(q))

static void set_err(pgdb *d, const char *msg)
{
    snprintf(d->err, sizeof d->err, "%s", msg && msg[0] ? msg : "PostgreSQL failed");
    size_t n = strlen(d->err);
    while (n && (d->err[n - 1] == '\n' || d->err[n - 1] == ' '))
        d->err[--n] = '\0';
}

/* text with ?N turned into $N (outside quotes); *nparams gets the largest
 * N, and used (room for 100) marks each N that appears */
static char *translate(const char *text, int *nparams, char *used)
{
    size_t len = strlen(text);
    char *out = malloc(len + 1), *o = out;
    if (!out)
        return NULL;
    int quoted = 0, most = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '\'')
            quoted = !quoted;
        if (!quoted && *p == '?' && p[1] >= '0' && p[1] <= '9') {
            *o++ = '$';
            int n = atoi(p + 1);
            if (n > most)
                most = n;
            if (n < 100)
                used[n] = 1;
            continue;
        }
        *o++ = *p;
    }
    *o = '\0';
    *nparams = most;
    return out;
}

static dbq *prepare(db *d, const char *text)
{
    pgq *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->head.d = d;
    char used[100] = {0};
    q->text = translate(text, &q->nparams, used);
    int n = q->nparams ? q->nparams : 1;
    q->vals = calloc((size_t)n, sizeof *q->vals);
    q->types = calloc((size_t)n, sizeof *q->types);
    q->num = calloc((size_t)n, sizeof *q->num);
    if (!q->text || !q->vals || !q->types || !q->num || q->nparams >= 100) {
        set_err(PG(d), "out of memory");
        free(q->text), free(q->vals), free(q->types), free(q->num), free(q);
        return NULL;
    }
    /* A number the text skips (a count that reads ?3 of a list's ?1-?4)
     * gets a type, or the server could not infer one. */
    for (int i = 0; i < q->nparams; i++)
        if (!used[i + 1])
            q->types[i] = OID_INT8;
    snprintf(q->name, sizeof q->name, "q%d", ++PG(d)->named);
    return &q->head;
}

static void reset(dbq *qq)
{
    pgq *q = Q(qq);
    PQclear(q->res);
    q->res = NULL;
    q->row = q->nrows = 0;
    for (int i = 0; i < q->nparams; i++)
        q->vals[i] = NULL;
}

static void finalize(dbq *qq)
{
    pgq *q = Q(qq);
    reset(qq);
    if (q->prepared && PQstatus(PG(qq->d)->conn) == CONNECTION_OK) {
        /* the server keeps a prepared statement for the session's life:
         * one prepared again and again would pile up */
        char sql[32];
        snprintf(sql, sizeof sql, "DEALLOCATE %s", q->name);
        PQclear(PQexec(PG(qq->d)->conn, sql));
    }
    free(q->text), free(q->vals), free(q->types), free(q->num), free(q);
}

static int slot(pgq *q, int i)
{
    return i >= 1 && i <= q->nparams ? i - 1 : -1;
}

static void bind_int64(dbq *qq, int i, int64_t v)
{
    pgq *q = Q(qq);
    int k = slot(q, i);
    if (k < 0)
        return;
    snprintf(q->num[k], sizeof q->num[k], "%lld", (long long)v);
    q->vals[k] = q->num[k];
    if (!q->prepared && !q->types[k])
        q->types[k] = OID_INT8;
}

static void bind_double(dbq *qq, int i, double v)
{
    pgq *q = Q(qq);
    int k = slot(q, i);
    if (k < 0)
        return;
    snprintf(q->num[k], sizeof q->num[k], "%.17g", v);
    q->vals[k] = q->num[k];
    if (!q->prepared && !q->types[k])
        q->types[k] = OID_FLOAT8;
}

static void bind_text(dbq *qq, int i, const char *text)
{
    pgq *q = Q(qq);
    int k = slot(q, i);
    if (k < 0)
        return;
    q->vals[k] = text;
    if (!q->prepared && text && !q->types[k])
        q->types[k] = OID_TEXT;
}

/* A failed result: its message kept, and DB_UNIQUE for a unique violation. */
static int failed(pgdb *d, PGresult *res)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    set_err(d, res ? PQresultErrorMessage(res) : PQerrorMessage(d->conn));
    if (state && strcmp(state, "23505") == 0)
        return DB_UNIQUE;
    return state && strcmp(state, "23503") == 0 ? DB_FOREIGN : DB_ERROR;
}

static int step(dbq *qq)
{
    pgq *q = Q(qq);
    pgdb *d = PG(qq->d);
    d->err[0] = '\0';
    if (q->res)
        return ++q->row < q->nrows ? DB_ROW : DB_DONE;
    if (!q->prepared) {
        PGresult *res = PQprepare(d->conn, q->name, q->text, q->nparams, q->types);
        int ok = res && PQresultStatus(res) == PGRES_COMMAND_OK;
        int rc = ok ? DB_DONE : failed(d, res);
        PQclear(res);
        if (!ok)
            return rc;
        q->prepared = 1;
    }
    q->res = PQexecPrepared(d->conn, q->name, q->nparams, q->vals, NULL, NULL, 0);
    ExecStatusType status = q->res ? PQresultStatus(q->res) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        int rc = failed(d, q->res);
        PQclear(q->res);
        q->res = NULL;
        return rc;
    }
    const char *cmd = PQcmdStatus(q->res);
    if (strcmp(cmd, "ROLLBACK") == 0 && strncmp(q->text, "ROLLBACK", 8) != 0) {
        set_err(d, "the transaction had failed and was rolled back");
        PQclear(q->res);
        q->res = NULL;
        return DB_ERROR;
    }
    if (strncmp(cmd, "INSERT", 6) == 0 || strncmp(cmd, "UPDATE", 6) == 0 ||
        strncmp(cmd, "DELETE", 6) == 0)
        d->changes = atol(PQcmdTuples(q->res));
    q->row = 0;
    q->nrows = status == PGRES_TUPLES_OK ? PQntuples(q->res) : 0;
    return q->nrows > 0 ? DB_ROW : DB_DONE;
}

static int in_row(pgq *q, int i)
{
    return q->res && q->row < q->nrows && i >= 0 && i < PQnfields(q->res) &&
           !PQgetisnull(q->res, q->row, i);
}

static int col_null(dbq *qq, int i)
{
    return !in_row(Q(qq), i);
}

static int64_t col_int64(dbq *qq, int i)
{
    pgq *q = Q(qq);
    if (!in_row(q, i))
        return 0;
    const char *v = PQgetvalue(q->res, q->row, i);
    if (v[0] == 't' || v[0] == 'f')  /* a boolean */
        return v[0] == 't';
    return strtoll(v, NULL, 10);
}

static double col_double(dbq *qq, int i)
{
    pgq *q = Q(qq);
    return in_row(q, i) ? strtod(PQgetvalue(q->res, q->row, i), NULL) : 0;
}

static const char *col_text(dbq *qq, int i, size_t *len)
{
    pgq *q = Q(qq);
    if (!in_row(q, i)) {
        *len = 0;
        return NULL;
    }
    *len = (size_t)PQgetlength(q->res, q->row, i);
    return PQgetvalue(q->res, q->row, i);
}

static long changes(db *d)
{
    return PG(d)->changes;
}

static int txn(db *d)
{
    switch (PQtransactionStatus(PG(d)->conn)) {
    case PQTRANS_INTRANS:
    case PQTRANS_ACTIVE:
        return DB_TXN_OPEN;
    case PQTRANS_INERROR:
        return DB_TXN_FAILED;
    default:
        return DB_TXN_NONE;
    }
}

static int exec(db *d, const char *script)
{
    PGresult *res = PQexec(PG(d)->conn, script);
    ExecStatusType status = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    int ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
    if (!ok)
        failed(PG(d), res);
    PQclear(res);
    return ok ? 0 : -1;
}

static const char *errmsg(db *d)
{
    pgdb *p = PG(d);
    if (!p->err[0])
        set_err(p, PQerrorMessage(p->conn));
    return p->err;
}

static int lost(db *d)
{
    return PQstatus(PG(d)->conn) == CONNECTION_BAD;
}

static void close_db(db *d)
{
    PQfinish(PG(d)->conn);
    free(d);
}

static const db_ops ops = {
    prepare, finalize, reset, bind_int64, bind_double, bind_text, step,
    col_null, col_int64, col_double, col_text, changes, txn, exec, errmsg, lost, close_db,
};

db *db_pg(struct pg_conn *conn)
{
    pgdb *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->head.ops = &ops;
    d->head.kind = DB_POSTGRES;
    d->conn = conn;
    return &d->head;
}
