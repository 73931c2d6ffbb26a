/* tool_belief.c -- `citadel belief [--features N] RECORDS`: how good Stratego's belief
 * is. A tool of game.h (st_tool_belief).
 *
 * Replays every Stratego game of a records file (`citadel match
 * --records`), and before every move gives the side to move's view to a
 * level-6 bot of that side (of features N instead of the levels' with
 * --features, bot.h), which reads its belief from the view alone
 * (bot.h's stbot_belief, learning as the game goes, as in play). For each
 * enemy piece of unknown rank it adds the chance the belief gave the
 * piece's true rank, and the chance the belief from the counts alone gave
 * it; it prints the means, over all such pieces and apart for pieces that
 * never moved and pieces that moved. The true ranks are read from the
 * full position only to score; the bots never see it.
 *
 * Then how each player (by its name in the records) played, the figures
 * of issue 15's targets: its games and results, its losses for want of a
 * movable piece, its attacks by pieces other than Miners on pieces it
 * could not see that had never moved (of them by Scouts), its attacks by
 * its top three ranks on unknown pieces, the games in which it lost its
 * Marshal, and the mean chance the other side's belief gave the true rank
 * of its pieces that moved (how well its moves are read), beside the
 * counts'. An attack is judged on the attacker's view before it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/file.h"
#include "../pgn.h"
#include "bot.h"
#include "stratego.h"

typedef struct tally {
    double belief, counts;
    long n;
} tally;

#define PLAYERS_MAX 16

typedef struct play {
    char name[64];
    long games, won, lost, drawn, no_moves;
    long unmoved_attacks, scout_unmoved_attacks, top_unknown_attacks, marshal_lost;
    double guessed, counted;  /* the belief's chance of the true rank of its moved
                               * pieces, and the counts' */
    long nguessed;            /* ... summed over this many */
} play;

/* Everything one run adds up (on the heap: a game module keeps no
 * mutable global state, and the beliefs are large). */
typedef struct report {
    tally t[3];
    play players[PLAYERS_MAX];
    int nplayers;
    st_belief bel, cnt;
} report;

static play *player(report *r, const char *name)
{
    for (int i = 0; i < r->nplayers; i++)
        if (strcmp(r->players[i].name, name) == 0)
            return &r->players[i];
    if (r->nplayers == PLAYERS_MAX)
        return NULL;
    play *p = &r->players[r->nplayers++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    return p;
}

/* Scores the beliefs of both sides over one game, and adds its play to
 * its players'; returns its plies, or -1 if the record is not a Stratego
 * game this can read. */
static int score_game(const pgn_record *rec, uint64_t seed, long features, report *out)
{
    tally *t = out->t;
    const char *variant = pgn_tag_of(rec, "Variant"), *fen = pgn_tag_of(rec, "FEN");
    if (!variant || strcmp(variant, "stratego") != 0)
        return -1;
    st_pos pos;
    if (!fen || st_parse(&pos, fen, NULL) != 0)
        return -1;
    pos.move_limit = 0;
    play *who[2] = { NULL, NULL };
    const char *result = pgn_tag_of(rec, "Result"), *reason = pgn_tag_of(rec, "Reason");
    const char *red = pgn_tag_of(rec, "Red"), *blue = pgn_tag_of(rec, "Blue");
    if (result && reason && strcmp(result, "*") != 0) {
        if (red)
            who[0] = player(out, red);
        if (blue)
            who[1] = player(out, blue);
    }
    stbot *bots[2] = { stbot_new(STB_LEVELS, seed), stbot_new(STB_LEVELS, seed + 1) };
    for (int s2 = 0; s2 < 2 && features >= 0; s2++)
        if (bots[s2])
            stbot_set_features(bots[s2], (unsigned)features);
    st_belief *bel = &out->bel, *cnt = &out->cnt;
    int plies = 0;
    for (int ply = 0; bots[0] && bots[1] && ply < rec->nmoves; ply++) {
        const char *tok = rec->moves[ply];
        game_move m;
        if (st_over(&pos) || st_parse_move(&pos, tok, &m, NULL) != 0)
            break;
        int side = pos.stm;
        st_pos view;
        st_view(&pos, side, &view);
        if (stbot_belief(bots[side], &view, bel, cnt) == 0) {
            for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
                uint8_t v = view.sq[c];
                if (!ST_IS_PIECE(v) || ST_KIND(v) != ST_UNKNOWN)
                    continue;
                int k = ST_KIND(pos.sq[c]);
                for (int i = 0; i < 3; i++) {
                    if ((i == 1 && (v & ST_MOVED)) || (i == 2 && !(v & ST_MOVED)))
                        continue;
                    t[i].belief += bel->p[c][k];
                    t[i].counts += cnt->p[c][k];
                    t[i].n++;
                }
                if ((v & ST_MOVED) && who[side ^ 1]) {
                    who[side ^ 1]->guessed += bel->p[c][k];
                    who[side ^ 1]->counted += cnt->p[c][k];
                    who[side ^ 1]->nguessed++;
                }
            }
        }
        if (who[side] && ST_ATTACK(m)) {
            uint8_t seen = view.sq[ST_TO(m)];
            int by = ST_KIND(pos.sq[ST_FROM(m)]);
            if (ST_KIND(seen) == ST_UNKNOWN && !(seen & ST_MOVED) && by != ST_MINER) {
                who[side]->unmoved_attacks++;
                who[side]->scout_unmoved_attacks += by == ST_SCOUT;
            }
            if (ST_KIND(seen) == ST_UNKNOWN && by >= ST_COLONEL)
                who[side]->top_unknown_attacks++;
        }
        stbot_played(bots[side], &view, m);
        st_make(&pos, m);
        plies++;
    }
    for (int s2 = 0; s2 < 2; s2++) {
        play *p = who[s2];
        if (!p)
            continue;
        int won = strcmp(result, s2 == 0 ? "1-0" : "0-1") == 0;
        int drawn = strcmp(result, "1/2-1/2") == 0;
        p->games++;
        p->won += won;
        p->drawn += drawn;
        p->lost += !won && !drawn;
        p->no_moves += !won && !drawn && strcmp(reason, "no-moves") == 0;
        p->marshal_lost += pos.lost[s2][ST_MARSHAL] > 0;  /* the position keeps what each side lost */
    }
    stbot_free(bots[0]);
    stbot_free(bots[1]);
    return plies;
}

