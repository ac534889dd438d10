'use strict';
// A small adapter kit for durak-conformance engines written in JavaScript (Node, no npm
// dependencies). It does the part of an adapter that is the same for every engine:
//
//   - the JSON Lines protocol loop of spec/protocol.md (P-1..P-12, P-27);
//   - the portable shuffle of docs/architecture.md and spec/rules.md R-DEAL-2, in BigInt;
//   - exact 64-bit seeds (and ids) read from the raw request line, since JSON.parse rounds any
//     integer above 2^53 to the nearest double;
//   - ruleset resolution (the three forms of P-19) and the claim check (P-16, P-17);
//   - the checks of new_game every engine needs (R-DECK-4, R-DEAL-2, R-DEAL-3, R-MATCH-1..3);
//   - card helpers (notation and canonical order, docs/architecture.md "Cards").
//
// An engine supplies deal / legalMoves / apply on the contract's JSON state; see adapter.js.

const readline = require('readline');

// --------------------------------------------------------------------------- errors

// A request answered ok:false. code is one of the four of P-26; rule is a rule ID or null.
class Refused extends Error {
  constructor(code, message, { rule = null, pointer = null } = {}) {
    super(message);
    this.code = code;
    this.rule = rule;
    this.pointer = pointer;
  }

  toJSON() {
    const error = { code: this.code, message: this.message, rule: this.rule };
    if (this.pointer !== null) error.pointer = this.pointer;
    return error;
  }
}

const badRequest = (message, pointer = null, rule = null) =>
  new Refused('bad_request', message, { pointer, rule });

// --------------------------------------------------------------------------- cards

// Ranks ascend (R-DECK-2); the canonical order of docs/architecture.md sorts by copy, then suit
// in C D H S order, then rank.
const RANKS = '23456789TJQKA';
const SUITS = 'CDHS';
const LOWEST_RANK = { 24: '9', 36: '6', 52: '2' };

const rankOf = (card) => RANKS.indexOf(card[0]);
const suitOf = (card) => card[1];
const cardKey = (card) => (card.length === 3 ? 100 : 0) + SUITS.indexOf(card[1]) * 13 + rankOf(card);
const sortCards = (cards) => [...cards].sort((a, b) => cardKey(a) - cardKey(b));

// The canonical unshuffled deck (R-DECK-1, R-DEAL-2 step 1): copy, then suit, then rank.
function canonicalDeck(deckSize = 36, decks = 1) {
  const ranks = RANKS.slice(RANKS.indexOf(LOWEST_RANK[deckSize]));
  const deck = [];
  for (let copy = 1; copy <= decks; copy++) {
    for (const suit of SUITS) {
      for (const rank of ranks) deck.push(rank + suit + (copy === 2 ? '2' : ''));
    }
  }
  return deck;
}

// --------------------------------------------------------------------------- portable shuffle

// SplitMix64 exactly as R-DEAL-2 step 2 writes it. Numbers are doubles in JavaScript, so every
// step is done in BigInt and masked to 64 bits; `>>` on a non-negative BigInt is the logical shift.
const MASK64 = (1n << 64n) - 1n;

function* splitmix64(seed) {
  let x = BigInt(seed) & MASK64;
  for (;;) {
    x = (x + 0x9E3779B97F4A7C15n) & MASK64;
    let z = x;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK64;
    yield z ^ (z >> 31n);
  }
}

