// keeps-bots.test.mjs -- every bot that /api/bots lists for Keeps & Moats,
// seated at a four-seat table (its creator resigns its own kingdom at once),
// plays at least 20 moves as the game page shows them: no game that ends after one move ("Draw ·
// Resigned" with nobody resigning was the bug), no word a person should
// not read.

import { test, run, check, checkReadable, hasSession } from './lib.mjs';

test('keeps-every-bot-plays', async (t) => {
  const page = await t.newPage();
  await page.goto(t.url + '/');
  await hasSession(page);
  const kinds = await page.evaluate(async () => {
    const r = await (await fetch('/api/bots')).json();
    return r.bots.filter((b) => b.variants.includes('keeps-moats')).map((b) => b.name);
  });
  check(kinds.length >= 2, `bots listed for Keeps & Moats: ${kinds}`);
  // tables of this person and three bots, each kind in a seat at least once;
  // the person resigns their kingdom at once (it is out, the bots play on)
  const tables = [];
  for (let i = 0; i < kinds.length; i += 3) tables.push(['me', ...[0, 1, 2].map((k) => kinds[(i + k) % kinds.length])]);
  for (const seats of tables) {
    const id = await page.evaluate(async (seats) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      const game = new Promise((resolve, reject) => {
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === 'game') resolve(m.game.id);
          if (m.type === 'error') reject(new Error(m.error));
        };
      });
      await new Promise((r) => { ws.onopen = r; });
      ws.send(JSON.stringify({ type: 'table', variant: 'keeps-moats', base_ms: 0, inc_ms: 0, seats, ref: 'table' }));
      const id = await game;
      ws.send(JSON.stringify({ type: 'resign', game: id, side: 0, ref: 'resign' }));
      await new Promise((resolve) => {
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === 'move' && m.game === id && /^resign:/.test(m.move)) resolve();
        };
      });
      ws.close();
      return id;
    }, seats);
    await page.goto(`${t.url}/game/${id}`);
    await page.locator('#km-kingdoms').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#move-list li').length >= 20 ||
      !!document.querySelector('#result .result'), null, { timeout: 60000 });
    const moves = await page.locator('#move-list li').count();
    const result = (await page.locator('#result').textContent().catch(() => '')) || '';
    await t.shot(page, `table-${seats.join('-')}`);
    check(moves >= 20, `${seats.join(', ')}: ${moves} moves, then "${result.trim()}"`);
    check(!/resigned/i.test(result), `${seats.join(', ')}: "${result.trim()}": a bot resigned`);
    await checkReadable(page, `table ${seats.join(', ')}`);
  }
});

run();
