/* store_community.c -- community.h on either backend (db.h), all but the message board
 * (store_forum.c): players' roles, mutes and closed accounts,
 * notifications, support tickets, the mail queue, game chat, reports and
 * the moderators' audit log (store_sqlite.c tells the design; schema 4
 * made the tables).
 *
 * Nothing here is deleted but a closed account's sessions: hiding sets a
 * flag, a resolved report keeps who resolved it and when, a sent mail
 * keeps its row.
 *
 * The invariants, each kept by the one transaction that changes the rows:
 * tickets.messages is the number of the ticket's rows in ticket_messages,
 * and tickets.updated is when the newest of them was written or the status
 * last set; a closed account has no session left.
 */
#include <assert.h>
#include <stdlib.h>

#include "community.h"
#include "store_int.h"

/* --- statements --------------------------------------------------------- */

#define NOTE_COLS                                                                       \
    "n.id, n.player, n.kind, n.sender, coalesce(a.name, ''), n.thread, n.post, "         \
    "n.ticket, n.title, n.created, n.is_read "                                          \
    "FROM notifications n LEFT JOIN players a ON a.id = n.sender"
/* A notification is shown while what it points at is: one whose thread or
 * post was hidden by a moderator or deleted by its author is left out (its
 * title and text are what was hidden), and shown again if it is unhidden. */
#define NOTE_SHOWN                                                                      \
    "NOT EXISTS (SELECT 1 FROM forum_threads t WHERE t.id = n.thread "                  \
    "AND (t.hidden = 1 OR t.deleted = 1)) AND NOT EXISTS (SELECT 1 FROM forum_posts p " \
    "WHERE p.id = n.post AND (p.hidden = 1 OR p.deleted = 1))"
#define TICKET_COLS                                                                     \
    "k.id, k.player, coalesce(a.name, ''), k.email, k.kind, k.subject, k.created, "      \
    "k.updated, k.status, k.messages FROM tickets k LEFT JOIN players a ON a.id = k.player"
#define MAIL_COLS                                                                       \
    "id, to_addr, reply_to, subject, body, created, attempts, next_try, sent, error "    \
    "FROM mail_queue"
#define CHAT_COLS                                                                       \
    "c.id, c.game, c.room, c.author, coalesce(a.name, ''), c.time, c.hidden, c.text "    \
    "FROM chat_lines c LEFT JOIN players a ON a.id = c.author"
#define REPORT_COLS                                                                     \
    "r.id, r.reporter, coalesce(a.name, ''), r.kind, r.target, r.reason, r.created, "    \
    "r.status, r.resolved_by, r.resolved_at "                                           \
    "FROM reports r LEFT JOIN players a ON a.id = r.reporter"

/* tickets: ?1 room, ?2 offset, ?3 player, ?4 status */
#define TICKETS_PS "WHERE k.player = ?3 AND k.status = ?4"
#define TICKETS_P "WHERE k.player = ?3"
#define TICKETS_S "WHERE k.status = ?4"
#define TICKETS_A ""
#define TICKETS_ORDER " ORDER BY k.updated DESC, k.id DESC LIMIT ?1 OFFSET ?2"

