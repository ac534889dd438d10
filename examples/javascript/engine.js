'use strict';
// A small Durak engine written from the project's docs (docs/architecture.md, spec/rules.md):
// podkidnoy with every option at its default, one 36-card pack, 2 to 6 players, no teams.
// It plays on the contract's JSON state itself, so there is no translation layer: a state in,
// a state (or the exact legal set, or a refusal naming a rule) out.
//
// The default options this code bakes in, and where each one acts:
//   attack_limit six_five_first (cap), opening same_rank (openings), throw_in_timing any_time and
//   pile_on allowed (no timing check on throw-ins), throw_in_ranks table (tableRanks),
//   throw_in_priority circle and throwers all (holder), pass_reset beat and take_clears_passes off
//   (only a beat clears `passed`), pass_required every_eligible (owesPass), take_allowed
//   while_unbeaten, beat_order any, draw_order fill_in_turn, out_timing bout_end and finish_order
//   emptied_order (closeBout), tie draw, win_mode loser_only, epaulettes off (the result),
//   first_attacker lowest_trump with no_trump_fallback dealer_left, trump_card after_deal and
//   deal_order one_at_a_time (deal), next_game fool_left (kit.readNewGame), transfer off.

const kit = require('./kit');
const { Refused, badRequest, isObject, sortCards, rankOf, suitOf, canonicalDeck } = kit;

const HAND = 6; // R-DEAL-1, R-DRAW-1

const illegal = (rule, message) => new Refused('illegal_move', message, { rule });

// --------------------------------------------------------------------------- the deal

// R-DEAL-1 (one card at a time from the dealer's left), R-TRUMP-1 (after_deal: deck index 6N is
// the trump card, put under the talon), R-TRUMP-3 (no talon: the dealer's last card, known),
// R-ROLE-1 (lowest trump, else the dealer's left) or R-MATCH-2 (`first`, from the kit), R-ROLE-2.
function deal({ ruleset, players: n, deck, dealer, first }) {
  const hands = Array.from({ length: n }, () => []);
  for (let k = 0; k < HAND * n; k++) hands[(dealer + 1 + k) % n].push(deck[k]);
  const known = hands.map(() => []);
  let trump;
  let talon;
  if (deck.length > HAND * n) {
    trump = deck[HAND * n];
    talon = [...deck.slice(HAND * n + 1), trump];
  } else {
    trump = deck[HAND * n - 1];
    talon = [];
    known[dealer].push(trump);
  }
  let attacker = first;
  if (attacker === null) {
    // The holder of the lowest trump; one pack, so ranks never tie.
    let best = null;
    hands.forEach((hand, seat) => hand.forEach((card) => {
      if (suitOf(card) === suitOf(trump) && (best === null || rankOf(card) < rankOf(best.card))) best = { card, seat };
    }));
    attacker = best ? best.seat : (dealer + 1) % n;
  }
  const state = {
    version: 1,
    ruleset,
    dealer,
    trump,
    talon,
    discard: [],
    players: hands.map((hand, seat) => ({ hand: sortCards(hand), known: known[seat], team: null })),
    table: [],
    bout: null,
    finished: [],
    result: null,
  };
  state.bout = newBout(state, 1, attacker);
  return state;
}

// A bout set up for its opening attack: the attacker is also the opener (R-ROLE-5), the defender
// the next player clockwise who holds cards (R-ROLE-2), the bookkeeping reset (R-BOUT-1).
function newBout(s, number, attacker) {
  return {
    number, attacker, defender: nextHolder(s, attacker + 1, [attacker]), opener: attacker,
    passed: [], taking: false, first_defence: null, shown: [], emptied: [],
  };
}

// The first seat clockwise from `from` (itself included) who holds cards, skipping `skip`.
function nextHolder(s, from, skip = []) {
  const n = s.players.length;
  for (let k = 0; k < n; k++) {
    const seat = (from + k) % n;
    if (!skip.includes(seat) && s.players[seat].hand.length > 0) return seat;
  }
  return null;
}

