"""pytest plugin of durak-conformance (registered through the ``pytest11`` entry point).

The runner issue fills this in: options such as ``--durak-engine`` and the YAML fixture collector.
"""
