// router.ts -- the page's routes: each page module registers the addresses
// it draws (route), and the entry (main.ts) draws whichever matches
// location.pathname. Pages move between each other with navigate().
//
// Invariant: this module imports nothing of the page, so every page may
// import it and nothing imports the entry: the import graph has no circle
// through the router. Routes are tried in the order they were registered;
// a module registers its more particular patterns first.

export type Cleanup = (() => void) | void;
/** A page fills the main element and may return a cleanup to run when it is left. */
export type Page = (host: HTMLElement, ...params: string[]) => Cleanup | Promise<Cleanup>;

/** How a page needs the games' engine: 'wait' (the default) to have it
 *  loaded before the page is drawn; 'served' for a page that draws its
 *  first boards from the server's reading of its positions (engine/read.ts
 *  prepare) while the engine loads; 'none' for a page that draws no board
 *  and reads no position (the forum, a player's page): it is drawn at once,
 *  and never loads the engine. */
export type EngineNeed = 'wait' | 'served' | 'none';
type Route = { pattern: RegExp; page: Page; title: string; engine: EngineNeed };

export type RouteOptions = { engine?: EngineNeed };

const routes: Route[] = [];
let draw: () => void = () => {};

/** Registers a page for the addresses `pattern` matches (its groups become
 *  the page's parameters); `title` goes before " · Citadel". */
export function route(pattern: RegExp, page: Page, title: string, opts: RouteOptions = {}): void {
  routes.push({ pattern, page, title, engine: opts.engine ?? 'wait' });
}

/** The page for a path, with its parameters; null when none matches. */
export function findRoute(path: string): { page: Page; title: string; params: string[]; engine: EngineNeed } | null {
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (m) return { page: r.page, title: r.title, params: m.slice(1).map((x) => x ?? ''), engine: r.engine };
  }
  return null;
}

/** The entry's drawing of the current address, called on every navigate. */
export function onNavigate(f: () => void): void {
  draw = f;
}

/** Goes to a path inside the page without reloading it. */
export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  draw();
}
