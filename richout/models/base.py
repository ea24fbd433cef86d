"""The model base and the explanation plumbing every result shares.

Presence on the wire follows the specification exactly: a key whose value is "absent" in the
reference is absent here too. Every model serializes with :meth:`Model.to_wire`; ``None`` is
never written (except for the keys a model names in ``_always_on_wire``), and each model names
the fields it omits when they are false or empty (``_omit_empty``). Every model loads its own
wire form with :meth:`Model.from_wire`, and ``Model.from_wire(x.to_wire()) == x``.
:class:`Explained` results compute diagnostics, spans and edits on first read (:func:`rerun`).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Literal, NamedTuple, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    TypeAdapter,
    ValidationError,
    computed_field,
    model_validator,
)
from pydantic.alias_generators import to_camel
from typing_extensions import Self

from richout.errors import InvalidInput

__all__ = [
    "SPAN_ORDER",
    "Diagnostic",
    "EditRecord",
    "Explained",
    "Explanation",
    "Model",
    "Severity",
    "Span",
    "SpanKind",
    "assembled",
    "edit_record",
    "rerun",
    "span_record",
]

Severity = Literal["error", "warning", "info"]
SpanKind = Literal["media", "image", "audio_tag", "reply_tag", "embed", "reply_prefix"]


class Model(BaseModel):
    """Base of every public model: frozen, camelCase aliases, spec-exact presence."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        frozen=True,
        extra="forbid",
        # Validators and serializers are built on first use: a plain reply needs neither.
        defer_build=True,
    )

    #: Wire names of fields left out when false, ``0``, ``[]`` or ``{}``.
    _omit_empty: ClassVar[frozenset[str]] = frozenset()
    #: Wire names written as ``null`` when ``None`` (the specification always sends them).
    _always_on_wire: ClassVar[frozenset[str]] = frozenset()

    def __getstate__(self) -> dict[Any, Any]:
        """Pickle state, with a fields set of the record's own (a shared one is copied, so
        records unpickled together never share a changeable set)."""
        state = super().__getstate__()
        if type(self.__pydantic_fields_set__) is SharedFieldsSet:
            state = {**state, "__pydantic_fields_set__": set(self.__pydantic_fields_set__)}
        return state

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> Self:
        """Load an instance from its wire form (what :meth:`to_wire` returns, camelCase keys).

        Keys absent from the wire take their defaults, as absence means false, empty or
        ``None``; ``cls.from_wire(x.to_wire()) == x`` for every public result. Raises
        :class:`~richout.errors.InvalidInput` saying which key does not fit.
        """
        if not isinstance(data, Mapping):
            raise InvalidInput(
                f"{cls.__name__}.from_wire needs the wire form, a JSON object (dict), "
                f"got {type(data).__name__}"
            )
        try:
            return cls.model_validate(dict(data))
        except ValidationError as exc:
            raise InvalidInput(f"not the wire form of {cls.__name__}: {exc}") from exc

    @classmethod
    def trusted(cls, **fields: Any) -> Self:
        """An instance from values richout computed itself, without re-validating them.

        Validation costs microseconds per record; the pipelines build many small records
        (segments) whose types hold by construction. Not for values from outside.
        """
        return _instance(cls, fields, None)

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict with wire names and the specification's key presence."""
        data: dict[str, Any] = self.model_dump(mode="json")
        return _prune(self, data)


def _wire_names(cls: type[Model]) -> dict[str, str]:
    names = _WIRE_NAMES.get(cls)
    if names is None:
        names = {}
        for name, info in cls.model_fields.items():
            names[info.serialization_alias or info.alias or name] = name
        for name, cinfo in cls.model_computed_fields.items():
            names[cinfo.alias or name] = name
        _WIRE_NAMES[cls] = names
    return names


_WIRE_NAMES: dict[type[Model], dict[str, str]] = {}


def _prune(model: Model, data: dict[str, Any]) -> dict[str, Any]:
    """Drop ``None`` and the model's empty optional keys, recursing into nested models."""
    omit = type(model)._omit_empty
    names = _wire_names(type(model))
    out: dict[str, Any] = {}
    for key, value in data.items():
        if value is None or (
            key in omit
            and (value is False or value in ([], {}) or (type(value) is int and not value))
        ):
            continue
        attr = getattr(model, names.get(key, key), None)
        if isinstance(attr, Model) and isinstance(value, dict):
            value = _prune(attr, value)
        elif isinstance(attr, list) and isinstance(value, list) and attr:
            value = [
                _prune(a, v) if isinstance(a, Model) and isinstance(v, dict) else v
                for a, v in zip(attr, value, strict=True)
            ]
        out[key] = value
    for key in type(model)._always_on_wire:
        out.setdefault(key, None)
    return out


