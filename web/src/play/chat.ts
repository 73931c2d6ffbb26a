// play/chat.ts -- a live game's chat panel (docs/api.md, "Chat"), shared by
// the three game pages through GameControls: the room this client belongs
// to ("Players" or "Spectators", which never see each other's lines), its
// lines as text, an input that sends `chat {game, text}`, lines appended as
// `chat` messages come, removed on `chat_hidden`, and a small "Report" on
// other people's lines.
//
// Invariants: the panel shows only what the server sent for this game's
// room (the `game` message's `chat`, then `chat` messages of that room);
// a line is drawn once (by its id), in the server's order (by id); every
// word a person wrote is set as text.

import type { Game } from '../api';
import type { ChatLine, ChatRoom } from '../gen/api';
import { socket } from '../ws';
import { h } from '../ui';
import { signedIn, mutedUntilMs } from '../session';
import { LIMITS, bytes, errorLine, showError, playerLink, reportButton, formatWhen, signInNote } from '../community/common';

const MAX_LINES = 200; // kept on the page; the server sends the newest 50 on (re)connect

const ROOM_WORDS: Record<ChatRoom, { title: string; about: string }> = {
  players: { title: 'Players', about: 'The players\' chat: spectators do not see it.' },
  spectators: { title: 'Spectators', about: 'The spectators\' chat: the players do not see it.' },
};

export class GameChat {
  /** The panel; hidden while the game has no chat for this client. */
  readonly el = h('section', { class: 'panel chat', id: 'chat', 'aria-label': 'Chat', hidden: true });
  private room: ChatRoom | null = null;
  private lines: ChatLine[] = [];
  private heading = h('h2', { class: 'chat-title', id: 'chat-title' });
  private about = h('p', { class: 'hint chat-about' });
  private list = h('ol', { class: 'chat-lines', id: 'chat-lines', 'aria-live': 'polite', 'aria-labelledby': 'chat-title' });
  private input = h('input', { type: 'text', id: 'chat-input', maxlength: LIMITS.chat, autocomplete: 'off', 'aria-label': 'Your message', placeholder: 'Say something' });
  private err = errorLine('chat-error');
  private formBox = h('div', { class: 'chat-form-box' });
  private pending = ''; // our last line, until the server takes or refuses it
  private offs: (() => void)[] = [];

  constructor(readonly gameId: number) {
    this.el.append(this.heading, this.about, this.list, this.formBox, this.err);
    this.offs.push(socket.on('chat', (m) => {
      if (m.game !== this.gameId || m.room !== this.room) return;
      if (m.ref === 'chat') this.pending = '';
      this.add(m.line);
    }));
    this.offs.push(socket.on('chat_hidden', (m) => {
      if (m.game !== this.gameId) return;
      this.lines = this.lines.filter((l) => l.id !== m.id);
      this.list.querySelector(`[data-line="${m.id}"]`)?.remove();
      this.drawEmpty();
    }));
    this.offs.push(socket.on('error', (m) => {
      if (m.ref !== 'chat') return;
      showError(this.err, m.error);
      if (this.pending && !this.input.value) this.input.value = this.pending;
      this.pending = '';
    }));
  }

  destroy(): void {
    for (const off of this.offs) off();
  }

  /** The whole game came: its chat (if it has one for this client) replaces what was shown. */
  setGame(g: Game): void {
    const chat = g.chat;
    if (!chat) {
      this.room = null;
      this.el.hidden = true;
      return;
    }
    const roomChanged = this.room !== chat.room;
    this.room = chat.room;
    this.lines = chat.lines.slice().sort((a, b) => a.id - b.id);
    this.el.hidden = false;
    this.el.dataset.room = chat.room;
    this.heading.textContent = `Chat: ${ROOM_WORDS[chat.room].title}`;
    this.about.textContent = ROOM_WORDS[chat.room].about;
    this.list.replaceChildren(...this.lines.map((l) => this.lineView(l)));
    this.drawEmpty();
    if (roomChanged) this.drawForm();
    this.scrollDown(true);
  }

  private add(line: ChatLine): void {
    if (this.lines.some((l) => l.id === line.id)) return;
    const near = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    // in id order: a line shown again by a moderator goes back in its place
    const at = this.lines.findIndex((l) => l.id > line.id);
    const view = this.lineView(line);
    if (at < 0) {
      this.lines.push(line);
      this.list.append(view);
    } else {
      this.lines.splice(at, 0, line);
      this.list.insertBefore(view, this.list.querySelector(`[data-line="${this.lines[at + 1].id}"]`));
    }
    while (this.lines.length > MAX_LINES) {
      const old = this.lines.shift()!;
      this.list.querySelector(`[data-line="${old.id}"]`)?.remove();
    }
    this.drawEmpty();
    this.scrollDown(near);
  }

  private lineView(l: ChatLine): HTMLElement {
    const report = reportButton({ kind: 'chat', id: l.id }, l.from);
    return h('li', { class: 'chat-line', 'data-line': l.id, title: formatWhen(l.time) },
      h('span', { class: 'chat-from' }, playerLink(l.from)), h('span', { class: 'chat-sep' }, ': '),
      h('span', { class: 'chat-text' }, l.text), report ? h('span', { class: 'chat-report' }, report) : null);
  }

  private drawEmpty(): void {
    this.list.classList.toggle('is-empty', !this.lines.length);
    const none = this.list.querySelector('.chat-none');
    if (this.lines.length) none?.remove();
    else if (!none) this.list.append(h('li', { class: 'chat-none empty' }, 'No messages yet.'));
  }

  private scrollDown(force: boolean): void {
    if (force) this.list.scrollTop = this.list.scrollHeight;
  }

  private drawForm(): void {
    this.formBox.replaceChildren();
    // a spectator's words need an account (docs/api.md); players, guests or not, may chat
    if (this.room === 'spectators' && !signedIn()) {
      this.formBox.append(signInNote('chat with the other spectators'));
      return;
    }
    const muted = mutedUntilMs();
    if (muted) {
      this.formBox.append(h('p', { class: 'hint' }, `You are muted until ${formatWhen(muted)}.`));
      return;
    }
    const send = h('button', { type: 'submit', id: 'chat-send' }, 'Send');
    const form = h('form', { class: 'chat-form', id: 'chat-form', novalidate: true }, this.input, send);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      const n = bytes(text);
      if (n > LIMITS.chat) return showError(this.err, `That is too long: ${n} bytes, at most ${LIMITS.chat}.`);
      showError(this.err, '');
      this.pending = text;
      this.input.value = '';
      socket.send({ type: 'chat', game: this.gameId, text, ref: 'chat' });
    });
    this.input.addEventListener('input', () => {
      const n = bytes(this.input.value);
      showError(this.err, n > LIMITS.chat ? `Too long: ${n} bytes, at most ${LIMITS.chat}.` : '');
    });
    this.formBox.append(form);
  }
}
