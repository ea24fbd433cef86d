"""Media reference equality (ENVELOPE.md §3): the current and legacy comparators."""

from __future__ import annotations

import posixpath
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from richout.envelope.refkey import (
    LOCAL_NETWORK_MARKER,
    posix_normalize,
    ref_key,
    ref_keys,
    same_ref,
)
from richout.errors import InvalidInput
from richout.text.chars import JS_WS

CURRENT = [
    ("file:///srv/a.png", "/srv/a.png"),
    ("FILE:///srv/a.png", "/srv/a.png"),
    ("file:/srv/a.png", "/srv/a.png"),
    ("file://localhost/srv/a.png", "/srv/a.png"),
    ("file://LOCALHOST/srv/a.png", "/srv/a.png"),
    ("file:///srv/generated%20image.png", "/srv/generated image.png"),
    ("file:///srv/output/../generated.png", "/srv/generated.png"),
    ("file:///srv/100%.png", "/srv/100%.png"),
    ("file:///srv/%E4%BD%A0.png", "/srv/你.png"),
    ("file:///srv/%FF.png", "/srv/%FF.png"),  # invalid UTF-8: fallback, not decoded
    ("file:///srv/a%2Fb.png", "file:///srv/a%2Fb.png"),
    ("file:///srv/a%2fb.png", "file:///srv/a%2fb.png"),
    ("file:///srv/a%5Cb.png", "file:///srv/a%5Cb.png"),
    ("file://server/share.png", "file://server/share.png"),
    ("file:////server/x.png", LOCAL_NETWORK_MARKER + "//server/x.png"),
    ("file://a b/x.png", "file://a b/x.png"),  # does not parse; fallback keeps it exact
    ("file://localhost", "/"),
    ("/srv//x/./y.png", "/srv/x/y.png"),
    ("/srv/dir/", "/srv/dir/"),
    ("/srv/dir/.", "/srv/dir"),
    ("/srv/output/../generated.png", "/srv/output/../generated.png"),
    ("/srv/a\\..\\b.png", "/srv/a\\..\\b.png"),
    ("/srv/a%20b.png", "/srv/a%20b.png"),
    ("./output/../generated.png", "./output/../generated.png"),
    ("out/a.png", "out/a.png"),
    ("//cdn.example/share.png", "//cdn.example/share.png"),
    (" https://example.com/a/../b.png ", "https://example.com/a/../b.png"),
    ("https://Example.com/a.png", "https://Example.com/a.png"),
    ("\u3000/srv/a.png\ufeff", "/srv/a.png"),
    ("   ", ""),
    ("", ""),
]


@pytest.mark.parametrize(("ref", "key"), CURRENT)
def test_current_comparator_table(ref: str, key: str) -> None:
    assert ref_key(ref) == key


LEGACY = [
    ("/srv/./x", "/srv/./x"),
    ("file:/x", "file:/x"),
    ("file://server/x", "/x"),
    ("file:///a%2Fb", "/a/b"),
    ("file:///a%zz", "/a%zz"),
    ("FILE:///srv/a.png", "/srv/a.png"),
    ("  ", ""),
]


@pytest.mark.parametrize(("ref", "key"), LEGACY)
def test_legacy_comparator_table(ref: str, key: str) -> None:
    assert ref_key(ref, legacy=True) == key


def test_empty_key_never_matches() -> None:
    assert not same_ref("  ", "")
    assert same_ref("file:///srv/a.png", "/srv//a.png")
    assert not same_ref("./out/a.png", "out/a.png")


def test_normalize_hook_adds_variants_and_survives_failures() -> None:
    def resolve(ref: str) -> list[str]:
        return ["/work/" + ref.removeprefix("./")]

    def broken(ref: str) -> list[str]:
        raise RuntimeError("no workspace")

    assert ref_keys("./out/a.png", normalize_media=resolve) == ["./out/a.png", "/work/out/a.png"]
    assert ref_keys("./out/a.png", normalize_media=broken) == ["./out/a.png"]
    assert ref_keys("  ", normalize_media=resolve) == ["/work/"]  # trimmed, then normalised


def test_non_string_reference_is_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        ref_key(42)  # type: ignore[arg-type]


NODE_NORMALIZE = [
    ("", "."),
    ("/", "/"),
    ("//a", "/a"),
    ("///a//b/", "/a/b/"),
    ("./", "./"),
    ("a/../..", ".."),
    ("/a/../..", "/"),
    ("a/./b/", "a/b/"),
]


@pytest.mark.parametrize(("path", "out"), NODE_NORMALIZE)
def test_posix_normalize_is_nodes(path: str, out: str) -> None:
    assert posix_normalize(path) == out


_SEGMENT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="/\\" + JS_WS),
    min_size=1,
    max_size=6,
).filter(lambda s: s not in (".", ".."))


@settings(max_examples=300)
@given(st.lists(st.one_of(_SEGMENT, st.just("."), st.just("")), min_size=1, max_size=6))
def test_posix_normalize_agrees_with_normpath_where_they_should(parts: list[str]) -> None:
    path = "/" + "/".join(parts)
    if path.startswith("//") or path.endswith("/"):
        return
    assert posix_normalize(path) == posixpath.normpath(path)


@settings(max_examples=300)
@given(st.lists(_SEGMENT, min_size=1, max_size=5))
def test_a_file_url_equals_its_path(parts: list[str]) -> None:
    path = "/" + "/".join(parts)
    url = "file://" + quote(path, safe="/")
    assert ref_key(url) == ref_key(path) == posix_normalize(path)
    assert same_ref("FILE:" + url[5:], path)


@settings(max_examples=300)
@given(st.text(max_size=60), st.sampled_from(["", " ", "\t", "\u00a0", "\u2028"]))
def test_any_string_has_a_key_and_padding_does_not_matter(ref: str, pad: str) -> None:
    key = ref_key(ref)
    assert isinstance(key, str)
    assert ref_key(pad + ref + pad) == key
    assert isinstance(ref_key(ref, legacy=True), str)
    assert same_ref(ref, ref) == (key != "")