static const char *const sql[CS_COUNT] = {
    [CS_STANDING_GET] = "SELECT role, muted_until, closed FROM players WHERE id = ?1",
    [CS_ROLE_SET] = "UPDATE players SET role = ?2 WHERE id = ?1",
    [CS_ROLE_COUNT] = "SELECT count(*) FROM players WHERE role = ?1",
    [CS_MUTE_SET] = "UPDATE players SET muted_until = ?2 WHERE id = ?1",
    [CS_CLOSE] = "UPDATE players SET closed = 1 WHERE id = ?1",
    [CS_CLOSE_SESSIONS] = "DELETE FROM sessions WHERE player = ?1",

    [CS_NOTE_ADD] = "INSERT INTO notifications (player, kind, sender, thread, post, ticket, "
                    "title, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
    [CS_NOTES] = "SELECT " NOTE_COLS " WHERE n.player = ?1 AND " NOTE_SHOWN
                 " ORDER BY n.id DESC LIMIT ?2",
    [CS_NOTES_UNREAD] = "SELECT count(*) FROM notifications n WHERE n.player = ?1 "
                        "AND n.is_read = 0 AND " NOTE_SHOWN,
    [CS_NOTES_READ] = "UPDATE notifications SET is_read = 1 WHERE player = ?1 AND is_read = 0 "
                      "AND (?2 = 0 OR id <= ?2)",

    [CS_TICKET_ADD] = "INSERT INTO tickets (player, email, kind, subject, created, updated, "
                      "status, messages) VALUES (?1, ?2, ?3, ?4, ?5, ?5, 0, 1) RETURNING id",
    [CS_TICKET_MSG_ADD] = "INSERT INTO ticket_messages (ticket, author, staff, created, body) "
                          "VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
    [CS_TICKET_GET] = "SELECT " TICKET_COLS " WHERE k.id = ?1",
    [CS_TICKET_TOUCH] = "UPDATE tickets SET updated = ?2, status = ?3, "
                        "messages = messages + 1 WHERE id = ?1",
    [CS_TICKET_STATUS] = "UPDATE tickets SET status = ?2, updated = ?3 WHERE id = ?1",
    [CS_TICKET_MESSAGES] = "SELECT m.id, m.ticket, m.author, coalesce(a.name, ''), m.staff, "
                           "m.created, m.body FROM ticket_messages m "
                           "LEFT JOIN players a ON a.id = m.author "
                           "WHERE m.ticket = ?1 ORDER BY m.id LIMIT ?2",
    [CS_TICKETS_PS] = "SELECT " TICKET_COLS " " TICKETS_PS TICKETS_ORDER,
    [CS_TICKETS_P] = "SELECT " TICKET_COLS " " TICKETS_P TICKETS_ORDER,
    [CS_TICKETS_S] = "SELECT " TICKET_COLS " " TICKETS_S TICKETS_ORDER,
    [CS_TICKETS_A] = "SELECT " TICKET_COLS " " TICKETS_A TICKETS_ORDER,
    [CS_TICKETS_COUNT_PS] = "SELECT count(*) FROM tickets k " TICKETS_PS,
    [CS_TICKETS_COUNT_P] = "SELECT count(*) FROM tickets k " TICKETS_P,
    [CS_TICKETS_COUNT_S] = "SELECT count(*) FROM tickets k " TICKETS_S,
    [CS_TICKETS_COUNT_A] = "SELECT count(*) FROM tickets k " TICKETS_A,

    [CS_MAIL_ADD] = "INSERT INTO mail_queue (to_addr, reply_to, subject, body, created, "
                    "next_try) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
    [CS_MAIL_DUE] = "SELECT " MAIL_COLS " WHERE sent = 0 AND next_try <= ?1 "
                    "ORDER BY id LIMIT ?2",
    [CS_MAIL_GET] = "SELECT " MAIL_COLS " WHERE id = ?1",
    [CS_MAIL_SENT] = "UPDATE mail_queue SET sent = ?2 WHERE id = ?1",
    [CS_MAIL_FAILED] = "UPDATE mail_queue SET attempts = attempts + 1, next_try = ?2, "
                       "error = ?3 WHERE id = ?1",
    [CS_MAIL_WAITING] = "SELECT count(*) FROM mail_queue WHERE sent = 0",

    [CS_CHAT_ADD] = "INSERT INTO chat_lines (game, room, author, time, text) "
                    "VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
    [CS_CHAT_LINES] = "SELECT " CHAT_COLS " WHERE c.game = ?1 AND c.room = ?2 AND c.hidden = 0 "
                      "ORDER BY c.id DESC LIMIT ?3",
    [CS_CHAT_GET] = "SELECT " CHAT_COLS " WHERE c.id = ?1",
    [CS_CHAT_HIDE] = "UPDATE chat_lines SET hidden = ?2 WHERE id = ?1",

    [CS_REPORT_ADD] = "INSERT INTO reports (reporter, kind, target, reason, created) "
                      "VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
    [CS_REPORT_GET] = "SELECT " REPORT_COLS " WHERE r.id = ?1",
    [CS_REPORTS_OLDEST] = "SELECT " REPORT_COLS " WHERE r.status = ?3 "
                          "ORDER BY r.id LIMIT ?1 OFFSET ?2",
    [CS_REPORTS_NEWEST] = "SELECT " REPORT_COLS " WHERE r.status = ?3 "
                          "ORDER BY r.id DESC LIMIT ?1 OFFSET ?2",
    [CS_REPORTS_ANY] = "SELECT " REPORT_COLS " ORDER BY r.id DESC LIMIT ?1 OFFSET ?2",
    [CS_REPORTS_COUNT] = "SELECT count(*) FROM reports WHERE status = ?3",
    [CS_REPORTS_COUNT_ANY] = "SELECT count(*) FROM reports",
    /* the first resolution stays: resolving again changes nothing */
    [CS_REPORT_RESOLVE] = "UPDATE reports SET "
                          "resolved_by = CASE WHEN status = 0 THEN ?2 ELSE resolved_by END, "
                          "resolved_at = CASE WHEN status = 0 THEN ?3 ELSE resolved_at END, "
                          "status = 1 WHERE id = ?1",

    [CS_AUDIT_ADD] = "INSERT INTO audit_log (actor, action, target_kind, target, detail, "
                     "created) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
    [CS_AUDIT] = "SELECT l.id, l.actor, coalesce(a.name, ''), l.action, l.target_kind, "
                 "l.target, l.detail, l.created FROM audit_log l "
                 "LEFT JOIN players a ON a.id = l.actor ORDER BY l.id DESC LIMIT ?1 OFFSET ?2",
    [CS_AUDIT_COUNT] = "SELECT count(*) FROM audit_log",
};

