/* config.c -- the server's settings: defaults, and the limits an operator
 * may change with `--limit NAME=N` (docs/api.md, "Limits", lists the same
 * table; keep the two together).
 *
 * Every resource a stranger can make the server spend has a limit here,
 * per address (what one machine may do), per player (what one account or
 * guest may hold) or server-wide (what everyone together may queue).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv.h"

static const struct {
    const char *name;
    int def, max;
    const char *help;
} limits[LIM_COUNT] = {
    [LIM_WS_PER_ADDR] = {"ws-per-address", 64, 1000000,
                         "open WebSockets one address may hold"},
    [LIM_WS_IDLE_S] = {"ws-idle-seconds", 90, 65535,
                       "a WebSocket silent this long is closed (pinged after a third)"},
    [LIM_MSG_RATE] = {"messages-per-second", 20, 100000,
                      "WebSocket messages a connection may send a second, sustained"},
    [LIM_MSG_BURST] = {"message-burst", 60, 100000, "... and at once"},
    [LIM_GUESTS] = {"guests-per-hour", 30, 1000000,
                    "new guest identities one address may make an hour"},
    [LIM_SIGNUPS] = {"signups-per-hour", 5, 1000000,
                     "new accounts one address may make an hour"},
    [LIM_SIGNIN_FAILS] = {"signin-failures-per-minute", 5, 1000000,
                          "failed sign-ins a minute from one address, and for one name "
                          "from addresses that never signed in to it"},
    [LIM_GAMES] = {"games-at-once", 16, 100000, "live games one player may play at once"},
    [LIM_BOT_GAMES] = {"bot-games-at-once", 2, 100000,
                       "live games against bots one player may play at once"},
    [LIM_BOT_GAMES_ALL] = {"bot-games-total", 100, 1000000,
                           "live games with a bot in them, server-wide"},
    [LIM_NEW_GAMES] = {"new-games-per-hour", 120, 1000000,
                       "games, seeks, challenges and tables one address may start an hour"},
    [LIM_SEEKS] = {"seeks-at-once", 10, 100000,
                   "open seeks, challenges and tables one player may hold"},
    [LIM_HASH_QUEUE] = {"hashing-queue", 32, 100000,
                        "sign-ups and sign-ins waiting for password hashing, server-wide"},
    [LIM_POSTS] = {"posts-per-hour", 30, 100000, "board posts one account may make an hour"},
    [LIM_NEW_POSTS] = {"new-account-posts-per-hour", 5, 100000,
                       "... and one less than a day old"},
    [LIM_CHAT] = {"chat-per-minute", 20, 100000,
                  "chat lines one player may send a minute (at most a quarter at once)"},
    [LIM_TICKETS] = {"support-per-hour", 5, 100000,
                     "support messages one address may send an hour"},
    [LIM_TICKET_REPLIES] = {"ticket-replies-per-hour", 30, 100000,
                            "follow-ups to its tickets one account, and one address, may "
                            "send an hour"},
    [LIM_REPORTS] = {"reports-per-hour", 20, 100000, "reports one account may make an hour"},
    [LIM_SEARCHES] = {"searches-per-minute", 30, 100000,
                      "board searches one address may make a minute"},
    [LIM_REVIEWS] = {"reviews-per-day", 20, 100000,
                     "computer reviews by the server one account may ask for a day"},
    [LIM_REVIEW_QUEUE] = {"review-queue", 64, 1000,
                          "computer reviews waiting for the server, server-wide"},
    [LIM_API_STREAMS] = {"api-streams", 8, 10000, "open Bot API streams one token may hold"},
    [LIM_API_REQUESTS] = {"api-requests", 20, 100000,
                          "Bot API requests one token may make a second (twice that at once)"},
    [LIM_API_TOKENS] = {"api-tokens-per-hour", 20, 100000,
                        "API tokens one account may make an hour"},
    [LIM_IMPORTS] = {"imports-per-hour", 30, 100000,
                     "games one account may import from PGN records an hour"},
    [LIM_WRITES] = {"writes-per-minute", 60, 1000000,
                    "API requests that may write (POST, DELETE) one account may make a minute, "
                    "beside each route's own quota (the Bot API's game routes: api-requests)"},
    [LIM_ADDR_WRITES] = {"address-writes-per-minute", 300, 1000000,
                         "... and one address"},
    [LIM_POSITIONS] = {"positions-per-minute", 1200, 1000000,
                       "positions one address may ask the server to read a minute "
                       "(POST /api/position, which writes nothing: not under the writes ceiling)"},
};

void srv_config_default(srv_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    for (int i = 0; i < LIM_COUNT; i++)
        cfg->limits[i] = limits[i].def;
    cfg->abandon_ms = SRV_ABANDON_MS;
    cfg->api_idle_ms = 30000;
    cfg->keep_over_ms = SRV_KEEP_OVER_MS;
    cfg->bot_think_max_ms = 3000;
    /* Argon2id, 2 passes over 19 MiB: the figures commonly advised for
     * interactive sign-in */
    cfg->pw_ops = 2;
    cfg->pw_mem = 19u * 1024 * 1024;
    snprintf(cfg->mail_from, sizeof cfg->mail_from, "citadel@localhost");
}

int srv_config_limit(srv_config *cfg, const char *text, char *err, size_t errlen)
{
    const char *eq = strchr(text, '=');
    for (int i = 0; eq && i < LIM_COUNT; i++) {
        size_t n = strlen(limits[i].name);
        if ((size_t)(eq - text) != n || strncmp(text, limits[i].name, n) != 0)
            continue;
        char *end;
        long v = strtol(eq + 1, &end, 10);
        if (end == eq + 1 || *end || v < 0 || v > limits[i].max) {
            snprintf(err, errlen, "--limit %s wants a number from 0 (no limit) to %d",
                     limits[i].name, limits[i].max);
            return -1;
        }
        cfg->limits[i] = (int)v;
        return 0;
    }
    snprintf(err, errlen, "--limit wants NAME=N with NAME one of those below, not '%.40s'",
             text);
    return -1;
}

void srv_config_print_limits(FILE *out)
{
    for (int i = 0; i < LIM_COUNT; i++)
        fprintf(out, "    %-28s %7d  %s\n", limits[i].name, limits[i].def, limits[i].help);
}
