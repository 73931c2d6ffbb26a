/* stats.h -- what a match result says: Elo difference with error bars, SPRT,
 * and a win rate's interval.
 *
 * Pure functions of a win/loss/draw record (from the first player's side).
 * The model is the usual one of cutechess and fishtest: each game scores
 * 1, 1/2 or 0; the mean score s maps to an Elo difference through the
 * logistic curve, Elo = -400 log10(1/s - 1).
 */
#ifndef CITADEL_STATS_H
#define CITADEL_STATS_H

/* The expected score of a player `elo` points stronger: 1 / (1 + 10^(-elo/400)). */
double stats_score_of_elo(double elo);

/* The Elo difference of a mean score s in [0, 1]; -INFINITY at 0 and
 * INFINITY at 1. */
double stats_elo_of_score(double s);

typedef struct stats_elo {
    double score;   /* mean score (W + D/2) / N; 0.5 when N = 0 */
    double elo;     /* Elo difference; +-INFINITY at a 100% or 0% score */
    double lo, hi;  /* the 95% interval, s +- 1.96 sd / sqrt(N) mapped to Elo */
    double margin;  /* (hi - lo) / 2, the "+/-" people read; INFINITY when unbounded */
} stats_elo;

/* The Elo difference of a record of w wins, l losses and d draws, and its
 * 95% interval from the trinomial model (the variance of the per-game
 * score). With no games the difference is 0 and the margin INFINITY. An
 * interval end at or beyond a 0% / 100% score is -INFINITY / INFINITY. */
stats_elo stats_elo_of(int w, int l, int d);

typedef enum stats_sprt_verdict {
    STATS_SPRT_CONTINUE = 0,
    STATS_SPRT_H0 = -1,   /* elo0 accepted: the change is not an elo1 gain */
    STATS_SPRT_H1 = 1,    /* elo1 accepted */
} stats_sprt_verdict;

typedef struct stats_sprt {
    double llr;
    double lbound;        /* log(beta / (1 - alpha)) */
    double ubound;        /* log((1 - beta) / alpha) */
    stats_sprt_verdict verdict;
} stats_sprt;

/* The generalised SPRT of H0: elo = elo0 against H1: elo = elo1 (logistic
 * Elo), on w/l/d, with false positive rate alpha and false negative rate
 * beta (both in (0, 1)). The log-likelihood ratio is the usual normal
 * approximation
 *     LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)
 * with s0, s1 the expected scores at elo0, elo1, s the mean score and var
 * the empirical per-game variance. With no games the LLR is 0. A record
 * with no spread (every game won, or lost, or drawn) has var = 0, where the
 * formula breaks down; rather than decide nothing (as cutechess does, which
 * leaves a match of straight wins running to the end), var is then taken
 * from the record with one more win and one more loss: about 19 straight
 * wins accept H1 at elo0 = 0, elo1 = 10, and about 120 straight draws H0. */
stats_sprt stats_sprt_of(int w, int l, int d, double elo0, double elo1, double alpha, double beta);

/* The Wilson score interval at 95% of a rate of k successes in n trials
 * (a win rate where one player meets several, whose games have no Elo
 * difference): [0, 1] when n is 0. */
void stats_wilson(int k, int n, double *lo, double *hi);

#endif
