// budgets.ts -- how much work the page's engine does for the games whose
// own bot analyses (Stratego's): node budgets rather than times, so that
// what the bot says does not hang on the machine's speed. Shared by the
// worker (worker.ts) and the pages that describe its work.

/** The analysis board's first round; each round doubles it. */
export const BOT_NODES = 25000;
/** Each position of a computer review. */
export const BOT_REVIEW_NODES = 40000;