// --------------------------------------------------------------------------- the bout in figures

// T, U, H of spec/rules.md 0.1 and the attack cap of R-ATTACK-3 (six_five_first: 5 while the
// discard pile is empty, i.e. until a bout of this game has been defended, then 6).
function figures(s) {
  const T = s.table.length;
  const U = s.table.filter((pair) => pair.defence === null).length;
  const H = s.players[s.bout.defender].hand.length;
  const cap = s.discard.length === 0 ? 5 : 6;
  return { T, U, H, cap };
}

// Eligible attacker (rules.md 0.1): not the defender and holding cards (no teams; throwers all).
const eligible = (s, seat) => seat !== s.bout.defender && s.players[seat].hand.length > 0;

// Circle order (R-THROW-4): the main attacker, then clockwise from the defender's left round to
// the player before the defender.
function circleOrder(s) {
  const n = s.players.length;
  const { attacker, defender } = s.bout;
  const order = [attacker];
  for (let k = 1; k < n; k++) {
    const seat = (defender + k) % n;
    if (seat !== attacker) order.push(seat);
  }
  return order;
}

// Under `circle` the right to throw in or pass belongs to one player at a time: the first
// eligible attacker in circle order who has not passed (R-THROW-4). null when nobody holds it.
function holder(s) {
  return circleOrder(s).find((seat) => eligible(s, seat) && !s.bout.passed.includes(seat)) ?? null;
}

// pass_required every_eligible (R-THROW-5): every eligible attacker who has not passed owes one.
const owesPass = (s) => s.players.some((_, seat) => eligible(s, seat) && !s.bout.passed.includes(seat));

// R-THROW-1, throw_in_ranks table: every rank on the table, attack or defence cards.
function tableRanks(s) {
  const ranks = new Set();
  for (const pair of s.table) {
    ranks.add(pair.attack[0]);
    if (pair.defence !== null) ranks.add(pair.defence[0]);
  }
  return ranks;
}

// R-BEAT-1, judged on the two cards alone: a higher card of the suit, or a trump on a non-trump.
function beats(card, target, trumpSuit) {
  if (suitOf(card) === suitOf(target)) return rankOf(card) > rankOf(target);
  return suitOf(card) === trumpSuit;
}

// --------------------------------------------------------------------------- moves

const ACTIONS = ['attack', 'throw_in', 'beat', 'take', 'pass', 'transfer', 'show_trump'];
const DEFENDER_ACTIONS = ['beat', 'take', 'transfer', 'show_trump'];

// Step 2 of the precedence of R-PLAY-5: a malformed move is `bad_request`, not a rule. Returns
// the move reduced to its contract fields (extra fields are ignored, P-11).
function parseMove(s, move) {
  if (!isObject(move)) throw badRequest('a move is an object', '/move');
  const { player, action } = move;
  if (!Number.isInteger(player) || player < 0 || player >= s.players.length) {
    throw badRequest(`player ${JSON.stringify(player)} is not a seat of this game`, '/move/player');
  }
  if (!ACTIONS.includes(action)) throw badRequest(`unknown action ${JSON.stringify(action)}`, '/move/action');
  const deck = new Set(canonicalDeck(s.ruleset.options.deck_size, s.ruleset.options.decks));
  const card = (field) => {
    if (!deck.has(move[field])) {
      throw badRequest(`${field} ${JSON.stringify(move[field])} is not a card of this deck`, `/move/${field}`);
    }
    return move[field];
  };
  const m = { player, action };
  if (action === 'attack' || action === 'transfer') {
    if (!Array.isArray(move.cards) || move.cards.length === 0) {
      throw badRequest('cards must be a non-empty list of cards', '/move/cards');
    }
    move.cards.forEach((c, i) => {
      if (!deck.has(c)) throw badRequest(`${JSON.stringify(c)} is not a card of this deck`, `/move/cards/${i}`);
    });
    if (new Set(move.cards).size !== move.cards.length) throw badRequest('cards names a card twice', '/move/cards');
    m.cards = sortCards(move.cards);
  }
  if (action === 'throw_in' || action === 'show_trump') m.card = card('card');
  if (action === 'beat') {
    m.target = card('target');
    m.card = card('card');
  }
  return m;
}

