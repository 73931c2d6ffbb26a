/* community.h -- what the store keeps for the community: roles, mutes and
 * closed accounts; the message board (threads, posts, their search);
 * notifications; support tickets and the mail queue; game chat; reports
 * and the moderators' audit log. store_community.c implements it on the
 * same SQLite database as store.h (migration 4 and later), with the same
 * rules: writes are committed before they return, one thread at a time,
 * 0 on success, -1 with err, STORE_NOT_FOUND where said.
 *
 * Nothing is ever deleted for a moderator's or an author's sake: hiding
 * and deleting set flags, so the audit log can still show what was there.
 * The functions that list for players (store_threads, store_posts,
 * store_forum_search, store_chat_lines, store_notes) leave out everything hidden or
 * deleted; the _get functions return any row, with its flags, and the
 * caller decides who may see it.
 *
 * Text fields are checked by the caller (the server) against the limits
 * below; the store refuses longer text with -1 rather than cut it.
 */
#ifndef CITADEL_STORE_COMMUNITY_H
#define CITADEL_STORE_COMMUNITY_H

#include <stdint.h>

#include "store.h"

#define STORE_TITLE_MAX 200    /* bytes: thread titles, ticket subjects */
#define STORE_POST_MAX 10000   /* bytes: posts, ticket messages, mail bodies */
#define STORE_CHAT_MAX 400     /* bytes: one chat line */
#define STORE_REASON_MAX 500   /* bytes: a report's or a moderator's reason */
#define STORE_EMAIL_MAX 254    /* bytes: an e-mail address */
#define STORE_CATEGORY_MAX 15  /* bytes: a board category's name */

/* --- roles, mutes, closed accounts -------------------------------------- */
enum { STORE_ROLE_PLAYER = 0, STORE_ROLE_MODERATOR = 1, STORE_ROLE_ADMIN = 2 };

typedef struct store_standing {
    int role;              /* STORE_ROLE_* */
    int64_t muted_until;   /* ms; muted while now < muted_until */
    int closed;            /* 1: the account was closed by an admin */
} store_standing;

/* STORE_NOT_FOUND if no such player. */
int store_standing_get(store *s, int64_t player, store_standing *out, store_err *err);
int store_role_set(store *s, int64_t player, int role, store_err *err);
/* How many players hold `role` (to keep the last admin). */
int store_role_count(store *s, int role, store_err *err);
int store_mute_set(store *s, int64_t player, int64_t until, store_err *err);
/* Marks the account closed and removes every session of it. */
int store_account_close(store *s, int64_t player, store_err *err);

/* --- the message board -------------------------------------------------- */
typedef struct store_thread {
    int64_t id;
    char category[STORE_CATEGORY_MAX + 1];
    char title[STORE_TITLE_MAX + 1];
    int64_t author;
    char author_name[STORE_NAME_MAX + 1];
    int64_t created;
    int64_t last_post;     /* when its newest post was made */
    int posts;             /* posts not hidden or deleted */
    int locked, hidden, deleted;
    int64_t first_post;    /* the id of its opening post */
} store_thread;

typedef struct store_post {
    int64_t id, thread, author;
    char author_name[STORE_NAME_MAX + 1];
    int64_t created;
    int64_t edited;        /* 0 if never edited */
    int hidden, deleted;
    char body[STORE_POST_MAX + 1];  /* Markdown, as written */
} store_post;

typedef struct store_category {
    char name[STORE_CATEGORY_MAX + 1];
    int threads, posts;    /* visible ones */
    int64_t last_post;     /* 0 if none */
} store_category;

/* A new thread with its opening post (and both in the search index). */
int store_thread_add(store *s, const char *category, const char *title, int64_t author,
                     const char *body, int64_t now, int64_t *thread, int64_t *post,
                     store_err *err);
/* A reply; the thread's last_post becomes now. STORE_NOT_FOUND if the
 * thread does not exist (the caller checks locked and hidden first). */
int store_post_add(store *s, int64_t thread, int64_t author, const char *body, int64_t now,
                   int64_t *post, store_err *err);
/* Changes a post's body (and the search index), edited = now. */
int store_post_edit(store *s, int64_t post, const char *body, int64_t now, store_err *err);
/* Changes a thread's title (and the search index). */
int store_thread_retitle(store *s, int64_t thread, const char *title, store_err *err);
/* The author's deletion: the post's deleted flag; deleting a thread's
 * opening post deletes the thread. */
