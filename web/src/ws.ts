// ws.ts -- the one WebSocket to /ws (docs/api.md), shared by every page.
// It reconnects by itself with a growing delay; pages say what they want
// again on every `hello` (watch their game, ask for the lobby), because the
// server forgets a closed connection's subscriptions.

import type { ClientMessage, ServerMessage } from './gen/api';

// Both generated from docs/api.schema.json (web/gen-types.mjs).
export type { ClientMessage, ServerMessage };

// The browser tests' hook (tests/browser/lib.mjs): when they define it,
// every message both ways goes to it as sent, for the schema check.
declare global {
  interface Window {
    __citadelWire?: (kind: 'recv' | 'send', text: string) => void;
  }
}

export type Handler<T extends ServerMessage['type']> = (msg: Extract<ServerMessage, { type: T }>) => void;

export type ConnState = 'connecting' | 'open' | 'closed';

class Socket {
  private ws: WebSocket | null = null;
  private handlers = new Map<string, Set<(m: ServerMessage) => void>>();
  private queue: string[] = [];
  private delay = 500;
  private timer: number | null = null;
  state: ConnState = 'closed';
  onState: ((s: ConnState) => void) | null = null;

  /** Opens the connection if it is not open yet. */
  connect(): void {
    if (this.ws) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.setState('connecting');
    ws.onopen = () => {
      this.delay = 500;
      this.setState('open');
      for (const m of this.queue.splice(0)) ws.send(m);
    };
    ws.onmessage = (ev) => {
      window.__citadelWire?.('recv', String(ev.data));
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      for (const fn of this.handlers.get(msg.type) ?? []) fn(msg);
      for (const fn of this.handlers.get('*') ?? []) fn(msg);
    };
    ws.onclose = () => {
      this.ws = null;
      this.setState('closed');
      // reconnect, waiting longer each time up to 10 s
      if (this.timer === null) {
        this.timer = window.setTimeout(() => {
          this.timer = null;
          this.connect();
        }, this.delay);
        this.delay = Math.min(this.delay * 2, 10000);
      }
    };
  }

  /** Sends a request now, or as soon as the connection is open. */
  send(msg: ClientMessage): void {
    const text = JSON.stringify(msg);
    window.__citadelWire?.('send', text);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else {
      this.queue.push(text);
      this.connect();
    }
  }

  /** Calls fn for every message of that type; returns a function that stops it. */
  on<T extends ServerMessage['type']>(type: T, fn: Handler<T>): () => void;
  on(type: '*', fn: (m: ServerMessage) => void): () => void;
  on(type: string, fn: (m: never) => void): () => void {
    const set = this.handlers.get(type) ?? new Set();
    this.handlers.set(type, set);
    const f = fn as (m: ServerMessage) => void;
    set.add(f);
    return () => set.delete(f);
  }

  /** Closes and opens again, e.g. after signing in, so the server sees the new session. */
  reconnect(): void {
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onclose = null;
      old.close();
    }
    this.connect();
  }

  private setState(s: ConnState): void {
    this.state = s;
    this.onState?.(s);
  }
}

export const socket = new Socket();