// Why a well-formed move is illegal now: [rule, message], or null when it is legal. Checks run in
// the precedence of spec/rules.md R-PLAY-5 (steps 3 to 6), so the first rule that fails is the one
// cited. legalMoves lists exactly the candidates this accepts, so the two can never disagree.
function refusal(s, m) {
  const b = s.bout;
  const p = m.player;
  const hand = s.players[p].hand;
  const own = m.cards || (m.card !== undefined ? [m.card] : []);
  const missing = own.find((c) => !hand.includes(c));
  if (missing) return ['R-PLAY-3', `${missing} is not in seat ${p}'s hand`];
  if (DEFENDER_ACTIONS.includes(m.action) !== (p === b.defender)) {
    return ['R-PLAY-4', p === b.defender ? `the defender may not ${m.action}` : `only the defender may ${m.action}`];
  }
  if (m.action === 'transfer') return ['R-TRANSFER-1', 'this ruleset has no transfer (transfer: off)'];
  if (m.action === 'show_trump') return ['R-TRANSFER-7', 'this ruleset has no trump show (transfer: off)'];

  const { T, U, H, cap } = figures(s);
  switch (m.action) {
    case 'attack': {
      if (p !== b.attacker) return ['R-ATTACK-1', `only the main attacker (seat ${b.attacker}) opens the bout`];
      if (T > 0) return ['R-ATTACK-1', 'the bout is already open: throw in instead'];
      if (new Set(m.cards.map((c) => c[0])).size > 1) return ['R-ATTACK-2', 'an opening of several cards must share one rank'];
      if (m.cards.length > cap) return ['R-ATTACK-3', `at most ${cap} attack cards in this bout`];
      if (m.cards.length > H) return ['R-ATTACK-4', `the defender holds only ${H} cards`];
      return null;
    }
    case 'throw_in': {
      if (T === 0) return ['R-ATTACK-1', 'the bout has not been opened'];
      if (T + 1 > cap) return ['R-ATTACK-3', `the bout already has ${T} attack cards (cap ${cap})`];
      if (U + 1 > H) return ['R-ATTACK-4', `the defender holds ${H} cards against ${U} unbeaten`];
      if (!tableRanks(s).has(m.card[0])) return ['R-THROW-1', `no ${m.card[0]} on the table`];
      // R-THROW-2: any_time has no restriction; R-TAKE-2: pile_on allowed neither.
      if (!eligible(s, p)) return ['R-THROW-3', `seat ${p} is not an eligible attacker`];
      if (p !== holder(s)) return ['R-THROW-4', `seat ${p} does not hold the right to throw in`];
      return null;
    }
    case 'beat': {
      if (T === 0) return ['R-ATTACK-1', 'the bout has not been opened'];
      if (!beats(m.card, m.target, suitOf(s.trump))) return ['R-BEAT-1', `${m.card} does not beat ${m.target}`];
      if (!s.table.some((pair) => pair.attack === m.target && pair.defence === null)) {
        return ['R-BEAT-3', `${m.target} is not an unbeaten attack card on the table`];
      }
      if (b.taking) return ['R-TAKE-1', 'the defender has declared take'];
      return null;
    }
    case 'take': {
      if (T === 0) return ['R-ATTACK-1', 'the bout has not been opened'];
      if (b.taking) return ['R-TAKE-1', 'take is already declared'];
      if (U === 0) return ['R-TAKE-1', 'every attack card is beaten (take_allowed: while_unbeaten)'];
      return null;
    }
    case 'pass': {
      if (T === 0) return ['R-ATTACK-1', 'the bout has not been opened'];
      if (!eligible(s, p)) return ['R-THROW-3', `seat ${p} is not an eligible attacker`];
      if (p !== holder(s)) return ['R-THROW-4', b.passed.includes(p) ? `seat ${p} has already passed` : `seat ${p} does not hold the right`];
      if (U > 0 && !b.taking) return ['R-THROW-5', 'no pass while a card is unbeaten and the defender has not declared take'];
      return null;
    }
    default:
      return ['R-PLAY-1', `unknown action ${m.action}`]; // unreachable: parseMove knows the actions
  }
}

