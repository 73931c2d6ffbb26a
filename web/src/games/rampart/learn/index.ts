// games/rampart/learn/index.ts -- the Learn section: /learn lists the lessons in order with
// the learner's progress; /learn/<id> shows one lesson (text, a live example
// and a puzzle) with links to the previous and next ones. The last lesson
// sends the learner to play a beginner bot.

import { prepare } from '../../../engine/read';
import { route } from '../../../router';
import { pieceIcon } from '../pieces';
import { KIND_NAMES, type Kind } from '../notation';
import { h, link } from '../../../ui';
import { LESSONS, PARTS, type Lesson } from './lessons';
import { markSolved, resetProgress, solvedLessons } from './progress';
import { mountExample, mountPuzzle } from './scene';
import { ensureLearnStyles } from './style';

/** Where the last lesson sends the learner: the start page with a beginner bot chosen. */
export const FIRST_BOT_LINK = '/?bot=bot-level1';

/** A link that looks like a button (the router handles it like any link). */
function buttonLink(href: string, text: string, big = false): HTMLAnchorElement {
  const a = link(href, text);
  a.className = big ? 'button primary big' : 'button primary';
  return a;
}

/** Fills host with the page for `path` (/learn or /learn/<id>); returns a cleanup. */
export async function renderLearn(host: HTMLElement, path: string): Promise<() => void> {
  ensureLearnStyles();
  const id = path.replace(/^\/learn\/?/, '').replace(/\/$/, '');
  if (!id) {
    await prepare('rampart', []);  // the pieces' names
    renderIndex(host);
    return () => {};
  }
  const index = LESSONS.findIndex((l) => l.id === id);
  if (index < 0) {
    host.append(
      h('h1', {}, 'No such lesson'),
      h('p', {}, 'There is no lesson at this address. ', link('/learn', 'See all the lessons'), '.'),
    );
    return () => {};
  }
  // its boards are drawn from the server's reading while the engine loads
  await prepare('rampart', [LESSONS[index].example.position, LESSONS[index].puzzle.position]);
  return renderLesson(host, index);
}

function lessonPath(l: Lesson): string {
  return `/learn/${l.id}`;
}

function renderIndex(host: HTMLElement): void {
  const solved = solvedLessons();
  const done = LESSONS.filter((l) => solved.has(l.id)).length;
  const next = LESSONS.find((l) => !solved.has(l.id));
  const intro = h('div', { class: 'learn-intro' },
    h('h1', {}, 'Learn Rampart'),
    h('p', {}, `Rampart is a two-player board game of capture and encirclement. These ${LESSONS.length} short lessons teach it from scratch, each with a board to try things on and a small puzzle. Allow about twenty minutes.`),
    h('p', { class: 'hint' }, 'These lessons are Rampart\'s. The other games have their own pages: ', link('/stratego/help', 'how to play Stratego'), ' and ', link('/keeps/help', 'how to play Keeps & Moats Chess'), '.'),
    h('p', { class: 'hint' }, 'A problem or a question? ', link('/rampart/help/support', 'Rampart: Technical Support'), ' · ', link('/forum/rampart', 'the Rampart board'), '.'),
    h('p', { class: 'learn-progress-text' }, `${done} of ${LESSONS.length} puzzles solved.`),
    h('progress', { max: LESSONS.length, value: done, 'aria-label': 'Puzzles solved' }),
    h('p', {}, next
      ? buttonLink(lessonPath(next), done ? `Continue: ${next.title}` : 'Start the first lesson', true)
      : buttonLink(FIRST_BOT_LINK, 'All solved! Play the beginner bot', true)),
  );
  host.append(intro);
  let number = 1;
  for (const part of PARTS) {
    const lessons = LESSONS.filter((l) => l.part === part);
    const list = h('ol', { class: 'learn-list', start: number });
    for (const l of lessons) {
      const isDone = solved.has(l.id);
      list.append(h('li', { class: isDone ? 'done' : '' },
        link(lessonPath(l), l.title),
        isDone ? h('span', { class: 'learn-tick' }, h('span', { 'aria-hidden': 'true' }, '✓ '), 'solved') : null));
    }
    number += lessons.length;
    host.append(h('section', { class: 'learn-part' }, h('h2', {}, part), list));
  }
  const reset = h('button', { type: 'button', class: 'linklike' }, 'Forget my progress');
  reset.addEventListener('click', () => {
    resetProgress();
    host.replaceChildren();
    renderIndex(host);
  });
  host.append(
    h('section', { class: 'learn-part' },
      h('h2', {}, 'Ready to play?'),
      h('p', {}, 'The best way to learn is a game against a patient opponent. ', link(FIRST_BOT_LINK, 'Play the beginner bot'), ': it plays gently and never runs out of patience.')),
    h('p', { class: 'hint' }, reset),
  );
}

