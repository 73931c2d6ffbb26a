// pages/bots.ts -- the bots as people see them on the start page: a name for
// each bot account (from its level, style or spec, never "bot-...") and,
// per game, the menu of the bots that play it, each listed once.

import type { Bot } from '../api';

const LEVEL_WORDS = ['', 'beginner', 'casual', 'club', 'strong', 'expert', 'strongest'];

const SPEC_WORDS: Record<string, string> = {
  greedy: 'Greedy (takes the most it can at once)',
  random: 'Random mover',
  attacker: 'Attacker (attacks and captures when it can)',
  mcts: 'Monte Carlo (plays out random games)',
  capture: 'Capture (takes the most valuable piece)',
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "bot-my_engine2" -> "My engine 2": a bot's account name made readable. */
function nameWords(name: string): string {
  const words = name.replace(/^bot-/, '').replace(/[-_]+/g, ' ').replace(/(\D)(\d)/g, '$1 $2').trim();
  return words ? capital(words) : 'Bot';
}

/** A name for people: "Level 3 (club)", "Balanced, strength 2", "Random mover". */
export function botLabel(b: Bot): string {
  const spec = b.spec.split('/')[0]; // limits such as level=6/movetime=50 say nothing new
  if (b.style) return `${capital(b.style)}, strength ${b.level}`;
  if (b.level > 0 && spec.startsWith('level=')) return `Level ${b.level}${LEVEL_WORDS[b.level] ? ` (${LEVEL_WORDS[b.level]})` : ''}`;
  if (SPEC_WORDS[spec]) return SPEC_WORDS[spec];
  if (spec.startsWith('uci:')) return `${nameWords(b.name)} (engine)`;
  return nameWords(b.name);
}

/** The bots that play a variant, each once: two bots that would get the
 *  same name are the same player listed twice, so the first is kept. */
export function botsFor(bots: Bot[], variant: string): { bot: Bot; label: string }[] {
  const seen = new Set<string>();
  const out: { bot: Bot; label: string }[] = [];
  for (const bot of bots) {
    if (bot.variants && !bot.variants.includes(variant)) continue;
    const label = botLabel(bot);
    if (seen.has(label)) continue;
    seen.add(label);
    out.push({ bot, label });
  }
  return out;
}