int store_community_prepare(store *s, store_err *err)
{
    return prepare_each(s, sql, NULL, s->cst, CS_COUNT, "community", err);
}

static dbq *cs(store *s, int id)
{
    return q_fresh(s->cst[id]);
}

/* Runs an INSERT ... RETURNING id; on success *id (may be NULL) gets the
 * new row's id. A foreign key leading nowhere is said as `nobody`. */
static int insert(store *s, dbq *st, int64_t *id, store_err *err, const char *what,
                  const char *nobody)
{
    int rc = q_step(st);
    if (rc == DB_ROW && id)
        *id = q_col_int64(st, 0);
    q_done(st);
    if (rc == DB_FOREIGN)
        return fail(err, "%s: %s", what, nobody);
    return rc == DB_ROW ? 0 : db_fail(s, err, what);
}

/* A row by its id: read fills out from it; STORE_NOT_FOUND if none. */
static int get_one(store *s, int stmt, int64_t id, void (*read)(dbq *, void *),
                   void *out, store_err *err, const char *what)
{
    dbq *st = cs(s, stmt);
    q_int64(st, 1, id);
    int rc = q_step(st);
    if (rc == DB_ROW)
        read(st, out);
    q_done(st);
    if (rc == DB_DONE) {
        fail(err, "%s: no row %lld", what, (long long)id);
        return STORE_NOT_FOUND;
    }
    return rc == DB_ROW ? 0 : db_fail(s, err, what);
}

/* Rows of a list statement into out (room for max, each `size` bytes),
 * read by read; returns how many, or -1. */
static int list(store *s, dbq *st, void (*read)(dbq *, void *), void *out,
                size_t size, int max, store_err *err, const char *what)
{
    int n = 0, rc = DB_DONE;
    while (n < max && (rc = q_step(st)) == DB_ROW)
        read(st, (char *)out + (size_t)n++ * size);
    if (n == max)
        rc = DB_DONE;
    q_done(st);
    return rc == DB_DONE ? n : db_fail(s, err, what);
}

/* --- roles, mutes, closed accounts -------------------------------------- */

int store_standing_get(store *s, int64_t player, store_standing *out, store_err *err)
{
    assert(s && out);
    dbq *st = cs(s, CS_STANDING_GET);
    q_int64(st, 1, player);
    int rc = q_step(st);
    if (rc == DB_ROW) {
        memset(out, 0, sizeof *out);
        out->role = q_col_int(st, 0);
        out->muted_until = q_col_int64(st, 1);
        out->closed = q_col_int(st, 2);
    }
    q_done(st);
    if (rc == DB_DONE) {
        fail(err, "no player %lld", (long long)player);
        return STORE_NOT_FOUND;
    }
    return rc == DB_ROW ? 0 : db_fail(s, err, "read standing");
}

int store_role_set(store *s, int64_t player, int role, store_err *err)
{
    assert(s);
    if (role < STORE_ROLE_PLAYER || role > STORE_ROLE_ADMIN)
        return fail(err, "no role %d", role);
    store_write_begin(s, "set role");
    dbq *st = cs(s, CS_ROLE_SET);
    q_int64(st, 1, player);
    q_int(st, 2, role);
    return update_one(s, st, err, "set role");
}

int store_role_count(store *s, int role, store_err *err)
{
    assert(s);
    dbq *st = cs(s, CS_ROLE_COUNT);
    q_int(st, 1, role);
    int n = 0;
    return count_of(s, st, &n, err, "count a role") != 0 ? -1 : n;
}