int store_post_delete(store *s, int64_t post, store_err *err);
int store_post_set_hidden(store *s, int64_t post, int hidden, store_err *err);
int store_thread_set_hidden(store *s, int64_t thread, int hidden, store_err *err);
int store_thread_set_locked(store *s, int64_t thread, int locked, store_err *err);
/* Any thread or post, whatever its flags; STORE_NOT_FOUND if none. */
int store_thread_get(store *s, int64_t id, store_thread *out, store_err *err);
int store_post_get(store *s, int64_t id, store_post *out, store_err *err);
/* Visible threads of a category (every category if category is ""), newest
 * activity first, skipping offset; returns how many (up to max), or -1;
 * *total (may be NULL) gets how many there are in all. */
int store_threads(store *s, const char *category, int offset, int max, store_thread *out,
                  int *total, store_err *err);
/* Visible posts of a thread, oldest first, skipping offset; as above. */
int store_posts(store *s, int64_t thread, int offset, int max, store_post *out, int *total,
                store_err *err);
/* How many visible posts of the thread come before post (its place). */
int store_post_index(store *s, int64_t thread, int64_t post, store_err *err);
/* The n names (each at most STORE_CATEGORY_MAX) with their counts. */
int store_categories(store *s, const char *const *names, int n, store_category *out,
                     store_err *err);

typedef struct store_hit {
    int64_t post, thread;
    char category[STORE_CATEGORY_MAX + 1];
    char title[STORE_TITLE_MAX + 1];
    int64_t author;
    char author_name[STORE_NAME_MAX + 1];
    int64_t created;
    char snippet[400];     /* plain text around the first match, "…" where cut */
} store_hit;
/* Visible posts (of visible threads) matching every word of `words` (the
 * user's text: split on anything but letters and digits, each word
 * matched as a prefix; FTS5 syntax in it means nothing), best first;
 * returns how many, *total how many in all (up to 1000). No word: 0. */
int store_forum_search(store *s, const char *words, int offset, int max, store_hit *out,
                       int *total, store_err *err);

/* --- notifications ------------------------------------------------------ */
typedef struct store_note {
    int64_t id, player;
    char kind[16];         /* "reply", "mention", "answer" */
    int64_t from;          /* 0 if none */
    char from_name[STORE_NAME_MAX + 1];
    int64_t thread, post, ticket;   /* 0 where none */
    char title[STORE_TITLE_MAX + 1];  /* the thread's title or ticket's subject */
    int64_t created;
    int read;
} store_note;

int store_note_add(store *s, const store_note *n, int64_t *id, store_err *err);
/* A player's newest notifications (up to max); *unread how many unread.
 * Both leave out notifications whose thread or post is hidden or deleted,
 * as the other lists for players do. */
int store_notes(store *s, int64_t player, int max, store_note *out, int *unread,
                store_err *err);
/* Marks read every notification of the player with id <= upto (all: 0). */
int store_notes_read(store *s, int64_t player, int64_t upto, store_err *err);

/* --- support tickets ---------------------------------------------------- */
enum { STORE_TICKET_OPEN = 0, STORE_TICKET_CLOSED = 1 };

typedef struct store_ticket {
    int64_t id;
    int64_t player;        /* the sender's account (a guest's too), 0 if none */
    char player_name[STORE_NAME_MAX + 1];
    char email[STORE_EMAIL_MAX + 1];  /* "" if not given */
    char kind[16];         /* "bug", "account", "question" */
    char subject[STORE_TITLE_MAX + 1];
    int64_t created, updated;
    int status;            /* STORE_TICKET_* */
    int messages;
} store_ticket;

typedef struct store_ticket_msg {
    int64_t id, ticket;
    int64_t author;        /* 0: the sender without an account */
    char author_name[STORE_NAME_MAX + 1];
    int staff;             /* 1: an answer from staff */
    int64_t created;
    char body[STORE_POST_MAX + 1];
} store_ticket_msg;

/* A ticket and its first message (the sender's words). */
int store_ticket_add(store *s, const store_ticket *t, const char *body, int64_t now,
                     int64_t *id, store_err *err);
int store_ticket_get(store *s, int64_t id, store_ticket *out, store_err *err);
/* Tickets of a player (player > 0) or of everyone (0), with status (-1:
 * any), newest activity first; *total as store_threads. */
int store_tickets(store *s, int64_t player, int status, int offset, int max,
                  store_ticket *out, int *total, store_err *err);
