// engine.ts -- the games' own C engine (src/games through src/wasm/engine.h),
// compiled to WebAssembly, for the page: positions read and written, legal
// moves, moves played, results, views, and what a move does. The rules are
// never written a second time in TypeScript: every answer here is the C
// engine's.
//
// The module keeps positions in numbered slots and passes text through one
// buffer in its memory (engine.h). An Engine hands out Positions, each
// owning one slot until free() gives it back; a Position's methods throw
// EngineError with the engine's own words when it refuses.

export type Variant = {
  name: string;
  sides: number;
  hidden: boolean;
  rated: boolean;
  family: string;
};
export type Result = { over: boolean; winner: number; reason: string };
export type Combat = { attacker: string; defender: string; lost: number };
export type Effects = {
  from: string | null;
  to: string | null;
  captured: string[];
  removed: string[];
  combat: Combat | null;
  /** the move's target square is empty after it: the piece that moved
   *  left the board there (a Pawn entering an enemy Keep, K5) */
  emptied: boolean;
};
/** A kind of piece as the game names it (game.h game_piece_kind): its
 *  letter in position strings, its name, its rank (0: none) and how many
 *  each side starts with (0: not fixed by the rules). */
export type PieceKind = { letter: string; name: string; rank: number; count: number };
/** An area of the board (game.h game_area_at): its name ("keep", "setup"),
 *  the side it belongs to, its squares in the rules' order. */
export type Area = { area: string; side: number; squares: string[] };
/** A setting of a variant (game.h game_option): its range, whether the
 *  position string carries it, and the names of its values if they have any. */
export type Setting = { name: string; def: number; min: number; max: number; inPosition: boolean;
  labels: string[] };
/** One call's answer, as engine.h gives it: the return value and the buffer's text. */
export type Raw = { rc: number; text: string };

export class EngineError extends Error {}

type Exports = {
  memory: WebAssembly.Memory;
  _initialize: () => void;
  eng_buf: () => number;
} & Record<string, (...args: number[]) => number>;

const SLOTS = 64;
const BUF = 65536;

// The few WASI calls the C library may make: output is dropped (the engine
// prints nothing), the clock reads performance.now().
function wasiImports(memory: () => WebAssembly.Memory): WebAssembly.ModuleImports {
  const ENOSYS = 52;
  return {
    fd_write: (_fd: number, iovs: number, count: number, written: number) => {
      const view = new DataView(memory().buffer);
      let n = 0;
      for (let i = 0; i < count; i++) n += view.getUint32(iovs + 8 * i + 4, true);
      view.setUint32(written, n, true);
      return 0;
    },
    fd_close: () => ENOSYS,
    fd_seek: () => ENOSYS,
    clock_time_get: (_id: number, _precision: bigint, out: number) => {
      const ns = BigInt(Math.round(performance.now() * 1e6));
      new DataView(memory().buffer).setBigUint64(out, ns, true);
      return 0;
    },
    proc_exit: (code: number) => {
      throw new EngineError(`the engine stopped (${code})`);
    },
  };
}

export class Engine {
  private readonly ex: Exports;
  private readonly buf: number;
  private readonly free: number[] = [];
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  private constructor(instance: WebAssembly.Instance) {
    this.ex = instance.exports as unknown as Exports;
    this.ex._initialize();
    this.buf = this.ex.eng_buf();
    for (let i = SLOTS - 1; i >= 0; i--) this.free.push(i);
  }

  /** The engine from the bytes of engine.wasm (fetched by the page, read by tests). */
  static async load(bytes: BufferSource): Promise<Engine> {
    return Engine.instantiate(await WebAssembly.compile(bytes));
  }

  /** An engine of its own from a compiled module (each Web Worker makes one). */
  static async instantiate(module: WebAssembly.Module): Promise<Engine> {
    let memory: WebAssembly.Memory | null = null;
    const instance = await WebAssembly.instantiate(module, {
      wasi_snapshot_preview1: wasiImports(() => memory as WebAssembly.Memory),
    });
    memory = instance.exports.memory as WebAssembly.Memory;
    return new Engine(instance);
  }

  /** Calls engine.h's `name` with integer arguments, the text (if any) put in
   * the buffer first; the return value and the buffer's text after it. */
  raw(name: string, ints: number[], text?: string): Raw {
    const fn = this.ex[name];
    if (typeof fn !== 'function' || !name.startsWith('eng_'))
      throw new EngineError(`no call ${name}`);
    if (text !== undefined) {
      const bytes = this.encoder.encode(text);
      if (bytes.length >= BUF) throw new EngineError('text too long for the engine');
      const mem = new Uint8Array(this.ex.memory.buffer, this.buf, BUF);
      mem.set(bytes);
      mem[bytes.length] = 0;
    }
    const rc = fn(...ints);
    const mem = new Uint8Array(this.ex.memory.buffer, this.buf, BUF);
    const end = mem.indexOf(0);
    return { rc, text: this.decoder.decode(mem.subarray(0, end < 0 ? BUF : end)) };
  }

  variants(): Variant[] {
    const lines = this.raw('eng_variants', []).text.split('\n').filter((l) => l);
    return lines.map((l) => {
      const [name, sides, hidden, rated, family] = l.split(' ');
      return { name, sides: Number(sides), hidden: hidden === '1', rated: rated === '1', family };
    });
  }

