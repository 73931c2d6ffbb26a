// wsplay.mjs -- games made quickly for the browser tests that need some
// behind a page (a player with many finished games, a game to resign): the
// page's own session speaks the WebSocket protocol of docs/api.md from inside
// the page, so the games are that visitor's, exactly as if it had clicked.

/** Starts `count` games against a bot, each resigned at once; resolves to
 *  their ids. settings: the play_bot fields (variant, bot, ...). */
export async function botGamesResigned(page, count, settings) {
  return page.evaluate(async ({ count, settings }) => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    const inbox = [];
    let wake = null;
    ws.onmessage = (e) => { inbox.push(JSON.parse(e.data)); if (wake) wake(); };
    const next = async (pred, what) => {
      const end = Date.now() + 10000;
      for (;;) {
        const i = inbox.findIndex(pred);
        if (i >= 0) return inbox.splice(i, 1)[0];
        if (Date.now() > end) throw new Error(`no ${what} came`);
        await new Promise((r) => { wake = r; setTimeout(r, 200); });
      }
    };
    // a request and its answer; past the server's messages-per-second it is sent again a second later
    const ask = async (msg, answer, what) => {
      for (;;) {
        ws.send(JSON.stringify(msg));
        const m = await next((m) => answer(m) || (m.type === 'error' && m.ref === msg.ref), what);
        if (m.type !== 'error') return m;
        if (!/slow down/.test(m.error)) throw new Error(`${what}: ${m.error}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    await next((m) => m.type === 'hello', 'hello');
    const ids = [];
    for (let k = 0; k < count; k++) {
      const m = await ask({ type: 'play_bot', base_ms: 0, inc_ms: 0, rated: false, side: 0, ...settings, ref: `game${k}` },
        (m) => m.type === 'game' && m.game.you.length > 0, `game ${k + 1}`);
      await ask({ type: 'resign', game: m.game.id, ref: `resign${k}` }, (x) => x.type === 'end' && x.game === m.game.id, `end of game ${m.game.id}`);
      ids.push(m.game.id);
    }
    ws.close();
    return ids;
  }, { count, settings });
}

/** Resigns a game the page's player plays, once it is past any setup
 *  phase; resolves to the result once it has ended. */
export async function resign(page, id) {
  return page.evaluate(async (id) => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`game ${id} did not end`)), 10000);
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        if (m.type === 'hello') ws.send(JSON.stringify({ type: 'watch', game: id }));
        // (a resignation during a private setup aborts the game instead: wait for the play)
        else if (m.type === 'game' && m.game.id === id && m.game.phase !== 'setup') ws.send(JSON.stringify({ type: 'resign', game: id, ref: 'resign' }));
        else if (m.type === 'error' && m.ref === 'resign') { clearTimeout(timer); reject(new Error(m.error)); }
        else if (m.type === 'end' && m.game === id) { clearTimeout(timer); ws.close(); resolve(m.result); }
      };
    });
  }, id);
}
