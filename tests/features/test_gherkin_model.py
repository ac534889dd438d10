"""The one reading of the features (conformance.bdd.model) on small feature files: what it reads,
and that a tag or step outside the grammar is a problem naming its file and line, never a silent
skip."""

import textwrap

import pytest

from conformance.bdd.model import (
    AREA,
    HIDDEN,
    OPTION,
    RULE,
    UNPARSABLE,
    Game,
    GherkinError,
    option_of_step,
    options_from_tags,
    read_feature,
    read_tag,
)


def _read(tmp_path, text):
    path = tmp_path / "beat.feature"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return read_feature(path)


def test_the_tag_grammar():
    assert read_tag("R-BEAT-1").kind == RULE
    assert (read_tag("opt:teams=2v2v2").kind, read_tag("opt:teams=2v2v2").value) == (
        OPTION,
        "2v2v2",
    )
    assert read_tag("BEAT").kind == AREA
    for bad in ("opt:broken", "opt:Teams=x", "opt:teams=a-b", "R-BEAT", "wip"):
        with pytest.raises(GherkinError):
            read_tag(bad)


def test_options_from_tags_refuses_a_malformed_tag_and_two_values():
    assert options_from_tags({"R-BEAT-1", "BEAT", "opt:pile_on=forbidden"}) == {
        "pile_on": "forbidden"
    }
    with pytest.raises(GherkinError, match="is not @opt"):
        options_from_tags({"opt:pile_on"})
    with pytest.raises(GherkinError, match="two values of option pile_on"):
        options_from_tags({"opt:pile_on=allowed", "opt:pile_on=forbidden"})


def test_option_steps():
    assert option_of_step("the option pile_on is forbidden") == ("pile_on", "forbidden")
    assert option_of_step("player 0 holds 7C") is None
    with pytest.raises(GherkinError):
        option_of_step("the option pile_on is <pile_on>")


def test_a_feature_read_once_into_rows(tmp_path):
    feature = _read(
        tmp_path,
        """\
        @BEAT @opt:beat_order=any
        Feature: Beating
          Rule: Suits
            @R-BEAT-1
            Scenario Outline: Beat with <card>
              Given a 3-player perevodnoy game
              And the option pile_on is <pile_on>
              When the defender beats 9C with <card>
              Then the move is refused citing R-BEAT-1

              Examples:
                | card | pile_on   |
                | 7C   | allowed   |
                | 8C   | forbidden |
        """,
    )
    assert feature.problems == ()
    first, second = feature.scenarios
    assert first.rules == ("R-BEAT-1",) and first.outline.areas == ("BEAT",)
    assert first.tag_options == {"beat_order": "any"}
    assert second.options == {"beat_order": "any", "pile_on": "forbidden"}
    assert first.game == Game(3, "perevodnoy")
    assert (first.line, first.label) == (5, "Beat with 7C")
    assert first.where == "beat.feature:5: Beat with <card> [card=7C, pile_on=allowed]"


def test_problems_name_their_line(tmp_path):
    feature = _read(
        tmp_path,
        """\
        @BEAT @opt:broken
        Feature: Beating
          @R-BEAT-1 @opt:pile_on=forbidden
          Rule: Problems
            @opt:pile_on=allowed
            Scenario Outline: Clash
              Given a 2-player podkidnoy game
              And the option pile_on is not sure

              @R-BEAT-2
              Examples:
                | x |
                | 1 |

            Scenario: Twice
              Given a 2-player podkidnoy game

            Scenario: Twice
              Given a 2-player podkidnoy game
        """,
    )
    found = {(p.line, p.kind): p.message for p in feature.problems}
    assert "tag @opt:broken is not @opt:<option>=<value>" in found[(1, "malformed")]
    assert "two values of option pile_on" in found[(6, "malformed")]
    assert "is not 'the option <option> is <value>'" in found[(8, "malformed")]
    assert "on Examples is never applied" in found[(10, "malformed")]
    assert "hidden by a later scenario" in found[(15, HIDDEN)]
    assert len(feature.problems) == 5


def test_a_file_that_does_not_parse_is_one_problem(tmp_path):
    feature = _read(tmp_path, "Feature: x\n  Scenario: a\n    Given b\n  Scenarioo: c\n    Foo\n")
    assert feature.outlines == ()
    assert [p.kind for p in feature.problems] == [UNPARSABLE]