  /** A position of `variant`: `text` in the game's notation, or its start
   * (the `seed`-th where the variant has several). */
  position(variant: string, text = '', seed = 0): Position {
    const slot = this.take();
    const r = this.raw('eng_set', [slot, seed >>> 0], `${variant} ${text}`);
    if (r.rc < 0) {
      this.give(slot);
      throw new EngineError(r.text);
    }
    return new Position(this, slot, variant);
  }

  /** @internal */
  take(): number {
    const slot = this.free.pop();
    if (slot === undefined) throw new EngineError('too many positions at once; free some');
    return slot;
  }

  /** @internal */
  give(slot: number): void {
    this.free.push(slot);
  }
}

export class Position {
  private live = true;

  constructor(private readonly engine: Engine, readonly slot: number, readonly variant: string) {}

  private call(name: string, ints: number[], text?: string): string {
    if (!this.live) throw new EngineError('this position was freed');
    const r = this.engine.raw(name, ints, text);
    if (r.rc < 0) throw new EngineError(r.text);
    return r.text;
  }

  /** Gives the slot back; the position may not be used after. */
  free(): void {
    if (this.live) this.engine.give(this.slot);
    this.live = false;
  }

  copy(): Position {
    const to = this.engine.take();
    try {
      this.call('eng_copy', [this.slot, to]);
    } catch (e) {
      this.engine.give(to);
      throw e;
    }
    return new Position(this.engine, to, this.variant);
  }

  text(): string {
    return this.call('eng_format', [this.slot]);
  }

  sideToMove(): number {
    return this.engine.raw('eng_side_to_move', [this.slot]).rc;
  }

  moves(): string[] {
    const t = this.call('eng_moves', [this.slot]);
    return t ? t.split(' ') : [];
  }

  /** Plays a legal move; throws EngineError (and changes nothing) if it is not one. */
  play(move: string): void {
    this.call('eng_play', [this.slot], move);
  }

  result(): Result {
    const [over, winner, reason] = this.call('eng_result', [this.slot]).split(' ');
    return { over: over === '1', winner: Number(winner), reason: reason === '-' ? '' : reason };
  }

  setOption(name: string, value: number): void {
    this.call('eng_set_option', [this.slot, value], name);
  }

  /** The board, every square in the position string's order, with what
   *  stands there as the string writes it ('' for nothing, '~' where
   *  nothing may stand). */
  squares(): [string, string][] {
    const f = this.call('eng_squares', [this.slot]).split(' ');
    const out: [string, string][] = [];
    for (let i = 0; i + 1 < f.length; i += 2) out.push([f[i], f[i + 1] === '.' ? '' : f[i + 1]]);
    return out;
  }

  /** The kinds of piece of this position's variant, in the game's order. */
  kinds(): PieceKind[] {
    return this.call('eng_kinds', [this.slot]).split('\n').filter((l) => l).map((l) => {
      const [letter, rank, count, ...name] = l.split(' ');
      return { letter, name: name.join(' '), rank: Number(rank), count: Number(count) };
    });
  }

  /** The areas of this position's board, one per area and side. */
  areas(): Area[] {
    return this.call('eng_areas', [this.slot]).split('\n').filter((l) => l).map((l) => {
      const [area, side, ...squares] = l.split(' ');
      return { area, side: Number(side), squares };
    });
  }

  /** The settings of this position's variant. */
  settings(): Setting[] {
    return this.call('eng_options', [this.slot]).split('\n').filter((l) => l).map((l) => {
      const [name, def, min, max, inPos, ...labels] = l.split(' ');
      return { name, def: Number(def), min: Number(min), max: Number(max), inPosition: inPos === '1', labels };
    });
  }

  /** What `side` (-1: a spectator) may see of this position. */
  view(side: number): Position {
    const to = this.engine.take();
    try {
      this.call('eng_view', [this.slot, side, to]);
    } catch (e) {
      this.engine.give(to);
      throw e;
    }
    return new Position(this.engine, to, this.variant);
  }

  /** What a legal move shows every player, in words ('' if nothing more than itself). */
  describe(move: string): string {
    return this.call('eng_describe', [this.slot], move);
  }

  effects(move: string): Effects {
    const f = this.call('eng_effects', [this.slot], move).split(' ');
    const fx: Effects = {
      from: f[0] === '-' ? null : f[0],
      to: f[1] === '-' ? null : f[1],
      captured: [],
      removed: [],
      combat: null,
      emptied: false,
    };
    for (let i = 2; i < f.length; ) {
      if (f[i] === 'x') fx.captured.push(f[i + 1]), (i += 2);
      else if (f[i] === 'r') fx.removed.push(f[i + 1]), (i += 2);
      else if (f[i] === 'c') {
        fx.combat = { attacker: f[i + 1], defender: f[i + 2], lost: Number(f[i + 3]) };
        i += 4;
      } else if (f[i] === 'e') fx.emptied = true, (i += 1);
      else throw new EngineError(`unknown effect '${f[i]}'`);
    }
    return fx;
  }

  /** The squares whose pieces stand attacked (none in games with hidden pieces). */
  threats(): string[] {
    const t = this.call('eng_threats', [this.slot]);
    return t ? t.split(' ') : [];
  }
}