/** The four pieces in both colours, for the first lesson. */
function pieceLegend(): HTMLElement {
  const about: Record<Kind, string> = {
    Q: 'up to 3 squares in any direction; takes Knights',
    N: '1 or 2 squares along a row or file, jumping; takes Kings',
    K: '1 square in any direction; takes Queens',
    B: '1 square along a row or file; takes nothing',
  };
  const list = h('ul', { class: 'learn-legend', 'aria-label': 'The pieces' });
  for (const kind of ['Q', 'N', 'K', 'B'] as Kind[]) {
    list.append(h('li', {},
      pieceIcon(kind, 'b', 34), pieceIcon(kind, 't', 34),
      h('span', {}, h('strong', {}, KIND_NAMES[kind]), ` (${kind}): ${about[kind]}.`)));
  }
  return list;
}

function renderLesson(host: HTMLElement, index: number): () => void {
  const lesson = LESSONS[index];
  const prev = LESSONS[index - 1];
  const next = LESSONS[index + 1];
  const solvedBefore = solvedLessons().has(lesson.id);
  document.title = `${lesson.title} · Learn · Citadel`;

  host.append(
    h('nav', { class: 'learn-crumbs', 'aria-label': 'Lessons' },
      link('/learn', 'Learn'), ` › ${lesson.part} › lesson ${index + 1} of ${LESSONS.length}`),
    h('h1', {}, lesson.title),
  );
  const text = h('div', { class: 'learn-text' }, ...lesson.text.map((p) => h('p', {}, p)));
  if (lesson.id === 'board') text.append(pieceLegend());
  host.append(text);

  const scenes = h('div', { class: 'learn-scenes' });
  host.append(scenes);
  const done = h('div', { class: 'learn-done', hidden: true });
  const stops = [
    mountExample(scenes, lesson.example, `${lesson.id}-example`),
    mountPuzzle(scenes, lesson.puzzle, `${lesson.id}-puzzle`, solvedBefore, () => {
      markSolved(lesson.id);
      done.hidden = false;
    }),
  ];

  // After the puzzle: go on, or (after the last lesson) play.
  if (next) {
    done.append(buttonLink(lessonPath(next), `Next: ${next.title} →`));
  } else {
    done.append(
      h('p', {}, 'That was the last lesson. You know the rules and the first tactics: time to play.'),
      buttonLink(FIRST_BOT_LINK, 'Play the beginner bot', true),
    );
  }
  host.append(done);
  if (!next) {
    host.append(h('section', { class: 'panel learn-finish' },
      h('h2', {}, 'Ready for a real game?'),
      h('p', {}, 'The beginner bot plays gently, so you can try everything from these lessons. After that, sign up to play rated games against people and stronger bots.'),
      buttonLink(FIRST_BOT_LINK, 'Play the beginner bot', true)));
  }
  host.append(h('nav', { class: 'learn-pager', 'aria-label': 'Previous and next lesson' },
    prev ? link(lessonPath(prev), `← ${prev.title}`) : h('span'),
    link('/learn', 'All lessons'),
    next ? link(lessonPath(next), `${next.title} →`) : link(FIRST_BOT_LINK, 'Play a bot →')));
  return () => stops.forEach((stop) => stop());
}

route(/^\/learn(\/.*)?$/, (host) => renderLearn(host, location.pathname), 'Learn', { engine: 'served' });
