// budgets.ts -- how much work the page's engine does where node budgets
// rather than times bound it (Stratego's bot, Keeps & Moats's search), so
// that what it says does not hang on the machine's speed. Shared by the
// worker (worker.ts) and the pages that describe its work.

/** The analysis board's first round; each round doubles it. */
export const BOT_NODES = 25000;
/** Each position of a computer review. */
export const BOT_REVIEW_NODES = 40000;
/** Each of the two searches of a position in a review of a game of more
 *  sides (Keeps & Moats's paranoid search, three plies deep). */
export const MULTI_REVIEW_NODES = 60000;
export const MULTI_REVIEW_DEPTH = 3;