int store_mute_set(store *s, int64_t player, int64_t until, store_err *err)
{
    assert(s);
    store_write_begin(s, "mute");
    dbq *st = cs(s, CS_MUTE_SET);
    q_int64(st, 1, player);
    q_int64(st, 2, until);
    return update_one(s, st, err, "mute");
}

int store_account_close(store *s, int64_t player, store_err *err)
{
    assert(s);
    store_write_begin(s, "close account");
    if (begin(s, err, "close account") != 0)
        return -1;
    dbq *st = cs(s, CS_CLOSE);
    q_int64(st, 1, player);
    int rc = update_one(s, st, err, "close account");
    if (rc != 0) {
        rollback(s);
        return rc;
    }
    st = cs(s, CS_CLOSE_SESSIONS);
    q_int64(st, 1, player);
    if (step_done(s, st, err, "close account: sessions") != 0)
        return rollback(s);
    return commit(s, err, "close account");
}

/* --- notifications ------------------------------------------------------ */

int store_note_add(store *s, const store_note *n, int64_t *id, store_err *err)
{
    assert(s && n);
    if (!n->kind[0] || !fits(n->kind, FIELD_MAX(store_note, kind)))
        return fail(err, "a notification's kind has 1 to %zu bytes",
                    FIELD_MAX(store_note, kind));
    if (!fits(n->title, STORE_TITLE_MAX))
        return fail(err, "a title has at most %d bytes", STORE_TITLE_MAX);
    store_write_begin(s, "add notification");
    dbq *st = cs(s, CS_NOTE_ADD);
    q_int64(st, 1, n->player);
    q_text(st, 2, n->kind);
    bind_player(st, 3, n->from);
    q_int64(st, 4, n->thread);
    q_int64(st, 5, n->post);
    q_int64(st, 6, n->ticket);
    q_text(st, 7, n->title);
    q_int64(st, 8, n->created);
    return insert(s, st, id, err, "add notification", "no such player");
}

static void read_note(dbq *st, void *out)
{
    store_note *n = out;
    memset(n, 0, sizeof *n);
    n->id = q_col_int64(st, 0);
    n->player = q_col_int64(st, 1);
    column_text(st, 2, n->kind, sizeof n->kind);
    n->from = q_col_int64(st, 3);
    column_text(st, 4, n->from_name, sizeof n->from_name);
    n->thread = q_col_int64(st, 5);
    n->post = q_col_int64(st, 6);
    n->ticket = q_col_int64(st, 7);
    column_text(st, 8, n->title, sizeof n->title);
    n->created = q_col_int64(st, 9);
    n->read = q_col_int(st, 10);
}

int store_notes(store *s, int64_t player, int max, store_note *out, int *unread,
                store_err *err)
{
    assert(s && (out || max <= 0));
    if (!page_ok(0, max, err))
        return -1;
    if (unread) {
        dbq *st = cs(s, CS_NOTES_UNREAD);
        q_int64(st, 1, player);
        if (count_of(s, st, unread, err, "count notifications") != 0)
            return -1;
    }
    dbq *st = cs(s, CS_NOTES);
    q_int64(st, 1, player);
    q_int(st, 2, max);
    return list(s, st, read_note, out, sizeof *out, max, err, "list notifications");
}

int store_notes_read(store *s, int64_t player, int64_t upto, store_err *err)
{
    assert(s);
    store_write_begin(s, "read notifications");
    dbq *st = cs(s, CS_NOTES_READ);
    q_int64(st, 1, player);
    q_int64(st, 2, upto);
    return step_done(s, st, err, "read notifications");
}

/* --- support tickets ---------------------------------------------------- */

static int status_ok(int status, store_err *err)
{
    if (status == STORE_TICKET_OPEN || status == STORE_TICKET_CLOSED)
        return 1;
    fail(err, "no ticket status %d", status);
    return 0;
}