// Every legal move of every player (R-PLAY-1): the candidates of each role, kept when refusal()
// finds nothing wrong. Openings are every single card and every subset of two or more cards of
// one rank (opening same_rank); the cap and the defender's hand then prune them.
function legalMoves(state) {
  if (state.result !== null) return []; // R-PLAY-2
  const s = state;
  const b = s.bout;
  const candidates = [];
  if (s.table.length === 0) {
    const hand = s.players[b.attacker].hand;
    for (const card of hand) candidates.push({ player: b.attacker, action: 'attack', cards: [card] });
    const byRank = {};
    for (const card of hand) (byRank[card[0]] = byRank[card[0]] || []).push(card);
    for (const cards of Object.values(byRank)) {
      for (let mask = 1; mask < 1 << cards.length; mask++) {
        const subset = cards.filter((_, i) => mask & (1 << i));
        if (subset.length >= 2) candidates.push({ player: b.attacker, action: 'attack', cards: sortCards(subset) });
      }
    }
  } else {
    s.players.forEach((player, seat) => {
      if (seat === b.defender) return;
      for (const card of player.hand) candidates.push({ player: seat, action: 'throw_in', card });
      candidates.push({ player: seat, action: 'pass' });
    });
    for (const pair of s.table) {
      if (pair.defence !== null) continue;
      for (const card of s.players[b.defender].hand) {
        candidates.push({ player: b.defender, action: 'beat', target: pair.attack, card });
      }
    }
    candidates.push({ player: b.defender, action: 'take' });
  }
  return candidates.filter((m) => refusal(s, m) === null);
}

// --------------------------------------------------------------------------- apply

// The state after a move (P-23), or a refusal: R-PLAY-2 first, then a malformed move, then the
// rules in the order of R-PLAY-5. The input state is never changed (R-PLAY-5); the end of a bout
// happens inside the move that completes it (docs/architecture.md, Moves).
function apply(state, move) {
  if (state.result !== null) throw illegal('R-PLAY-2', 'the game is over; no move is legal');
  const m = parseMove(state, move);
  const why = refusal(state, m);
  if (why) throw illegal(...why);
  const s = structuredClone(state);
  const b = s.bout;
  switch (m.action) {
    case 'attack':
    case 'throw_in':
      // R-ATTACK-2: the cards go down in canonical order, unbeaten, by the player.
      for (const card of m.cards || [m.card]) {
        s.table.push({ attack: card, by: m.player, defence: null });
        removeFromHand(s, m.player, card);
      }
      break; // pass_reset beat: a throw-in clears no pass
    case 'beat': {
      s.table.find((pair) => pair.attack === m.target).defence = m.card;
      if (b.first_defence === null) b.first_defence = m.card; // R-BEAT-3
      removeFromHand(s, m.player, m.card);
      b.passed = []; // R-THROW-6: a beat clears every pass
      break;
    }
    case 'take':
      b.taking = true; // R-TAKE-1; take_clears_passes off: the passes stay
      break;
    case 'pass':
      b.passed = [...b.passed, m.player].sort((x, y) => x - y); // R-THROW-5
      break;
    default:
      break;
  }
  closeIfDue(s);
  return tidy(s);
}

// A card leaves a hand: it stops being known there (R-INFO-3), and an emptied hand is recorded
// at that moment (R-OUT-2).
function removeFromHand(s, seat, card) {
  const player = s.players[seat];
  player.hand = player.hand.filter((c) => c !== card);
  player.known = player.known.filter((c) => c !== card);
  if (player.hand.length === 0 && !s.bout.emptied.includes(seat)) s.bout.emptied.push(seat);
}

