// games/rampart/learn/progress.ts -- which Learn puzzles this browser has solved, kept in
// localStorage. A browser that refuses storage simply forgets.

const KEY = 'citadel.learn.solved';

export function solvedLessons(): Set<string> {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return new Set(Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

export function markSolved(id: string): void {
  const set = solvedLessons();
  set.add(id);
  try {
    localStorage.setItem(KEY, JSON.stringify([...set]));
  } catch {
    // storage full or refused: the learner just loses the tick
  }
}

export function resetProgress(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing to do
  }
}