int store_ticket_add(store *s, const store_ticket *t, const char *body, int64_t now,
                     int64_t *id, store_err *err)
{
    assert(s && t && body);
    if (!fits(t->email, STORE_EMAIL_MAX))
        return fail(err, "an e-mail address has at most %d bytes", STORE_EMAIL_MAX);
    if (!t->kind[0] || !fits(t->kind, FIELD_MAX(store_ticket, kind)))
        return fail(err, "a ticket's kind has 1 to %zu bytes", FIELD_MAX(store_ticket, kind));
    if (!fits(t->subject, STORE_TITLE_MAX))
        return fail(err, "a subject has at most %d bytes", STORE_TITLE_MAX);
    if (!fits(body, STORE_POST_MAX))
        return fail(err, "a message has at most %d bytes", STORE_POST_MAX);
    store_write_begin(s, "add ticket");
    if (begin(s, err, "add ticket") != 0)
        return -1;
    dbq *st = cs(s, CS_TICKET_ADD);
    bind_player(st, 1, t->player);
    q_text(st, 2, t->email);
    q_text(st, 3, t->kind);
    q_text(st, 4, t->subject);
    q_int64(st, 5, now);
    int64_t tid = 0;
    if (insert(s, st, &tid, err, "add ticket", "no such player") != 0)
        return rollback(s);
    st = cs(s, CS_TICKET_MSG_ADD);
    q_int64(st, 1, tid);
    bind_player(st, 2, t->player);
    q_int(st, 3, 0);
    q_int64(st, 4, now);
    q_text(st, 5, body);
    if (insert(s, st, NULL, err, "add ticket: its message", "no such player") != 0)
        return rollback(s);
    if (commit(s, err, "add ticket") != 0)
        return -1;
    if (id)
        *id = tid;
    return 0;
}

static void read_ticket(dbq *st, void *out)
{
    store_ticket *t = out;
    memset(t, 0, sizeof *t);
    t->id = q_col_int64(st, 0);
    t->player = q_col_int64(st, 1);
    column_text(st, 2, t->player_name, sizeof t->player_name);
    column_text(st, 3, t->email, sizeof t->email);
    column_text(st, 4, t->kind, sizeof t->kind);
    column_text(st, 5, t->subject, sizeof t->subject);
    t->created = q_col_int64(st, 6);
    t->updated = q_col_int64(st, 7);
    t->status = q_col_int(st, 8);
    t->messages = q_col_int(st, 9);
}

int store_ticket_get(store *s, int64_t id, store_ticket *out, store_err *err)
{
    assert(s && out);
    return get_one(s, CS_TICKET_GET, id, read_ticket, out, err, "read ticket");
}

int store_tickets(store *s, int64_t player, int status, int offset, int max,
                  store_ticket *out, int *total, store_err *err)
{
    assert(s && (out || max <= 0));
    if (!page_ok(offset, max, err))
        return -1;
    /* CS_TICKETS_PS + 0 .. 3, as the enum orders them */
    int which = (player > 0 ? 0 : 2) + (status >= 0 ? 0 : 1);
    if (total) {
        dbq *st = cs(s, CS_TICKETS_COUNT_PS + which);
        if (player > 0)
            q_int64(st, 3, player);
        if (status >= 0)
            q_int(st, 4, status);
        if (count_of(s, st, total, err, "count tickets") != 0)
            return -1;
    }
    dbq *st = cs(s, CS_TICKETS_PS + which);
    q_int(st, 1, max);
    q_int(st, 2, offset);
    if (player > 0)
        q_int64(st, 3, player);
    if (status >= 0)
        q_int(st, 4, status);
    return list(s, st, read_ticket, out, sizeof *out, max, err, "list tickets");
}

int store_ticket_reply(store *s, int64_t ticket, int64_t author, int staff,
                       const char *body, int status, int64_t now, int64_t *id,
                       store_err *err)
{
    assert(s && body);
    if (!fits(body, STORE_POST_MAX))
        return fail(err, "a message has at most %d bytes", STORE_POST_MAX);
    if (!status_ok(status, err))
        return -1;
    store_write_begin(s, "answer ticket");
    if (begin(s, err, "answer ticket") != 0)
        return -1;
    dbq *st = cs(s, CS_TICKET_TOUCH);
    q_int64(st, 1, ticket);
    q_int64(st, 2, now);
    q_int(st, 3, status);
    int rc = update_one(s, st, err, "answer ticket");
    if (rc != 0) {
        rollback(s);
        return rc;
    }
    st = cs(s, CS_TICKET_MSG_ADD);
    q_int64(st, 1, ticket);
    bind_player(st, 2, author);
    q_int(st, 3, staff != 0);
    q_int64(st, 4, now);
    q_text(st, 5, body);
    int64_t mid = 0;
    if (insert(s, st, &mid, err, "answer ticket", "no such player") != 0)
        return rollback(s);
    if (commit(s, err, "answer ticket") != 0)
        return -1;
    if (id)
        *id = mid;
    return 0;
}

