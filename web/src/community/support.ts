// community/support.ts -- writing to the site's staff (docs/api.md,
// "Support"): /support (the contact form, then "Your message was received";
// and "My messages", the visitor's own tickets) and /support/ticket/ID (a
// ticket's conversation with a reply box; for staff also the sender's
// address and Close). A ticket message is shown as the text it is, never as
// Markdown or HTML.

import { h, link, errorText } from '../ui';
import { navigate, route } from '../router';
import { me, signedIn, isStaff } from '../session';
import { support, Ticket, TicketKind, TicketMessage } from './api';
import { LIMITS, errorLine, showError, tooLong, when, plural, playerLink } from './common';

export const KIND_WORDS: Record<TicketKind, string> = { bug: 'Something does not work (a bug)', account: 'My account', question: 'A question' };
const KIND_SHORT: Record<TicketKind, string> = { bug: 'Bug', account: 'Account', question: 'Question' };

export function kindWord(k: TicketKind): string {
  return KIND_SHORT[k] ?? k;
}

function statusWord(t: Ticket): string {
  return t.status === 'open' ? 'open' : 'closed';
}

/** The kind to start with: ?kind=bug and the like (links from the help pages). */
function kindParam(): TicketKind {
  const k = new URLSearchParams(location.search).get('kind');
  return k === 'bug' || k === 'account' || k === 'question' ? k : 'question';
}

export async function renderSupport(host: HTMLElement): Promise<void> {
  host.append(h('h1', {}, 'Support'),
    h('p', {}, 'Something does not work, a question about your account, or anything else: write to us here. Only the site\'s staff read it. ',
      'For questions other players may answer too, try the ', link('/forum/support', 'Technical Support board'), '.'),
    h('p', { class: 'hint' }, 'Help pages: ', link('/rampart/help/support', 'Rampart'), ' · ', link('/stratego/help/support', 'Stratego'), ' · ',
      link('/keeps/help/support', 'Keeps & Moats'), '.'));
  const formBox = h('section', { id: 'support-form-box' });
  host.append(formBox);
  formBox.append(contactForm(formBox, () => void drawMine()));

  const mine = h('section', { id: 'my-tickets' });
  host.append(mine);
  async function drawMine(): Promise<void> {
    try {
      const r = await support.mine();
      mine.replaceChildren();
      if (!r.tickets.length) return;
      mine.append(h('h2', {}, 'My messages'),
        h('ul', { class: 'ticket-list' }, ...r.tickets.map((t) => h('li', { 'data-ticket': t.id },
          link(`/support/ticket/${t.id}`, t.subject), ' ',
          h('span', { class: `tag tag-${t.status}` }, statusWord(t)),
          h('span', { class: 'hint' }, ` · ${kindWord(t.kind)} · ${plural(t.messages, 'message')} · last `, when(t.updated))))));
    } catch (e) {
      mine.replaceChildren(h('p', { class: 'error' }, errorText(e)));
    }
  }
  await drawMine();
}

function contactForm(box: HTMLElement, sent: () => void): HTMLElement {
  const account = signedIn();
  const kinds = h('fieldset', { class: 'choices-set' }, h('legend', {}, 'What is it about?'),
    h('div', { class: 'choices' }, ...(Object.keys(KIND_WORDS) as TicketKind[]).map((k) =>
      h('label', {}, h('input', { type: 'radio', name: 'kind', value: k, checked: k === kindParam() }), KIND_WORDS[k]))));
  const subject = h('input', { id: 'support-subject', name: 'subject', required: true, maxlength: LIMITS.title });
  const body = h('textarea', { id: 'support-body', name: 'body', rows: 8, required: true });
  const email = h('input', { id: 'support-email', name: 'email', type: 'email', autocomplete: 'email', maxlength: LIMITS.email, required: !account });
  const err = errorLine('support-error');
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Send');
  const p = me();
  const form = h('form', { class: 'panel form support-form', id: 'support-form', novalidate: true },
    kinds,
    h('label', { for: 'support-subject' }, 'Subject'), subject,
    h('label', { for: 'support-body' }, 'Your message'), body,
    h('p', { class: 'hint' }, 'For a problem: what you did, what you expected, what happened instead, and the game\'s number if it was in a game (the end of its address, /game/42).'),
    h('label', { for: 'support-email' }, account ? 'Your e-mail address (optional)' : 'Your e-mail address'), email,
    h('p', { class: 'hint' }, account
      ? `Signed in as ${p?.name}: our answer comes here (My messages) and as a notification; give an address to have it mailed too.`
      : 'So that we can answer you. Our answer also shows on this page, in this browser.'),
    err, h('div', { class: 'row' }, submit));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const kind = (form.querySelector<HTMLInputElement>('input[name=kind]:checked')?.value ?? 'question') as TicketKind;
    const s = subject.value.trim(), b = body.value, m = email.value.trim();
    const why = !s ? 'Give your message a subject.' : !b.trim() ? 'Write your message.'
      : !account && !m ? 'Give an e-mail address, so that we can answer you.'
      : m && !/^[^\s@]+@[^\s@]+$/.test(m) ? 'That e-mail address does not look right (name@example.org).'
      : tooLong(s, LIMITS.title, 'subject') || tooLong(b, LIMITS.body, 'message') || tooLong(m, LIMITS.email, 'e-mail address');
    if (why) return showError(err, why);
    submit.disabled = true;
    try {
      const r = await support.send(kind, s, b, m);
      box.replaceChildren(h('div', { class: 'panel notice received', id: 'support-received', role: 'status' },
        h('h2', {}, 'Your message was received'),
        h('p', {}, `Thank you. We answer ${m ? `by e-mail (${m}) and ` : ''}on `, link(`/support/ticket/${r.ticket}`, 'this message\'s page'), '.'),
        h('p', {}, h('button', { type: 'button', onclick: () => box.replaceChildren(contactForm(box, sent)) }, 'Write another message'))));
      sent();
    } catch (ex) {
      showError(err, ex);
      submit.disabled = false;
    }
  });
  return form;
}