// R-BOUT-1..3: "more is possible" = T < cap and U < H. Without a take the bout closes as a
// defence once every card is beaten and nobody owes a pass, or nothing more can come (which
// covers a defender who beat with his last card, R-BOUT-3); after a take it closes as a take
// once nobody owes a pass or nothing more can come.
function closeIfDue(s) {
  const { T, U, H, cap } = figures(s);
  const morePossible = T < cap && U < H;
  if (!s.bout.taking) {
    if (U === 0 && (!owesPass(s) || !morePossible)) closeBout(s, false);
  } else if (!owesPass(s) || !morePossible) {
    closeBout(s, true);
  }
}

function closeBout(s, taken) {
  const b = s.bout;
  const n = s.players.length;
  if (taken) {
    // R-TAKE-3: the taker picks up every card on the table; all of them are known (R-INFO-3).
    const defender = s.players[b.defender];
    for (const pair of s.table) {
      for (const card of [pair.attack, pair.defence]) {
        if (card === null) continue;
        defender.hand.push(card);
        defender.known.push(card);
      }
    }
  } else {
    // R-BOUT-1: to the discard pile in table order, each attack card followed by its defence.
    for (const pair of s.table) s.discard.push(pair.attack, pair.defence);
  }
  s.table = [];

  // R-DRAW-1..3, fill_in_turn: the main attacker, the others clockwise from his left, the
  // defender last, each up to six before the next draws. The trump card, the talon's last card,
  // is known once drawn (R-TRUMP-2).
  const order = [b.attacker];
  for (let k = 1; k < n; k++) {
    const seat = (b.attacker + k) % n;
    if (seat !== b.defender) order.push(seat);
  }
  if (b.defender !== b.attacker) order.push(b.defender);
  for (const seat of order) {
    const player = s.players[seat];
    while (player.hand.length < HAND && s.talon.length > 0) {
      const card = s.talon.shift();
      player.hand.push(card);
      if (card === s.trump) player.known.push(card);
    }
  }

  // R-OUT-2 (bout_end) and R-OUT-3 (emptied_order): every seat whose hand emptied in this bout
  // and is still empty with the talon empty is out, in the order the hands emptied.
  if (s.talon.length === 0) {
    for (const seat of b.emptied) {
      if (s.players[seat].hand.length === 0 && !s.finished.includes(seat)) s.finished.push(seat);
    }
  }

  // R-END-1..4: with the talon empty and at most one player holding cards the game is over. The
  // last holder is the fool (R-END-2); nobody left is a draw under tie: draw (R-END-3); nobody
  // wins under win_mode loser_only (R-END-4); epaulettes off leaves that field null (R-END-6).
  const holders = s.players.map((_, seat) => seat).filter((seat) => s.players[seat].hand.length > 0);
  if (s.talon.length === 0 && holders.length <= 1) {
    s.bout = null;
    s.result = {
      fool: holders.length === 1 ? holders[0] : null,
      draw: holders.length === 0,
      losing_team: null,
      winners: [],
      finishing_order: [...s.finished],
      epaulettes: null,
    };
    return;
  }

  // R-ROLE-3: after a defence the defender attacks (or the next holder clockwise from him);
  // R-ROLE-4: after a take the first holder from the defender's left, the taker skipped.
  const attacker = taken ? nextHolder(s, b.defender + 1, [b.defender]) : nextHolder(s, b.defender);
  s.bout = newBout(s, b.number + 1, attacker);
}

// The unordered lists in canonical order (docs/architecture.md, canonical serialisation).
function tidy(s) {
  for (const player of s.players) {
    player.hand = sortCards(player.hand);
    player.known = sortCards(player.known);
  }
  if (s.bout) {
    s.bout.passed = [...s.bout.passed].sort((x, y) => x - y);
    s.bout.shown = sortCards(s.bout.shown);
  }
  return s;
}

module.exports = { deal, legalMoves, apply, refusal, parseMove };
