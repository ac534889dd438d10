"""Static checks and authoring aids for the YAML fixture hands in ``conformance/fixtures``.

Fixture cases are written by hand, and a hand-written mid-game state is easy to get wrong (a card
twice, a card missing, an unsorted hand). These checks need no engine and no runner, so they catch
a broken case before any engine sees it. They read the contract (docs/architecture.md) and
spec/rules.md for the rule-ID register and the option table (:mod:`.register`), a reading of their
own, so that a mistake in the runner's or the spec data's reading does not hide a broken case.

- :mod:`.loading`: the YAML with the line of every mapping, the schema check, :class:`Problem`;
- :mod:`.checks`: one case against the contract (fields, rules, ruleset, steps, moves) and
  :func:`.checks.check_all` over the fixture files;
- :mod:`.state`: a case's start (a state or a deal) holds each card of its deck once, in order;
- :mod:`.authoring`: the deal of a deck order and its inverse, for working out positions by hand;
- :mod:`.cli`: ``python tools/check_fixtures.py check|shuffle|rest|deal|build``.

The card notation, canonical deck and portable shuffle come from the judge's side
(:mod:`conformance.contract`), never from the reference engine, so these checks stay independent
of the engine the fixtures judge, and the checker and the runner read the cards the same way.
"""
