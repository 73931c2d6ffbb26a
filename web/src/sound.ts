// sound.ts -- short beeps for moves and captures, made with WebAudio so no
// sound files are needed. Off by default; the choice is remembered (and
// kept on the account with the other settings, prefs.ts).

const KEY = 'citadel.sound';
let ctx: AudioContext | null = null;

export function soundOn(): boolean {
  return localStorage.getItem(KEY) === 'on';
}

export function setSound(on: boolean): void {
  setSoundQuietly(on);
  if (on) beep('move'); // a sample, and browsers want a gesture before audio starts
}

/** The same without the sample (settings read from the account). */
export function setSoundQuietly(on: boolean): void {
  localStorage.setItem(KEY, on ? 'on' : 'off');
}

/** A move: one soft click. A capture: two falling tones. The end: a chord. */
export function beep(kind: 'move' | 'capture' | 'end'): void {
  if (!soundOn()) return;
  try {
    ctx ??= new AudioContext();
    const notes: [number, number, number][] = kind === 'move' ? [[660, 0, 0.07]]
      : kind === 'capture' ? [[880, 0, 0.08], [440, 0.09, 0.12]]
      : [[523, 0, 0.35], [659, 0, 0.35], [784, 0, 0.35]];
    const t0 = ctx.currentTime;
    for (const [freq, at, len] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = kind === 'move' ? 'triangle' : 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.18, t0 + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + len + 0.02);
    }
  } catch {
    // no audio on this device: play silently
  }
}
