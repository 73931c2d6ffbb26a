/* admin.c -- `citadel admin`: roles given and taken on the command line,
 * where the first admin is made (docs/api.md, "The community").
 *
 *   citadel admin grant NAME moderator|admin [--db FILE]
 *   citadel admin revoke NAME moderator|admin [--db FILE]
 *   citadel admin show NAME [--db FILE]
 *
 * Roles are levels: player < moderator < admin (an admin moderates too).
 * grant raises a player to the role (an admin granted moderator stays
 * admin); revoke takes the role and every role above it, down to player.
 * The invariant: every change is written to the audit log with the
 * command line as its actor (no player), in the same database the server
 * uses, which may be running: SQLite's WAL lets both write.
 */
#include <stdio.h>
#include <string.h>

#include "../store/community.h"
#include "core/http.h"
#include "serve.h"
#include "core/srv.h"
static int admin_usage(const char *why)
{
    if (why)
        fprintf(stderr, "citadel admin: %s\n", why);
    fprintf(stderr, "usage: citadel admin grant|revoke NAME moderator|admin [--db FILE]\n"
                    "       citadel admin show NAME [--db FILE]\n");
    return 2;
}

int admin_main(int argc, char **argv)
{
    const char *db = "citadel.db", *args[3];
    int nargs = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            db = argv[++i];
        else if (argv[i][0] == '-')
            return admin_usage("unknown option");
        else if (nargs < 3)
            args[nargs++] = argv[i];
        else
            return admin_usage("too many arguments");
    }
    if (nargs < 2)
        return admin_usage(NULL);
    int grant = strcmp(args[0], "grant") == 0, revoke = strcmp(args[0], "revoke") == 0;
    int show = strcmp(args[0], "show") == 0;
    if (!grant && !revoke && !show)
        return admin_usage("the command is grant, revoke or show");
    if (show != (nargs == 2))
        return admin_usage(show ? "show takes a name" : "grant and revoke take a name and a role");
    int role = show ? 0 : req_role_parse(args[2]);
    if (!show && role != STORE_ROLE_MODERATOR && role != STORE_ROLE_ADMIN)
        return admin_usage("the role is moderator or admin");

    store_err e;
    store *st = store_open(db, 0, &e);
    if (!st) {
        fprintf(stderr, "citadel admin: %s\n", e.msg);
        return 1;
    }
    int rc = 1;
    store_player p;
    store_standing sd;
    if (strlen(args[1]) > STORE_NAME_MAX || store_player_by_name(st, args[1], &p, NULL, &e) != 0) {
        fprintf(stderr, "citadel admin: no player named '%.40s' in %s\n", args[1], db);
        goto out;
    }
    if (p.is_guest || p.is_bot) {
        fprintf(stderr, "citadel admin: %s is a %s; guests and bots hold no role\n", p.name,
                p.is_bot ? "bot" : "guest");
        goto out;
    }
    if (store_standing_get(st, p.id, &sd, &e) != 0) {
        fprintf(stderr, "citadel admin: %s\n", e.msg);
        goto out;
    }
    if (show) {
        printf("%s: %s%s%s\n", p.name, req_role_name(sd.role), sd.closed ? ", closed" : "",
               sd.muted_until ? ", muted until a time set by a moderator" : "");
        rc = 0;
        goto out;
    }
    int to = grant ? (sd.role > role ? sd.role : role) : (sd.role >= role ? STORE_ROLE_PLAYER : sd.role);
    if (to == sd.role) {
        printf("%s is %s already; nothing changed\n", p.name, req_role_name(sd.role));
        rc = 0;
        goto out;
    }
    char detail[96];
    snprintf(detail, sizeof detail, "%s: %s -> %s (citadel admin %s)", p.name,
             req_role_name(sd.role), req_role_name(to), args[0]);
    if (store_role_set(st, p.id, to, &e) != 0 ||
        store_audit_add(st, 0, "role", "player", p.id, detail, net_wall_ms(), &e) != 0) {
        fprintf(stderr, "citadel admin: %s\n", e.msg);
        goto out;
    }
    printf("%s is now %s\n", p.name, req_role_name(to));
    rc = 0;
out:
    store_close(st);
    return rc;
}