class Diagnostic(Model):
    """Why a directive-looking construct was rejected, dropped, ignored or altered."""

    code: str = Field(description="Stable reason code, e.g. media.remote.not_https.")
    severity: Severity
    message: str = Field(description="What happened and how to fix it.")
    start: int | None = Field(default=None, description="Start offset in code points of the input.")
    end: int | None = Field(default=None, description="End offset (exclusive) in code points.")
    line: int | None = Field(default=None, description="1-based line of start.")
    column: int | None = Field(default=None, description="1-based column of start, in code points.")
    field: str | None = Field(default=None, description="JSON path, for payload-level findings.")


class Span(Model):
    """Source span of one honoured directive (README decision 3)."""

    kind: SpanKind
    start: int
    end: int
    value: str | None = Field(
        default=None, description="What the directive carried (reference, id)."
    )


class EditRecord(Model):
    """Input ``[start, end)`` (``removed``) became ``inserted`` in the output text."""

    start: int
    end: int
    removed: str
    inserted: str


#: A model's defaults: a template of the plain ones, the factories of the rest.
FieldDefaults = tuple[dict[str, Any], tuple[tuple[str, Callable[[], Any]], ...]]


def defaults_of(cls: type[Model]) -> FieldDefaults:
    """The defaults of ``cls`` (:data:`FieldDefaults`), worked out once."""
    if (found := _BLANKS.get(cls)) is None:
        # Every field has a slot in the template, so updating it keeps declaration order
        # (the order model_dump and the wire use); required ones are always given.
        template: dict[str, Any] = {}
        factories: list[tuple[str, Callable[[], Any]]] = []
        for name, info in cls.model_fields.items():
            template[name] = None if info.is_required() else info.default
            if info.default_factory is not None:
                factories.append((name, info.default_factory))  # type: ignore[arg-type]
        found = _BLANKS[cls] = (template, tuple(factories))
    return found


_BLANKS: dict[type[Model], FieldDefaults] = {}  # defaults_of's, by model
_new = object.__new__
# The setters of BaseModel's four slots, called directly: object.__setattr__ looks each slot
# up by name (a record: 1.3 against 1.7 µs by timeit; hostile replies build 100k of them).
_SLOTS = vars(BaseModel)
#: Sets a model instance's field values (``__dict__``), bypassing validation.
set_dict: Callable[[object, dict[str, Any]], None] = _SLOTS["__dict__"].__set__
#: Sets the names of the fields the instance counts as set (``model_fields_set``).
set_fields_set: Callable[[object, set[str]], None] = _SLOTS["__pydantic_fields_set__"].__set__
#: Sets the instance's extra fields (always None: richout's models forbid extras).
set_extra: Callable[[object, None], None] = _SLOTS["__pydantic_extra__"].__set__
#: Sets the instance's private attributes (a lazy result's explainer), or None.
_Private = dict[str, Any] | None
set_private: Callable[[object, _Private], None] = _SLOTS["__pydantic_private__"].__set__
_M = TypeVar("_M", bound="Model")


