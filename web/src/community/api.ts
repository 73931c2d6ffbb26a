// community/api.ts -- the community's routes of the server's API (docs/api.md,
// "The community: board, support, chat, moderation"): the message board,
// notifications, support tickets, reports and the staff's moderation. Every
// type is generated from docs/api.schema.json (web/gen-types.mjs); this file
// only names the calls.

import { call } from '../api';
import type {
  Ok, ForumAnswer, ForumCategoryAnswer, ForumSearchAnswer, ThreadAnswer, NewThreadAnswer, NewThreadRequest,
  ReplyAnswer, ReplyRequest, PostEditAnswer, PostEditRequest, NotificationsAnswer, NotificationsReadRequest,
  SupportAnswer, SupportRequest, TicketsAnswer, TicketAnswer, TicketReplyAnswer, TicketReplyRequest,
  StaffTicketsAnswer, ReportAnswer, ReportRequest, ReportsAnswer, HideRequest, LockRequest, MuteAnswer,
  MuteRequest, RoleRequest, CloseAccountRequest, AuditAnswer, Role, Category, TicketKind,
} from '../gen/api';

export type {
  Thread, Post, CategorySummary, SearchResult, Notification, Ticket, TicketMessage, Report, AuditEntry,
  ChatLine, Chat, ChatRoom, Role, Category, TicketKind, ReportedPost, ReportedChatLine, ReportedPlayer,
} from '../gen/api';

const q = (page: number) => (page > 1 ? `?page=${page}` : '');
const id = (n: number) => String(Math.floor(n));
const name = (n: string) => encodeURIComponent(n);

export const forum = {
  categories: () => call<ForumAnswer>('GET', '/api/forum'),
  category: (c: Category | string, page = 1) => call<ForumCategoryAnswer>('GET', `/api/forum/${encodeURIComponent(c)}${q(page)}`),
  newThread: (c: Category | string, title: string, body: string) =>
    call<NewThreadAnswer>('POST', `/api/forum/${encodeURIComponent(c)}`, { title, body } satisfies NewThreadRequest),
  thread: (thread: number, page = 1) => call<ThreadAnswer>('GET', `/api/forum/threads/${id(thread)}${q(page)}`),
  reply: (thread: number, body: string) => call<ReplyAnswer>('POST', `/api/forum/threads/${id(thread)}`, { body } satisfies ReplyRequest),
  edit: (post: number, body: string, title?: string) =>
    call<PostEditAnswer>('POST', `/api/forum/posts/${id(post)}/edit`, (title === undefined ? { body } : { body, title }) satisfies PostEditRequest),
  remove: (post: number) => call<Ok>('POST', `/api/forum/posts/${id(post)}/delete`),
  search: (words: string, page = 1) =>
    call<ForumSearchAnswer>('GET', `/api/forum/search?q=${encodeURIComponent(words)}${page > 1 ? `&page=${page}` : ''}`),
};

export const notifications = {
  list: () => call<NotificationsAnswer>('GET', '/api/notifications'),
  read: (upto?: number) => call<Ok>('POST', '/api/notifications/read', (upto ? { upto } : {}) satisfies NotificationsReadRequest),
};

export const support = {
  send: (kind: TicketKind, subject: string, body: string, email: string) =>
    call<SupportAnswer>('POST', '/api/support', (email ? { kind, subject, body, email } : { kind, subject, body }) satisfies SupportRequest),
  mine: () => call<TicketsAnswer>('GET', '/api/support/tickets'),
  ticket: (ticket: number) => call<TicketAnswer>('GET', `/api/support/tickets/${id(ticket)}`),
  reply: (ticket: number, body: string) =>
    call<TicketReplyAnswer>('POST', `/api/support/tickets/${id(ticket)}/reply`, { body } satisfies TicketReplyRequest),
  close: (ticket: number) => call<Ok>('POST', `/api/support/tickets/${id(ticket)}/close`),
  staffList: (status: 'open' | 'closed' | 'all', page = 1) =>
    call<StaffTicketsAnswer>('GET', `/api/staff/tickets?status=${status}${page > 1 ? `&page=${page}` : ''}`),
};

/** What a report names: a post or chat line by id, a player by name. */
export type ReportTarget = { kind: 'post' | 'chat'; id: number } | { kind: 'player'; name: string };

export const moderation = {
  report: (t: ReportTarget, reason: string) =>
    call<ReportAnswer>('POST', '/api/reports', (t.kind === 'player'
      ? { kind: t.kind, name: t.name, reason } : { kind: t.kind, id: t.id, reason }) satisfies ReportRequest),
  reports: (status: 'open' | 'resolved', page = 1) =>
    call<ReportsAnswer>('GET', `/api/mod/reports?status=${status}${page > 1 ? `&page=${page}` : ''}`),
  resolve: (report: number) => call<Ok>('POST', `/api/mod/reports/${id(report)}/resolve`),
  hidePost: (post: number, hidden: boolean, reason = '') =>
    call<Ok>('POST', `/api/mod/posts/${id(post)}/hide`, (reason ? { hidden, reason } : { hidden }) satisfies HideRequest),
  hideChat: (line: number, hidden: boolean, reason = '') =>
    call<Ok>('POST', `/api/mod/chat/${id(line)}/hide`, (reason ? { hidden, reason } : { hidden }) satisfies HideRequest),
  lock: (thread: number, locked: boolean, reason = '') =>
    call<Ok>('POST', `/api/mod/threads/${id(thread)}/lock`, (reason ? { locked, reason } : { locked }) satisfies LockRequest),
  mute: (player: string, minutes: number, reason = '') =>
    call<MuteAnswer>('POST', `/api/mod/players/${name(player)}/mute`, (reason ? { minutes, reason } : { minutes }) satisfies MuteRequest),
  setRole: (player: string, role: Role) => call<Ok>('POST', `/api/admin/players/${name(player)}/role`, { role } satisfies RoleRequest),
  closeAccount: (player: string, reason = '') =>
    call<Ok>('POST', `/api/admin/players/${name(player)}/close`, (reason ? { reason } : {}) satisfies CloseAccountRequest),
  audit: (page = 1) => call<AuditAnswer>('GET', `/api/admin/audit${q(page)}`),
};
