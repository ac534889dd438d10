"""reference_impl.specdata: finding the spec in a checkout and in the wheel layout."""

from __future__ import annotations

import pytest

from reference_impl import specdata
from tests.spec.conftest import REPO


def test_checkout_layout_finds_the_repository_spec():
    assert specdata.spec_dir() == REPO / "spec"
    assert specdata.ambiguities_path().is_file()
    assert specdata.rules_path().is_file()
    assert specdata.rulesets_dir().is_dir()
    assert specdata.schema_path("ruleset").is_file()
    assert specdata.schema_path("ambiguities").is_file()


def _fake_package(root):
    package = root / "site" / "reference_impl"
    package.mkdir(parents=True)
    return package


def test_wheel_layout_uses_the_packed_copy(tmp_path, monkeypatch):
    package = _fake_package(tmp_path)
    packed = package / "_spec"
    (packed / "rulesets").mkdir(parents=True)
    (packed / "ambiguities.yaml").write_text("version: 1\n", encoding="utf-8")
    monkeypatch.setattr(specdata, "_PACKAGE_DIR", package)
    specdata.spec_dir.cache_clear()
    try:
        assert specdata.spec_dir() == packed
        assert specdata.rulesets_dir() == packed / "rulesets"
    finally:
        monkeypatch.undo()
        specdata.spec_dir.cache_clear()


def test_missing_spec_is_a_clear_error(tmp_path, monkeypatch):
    package = _fake_package(tmp_path)
    monkeypatch.setattr(specdata, "_PACKAGE_DIR", package)
    specdata.spec_dir.cache_clear()
    try:
        with pytest.raises(specdata.SpecDataNotFound) as info:
            specdata.spec_dir()
        assert "_spec" in str(info.value) and "spec" in str(info.value)
    finally:
        monkeypatch.undo()
        specdata.spec_dir.cache_clear()


def test_load_yaml_keeps_lines_and_yaml_1_2_booleans(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: on\nb:\n  - off\n  - true\nc: yes\n", encoding="utf-8")
    doc = specdata.load_yaml(path)
    assert doc == {"a": "on", "b": ["off", True], "c": "yes"}
    assert doc.key_lines == {"a": 1, "b": 2, "c": 5}
    assert doc["b"].item_lines == [3, 4]
    assert specdata.line_of(doc, ["b", 1]) == 4
    assert specdata.line_of(doc, ["missing", 3]) == 1


def test_load_yaml_unreadable_file(tmp_path):
    with pytest.raises(specdata.SpecDataError) as info:
        specdata.load_yaml(tmp_path / "nope.yaml")
    assert "nope.yaml" in str(info.value) and "cannot read" in str(info.value)


def test_load_yaml_refuses_python_tags(tmp_path):
    path = tmp_path / "evil.yaml"
    path.write_text("a: !!python/object/apply:os.system ['true']\n", encoding="utf-8")
    with pytest.raises(specdata.SpecDataError) as info:
        specdata.load_yaml(path)
    assert str(info.value).startswith(f"{path}:1:")
