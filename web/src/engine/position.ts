// position.ts -- what the server's POST /api/position answers, answered by
// the games' own engine in the page instead (engine.ts): a position read
// (and moves played on it), its legal moves with where each leads and what
// it takes, its threats and its result. The pages that teach and explain
// (the lessons, Keeps & Moats's help, the game page's badges) ask here, so
// the rules are judged by the same C as the server's without a request.
// The answer has the server's shape, less `material`, which none of them
// reads.

import type { PositionInfo } from '../api';
import { engine } from './load';
import { whenEngine } from './read';

export type LocalPosition = Omit<PositionInfo, 'material'>;

/** `position` (the variant's start if none) of `variant`, `moves` played on
 *  it; throws an Error with the engine's words if it cannot be read or a
 *  move is not legal. */
export async function localPosition(variant: string, position?: string, moves: string[] = []): Promise<LocalPosition> {
  await whenEngine();  // the readers have it too, before the answer is read
  const eng = await engine();
  const p = eng.position(variant, position ?? '');
  try {
    for (const m of moves) p.play(m);
    const over = p.result();
    const legal = (over.over ? [] : p.moves()).map((move) => {
      const q = p.copy();
      try {
        q.play(move);
        const fx = p.effects(move);
        return { move, after: q.text(),
          effects: { from: fx.from ?? '', to: fx.to ?? '', captured: fx.captured, removed: fx.removed } };
      } finally {
        q.free();
      }
    });
    return { variant, position: p.text(), to_move: p.sideToMove(), legal, threats: p.threats(), result: over };
  } finally {
    p.free();
  }
}
