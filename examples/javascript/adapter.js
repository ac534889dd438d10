#!/usr/bin/env node
'use strict';
// The durak-conformance adapter of the JavaScript example engine:
//   durak-conformance run --engine "node examples/javascript/adapter.js"
// kit.js speaks the protocol and checks requests; engine.js plays the game.

const kit = require('./kit');
const engine = require('./engine');

// What the engine plays, and nothing more (P-16): one 36-card pack, 2 to 6 players, every option
// at its catalog default (an empty `options`), no observe. It deals from any seat and plays the
// next game of a match (R-MATCH-*), so `dealer` and `match` keep their default, true.
const SUPPORTS = { players: { 36: [2, 3, 4, 5, 6] }, options: {}, observe: false };

const HELLO = {
  protocol: '1',
  engine: {
    name: 'durak-conformance-javascript-example',
    version: '0.1.0',
    language: 'JavaScript',
    notes: 'examples/javascript: podkidnoy at its defaults, written from the docs, no npm dependencies',
  },
  supports: SUPPORTS,
};

function stateOf(request) {
  if (!kit.isObject(request.state)) throw kit.badRequest(`${request.op} needs a state (an object)`, '/state');
  kit.checkState(request.state, SUPPORTS);
  return request.state;
}

kit.serve({
  hello: () => HELLO,
  new_game: (request) => ({ state: engine.deal(kit.readNewGame(request, SUPPORTS)) }),
  legal_moves: (request) => ({ moves: engine.legalMoves(stateOf(request)) }),
  apply: (request) => {
    const state = stateOf(request);
    if (!('move' in request)) throw kit.badRequest('apply needs a move', '/move');
    return { state: engine.apply(state, request.move) };
  },
});