class SharedFieldsSet(set[str]):
    """A ``model_fields_set`` shared by every record richout assembles with the same set
    fields (:func:`fields_set`): read-only, and copied as a plain ``set``.

    Each record used to get a set of its own: one more allocation and one more container
    for the cyclic collector per record. A streamed part of 95k malformed tags builds a
    diagnostic each, and the per-record sets cost about a fifth of such a stream (0.55
    against 0.42 s/MB, ``benchmarks/interleave.py``). Sharing is safe for pydantic itself:
    the models are frozen, and ``copy``, ``deepcopy`` and ``model_copy`` copy the set
    before changing it (:meth:`__copy__` gives a plain set; a pickled record gets one of
    its own, :meth:`Model.__getstate__`). Changing it in place would change every record
    that shares it, so the mutating methods raise ``TypeError`` (``set.add(shared, x)``
    called on the class itself is not stopped).
    """

    __slots__ = ()

    def __init__(self, names: Iterable[str] = ()) -> None:
        # set.__init__ empties a set before filling it: only a new one may be filled, and
        # one fields_set() handed out, even an empty one, is no longer new.
        if self or any(shared is self for shared in _SHARED_FIELDS.values()):
            self._refuse()
        super().__init__(names)

    def _refuse(self, *args: object, **kwargs: object) -> Any:
        raise TypeError(
            "this model_fields_set is shared by every record richout built with the same "
            "fields set and cannot be changed; copy it first: set(record.model_fields_set)"
        )

    add = discard = remove = pop = clear = _refuse
    update = intersection_update = difference_update = symmetric_difference_update = _refuse
    __ior__ = __iand__ = __isub__ = __ixor__ = _refuse

    def __copy__(self) -> set[str]:
        return set(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> set[str]:
        return set(self)

    def __reduce__(self) -> tuple[type[set[str]], tuple[list[str]]]:
        # Unpickled as a plain set (Model.__getstate__ also gives each record its own).
        return set, (list(self),)


_SHARED_FIELDS: dict[frozenset[str], SharedFieldsSet] = {}


def fields_set(*names: str) -> SharedFieldsSet:
    """The one :class:`SharedFieldsSet` holding ``names`` (built on first request)."""
    key = frozenset(names)
    shared = _SHARED_FIELDS.get(key)
    if shared is None:
        shared = _SHARED_FIELDS[key] = SharedFieldsSet(key)
    return shared


def assembled(
    cls: type[_M], values: dict[str, Any], fields_set: set[str], private: _Private = None
) -> _M:
    """An instance of ``cls`` holding ``values`` (every field, in declaration order, of the
    declared types), ``fields_set`` as its set fields and ``private`` (a lazy result's
    explainer, or none) as its private state: for records built by the hundred thousand
    (segments, attachments), where :meth:`Model.trusted` merges a template per record."""
    obj = _new(cls)
    set_dict(obj, values)
    set_fields_set(obj, fields_set)
    set_extra(obj, None)
    set_private(obj, private)
    return obj


#: The order spans are listed in (start, then end), as a sort key read in C: an explained
#: result sorts one span per honoured reference (260k on a hostile 1 MB payload).
SPAN_ORDER = operator.attrgetter("start", "end")


def span_record(kind: SpanKind, start: int, end: int, value: str | None) -> Span:
    """``Span.trusted(kind=kind, start=start, end=end, value=value)``, assembled directly.

    Explained results build a span per honoured directive (100k on a hostile 1 MB input);
    the generic builder merged a template per span, about 0.6 µs more each.
    ``tests/test_models.py`` compares the two.
    """
    return assembled(Span, {"kind": kind, "start": start, "end": end, "value": value}, _SPAN_SET)


def edit_record(start: int, end: int, removed: str, inserted: str) -> EditRecord:
    """``EditRecord.trusted(...)`` with every field given, assembled directly (see
    :func:`span_record`)."""
    return assembled(
        EditRecord,
        {"start": start, "end": end, "removed": removed, "inserted": inserted},
        _EDIT_SET,
    )


_SPAN_SET = fields_set("kind", "start", "end", "value")
_EDIT_SET = fields_set("start", "end", "removed", "inserted")


def _instance(cls: type[_M], fields: dict[str, Any], private: dict[str, Any] | None) -> _M:
    """An instance of ``cls`` from values of the declared types, without validation."""
    template, factories = _BLANKS.get(cls) or defaults_of(cls)
    values = {**template, **fields}  # one C-level merge (copy and update were two calls)
    for name, make in factories:
        if name not in fields:
            values[name] = make()  # a fresh list per result, as validation would give
    obj = _new(cls)
    set_dict(obj, values)
    set_fields_set(obj, set(fields))
    set_extra(obj, None)
    set_private(obj, private)
    return obj


class Explanation(NamedTuple):
    """What a result explains beyond its outputs: diagnostics, spans and edits."""

    diagnostics: list[Diagnostic]
    spans: list[Span]
    edits: list[EditRecord]


#: The one explainer pattern. A lazy result keeps ``rerun(pipeline, text, <the call's other
#: arguments>, explain=True)``: the same call again, explained; on first read of its
#: diagnostics, spans or edits it is called and the explained result's explanation is kept.
#: It is :class:`functools.partial` itself: built in C on every lazy result, it costs about
#: half what a Python helper building a closure did (0.36 against 0.63 µs with 8 arguments).
rerun = functools.partial


class Explained(Model):
    """A result whose explanation is computed on first use, not with its outputs.

    Outputs (text, media, flags) are what a gateway needs on every reply; diagnostics, spans
    and edits are for people and audits. A result built with :meth:`lazy` holds a function
    that recomputes the same call with explanations on; reading ``diagnostics``, ``spans``
    or ``edits`` (or serializing) runs it once. Pass ``explain=True`` to the parsing
    functions to compute everything up front instead.

    Lazy or not, a result behaves as a value: ``==`` compares outputs and explanations;
    :meth:`from_wire` (and ``model_validate``) keeps the ``diagnostics``, ``spans`` and
    ``edits`` the wire form carries; ``copy.copy`` and ``copy.deepcopy`` work as for any
    model. Pickling a lazy result computes its explanation first and pickles that: the
    rerun that would compute it holds the call's arguments (a policy, a profile), which need
    not pickle, so the unpickled result is the explained form (equal to the original).
    """

    _explainer: Callable[[], Explained] | None = PrivateAttr(default=None)
    _explanation: Explanation | None = PrivateAttr(default=None)

    @classmethod
    def lazy(cls, explain: Callable[[], Explained], **fields: Any) -> Self:
        """A result whose explanation is ``explain().explanation()``, computed when first read.

        ``explain`` is :data:`rerun` of the same pipeline call with ``explain=True``.

        Only richout's own pipelines call this, with values of the declared types, so the
        instance is assembled without re-validating them: pydantic validation of a result
        with private state costs several microseconds, more than a plain reply's parse.
        """
        # _instance written out: this runs once per lazy result, on the hot path of every
        # pipeline, and the call it saves is measurable on a reply without a trigger.
        template, factories = _BLANKS.get(cls) or defaults_of(cls)
        values = {**template, **fields}
        for name, make in factories:
            if name not in fields:
                values[name] = make()
        obj = _new(cls)
        set_dict(obj, values)
        set_fields_set(obj, set(fields))
        set_extra(obj, None)
        set_private(obj, {"_explainer": explain, "_explanation": None})
        return obj

    @model_validator(mode="wrap")
    @classmethod
    def _keep_wire_explanation(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """Validate the outputs; keep the wire's diagnostics, spans and edits as given."""
        if not isinstance(data, dict) or not any(k in data for k in _EXPLANATION_KEYS):
            return handler(data)
        obj = handler({k: v for k, v in data.items() if k not in _EXPLANATION_KEYS})
        diagnostics, spans, edits = _explanation_adapter().validate_python(
            tuple(data.get(k) or [] for k in _EXPLANATION_KEYS)
        )
        obj._explanation = Explanation(diagnostics, spans, edits)
        return obj

    def __getstate__(self) -> dict[Any, Any]:
        """Pickle state; a lazy result computes its explanation first (the class says why)."""
        self.explanation()
        return super().__getstate__()

    @classmethod
    def explained(
        cls,
        *,
        diagnostics: list[Diagnostic] | None = None,
        spans: list[Span] | None = None,
        edits: list[EditRecord] | None = None,
        **fields: Any,
    ) -> Self:
        """A result with its explanation given up front.

        Like :meth:`lazy`, only richout's pipelines call this, with values of the declared
        types, so it is assembled without validation (the wrap validator that keeps a wire
        form's explanation is for :meth:`from_wire`, not for results built here).
        """
        explanation = Explanation(diagnostics or [], spans or [], edits or [])
        return _instance(cls, fields, {"_explainer": None, "_explanation": explanation})

    def outputs_wire(self) -> dict[str, Any]:
        """The wire form without ``diagnostics``, ``spans`` and ``edits`` (not computed).

        Exactly the keys the upstream code returns, so another program can compare whole
        outputs; a lazy result stays unexplained.
        """
        data: dict[str, Any] = self.model_dump(
            mode="json", exclude={"diagnostics", "spans", "edits"}
        )
        out = _prune(self, data)
        for key in ("diagnostics", "spans", "edits"):
            out.pop(key, None)
        return out

    def explanation(self) -> Explanation:
        """The diagnostics, spans and edits (computed now if they were deferred)."""
        exp = self._explanation
        if exp is None:
            explainer = self._explainer
            if explainer is None:
                exp = Explanation([], [], [])
            else:
                explained = explainer()
                if explained._explainer is not None:
                    raise RuntimeError("a lazy result's rerun must pass explain=True")
                exp = explained.explanation()
            self._explanation = exp
            self._explainer = None
        return exp

    @computed_field(  # type: ignore[prop-decorator]
        description="Why directive-looking constructs were ignored, rejected or altered."
    )
    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Why directive-looking constructs were ignored, rejected or altered."""
        return self.explanation().diagnostics

    @computed_field(description="Source span of every honoured directive.")  # type: ignore[prop-decorator]
    @property
    def spans(self) -> list[Span]:
        """Source span of every honoured directive (README decision 3)."""
        return self.explanation().spans

    @computed_field(description="Edits over the input that produced text; they rebuild it.")  # type: ignore[prop-decorator]
    @property
    def edits(self) -> list[EditRecord]:
        """Edits over the input that produced ``text`` (``richout.rebuild`` undoes them)."""
        return self.explanation().edits

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Explained)
        return bool(self.__dict__ == other.__dict__ and self.explanation() == other.explanation())

    __hash__ = None  # type: ignore[assignment]


_EXPLANATION_KEYS = ("diagnostics", "spans", "edits")


@functools.cache
def _explanation_adapter() -> TypeAdapter[tuple[list[Diagnostic], list[Span], list[EditRecord]]]:
    """Validator of a wire explanation (built on first use: it costs milliseconds)."""
    return TypeAdapter(tuple[list[Diagnostic], list[Span], list[EditRecord]])
