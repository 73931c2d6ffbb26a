// games/rampart/learn/style.ts -- the Learn pages' layout rules now live in web/static/style.css
// ("Learn"): the page's Content-Security-Policy (style-src 'self') refuses a
// <style> element added by script, so rules added here never applied. Kept
// so callers need not change; it adds nothing.

export function ensureLearnStyles(): void {
  // nothing: see web/static/style.css
}
