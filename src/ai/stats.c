/* stats.c -- Elo with error bars and the SPRT, from a W/L/D record.
 *
 * Everything works on the per-game score x in {1, 1/2, 0}. Its mean s and
 * variance var = E[x^2] - s^2 come from the record (the trinomial model);
 * the normal approximation then gives the interval s +- 1.96 sqrt(var / N),
 * which the logistic curve maps to Elo. The curve is monotonic, so the
 * mapped ends are the ends of the Elo interval; it is not symmetric, so the
 * "+/-" reported is half the interval's width.
 */
#include <math.h>

#include "stats.h"

double stats_score_of_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

double stats_elo_of_score(double s)
{
    if (s <= 0.0)
        return -INFINITY;
    if (s >= 1.0)
        return INFINITY;
    return 400.0 * log10(s / (1.0 - s));  /* = -400 log10(1/s - 1), and +0 at 1/2 */
}

/* Mean and variance of the per-game score; w + l + d must be positive. */
static void moments(double w, double l, double d, double *mean, double *var)
{
    double n = w + l + d;
    double s = (w + 0.5 * d) / n;
    double v = (w * (1.0 - s) * (1.0 - s) + l * s * s + d * (0.5 - s) * (0.5 - s)) / n;
    *mean = s;
    *var = v > 0.0 ? v : 0.0;
}

stats_elo stats_elo_of(int w, int l, int d)
{
    stats_elo e = { 0.5, 0.0, -INFINITY, INFINITY, INFINITY };
    int n = w + l + d;
    if (n <= 0)
        return e;
    double s, var;
    moments((double)w, (double)l, (double)d, &s, &var);
    double half = 1.96 * sqrt(var / n);
    e.score = s;
    e.elo = stats_elo_of_score(s);
    e.lo = stats_elo_of_score(s - half);
    e.hi = stats_elo_of_score(s + half);
    e.margin = isfinite(e.lo) && isfinite(e.hi) ? (e.hi - e.lo) / 2.0 : INFINITY;
    return e;
}

stats_sprt stats_sprt_of(int w, int l, int d, double elo0, double elo1, double alpha, double beta)
{
    stats_sprt r;
    r.lbound = log(beta / (1.0 - alpha));
    r.ubound = log((1.0 - beta) / alpha);
    r.llr = 0.0;
    r.verdict = STATS_SPRT_CONTINUE;
    int n = w + l + d;
    if (n <= 0)
        return r;
    double s, var, ignored;
    moments((double)w, (double)l, (double)d, &s, &var);
    if (var <= 0.0)  /* no spread: the variance as if one more win and loss */
        moments((double)w + 1.0, (double)l + 1.0, (double)d, &ignored, &var);
    double s0 = stats_score_of_elo(elo0), s1 = stats_score_of_elo(elo1);
    r.llr = (double)n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var);
    if (r.llr >= r.ubound)
        r.verdict = STATS_SPRT_H1;
    else if (r.llr <= r.lbound)
        r.verdict = STATS_SPRT_H0;
    return r;
}

void stats_wilson(int k, int n, double *lo, double *hi)
{
    if (n == 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double z = 1.959964, p = (double)k / n, d = 1 + z * z / n;
    double mid = (p + z * z / (2.0 * n)) / d;
    double half = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
    *lo = mid - half;
    *hi = mid + half;
}