/* A message on a ticket; updated = now, and the status set to `status`. */
int store_ticket_reply(store *s, int64_t ticket, int64_t author, int staff,
                       const char *body, int status, int64_t now, int64_t *id,
                       store_err *err);
int store_ticket_messages(store *s, int64_t ticket, store_ticket_msg *out, int max,
                          store_err *err);
int store_ticket_set_status(store *s, int64_t ticket, int status, int64_t now,
                            store_err *err);

/* --- the mail queue ----------------------------------------------------- */
typedef struct store_mail {
    int64_t id;
    char to[STORE_EMAIL_MAX + 1];
    char reply_to[STORE_EMAIL_MAX + 1];  /* "" if none */
    char subject[STORE_TITLE_MAX + 64];
    char body[STORE_POST_MAX + 2048];    /* room for a quoted message and a footer */
    int64_t created;
    int attempts;
    int64_t next_try;      /* ms */
    int64_t sent;          /* 0 until sent */
    char error[200];       /* the last failure */
} store_mail;

int store_mail_add(store *s, const store_mail *m, int64_t now, int64_t *id, store_err *err);
/* Unsent mails with next_try <= now, oldest first. */
int store_mail_due(store *s, int64_t now, store_mail *out, int max, store_err *err);
int store_mail_get(store *s, int64_t id, store_mail *out, store_err *err);
int store_mail_sent(store *s, int64_t id, int64_t now, store_err *err);
/* A failed attempt: attempts + 1, next_try and the error kept. */
int store_mail_failed(store *s, int64_t id, int64_t next_try, const char *error,
                      store_err *err);
/* How many mails wait (unsent). */
int store_mail_waiting(store *s, store_err *err);

/* --- game chat ---------------------------------------------------------- */
enum { STORE_ROOM_PLAYERS = 0, STORE_ROOM_SPECTATORS = 1 };

typedef struct store_chat {
    int64_t id, game;
    int room;              /* STORE_ROOM_* */
    int64_t author;
    char author_name[STORE_NAME_MAX + 1];
    int64_t time;
    int hidden;
    char text[STORE_CHAT_MAX + 1];
} store_chat;

int store_chat_add(store *s, int64_t game, int room, int64_t author, const char *text,
                   int64_t now, int64_t *id, store_err *err);
/* The newest max visible lines of a room, oldest first. */
int store_chat_lines(store *s, int64_t game, int room, int max, store_chat *out,
                     store_err *err);
int store_chat_get(store *s, int64_t id, store_chat *out, store_err *err);
int store_chat_set_hidden(store *s, int64_t id, int hidden, store_err *err);

/* --- reports and the audit log ----------------------------------------- */
enum { STORE_REPORT_OPEN = 0, STORE_REPORT_RESOLVED = 1 };

typedef struct store_report {
    int64_t id;
    int64_t reporter;
    char reporter_name[STORE_NAME_MAX + 1];
    char kind[16];         /* "post", "chat", "player" */
    int64_t target;        /* the post's, chat line's or player's id */
    char reason[STORE_REASON_MAX + 1];
    int64_t created;
    int status;            /* STORE_REPORT_* */
    int64_t resolved_by, resolved_at;
} store_report;

int store_report_add(store *s, const store_report *r, int64_t now, int64_t *id,
                     store_err *err);
int store_report_get(store *s, int64_t id, store_report *out, store_err *err);
/* Reports with status (-1: any), oldest first for open ones, newest first
 * otherwise; *total as store_threads. */
int store_reports(store *s, int status, int offset, int max, store_report *out, int *total,
                  store_err *err);
int store_report_resolve(store *s, int64_t id, int64_t by, int64_t now, store_err *err);

typedef struct store_audit_row {
    int64_t id;
    int64_t actor;
    char actor_name[STORE_NAME_MAX + 1];
    char action[32];       /* "hide-post", "mute", "grant", ... */
    char target_kind[16];  /* "post", "chat", "thread", "player", "report", "ticket" */
    int64_t target;
    char detail[STORE_POST_MAX + STORE_REASON_MAX + 64];  /* the reason, and what was hidden */
    int64_t created;
} store_audit_row;

/* actor 0: the command line. */
int store_audit_add(store *s, int64_t actor, const char *action, const char *target_kind,
                    int64_t target, const char *detail, int64_t now, store_err *err);
/* Newest first. */
int store_audit(store *s, int offset, int max, store_audit_row *out, int *total,
                store_err *err);

#endif
