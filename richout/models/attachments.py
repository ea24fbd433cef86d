"""Attachment facts: what kind of file a delivered reference names and where it lives.

:func:`describe` reads one reference lexically — no I/O, no network, no decoding — and
returns an :class:`~richout.models.Attachment`:

- ``kind`` from the extension of the last path segment (ASCII case-insensitive), looked up in
  the tables below; a URL's query and fragment are ignored, a URL without a path or a name
  without an extension is ``unknown``;
- ``source`` from the reference's shape: ``file_url`` for ``file:`` URLs, ``inbound`` for
  ``media:`` URLs (``media://inbound/<id>``), ``remote`` for any other URL scheme (``https:``
  is the only one the policy delivers; one letter before ``:`` is a drive), ``home`` for
  ``~/`` and ``~\\``, and ``local`` for everything else: absolute and relative paths,
  Windows drive and UNC paths;
- ``voice`` true only for an ``audio`` reference described with ``voice=True`` (the reply's
  ``[[audio_as_voice]]`` flag: a voice note applies to audio, not to a picture beside it).

References the policy did not accept get a best-effort answer from the same rules.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from pydantic import Field

from richout.models.base import Model, assembled, fields_set
from richout.text.chars import ascii_lower

__all__ = [
    "EXTENSIONS",
    "Attachment",
    "AttachmentKind",
    "AttachmentSource",
    "describe",
    "kind_of_extension",
]

AttachmentKind = Literal["image", "audio", "video", "document", "unknown"]
AttachmentSource = Literal["remote", "local", "home", "inbound", "file_url"]


class Attachment(Model):
    """One delivered reference with the facts a gateway acts on (:mod:`richout.models.attachments`).

    ``reference`` is the string the view delivers (``url`` on the wire): in the delivery view
    the item of ``media_urls`` (a local ``file:`` URL already converted to its path), in the
    WebChat view the reference as accepted. ``kind`` and ``source`` are read from that string
    alone, so ``richout.models.attachments.describe(a.reference, voice=a.voice) == a``.
    """

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"voice"})

    reference: str = Field(
        serialization_alias="url",
        validation_alias="url",
        description="The reference as this view delivers it.",
    )
    kind: AttachmentKind = Field(
        description="From the extension of the path or URL path (no I/O); unknown without one."
    )
    source: AttachmentSource = Field(
        description=(
            "remote (https: URL), local (absolute, relative, Windows drive or UNC path), "
            "home (~/), inbound (media://inbound/<id>) or file_url (file: URL)."
        )
    )
    voice: bool = Field(
        default=False,
        description="Send as a voice note: an audio attachment of a reply with audioAsVoice.",
    )

    def __getitem__(self, key: str) -> str | bool:
        """The value of a wire key: ``a["url"]`` reads as the earlier dict entries did."""
        name = {"url": "reference", "kind": "kind", "source": "source", "voice": "voice"}.get(key)
        if name is None:
            raise KeyError(key)
        value: str | bool = getattr(self, name)
        return value


_IMAGE = "png jpg jpeg jpe gif webp bmp svg tif tiff heic heif avif ico jxl"
_AUDIO = "mp3 ogg oga opus wav m4a aac flac weba amr mid midi aif aiff caf wma"
_VIDEO = "mp4 m4v mov webm mkv avi wmv flv mpg mpeg ogv 3gp 3g2"
_DOCUMENT = (
    "pdf txt md markdown rtf csv tsv json xml yaml yml html htm log "
    "doc docx odt xls xlsx ods ppt pptx odp pages numbers key epub "
    "zip tar gz tgz bz2 xz 7z rar"
)

_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# Anchored with match(): one quantifier followed by a literal, a single linear pass.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]+:")

#: Lower-case extension (without the dot) -> kind. Anything else is ``unknown``.
EXTENSIONS: dict[str, AttachmentKind] = {
    **dict.fromkeys(_IMAGE.split(), "image"),
    **dict.fromkeys(_AUDIO.split(), "audio"),
    **dict.fromkeys(_VIDEO.split(), "video"),
    **dict.fromkeys(_DOCUMENT.split(), "document"),
}


def kind_of_extension(extension: str) -> AttachmentKind:
    """The kind of a file extension (with or without its dot; any case); else ``unknown``."""
    return EXTENSIONS.get(ascii_lower(extension.removeprefix(".")), "unknown")


def _scheme_end(ref: str) -> int:
    """Index after ``scheme:`` when ``ref`` starts with a URL scheme of 2+ characters, else 0.

    One letter before the colon is a Windows drive (``C:\\a.pdf``), not a scheme.
    """
    # Most references are paths: a first character that cannot start a scheme decides it.
    if not ref or ref[0] not in _ASCII_LETTERS:
        return 0
    found = _SCHEME.match(ref)
    return found.end() if found is not None else 0


def _url_path(rest: str) -> str:
    """The path of a URL after its ``scheme:``: the authority, query and fragment removed."""
    # WHATWG parsing ends the path at the first "?" or "#"; special schemes read "\" as "/".
    for stop in "?#":
        cut = rest.find(stop)
        if cut >= 0:
            rest = rest[:cut]
    rest = rest.replace("\\", "/")
    if rest.startswith("//"):
        slash = rest.find("/", 2)
        return "" if slash < 0 else rest[slash:]
    return rest


def _kind(path: str) -> AttachmentKind:
    """The kind of the last ``/``- or ``\\``-separated segment's extension."""
    cut = path.rfind("/")
    if "\\" in path:  # (rare: one search, not two, on most references)
        cut = max(cut, path.rfind("\\"))
    dot = path.rfind(".")
    # A leading dot names a hidden file (".png" has no extension), as pathlib reads it; a
    # dot before the segment (or none) gives none either. Offsets in the whole path: the
    # segment is not sliced out (100k distinct references describe each).
    if dot <= cut + 1:
        return "unknown"
    extension = path[dot + 1 :]
    # Most extensions are written in lower case: the table answers before any case folding.
    found = EXTENSIONS.get(extension)
    return found if found is not None else kind_of_extension(extension)


def _classify(reference: str) -> tuple[AttachmentKind, AttachmentSource]:
    end = _scheme_end(reference)
    if end:
        scheme = ascii_lower(reference[: end - 1])
        source: AttachmentSource
        if scheme == "file":
            source = "file_url"
        elif scheme == "media":
            source = "inbound"
        else:
            source = "remote"
        return _kind(_url_path(reference[end:])), source
    if reference.startswith("~"):
        return _kind(reference), "home"
    return _kind(reference), "local"


def describe(reference: str, *, voice: bool = False) -> Attachment:
    """The kind, source and voice flag of one reference, read from its spelling (no I/O).

    ``voice`` is the reply's ``audio_as_voice`` flag; the attachment's ``voice`` is true only
    when the reference is also ``audio``.
    """
    # A path (most references) is read here, without the scheme questions' calls.
    if reference and reference[0] not in _ASCII_LETTERS and reference[0] != "~":
        kind, source = _kind(reference), "local"
    else:
        kind, source = _classify(reference)
    # Assembled directly (a payload of 100k distinct references describes each): the set
    # fields are those Attachment.trusted would record for the same keywords.
    voiced = voice and kind == "audio"
    return assembled(
        Attachment,
        {"reference": reference, "kind": kind, "source": source, "voice": voiced},
        _VOICE_SET if voiced else _PLAIN_SET,
    )


_VOICE_SET = fields_set("reference", "kind", "source", "voice")
_PLAIN_SET = fields_set("reference", "kind", "source")