// Fisher-Yates from the last index down (R-DEAL-2 step 3). `mod (i + 1)` keeps its tiny bias on
// purpose: it is part of the definition, and every engine must produce the same order.
function portableShuffle(cards, seed) {
  const out = [...cards];
  const rng = splitmix64(seed);
  for (let i = out.length - 1; i >= 1; i--) {
    const j = Number(rng.next().value % BigInt(i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// --------------------------------------------------------------------------- exact numbers

// JSON.parse turns 18446744073709551615 (2^64 - 1, a legal seed) into 18446744073709552000, a
// different seed, without a word. So before parsing, the kit finds the raw text of the top-level
// values it must keep exact (`seed`, and `id`, which P-8 wants echoed unchanged) by walking the
// line once. Only the top level is looked at, so a "seed" inside a nested object or a string
// is never mistaken for the request's. On malformed JSON it gives up (returns {}): JSON.parse
// then reports the error.
function rawTopLevel(line, wanted) {
  const found = {};
  let i = 0;
  const ws = () => { while (i < line.length && ' \t\r\n'.includes(line[i])) i++; };
  const skipString = () => { // line[i] is the opening quote; leaves i after the closing one
    for (i++; i < line.length; i++) {
      if (line[i] === '\\') i++;
      else if (line[i] === '"') { i++; return true; }
    }
    return false;
  };
  const skipValue = () => {
    if (line[i] === '"') return skipString();
    if (line[i] === '{' || line[i] === '[') {
      let depth = 0;
      while (i < line.length) {
        const c = line[i];
        if (c === '"') { if (!skipString()) return false; continue; }
        if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') depth--;
        i++;
        if (depth === 0) return true;
      }
      return false;
    }
    const start = i; // a number or a literal: up to the next delimiter
    while (i < line.length && !',}] \t\r\n'.includes(line[i])) i++;
    return i > start;
  };
  ws();
  if (line[i] !== '{') return {};
  i++;
  for (;;) {
    ws();
    if (line[i] === '}') return found;
    if (line[i] !== '"') return {};
    const keyStart = i;
    if (!skipString()) return {};
    let key;
    try { key = JSON.parse(line.slice(keyStart, i)); } catch { return {}; }
    ws();
    if (line[i] !== ':') return {};
    i++;
    ws();
    const valueStart = i;
    if (!skipValue()) return {};
    if (wanted.includes(key)) found[key] = line.slice(valueStart, i); // the last one wins, as in JSON.parse
    ws();
    if (line[i] === ',') { i++; continue; }
    if (line[i] === '}') return found;
    return {};
  }
}

// A seed is an unsigned 64-bit integer (P-20). Accepted: a JSON number written with digits only
// (its raw text, so 2^64 - 1 stays exact), or a string of digits (for clients that cannot write
// such a number). Refused with bad_request: a fraction, an exponent (1e3 is a double, whatever it
// rounds to), a sign, anything out of range.
function parseSeed(raw) {
  let text = raw.trim();
  if (text.startsWith('"')) {
    try { text = JSON.parse(text); } catch { throw badRequest('seed is not a valid string', '/seed'); }
  }
  if (typeof text !== 'string' || !/^[0-9]+$/.test(text)) {
    throw badRequest(`seed must be an unsigned 64-bit integer, not ${raw}`, '/seed');
  }
  const seed = BigInt(text);
  if (seed > MASK64) throw badRequest(`seed ${text} is above 2^64 - 1`, '/seed');
  return seed;
}

// --------------------------------------------------------------------------- rulesets

// Every option of the catalog, in catalog order, with its values and its default (the podkidnoy
// value). Copied from spec/ambiguities.yaml (`status: option` entries) and
// spec/rulesets/podkidnoy.yaml, as `durak-conformance export` or reference_impl.rulesets
// .catalog_options() list them. deck_size and decks are numbers, every other value a string.
const CATALOG = [
  ['deck_size', [24, 36, 52], 36],
  ['decks', [1, 2], 1],
  ['attack_limit', ['hand', 'six', 'six_five_first', 'six_five_first_bout'], 'six_five_first'],
  ['opening', ['single', 'same_rank'], 'same_rank'],
  ['throw_in_timing', ['any_time', 'after_first_beat', 'all_beaten'], 'any_time'],
  ['throw_in_ranks', ['table', 'first_pair'], 'table'],
  ['throw_in_priority', ['free', 'main_first', 'circle'], 'circle'],
  ['throwers', ['all', 'main_only'], 'all'],
  ['pass_reset', ['beat', 'any_card'], 'beat'],
  ['pass_required', ['every_eligible', 'only_able'], 'every_eligible'],
  ['pile_on', ['allowed', 'forbidden'], 'allowed'],
  ['take_clears_passes', ['off', 'on'], 'off'],
  ['take_allowed', ['while_unbeaten', 'any_time'], 'while_unbeaten'],
  ['beat_order', ['any', 'earliest_first'], 'any'],
  ['draw_order', ['fill_in_turn', 'one_at_a_time'], 'fill_in_turn'],
  ['out_timing', ['bout_end', 'immediate'], 'bout_end'],
  ['finish_order', ['emptied_order', 'draw_order'], 'emptied_order'],
  ['tie', ['draw', 'defender_fool'], 'draw'],
  ['win_mode', ['loser_only', 'first_out_wins', 'ranking'], 'loser_only'],
  ['first_attacker', ['lowest_trump', 'dealer_left'], 'lowest_trump'],
  ['no_trump_fallback', ['dealer_left', 'seat_zero', 'lowest_card'], 'dealer_left'],
  ['next_game', ['fool_left', 'fool_right'], 'fool_left'],
  ['trump_card', ['after_deal', 'bottom'], 'after_deal'],
  ['deal_order', ['one_at_a_time', 'six_at_once'], 'one_at_a_time'],
  ['transfer', ['off', 'on'], 'off'],
  ['transfer_condition', ['before_first_beat', 'not_first_bout'], 'before_first_beat'],
  ['transfer_capacity', ['hand', 'hand_and_limit', 'hand_plus_one'], 'hand_and_limit'],
  ['transfer_cards', ['one', 'several'], 'several'],
  ['transfer_around', ['allowed', 'forbidden'], 'allowed'],
  ['trump_show', ['off', 'before_first_beat', 'any_time'], 'off'],
  ['transfer_main_attacker', ['last_transferrer', 'original'], 'last_transferrer'],
  ['teams', ['none', '2v2', '3v3', '2v2v2'], 'none'],
  ['epaulettes', ['off', 'on'], 'off'],
  ['discard_visibility', ['count', 'contents'], 'count'],
];
const OPTIONS = new Map(CATALOG.map(([name, values, dflt]) => [name, { values, dflt }]));
const DEFAULTS = Object.fromEntries(CATALOG.map(([name, , dflt]) => [name, dflt]));

// The presets of spec/rulesets/*.yaml, as their differences from podkidnoy (the defaults). An
// engine must know them all to resolve a name such as `pagat` (then refuse it as unsupported, or
// accept {"preset": "pagat", "overrides": ...} that brings it back inside the claim).
const PRESETS = {
  podkidnoy: {},
  pagat: { attack_limit: 'six', opening: 'single', throw_in_timing: 'after_first_beat',
    throw_in_priority: 'main_first', transfer_cards: 'one' },
  perevodnoy: { transfer: 'on' },
  'perevodnoy-trump-show': { transfer: 'on', trump_show: 'before_first_beat' },
  seeds: { opening: 'single', pile_on: 'forbidden', take_allowed: 'any_time',
    transfer_capacity: 'hand', transfer_cards: 'one', epaulettes: 'on' },
  'teams-2v2': { teams: '2v2' },
  'teams-2v2v2': { teams: '2v2v2' },
  'teams-3v3': { teams: '3v3' },
  'two-decks': { decks: 2 },
};
const NAME_RE = /^[a-z0-9][a-z0-9+_=-]*$/; // spec/schema/ruleset.schema.json, $defs/name

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isSeat = (v, n) => Number.isInteger(v) && v >= 0 && v < n;

// Each option a catalog option, each value one of its values, of its type (36, not "36").
function checkOptions(options, where) {
  if (!isObject(options)) throw badRequest(`${where} must be an object of option: value`, where);
  for (const [name, value] of Object.entries(options)) {
    const option = OPTIONS.get(name);
    if (!option) throw badRequest(`unknown option ${JSON.stringify(name)}`, `${where}/${name}`);
    if (!option.values.includes(value)) {
      throw badRequest(`option ${name} cannot be ${JSON.stringify(value)}; allowed: ` +
        option.values.map((v) => JSON.stringify(v)).join(', '), `${where}/${name}`);
    }
  }
}

const ordered = (options) => Object.fromEntries(CATALOG.map(([name]) => [name, options[name]]));

// P-19 and docs/architecture.md (Options, last item): a preset name; {"preset", "overrides"}
// named after the preset plus `+option=value` for each override that changes it, in catalog
// order (unless a name is given); {"name", "options"} with missing options taking the defaults,
// named "custom" without a name. The answer is {"name", "options": every option, catalog order}.
function resolveRuleset(spec) {
  const preset = (name, where) => {
    if (typeof name !== 'string' || !Object.hasOwn(PRESETS, name)) {
      throw badRequest(`unknown preset ${JSON.stringify(name)}; known: ${Object.keys(PRESETS).join(', ')}`, where);
    }
    return { ...DEFAULTS, ...PRESETS[name] };
  };
  let resolved;
  if (typeof spec === 'string') {
    resolved = { name: spec, options: preset(spec, '/ruleset') };
  } else if (isObject(spec) && 'options' in spec) {
    checkOptions(spec.options, '/ruleset/options');
    resolved = { name: spec.name ?? 'custom', options: { ...DEFAULTS, ...spec.options } };
  } else if (isObject(spec) && 'preset' in spec) {
    const base = preset(spec.preset, '/ruleset/preset');
    const overrides = spec.overrides ?? {};
    checkOptions(overrides, '/ruleset/overrides');
    let name = spec.name;
    if (name === undefined) {
      name = spec.preset + CATALOG
        .filter(([option]) => option in overrides && overrides[option] !== base[option])
        .map(([option]) => `+${option}=${overrides[option]}`).join('');
    }
    resolved = { name, options: { ...base, ...overrides } };
  } else {
    throw badRequest('a ruleset is a preset name, {"preset", "overrides"} or {"name", "options"}', '/ruleset');
  }
  if (typeof resolved.name !== 'string' || !NAME_RE.test(resolved.name)) {
    throw badRequest(`ruleset name ${JSON.stringify(resolved.name)} is not a valid name`, '/ruleset/name');
  }
  return { name: resolved.name, options: ordered(resolved.options) };
}

// The key of supports.players for a ruleset's deck (P-16): "36", or "36x2" for two packs.
const deckKey = (options) => String(options.deck_size) + (options.decks === 2 ? 'x2' : '');

// P-16: an option left out of the claim is supported at its default only; values compare as
// strings. Anything else is `unsupported` (P-26), which the runner reports as unsupported, not
// failed, as long as the hello did not claim it.
function checkClaim(options, players, supports) {
  const claimed = supports.options || {};
  for (const [name, value] of Object.entries(options)) {
    const ok = name in claimed
      ? claimed[name].map(String).includes(String(value))
      : String(value) === String(DEFAULTS[name]);
    if (!ok) throw new Refused('unsupported', `this engine does not play ${name}=${value}`);
  }
  const counts = (supports.players || {})[deckKey(options)];
  if (!counts) throw new Refused('unsupported', `this engine does not play with the ${deckKey(options)} deck`);
  if (players !== undefined && !counts.includes(players)) {
    throw new Refused('unsupported', `this engine does not play ${players} players with ${deckKey(options)} cards`);
  }
}

// --------------------------------------------------------------------------- new_game

const TEAM_PLAYERS = { '2v2': 4, '3v3': 6, '2v2v2': 6 };

// The checks of a new_game request (P-18..P-21), in the order that gives the right code:
// the ruleset (bad_request), the rules' player count (bad_request citing R-DECK-4 or R-TEAM-1
// even outside the claim: P-17), the claim (unsupported), then seed or deck, dealer, previous.
// The answer: {ruleset, options, players, deck (in deal order), dealer, first (the first attacker
// a previous game fixes, R-MATCH-2, or null for a first game, R-ROLE-1)}.
function readNewGame(request, supports) {
  const ruleset = resolveRuleset(request.ruleset);
  const options = ruleset.options;
  const n = request.players;
  if (!Number.isInteger(n)) throw badRequest('players must be an integer', '/players');
  const cards = options.deck_size * options.decks;
  const limit = Math.min(8, Math.floor(cards / 6));
  if (n < 2 || n > limit) {
    throw badRequest(`${n} players cannot play with ${cards} cards: 2 to ${limit} (R-DECK-4)`, '/players', 'R-DECK-4');
  }
  if (options.teams !== 'none' && n !== TEAM_PLAYERS[options.teams]) {
    throw badRequest(`teams ${options.teams} needs ${TEAM_PLAYERS[options.teams]} players (R-TEAM-1)`, '/players', 'R-TEAM-1');
  }
  checkClaim(options, n, supports);

  const hasSeed = request.seed !== undefined && request.seed !== null;
  const hasDeck = request.deck !== undefined && request.deck !== null;
  if (hasSeed === hasDeck) throw badRequest('give exactly one of seed and deck (R-DEAL-2)', '/seed');
  const canonical = canonicalDeck(options.deck_size, options.decks);
  let deck;
  if (hasSeed) {
    // The adapter's loop puts the exact BigInt seed here (from the raw line); a plain number
    // only gets here when the kit is used without it, and then it must be a safe integer.
    let seed = request.seed;
    if (typeof seed === 'number') {
      if (!Number.isSafeInteger(seed) || seed < 0) throw badRequest(`seed ${seed} is not an exact unsigned integer`, '/seed');
      seed = BigInt(seed);
    } else if (typeof seed === 'string') {
      seed = parseSeed(JSON.stringify(seed));
    } else if (typeof seed !== 'bigint') {
      throw badRequest('seed must be an unsigned 64-bit integer', '/seed');
    }
    deck = portableShuffle(canonical, seed);
  } else {
    if (!Array.isArray(request.deck)) throw badRequest('deck must be a list of cards', '/deck');
    const wanted = new Set(canonical);
    const seen = new Set();
    request.deck.forEach((card, i) => {
      if (!wanted.has(card)) throw badRequest(`${JSON.stringify(card)} is not a card of this deck`, `/deck/${i}`);
      if (seen.has(card)) throw badRequest(`${card} appears twice in the deck`, `/deck/${i}`);
      seen.add(card);
    });
    if (seen.size !== canonical.length) {
      throw badRequest(`the deck has ${seen.size} cards; this ruleset's deck has ${canonical.length}`, '/deck');
    }
    deck = [...request.deck];
  }

  let dealer = request.dealer ?? null;
  let first = null;
  if (request.previous !== undefined && request.previous !== null) {
    const previous = request.previous;
    if (!isObject(previous) || !isObject(previous.result) || !isSeat(previous.dealer, n)) {
      throw badRequest('previous must be {"dealer": seat, "result": {...}}', '/previous');
    }
    const fool = previous.result.fool ?? null;
    if (fool !== null && !isSeat(fool, n)) throw badRequest('previous.result.fool must be a seat or null', '/previous/result/fool');
    const draw = previous.result.draw ?? false;
    if (typeof draw !== 'boolean' || draw === (fool !== null)) {
      // every game ends with a fool (R-END-2) unless it is drawn (R-END-3): P-21
      throw badRequest('previous.result must name a fool or be a draw, not both nor neither', '/previous/result');
    }
    // R-MATCH-1..3: the fool deals and his left (or right) attacks; after a draw the same dealer
    // deals a first game (first stays null: R-ROLE-1 picks the attacker).
    let next = previous.dealer;
    if (fool !== null) {
      next = fool;
      first = options.next_game === 'fool_left' ? (fool + 1) % n : (fool + n - 1) % n;
    }
    if (dealer !== null && dealer !== next) {
      throw badRequest(`dealer ${dealer} contradicts previous: the next dealer is seat ${next} (R-MATCH-1)`, '/dealer');
    }
    dealer = next;
  }
  if (dealer === null) dealer = n - 1; // R-DEAL-3
  if (!isSeat(dealer, n)) throw badRequest(`dealer must be a seat 0..${n - 1}`, '/dealer');
  return { ruleset, options, players: n, deck, dealer, first };
}

// A state sent back to the engine must be inside the claim too (P-17: unsupported, not a wrong
// answer) and shaped like a state, so that the engine's code meets only what it can play.
function checkState(state, supports) {
  if (!isObject(state)) throw badRequest('state must be an object', '/state');
  if (!isObject(state.ruleset) || !isObject(state.ruleset.options)) {
    throw new Refused('invalid_state', 'the state has no resolved ruleset', { pointer: '/ruleset' });
  }
  if (typeof state.ruleset.name !== 'string' || !NAME_RE.test(state.ruleset.name)) {
    throw new Refused('invalid_state', `ruleset name ${JSON.stringify(state.ruleset.name)} is not a valid name`, { pointer: '/ruleset/name' });
  }
  for (const [name] of CATALOG) {
    if (!(name in state.ruleset.options)) {
      throw new Refused('invalid_state', `the state's ruleset lacks option ${name}`, { pointer: `/ruleset/options/${name}` });
    }
  }
  try {
    checkOptions(state.ruleset.options, '/ruleset/options');
  } catch (e) {
    throw new Refused('invalid_state', e.message, { pointer: e.pointer });
  }
  if (!Array.isArray(state.players)) throw new Refused('invalid_state', 'players must be a list', { pointer: '/players' });
  checkClaim(state.ruleset.options, state.players.length, supports);
  for (const key of ['talon', 'discard', 'table', 'finished']) {
    if (!Array.isArray(state[key])) throw new Refused('invalid_state', `${key} must be a list`, { pointer: `/${key}` });
  }
}

// --------------------------------------------------------------------------- the protocol loop

// One answer per request line, in order (P-4), the id echoed as written (P-8), `bad_request` for a
// line that is not a JSON object or an unknown op (P-12), and no exception ever escapes (P-27):
// an engine fault becomes a bad_request answer with the stack on stderr (P-1: stderr is free).
// `handlers` maps each op the engine implements to a function(request) -> answer fields; `observe`
// may be left out, and is then answered `unsupported` (P-25).
const OPS = ['hello', 'new_game', 'legal_moves', 'apply', 'observe'];

function answerLine(line, handlers) {
  const raw = rawTopLevel(line, ['id', 'seed']);
  let id = null;
  let idText = 'null';
  let reply;
  try {
    let request;
    try {
      request = JSON.parse(line);
    } catch (e) {
      throw badRequest(`the line is not JSON: ${e.message}`);
    }
    if (!isObject(request)) throw badRequest('a request is a JSON object');
    id = request.id ?? null;
    // A number id is echoed from its raw text, so an id of 2^60 or 1.50 comes back as written.
    idText = typeof id === 'number' && raw.id !== undefined ? raw.id : JSON.stringify(id);
    if (!OPS.includes(request.op)) throw badRequest(`unknown op ${JSON.stringify(request.op)}`, '/op');
    if (request.op === 'new_game' && request.seed != null && raw.seed !== undefined) {
      request.seed = parseSeed(raw.seed); // the exact value, not JSON.parse's double
    }
    const handler = handlers[request.op];
    if (!handler) throw new Refused('unsupported', `this engine does not implement ${request.op}`);
    reply = { ok: true, ...handler(request) };
  } catch (e) {
    if (!(e instanceof Refused)) process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
    const refusal = e instanceof Refused ? e : badRequest(`the engine raised ${e && e.name}: ${e && e.message}`);
    reply = { ok: false, error: refusal.toJSON() };
  }
  let body;
  try {
    body = JSON.stringify(reply);
  } catch (e) { // an answer that cannot be written (a BigInt, a cycle) is the engine's fault too
    process.stderr.write(`${e.stack}\n`);
    body = JSON.stringify({ ok: false, error: badRequest(`the answer cannot be written: ${e.message}`).toJSON() });
  }
  // The id goes first, as its raw text; the rest of the answer follows it.
  return `{"id":${idText},${body.slice(1)}`;
}

// Serve until stdin ends (P-5: then exit with status 0, which Node does once the loop is idle).
// Answers go out with one write each; on Linux writes to a pipe are synchronous in Node, so every
// answer is flushed before the next request is read.
function serve(handlers) {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  rl.on('line', (line) => {
    process.stdout.write(`${answerLine(line, handlers)}\n`);
  });
}

module.exports = {
  Refused, badRequest, isObject, isSeat,
  RANKS, SUITS, LOWEST_RANK, rankOf, suitOf, cardKey, sortCards, canonicalDeck,
  MASK64, splitmix64, portableShuffle, rawTopLevel, parseSeed,
  CATALOG, DEFAULTS, PRESETS, resolveRuleset, checkClaim, deckKey, readNewGame, checkState,
  answerLine, serve,
};