static void read_ticket_msg(dbq *st, void *out)
{
    store_ticket_msg *m = out;
    memset(m, 0, sizeof *m);
    m->id = q_col_int64(st, 0);
    m->ticket = q_col_int64(st, 1);
    m->author = q_col_int64(st, 2);
    column_text(st, 3, m->author_name, sizeof m->author_name);
    m->staff = q_col_int(st, 4);
    m->created = q_col_int64(st, 5);
    column_text(st, 6, m->body, sizeof m->body);
}

int store_ticket_messages(store *s, int64_t ticket, store_ticket_msg *out, int max,
                          store_err *err)
{
    assert(s && (out || max <= 0));
    if (!page_ok(0, max, err))
        return -1;
    dbq *st = cs(s, CS_TICKET_MESSAGES);
    q_int64(st, 1, ticket);
    q_int(st, 2, max);
    return list(s, st, read_ticket_msg, out, sizeof *out, max, err, "list ticket messages");
}

int store_ticket_set_status(store *s, int64_t ticket, int status, int64_t now,
                            store_err *err)
{
    assert(s);
    if (!status_ok(status, err))
        return -1;
    store_write_begin(s, "set ticket status");
    dbq *st = cs(s, CS_TICKET_STATUS);
    q_int64(st, 1, ticket);
    q_int(st, 2, status);
    q_int64(st, 3, now);
    return update_one(s, st, err, "set ticket status");
}

/* --- the mail queue ----------------------------------------------------- */

int store_mail_add(store *s, const store_mail *m, int64_t now, int64_t *id, store_err *err)
{
    assert(s && m);
    if (!m->to[0] || !fits(m->to, STORE_EMAIL_MAX) || !fits(m->reply_to, STORE_EMAIL_MAX))
        return fail(err, "an e-mail address has 1 to %d bytes", STORE_EMAIL_MAX);
    if (!fits(m->subject, FIELD_MAX(store_mail, subject)))
        return fail(err, "a mail's subject has at most %zu bytes",
                    FIELD_MAX(store_mail, subject));
    if (!fits(m->body, FIELD_MAX(store_mail, body)))
        return fail(err, "a mail's body has at most %zu bytes", FIELD_MAX(store_mail, body));
    store_write_begin(s, "queue mail");
    dbq *st = cs(s, CS_MAIL_ADD);
    q_text(st, 1, m->to);
    q_text(st, 2, m->reply_to);
    q_text(st, 3, m->subject);
    q_text(st, 4, m->body);
    q_int64(st, 5, now);
    q_int64(st, 6, m->next_try > 0 ? m->next_try : now);
    return insert(s, st, id, err, "queue mail", "");
}

static void read_mail(dbq *st, void *out)
{
    store_mail *m = out;
    memset(m, 0, sizeof *m);
    m->id = q_col_int64(st, 0);
    column_text(st, 1, m->to, sizeof m->to);
    column_text(st, 2, m->reply_to, sizeof m->reply_to);
    column_text(st, 3, m->subject, sizeof m->subject);
    column_text(st, 4, m->body, sizeof m->body);
    m->created = q_col_int64(st, 5);
    m->attempts = q_col_int(st, 6);
    m->next_try = q_col_int64(st, 7);
    m->sent = q_col_int64(st, 8);
    column_text(st, 9, m->error, sizeof m->error);
}

int store_mail_due(store *s, int64_t now, store_mail *out, int max, store_err *err)
{
    assert(s && (out || max <= 0));
    if (!page_ok(0, max, err))
        return -1;
    dbq *st = cs(s, CS_MAIL_DUE);
    q_int64(st, 1, now);
    q_int(st, 2, max);
    return list(s, st, read_mail, out, sizeof *out, max, err, "list due mail");
}

int store_mail_get(store *s, int64_t id, store_mail *out, store_err *err)
{
    assert(s && out);
    return get_one(s, CS_MAIL_GET, id, read_mail, out, err, "read mail");
}

int store_mail_sent(store *s, int64_t id, int64_t now, store_err *err)
{
    assert(s);
    store_write_begin(s, "mail sent");
    dbq *st = cs(s, CS_MAIL_SENT);
    q_int64(st, 1, id);
    q_int64(st, 2, now > 0 ? now : 1);  /* 0 would mean unsent */
    return update_one(s, st, err, "mail sent");
}

