"""The pytest plugin's parts, one job each; :mod:`conformance.pytest_plugin` is its entry point.

- :mod:`~conformance.plugin.session`: the run's state (the engine, started lazily; its claim;
  the expected-failure list; the JSON report; the tallies);
- :mod:`~conformance.plugin.items`: fixture, record and perft files collected as items, each
  case run by the one runner, :class:`~conformance.suite.cases.CaseRunner`;
- :mod:`~conformance.plugin.info`: what a durak item is (ID, kind, rules, options, ruleset,
  location), for selection and reports, Gherkin scenarios included;
- :mod:`~conformance.plugin.reporting`: each item's report record, the expected-failure verdict,
  the summary at the end of the session;
- :mod:`~conformance.plugin.fixtures`: the pytest fixtures step definitions use.
"""
