// api.ts -- the server's JSON API (docs/api.md), typed, with its errors turned
// into exceptions whose message is the server's one line for people.

export type Player = { id: number; name: string; bot: boolean; guest: boolean };

export type VariantOption = { name: string; offered?: number[]; default?: number };
export type Variant = {
  name: string;
  family: string;
  title: string;
  about: string;
  rated: boolean;
  sides: number;
  hidden: boolean;
  starts?: number;
  options: VariantOption[];
};

export type Result = {
  winner: number; // the winning side, or -1 for a draw
  reason: string;
  sterile?: boolean;
  ratings?: { name: string; before: number; after: number }[];
};

export type Game = {
  id: number;
  variant: string;
  title: string;
  start: string;
  position: string;
  ply: number;
  moves: string[];
  clocks: number[];
  base_ms: number;
  inc_ms: number;
  move_limit: number;
  rated: boolean;
  players: Player[];
  sides?: string[];
  you: number[];
  to_move: number;
  legal?: string[];
  status: 'live' | 'over';
  result?: Result | null;
  draw_offer?: number[];
  rematch?: number;
  created?: number;
};

export type Seek = {
  id: number;
  variant: string;
  title?: string;
  player?: Player;
  base_ms: number;
  inc_ms: number;
  move_limit: number;
  rated: boolean;
};

export type GameSummary = {
  id: number;
  variant: string;
  title?: string;
  players: (Player | null)[];
  ply?: number;
  moves?: number;
  rated: boolean;
  base_ms: number;
  inc_ms: number;
  move_limit?: number;
  status: string;
  winner?: number;
  reason?: string;
  sterile?: boolean;
  created?: number;
  ended?: number;
};

export type Bot = { name: string; spec: string; level: number };

export type PlayerPage = {
  player: Player;
  ratings: { variant: string; rating: number; games: number }[];
  history: Record<string, { game: number; time: number; before: number; after: number }[]>;
};

export type Ladder = { variant: string; title?: string; rows: { name: string; rating: number; games: number; bot: boolean }[] };

export type PositionInfo = {
  variant: string;
  position: string;
  to_move: number;
  legal: { move: string; after: string }[];
  material: number[];
  result: { over: boolean; winner: number; reason: string };
};

export class ApiError extends Error {
  status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('Cannot reach the server. Check your connection and try again.', 0);
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    if (!res.ok) throw new ApiError(`The server answered ${res.status}.`, res.status);
    return text as unknown as T;
  }
  if (!res.ok) {
    const msg = data && typeof data === 'object' && 'error' in data ? String((data as { error: unknown }).error) : `The server answered ${res.status}.`;
    throw new ApiError(msg, res.status);
  }
  return data as T;
}

export const api = {
  me: () => call<{ player: Player }>('GET', '/api/me'),
  signup: (name: string, password: string) => call<{ player: Player }>('POST', '/api/signup', { name, password }),
  signin: (name: string, password: string) => call<{ player: Player }>('POST', '/api/signin', { name, password }),
  signout: () => call<{ ok: boolean }>('POST', '/api/signout'),
  variants: () => call<Variant[]>('GET', '/api/variants'),
  bots: () => call<{ bots: Bot[] }>('GET', '/api/bots'),
  lobby: () => call<{ seeks: Seek[]; games: GameSummary[] }>('GET', '/api/lobby'),
  game: (id: number) => call<Game>('GET', `/api/games/${id}`),
  record: async (id: number): Promise<string> => {
    const res = await fetch(`/api/games/${id}/record`, { credentials: 'same-origin' });
    if (!res.ok) throw new ApiError(`Could not read the record (${res.status}).`, res.status);
    return res.text();
  },
  player: (name: string) => call<PlayerPage>('GET', `/api/players/${encodeURIComponent(name)}`),
  playerGames: (name: string, offset = 0) =>
    call<{ games: GameSummary[] }>('GET', `/api/players/${encodeURIComponent(name)}/games?offset=${offset}`),
  ladder: (variant: string) => call<Ladder>('GET', `/api/ladder/${encodeURIComponent(variant)}`),
  position: (variant: string, position?: string, moves?: string[]) =>
    call<PositionInfo>('POST', '/api/position', { variant, ...(position ? { position } : {}), ...(moves ? { moves } : {}) }),
};

/** The move limits a variant offers (docs/api.md: Rampart 50, 100, 150, 200). */
export function moveLimits(v: Variant | undefined): { offered: number[]; def: number } {
  const opt = v?.options?.find((o) => o.name === 'move_limit' || o.name === 'MoveLimit' || (o.offered && o.offered.length));
  const offered = opt?.offered?.length ? opt.offered : [50, 100, 150, 200];
  const def = opt?.default && offered.includes(opt.default) ? opt.default : offered.includes(100) ? 100 : offered[0];
  return { offered, def };
}