int store_mail_failed(store *s, int64_t id, int64_t next_try, const char *error,
                      store_err *err)
{
    assert(s);
    /* The error is a diagnostic (a mail server's or the network's words,
     * not a player's text): kept cut to the field, where a UTF-8
     * character begins, rather than refused, so the attempt counts. */
    char text[sizeof ((store_mail *)0)->error];
    size_t len = error ? strnlen(error, sizeof text) : 0;
    if (len == sizeof text) {
        len = sizeof text - 1;
        while (len > 0 && ((unsigned char)error[len] & 0xC0) == 0x80)
            len--;
    }
    if (len)
        memcpy(text, error, len);
    text[len] = '\0';
    store_write_begin(s, "mail failed");
    dbq *st = cs(s, CS_MAIL_FAILED);
    q_int64(st, 1, id);
    q_int64(st, 2, next_try);
    q_text(st, 3, text);
    return update_one(s, st, err, "mail failed");
}

int store_mail_waiting(store *s, store_err *err)
{
    assert(s);
    int n = 0;
    return count_of(s, cs(s, CS_MAIL_WAITING), &n, err, "count waiting mail") != 0 ? -1 : n;
}

/* --- game chat ---------------------------------------------------------- */

int store_chat_add(store *s, int64_t game, int room, int64_t author, const char *text,
                   int64_t now, int64_t *id, store_err *err)
{
    assert(s && text);
    if (room != STORE_ROOM_PLAYERS && room != STORE_ROOM_SPECTATORS)
        return fail(err, "no chat room %d", room);
    if (!fits(text, STORE_CHAT_MAX))
        return fail(err, "a chat line has at most %d bytes", STORE_CHAT_MAX);
    store_write_begin(s, "add chat line");
    dbq *st = cs(s, CS_CHAT_ADD);
    q_int64(st, 1, game);
    q_int(st, 2, room);
    bind_player(st, 3, author);
    q_int64(st, 4, now);
    q_text(st, 5, text);
    return insert(s, st, id, err, "add chat line", "no such game or player");
}

static void read_chat(dbq *st, void *out)
{
    store_chat *c = out;
    memset(c, 0, sizeof *c);
    c->id = q_col_int64(st, 0);
    c->game = q_col_int64(st, 1);
    c->room = q_col_int(st, 2);
    c->author = q_col_int64(st, 3);
    column_text(st, 4, c->author_name, sizeof c->author_name);
    c->time = q_col_int64(st, 5);
    c->hidden = q_col_int(st, 6);
    column_text(st, 7, c->text, sizeof c->text);
}

int store_chat_lines(store *s, int64_t game, int room, int max, store_chat *out,
                     store_err *err)
{
    assert(s && (out || max <= 0));
    if (!page_ok(0, max, err))
        return -1;
    /* the newest first, turned round below */
    dbq *st = cs(s, CS_CHAT_LINES);
    q_int64(st, 1, game);
    q_int(st, 2, room);
    q_int(st, 3, max);
    int n = list(s, st, read_chat, out, sizeof *out, max, err, "list chat");
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        store_chat t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return n;
}

int store_chat_get(store *s, int64_t id, store_chat *out, store_err *err)
{
    assert(s && out);
    return get_one(s, CS_CHAT_GET, id, read_chat, out, err, "read chat line");
}

int store_chat_set_hidden(store *s, int64_t id, int hidden, store_err *err)
{
    assert(s);
    store_write_begin(s, "hide chat line");
    dbq *st = cs(s, CS_CHAT_HIDE);
    q_int64(st, 1, id);
    q_int(st, 2, hidden != 0);
    return update_one(s, st, err, "hide chat line");
}

/* --- reports and the audit log ----------------------------------------- */

int store_report_add(store *s, const store_report *r, int64_t now, int64_t *id,
                     store_err *err)
{
    assert(s && r);
    if (!r->kind[0] || !fits(r->kind, FIELD_MAX(store_report, kind)))
        return fail(err, "a report's kind has 1 to %zu bytes", FIELD_MAX(store_report, kind));
    if (!fits(r->reason, STORE_REASON_MAX))
        return fail(err, "a reason has at most %d bytes", STORE_REASON_MAX);
    store_write_begin(s, "add report");
    dbq *st = cs(s, CS_REPORT_ADD);
    bind_player(st, 1, r->reporter);
    q_text(st, 2, r->kind);
    q_int64(st, 3, r->target);
    q_text(st, 4, r->reason);
    q_int64(st, 5, now);
    return insert(s, st, id, err, "add report", "no such player");
}

static void read_report(dbq *st, void *out)
{
    store_report *r = out;
    memset(r, 0, sizeof *r);
    r->id = q_col_int64(st, 0);
    r->reporter = q_col_int64(st, 1);
    column_text(st, 2, r->reporter_name, sizeof r->reporter_name);
    column_text(st, 3, r->kind, sizeof r->kind);
    r->target = q_col_int64(st, 4);
    column_text(st, 5, r->reason, sizeof r->reason);
    r->created = q_col_int64(st, 6);
    r->status = q_col_int(st, 7);
    r->resolved_by = q_col_int64(st, 8);
    r->resolved_at = q_col_int64(st, 9);
}

