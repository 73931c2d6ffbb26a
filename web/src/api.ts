// api.ts -- the server's JSON API (docs/api.md), typed, with its errors turned
// into exceptions whose message is the server's one line for people.

// Every type of an answer is generated from docs/api.schema.json
// (web/gen-types.mjs): none is written here by hand.
import type {
  Player, Variant, VariantOption, Result, Game, Seek, GameSummary, StoredGameSummary, Bot,
  ChallengeAnswer, PlayerPageAnswer, LadderAnswer, PositionAnswer, PositionsAnswer,
  LobbyAnswer, BotsAnswer, GamesAnswer, VariantsAnswer, Ok, Credentials, PasswordChange, PositionRequest, MeAnswer,
  ReviewAnswer, TokensAnswer, TokenCreated, TokenRequest, ImportRequest, ImportAnswer,
  SetupsAnswer, SetupSave, SetupDelete, NamedSetup, Prefs, PrefsChange,
} from './gen/api';

export type {
  Player, Variant, VariantOption, Result, Game, Seek, GameSummary, StoredGameSummary, Bot,
  PositionsAnswer, ReviewAnswer, SetupsAnswer, NamedSetup,
};
export type Challenge = ChallengeAnswer;
export type PlayerPage = PlayerPageAnswer;
export type Ladder = LadderAnswer;
export type PositionInfo = PositionAnswer;

export class ApiError extends Error {
  status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/** One request to the API; its answer, or an ApiError with the server's words. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
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
  me: () => call<MeAnswer>('GET', '/api/me'),
  signup: (name: string, password: string) => call<MeAnswer>('POST', '/api/signup', { name, password } satisfies Credentials),
  signin: (name: string, password: string) => call<MeAnswer>('POST', '/api/signin', { name, password } satisfies Credentials),
  signout: () => call<Ok>('POST', '/api/signout'),
  prefs: () => call<Prefs>('GET', '/api/account/prefs'),
  setPrefs: (change: PrefsChange) => call<Prefs>('POST', '/api/account/prefs', change),
  changePassword: (password: string, newPassword: string) =>
    call<Ok>('POST', '/api/account/password', { password, new_password: newPassword } satisfies PasswordChange),
  variants: () => call<VariantsAnswer>('GET', '/api/variants'),
  bots: () => call<BotsAnswer>('GET', '/api/bots'),
  lobby: () => call<LobbyAnswer>('GET', '/api/lobby'),
  game: (id: number) => call<Game>('GET', `/api/games/${id}`),
  record: async (id: number): Promise<string> => {
    const res = await fetch(`/api/games/${id}/record`, { credentials: 'same-origin' });
    if (!res.ok) throw new ApiError(`Could not read the record (${res.status}).`, res.status);
    return res.text();
  },
  player: (name: string) => call<PlayerPage>('GET', `/api/players/${encodeURIComponent(name)}`),
  playerGames: (name: string, offset = 0) =>
    call<GamesAnswer>('GET', `/api/players/${encodeURIComponent(name)}/games?offset=${offset}`),
  challenge: (token: string) => call<Challenge>('GET', `/api/challenges/${encodeURIComponent(token)}`),
  ladder: (variant: string) => call<Ladder>('GET', `/api/ladder/${encodeURIComponent(variant)}`),
  position: (variant: string, position?: string, moves?: string[]) =>
    call<PositionInfo>('POST', '/api/position',
      { variant, ...(position ? { position } : {}), ...(moves ? { moves } : {}) } satisfies PositionRequest),
  positions: (id: number) => call<PositionsAnswer>('GET', `/api/games/${id}/positions`),
  review: (id: number) => call<ReviewAnswer>('GET', `/api/games/${id}/review`),
  askReview: (id: number) => call<ReviewAnswer>('POST', `/api/games/${id}/review`),
  // the account's API tokens (docs/bot-api.md): with the session, never a token
  tokens: () => call<TokensAnswer>('GET', '/api/account/tokens'),
  makeToken: (scopes: TokenRequest['scopes'], description: string) =>
    call<TokenCreated>('POST', '/api/account/tokens', { scopes, description } satisfies TokenRequest),
  revokeToken: (id: number) => call<Ok>('DELETE', `/api/account/tokens/${id}`),
  // a game played elsewhere, from its PGN record (docs/pgn.md)
  importGame: (pgn: string) => call<ImportAnswer>('POST', '/api/games/import', { pgn } satisfies ImportRequest),
  // private setups (games with hidden pieces: docs/api.md, "Games with
  // hidden pieces and private setups")
  setups: (variant: string) => call<SetupsAnswer>('GET', `/api/setups/${encodeURIComponent(variant)}`),
  saveSetup: (variant: string, name: string, setup: string) =>
    call<Ok>('POST', `/api/setups/${encodeURIComponent(variant)}`, { name, setup } satisfies SetupSave),
  removeSetup: (variant: string, name: string) =>
    call<Ok>('POST', `/api/setups/${encodeURIComponent(variant)}/delete`, { name } satisfies SetupDelete),
};

/** The move limits a variant offers (docs/api.md: Rampart 50, 100, 150, 200). */
export function moveLimits(v: Variant | undefined): { offered: number[]; def: number } {
  const opt = v?.options?.find((o) => o.name === 'move_limit' || o.name === 'MoveLimit' || (o.offered && o.offered.length));
  const offered = opt?.offered?.length ? opt.offered : [50, 100, 150, 200];
  const def = opt?.default && offered.includes(opt.default) ? opt.default : offered.includes(100) ? 100 : offered[0];
  return { offered, def };
}