// ---- /support/ticket/ID ----

export async function renderTicket(host: HTMLElement, idText: string): Promise<void> {
  const id = Number(idText);
  const back = isStaff() ? link('/staff/tickets', 'All tickets') : link('/support', 'Support');
  let r;
  try {
    r = await support.ticket(id);
  } catch (e) {
    host.append(h('nav', { class: 'crumbs' }, back), h('h1', {}, 'Message not found'), h('p', { class: 'error' }, errorText(e)));
    return;
  }
  const t = r.ticket;
  const staff = isStaff();
  const myId = me()?.id;
  document.title = `${t.subject} · Support · Citadel`;
  host.append(h('nav', { class: 'crumbs', 'aria-label': 'Where you are' }, back, ' › ', `#${t.id}`),
    h('h1', {}, t.subject),
    h('p', { class: 'hint ticket-meta' }, `${kindWord(t.kind)} · `, h('span', { class: `tag tag-${t.status}`, id: 'ticket-status' }, statusWord(t)),
      ' · from ', t.from ? playerLink(t.from) : 'a visitor', staff && t.email ? ` <${t.email}>` : '', ' · ', when(t.created)));

  const who = (m: TicketMessage) => m.staff ? `Support${m.author ? ` (${m.author.name})` : ''}`
    : m.author && m.author.id === myId ? 'You' : m.author ? m.author.name : 'The sender';
  host.append(h('ol', { class: 'ticket-messages', id: 'ticket-messages' }, ...r.messages.map((m) => h('li', {
    class: `panel ticket-msg${m.staff ? ' from-staff' : ''}`, 'data-message': m.id,
  }, h('header', { class: 'ticket-msg-head' }, h('strong', {}, who(m)), ' · ', when(m.created)),
    h('div', { class: 'ticket-body' }, m.body)))));

  const area = h('textarea', { id: 'ticket-reply', rows: 6, required: true });
  const err = errorLine('ticket-error');
  const submit = h('button', { type: 'submit', class: 'primary' }, staff ? 'Send answer' : 'Send');
  const form = h('form', { class: 'panel form ticket-reply-form', id: 'ticket-reply-form', novalidate: true },
    h('label', { for: 'ticket-reply' }, staff ? 'Answer (mailed to the sender and shown to them here)' : 'Add to your message'), area,
    !staff && t.status === 'closed' ? h('p', { class: 'hint' }, 'This conversation was closed; writing again opens it.') : null,
    err, h('div', { class: 'row' }, submit));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const why = !area.value.trim() ? 'Write something first.' : tooLong(area.value, LIMITS.body, 'message');
    if (why) return showError(err, why);
    submit.disabled = true;
    try {
      await support.reply(t.id, area.value);
      navigate(location.pathname, true);
    } catch (ex) {
      showError(err, ex);
      submit.disabled = false;
    }
  });
  host.append(form);
  if (staff && t.status === 'open') {
    const close = h('button', { type: 'button', id: 'ticket-close' }, 'Close the ticket');
    const cerr = errorLine();
    close.addEventListener('click', async () => {
      close.disabled = true;
      try {
        await support.close(t.id);
        navigate(location.pathname, true);
      } catch (ex) {
        showError(cerr, ex);
        close.disabled = false;
      }
    });
    host.append(h('p', {}, close, cerr));
  }
}

route(/^\/support\/?$/, renderSupport, 'Support', { engine: 'none' });
route(/^\/support\/ticket\/(\d+)$/, renderTicket, 'Support', { engine: 'none' });
