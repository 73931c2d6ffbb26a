// style.ts -- the Learn pages' own layout rules, added to the document once.
// They build on the page's shared stylesheet (its colours and .panel,
// .controls, .button) and only arrange the lesson: text, two small boards
// side by side on a wide screen, one under the other on a phone.

const CSS = `
.learn-intro progress { width: min(100%, 24rem); height: 0.9rem; accent-color: var(--ok); }
.learn-list { padding-left: 1.6rem; line-height: 1.9; }
.learn-list li.done a { color: var(--ok); }
.learn-tick { margin-left: 0.5rem; color: var(--ok); font-weight: 600; font-size: 0.92rem; }
.learn-crumbs { color: var(--muted); font-size: 0.92rem; margin: 0.2rem 0 0.4rem; }
.learn-text { max-width: 44rem; }
.learn-text p { line-height: 1.55; }
.learn-legend { list-style: none; padding: 0; display: grid; gap: 0.35rem; }
.learn-legend li { display: flex; align-items: center; gap: 0.35rem; }
.learn-legend span { margin-left: 0.3rem; }
.learn-scenes { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; margin: 1rem 0; }
.learn-scene { flex: 1 1 17rem; max-width: 26rem; margin: 0; }
.learn-scene h2 { font-size: 1.1rem; margin: 0 0 0.4rem; }
.learn-scene .board-small { max-width: min(100%, 240px); margin: 0.5rem auto; }
.learn-caption, .learn-prompt { margin: 0.2rem 0; }
.learn-prompt { font-weight: 600; }
.learn-status { min-height: 3em; margin: 0.4rem 0; font-size: 0.95rem; }
.learn-good { color: var(--ok); font-weight: 600; background: #ecfdf5; border-left: 4px solid var(--ok); padding: 0.3rem 0.5rem; }
.learn-bad { color: #7f1d1d; background: #fef2f2; border-left: 4px solid var(--danger); padding: 0.3rem 0.5rem; }
.learn-badge { color: var(--ok); font-weight: 600; margin: 0 0 0.3rem; }
.learn-done { margin: 0 0 1rem; }
.learn-pager { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0.6rem; margin: 1.2rem 0; padding-top: 0.8rem; border-top: 1px solid var(--line); }
`;

export function ensureLearnStyles(): void {
  if (document.getElementById('learn-style')) return;
  const style = document.createElement('style');
  style.id = 'learn-style';
  style.textContent = CSS;
  document.head.appendChild(style);
}
