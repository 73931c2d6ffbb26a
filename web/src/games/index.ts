// games/index.ts -- the page's registry of games: one family module per
// game (games/<family>/index.ts), in menu order. Pages ask it for a
// family by the name the server or the engine gives; nothing outside
// web/src/games compares a game's name.
//
// Invariant: every family the engine lists that the page can draw is
// here exactly once, under the engine's name for it; the registry is the
// only place that matches a name to a family.

import type { GameFamily } from './family';
import { rampart } from './rampart/index';
import { stratego } from './stratego/index';
import { keeps } from './keeps/index';
import { variantFamily } from '../engine/read';

export type { GameFamily } from './family';

/** Every family, in the order the page lists them. */
export const families: readonly GameFamily[] = [rampart, stratego, keeps];

/** The family of that name, or null for one the page cannot draw. */
export function familyNamed(name: string | null | undefined): GameFamily | null {
  return families.find((f) => f.name === name) ?? null;
}

/** The family of that name, or the first (Rampart's) for an unknown one. */
export function familyOf(name: string | null | undefined): GameFamily {
  return familyNamed(name) ?? families[0];
}

/** The family of a variant, as the engine knows it. */
export function familyOfVariant(variant: string): GameFamily {
  return familyOf(variantFamily(variant));
}