static int belief_run(int argc, char **argv, const game_tool_env *env)
{
    (void)env;
    long features = -1;  /* the levels' */
    if (argc == 3 && strcmp(argv[0], "--features") == 0) {
        char *end;
        features = strtol(argv[1], &end, 10);
        int bad = *end || end == argv[1] || features < 0 || features > STB_F_ALL;
        argv += 2;
        argc = bad ? 0 : 1;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: citadel belief [--features N] RECORDS  (a file of `citadel match "
                        "--records`; N: the bot features to read the games with, 0 to %u, "
                        "stratego/bot.h)\n", STB_F_ALL);
        return 2;
    }
    char err[256];
    size_t len = 0;
    char *all = file_read_all(argv[0], PGN_FILE_MAX, &len, err, sizeof err);
    if (!all) {
        fprintf(stderr, "citadel belief: %s\n", err);
        return 1;
    }
    report *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "citadel belief: out of memory\n");
        free(all);
        return 1;
    }
    const tally *t = r->t;
    int games = 0;
    long plies = 0;
    pgn_record rec;
    pgn_record_init(&rec);
    size_t at = 0;
    int line = 1, rc;
    while ((rc = pgn_next(all, len, &at, &line, &rec, err, sizeof err)) != 0) {
        if (rc < 0) {
            fprintf(stderr, "citadel belief: %s: %s (skipped)\n", argv[0], err);
            continue;
        }
        int p = score_game(&rec, (uint64_t)games * 2 + 1, features, r);
        if (p >= 0) {
            games++;
            plies += p;
        }
    }
    pgn_record_free(&rec);
    free(all);
    printf("games %d, plies %ld\n", games, plies);
    static const char *const names[3] = { "all unknown pieces", "never moved", "moved" };
    printf("%-20s %10s %12s %12s\n", "mean P(true rank)", "pieces", "belief", "counts only");
    for (int i = 0; i < 3; i++)
        printf("%-20s %10ld %12.4f %12.4f\n", names[i], t[i].n,
               t[i].n ? t[i].belief / (double)t[i].n : 0.0, t[i].n ? t[i].counts / (double)t[i].n : 0.0);
    printf("\n%-24s %6s %13s %9s %15s %11s %14s %13s %13s %12s\n", "player", "games", "won-lost-drawn",
           "no-moves", "unmoved/game", "scouts/game", "top3/game", "marshal lost", "P(its moved)", "counts only");
    for (int i = 0; i < r->nplayers; i++) {
        const play *p = &r->players[i];
        double g = p->games ? (double)p->games : 1.0;
        char wld[48];
        snprintf(wld, sizeof wld, "%ld-%ld-%ld", p->won, p->lost, p->drawn);
        printf("%-24s %6ld %13s %9ld %15.2f %11.2f %14.2f %13ld %13.4f %12.4f\n", p->name, p->games, wld,
               p->no_moves, (double)p->unmoved_attacks / g, (double)p->scout_unmoved_attacks / g,
               (double)p->top_unknown_attacks / g, p->marshal_lost,
               p->nguessed ? p->guessed / (double)p->nguessed : 0.0,
               p->nguessed ? p->counted / (double)p->nguessed : 0.0);
    }
    free(r);
    return games > 0 ? 0 : 1;
}

const game_tool st_tool_belief = {
    .command = "belief",
    .usage = "  belief [--features N] RECORDS\n"
             "                           Stratego: how likely the bots' belief finds each\n"
             "                           unknown piece's true rank in recorded games, and\n"
             "                           how each player played (attacks on the unknown)\n",
    .run = belief_run,
};