int store_report_get(store *s, int64_t id, store_report *out, store_err *err)
{
    assert(s && out);
    return get_one(s, CS_REPORT_GET, id, read_report, out, err, "read report");
}

int store_reports(store *s, int status, int offset, int max, store_report *out, int *total,
                  store_err *err)
{
    assert(s && (out || max <= 0));
    if (!page_ok(offset, max, err))
        return -1;
    if (total) {
        dbq *st = cs(s, status < 0 ? CS_REPORTS_COUNT_ANY : CS_REPORTS_COUNT);
        if (status >= 0)
            q_int(st, 3, status);
        if (count_of(s, st, total, err, "count reports") != 0)
            return -1;
    }
    int stmt = status < 0                    ? CS_REPORTS_ANY
               : status == STORE_REPORT_OPEN ? CS_REPORTS_OLDEST
                                             : CS_REPORTS_NEWEST;
    dbq *st = cs(s, stmt);
    q_int(st, 1, max);
    q_int(st, 2, offset);
    if (status >= 0)
        q_int(st, 3, status);
    return list(s, st, read_report, out, sizeof *out, max, err, "list reports");
}

int store_report_resolve(store *s, int64_t id, int64_t by, int64_t now, store_err *err)
{
    assert(s);
    store_write_begin(s, "resolve report");
    dbq *st = cs(s, CS_REPORT_RESOLVE);
    q_int64(st, 1, id);
    bind_player(st, 2, by);
    q_int64(st, 3, now);
    int rc = q_step(st);
    q_done(st);
    if (rc == DB_FOREIGN)
        return fail(err, "resolve report: no player %lld", (long long)by);
    if (rc != DB_DONE)
        return db_fail(s, err, "resolve report");
    if (db_changes(s->db) == 0) {
        fail(err, "no report %lld", (long long)id);
        return STORE_NOT_FOUND;
    }
    return 0;
}

int store_audit_add(store *s, int64_t actor, const char *action, const char *target_kind,
                    int64_t target, const char *detail, int64_t now, store_err *err)
{
    assert(s && action && target_kind);
    if (!action[0] || !fits(action, FIELD_MAX(store_audit_row, action)))
        return fail(err, "an action has 1 to %zu bytes", FIELD_MAX(store_audit_row, action));
    if (!fits(target_kind, FIELD_MAX(store_audit_row, target_kind)))
        return fail(err, "a target's kind has at most %zu bytes",
                    FIELD_MAX(store_audit_row, target_kind));
    if (!fits(detail, FIELD_MAX(store_audit_row, detail)))
        return fail(err, "an audit detail has at most %zu bytes",
                    FIELD_MAX(store_audit_row, detail));
    store_write_begin(s, "add audit row");
    dbq *st = cs(s, CS_AUDIT_ADD);
    bind_player(st, 1, actor);
    q_text(st, 2, action);
    q_text(st, 3, target_kind);
    q_int64(st, 4, target);
    q_text(st, 5, detail ? detail : "");
    q_int64(st, 6, now);
    return insert(s, st, NULL, err, "add audit row", "no such player");
}

static void read_audit(dbq *st, void *out)
{
    store_audit_row *a = out;
    memset(a, 0, sizeof *a);
    a->id = q_col_int64(st, 0);
    a->actor = q_col_int64(st, 1);
    column_text(st, 2, a->actor_name, sizeof a->actor_name);
    column_text(st, 3, a->action, sizeof a->action);
    column_text(st, 4, a->target_kind, sizeof a->target_kind);
    a->target = q_col_int64(st, 5);
    column_text(st, 6, a->detail, sizeof a->detail);
    a->created = q_col_int64(st, 7);
}

int store_audit(store *s, int offset, int max, store_audit_row *out, int *total,
                store_err *err)
{
    assert(s && (out || max <= 0));
    if (!page_ok(offset, max, err))
        return -1;
    if (total && count_of(s, cs(s, CS_AUDIT_COUNT), total, err, "count audit rows") != 0)
        return -1;
    dbq *st = cs(s, CS_AUDIT);
    q_int(st, 1, max);
    q_int(st, 2, offset);
    return list(s, st, read_audit, out, sizeof *out, max, err, "list audit rows");
}
