"""Regions redrawn only when what they read has changed.

Most moves change little of what a given phone shows: another seat's move leaves a hand,
its picker and its undo button as they were. Rendering them again anyway was most of the
cost of a push. So while a region renders, every name its templates look up and every key
they (or the helpers they call) read from the view is recorded; the next push compares
the digests of just those values and reuses the region's HTML when none changed.

This is sound because a template's output depends only on what it reads: the names in its
context, the keys of the view, and the template globals, which are pure functions of the
language (part of a drawing's key) and the app, but for the request's own (``PER_REQUEST``):
a drawing that reads one is never reused. A value that cannot be digested (a bare
function, say) makes its region always redraw; functions a template calls are given as
``Call`` objects that name the inputs they close over.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, overload

from flask import Flask, render_template
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from companion.lru import LRU
from companion.web.diff import Part

#: A read: a context name and the keys followed from it, down to the value read whole.
Read = tuple[Any, ...]
#: What the region being drawn has read so far (None: nothing is drawing).
_reads: ContextVar[set[Read] | None] = ContextVar("region_reads", default=None)
#: Tables whose regions are kept, least recently drawn first dropped.
TABLES_KEPT = 256
_ABSENT = "absent"
#: The last key of a read that only asked whether a mapping is empty.
_TRUTH = "#truth"
#: Template globals that change with the request: Flask puts them in every template's
#: context, and a drawing that reads one (a page's ``request.args``) is never reused.
PER_REQUEST = frozenset({"request", "session", "g", "config", "get_flashed_messages"})


@contextlib.contextmanager
def reading() -> Iterator[set[Read]]:
    """Collect what is read inside the block (what a region's templates look up)."""
    reads: set[Read] = set()
    token = _reads.set(reads)
    try:
        yield reads
    finally:
        _reads.reset(token)


def _record(read: Read) -> None:
    reads = _reads.get()
    if reads is not None:
        reads.add(read)


class _Reading:
    """What a watched mapping and a watched list share: going through it, or taking its
    length, reads it whole; asking whether it is empty reads only that."""

    def __init__(self, path: Read, data: Any) -> None:
        self._path = path
        self._data = data

    def __iter__(self) -> Iterator[Any]:
        _record(self._path)
        return iter(self._data)

    def __len__(self) -> int:
        _record(self._path)
        return len(self._data)

    def __bool__(self) -> bool:
        _record((*self._path, _TRUTH))
        return bool(self._data)

    def unwatched(self) -> Any:
        """The mapping or list itself, read whole (to serialise it)."""
        _record(self._path)
        return self._data


class Watched(_Reading, Mapping[str, Any]):
    """A mapping (a view) that records which of its keys are read: ``view.hand`` in a
    template, ``view.get("hand")`` in a helper. A mapping inside it is watched the same
    way, so reading one seat's entry of a table of seats reads only that entry; going
    through all its keys reads it whole."""

    def __getitem__(self, key: str) -> Any:
        value = self._data[key]
        if isinstance(value, Mapping):
            return Watched((*self._path, key), value)
        _record((*self._path, key))
        return value

    def __contains__(self, key: object) -> bool:
        _record((*self._path, key))
        return key in self._data


class WatchedList(_Reading, Sequence[Any]):
    """A list (a seat's legal moves) whose emptiness can be read alone: ``{% if moves %}``
    reads only whether there are any, while going through it reads it whole. A seat about
    to move a block in The Climbers has thousands of moves; most regions only ask whether
    it is the seat's turn."""

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        _record(self._path)
        return self._data[index]


class ReadingContext(Context):
    """Jinja's context, recording each name a template looks up while a region draws."""

    def resolve_or_missing(self, key: str) -> Any:
        value = super().resolve_or_missing(key)
        if not isinstance(value, _Reading):
            _record((key,))
        return value


def watch_json(app: Flask) -> None:
    """Let templates serialise a watched mapping (``|tojson``), reading it whole."""
    provider = app.json
    fallback: Callable[[Any], Any] = getattr(provider, "default", _plain)

    def default(value: Any) -> Any:
        return value.unwatched() if isinstance(value, _Reading) else fallback(value)

    app.jinja_env.policies["json.dumps_function"] = \
        lambda value, **kwargs: provider.dumps(value, **dict(kwargs, default=default))


class Call:
    """A function for a template, with the inputs it closes over: a region that calls it is
    redrawn when those change. ``kept`` are more inputs, each never changed once made (a
    table's log entries, ``Match.log_tail``): a push digests each once for all its viewers
    (``ViewDigests``)."""

    def __init__(self, function: Callable[..., Any], *inputs: Any,
                 kept: Sequence[Any] = ()) -> None:
        self.function = function
        self.inputs = inputs
        self.kept = kept

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(*args, **kwargs)


def _plain(value: Any) -> Any:
    """What ``json.dumps`` digests of a value it cannot serialise itself (its ``default``)."""
    if isinstance(value, Call):
        return [value.inputs, value.kept]
    if isinstance(value, _Reading):
        return value.unwatched()
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    if hasattr(value, "__dataclass_fields__"):
        return vars(value)
    raise TypeError(f"cannot digest {type(value).__name__}")


#: Values whose ``repr`` is their content, told apart by their type's name.
_SCALARS = (str, int, float, type(None))


def digest(value: Any) -> str | None:
    """A digest of ``value``'s content, or None when it has none (a bare function). Most
    values a region reads are a number, a word or a flag: they are their own digest."""
    if type(value) in _SCALARS or type(value) is bool:
        return f"{type(value).__name__}:{value!r}"
    try:
        text = canonical(value)
    except (TypeError, ValueError):
        return None
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def canonical(value: Any) -> str:
    """``value``'s content as one text: equal values give equal texts. Raises TypeError
    for a value that has none (a bare function)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=_plain)


@dataclass(frozen=True)
class Drawn:
    """A region or a fragment as drawn once, and the digests of what it read. A region's
    ``shown`` holds a splice mark (``_SPLICE``) where each of its ``fragments`` goes: they
    are kept and matched on their own, so a region whose fragment changed is not drawn
    again, only put together again."""

    shown: Any
    reads: tuple[tuple[Read, str | None], ...]
    fragments: tuple[str, ...] = ()
    #: The region last put together from this drawing: (the fragments' HTML, the part).
    assembled: list[tuple[tuple[str, ...], Part]] = field(default_factory=list,
                                                          compare=False)


#: Where a fragment's HTML goes in its region's drawing: a comment that no template writes
#: and no text a template is given can hold (autoescaping turns every ``<`` of a name or a
#: word into ``&lt;``), so the splice finds its mark and nothing else.
_SPLICE = "<!--fragment {}-->"


class ViewDigests:
    """The digests of the lists and mappings inside views, by the object itself: a table's
    views are kept for its state and never changed (``Match.view_for``), and a game that
    draws every seat's view from the table's (The Climbers) shares their values, so each is
    digested once for all the viewers. An entry holds its object, so its id is not reused."""

    KEPT = 4096

    def __init__(self) -> None:
        self._found: dict[int, tuple[Any, str | None]] = {}

    def digest(self, value: Any) -> str | None:
        kept = self._found.get(id(value))
        if kept is not None and kept[0] is value:
            return kept[1]
        found = digest(value)
        if len(self._found) >= self.KEPT:
            self._found.clear()
        self._found[id(value)] = (value, found)
        return found


class Inputs:
    """One viewer's context now, with the digests of its values taken once each; with
    ``views``, the lists and mappings of the view are digested once for all viewers."""

    def __init__(self, context: dict[str, Any],
                 watched: tuple[str, ...] = ("view", "moves"),
                 views: ViewDigests | None = None) -> None:
        self.raw = context
        self.context = dict(context)
        for name in watched:
            value = context.get(name)
            if isinstance(value, Mapping):
                self.context[name] = Watched((name,), value)
            elif isinstance(value, list):
                self.context[name] = WatchedList((name,), value)
        self._digests: dict[Read, str | None] = {}
        self._views = views

    def digest(self, read: Read) -> str | None:
        if read not in self._digests:
            if read[0] in PER_REQUEST and read[0] not in self.raw:
                self._digests[read] = None
                return None
            found: Any = self.raw.get(read[0], _ABSENT)
            for key in read[1:]:
                if key == _TRUTH:
                    found = bool(found)
                elif isinstance(found, Mapping):
                    found = found.get(key, _ABSENT)
                else:
                    found = _ABSENT
                    break
            views = self._views
            if views is not None and read[0] == "view" and len(read) > 1 \
                    and type(found) in (list, dict):
                self._digests[read] = views.digest(found)
            elif views is not None and isinstance(found, Call) and found.kept:
                self._digests[read] = digest([found.inputs,
                                              [views.digest(value) for value in found.kept]])
            else:
                self._digests[read] = digest(found)
        return self._digests[read]

    def matches(self, drawn: Drawn) -> bool:
        """Whether ``drawn`` read exactly what this context holds (and so shows it)."""
        known = self._digests
        for read, was in drawn.reads:
            if was is None or (known[read] if read in known else self.digest(read)) != was:
                return False
        return True


class RegionMemo:
    """Regions as drawn lately at each table, shared by every viewer whose context holds
    what a drawing read: the phones waiting for their turn share one status, the log as
    they all see it, the seats; the screens of one language share everything."""

    #: Drawings kept per region of a table, the latest used first: one for each seat and
    #: for the screen, and a spare.
    KEPT = 8

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: LRU[str, dict[tuple[str, str, str], list[Drawn]]] = LRU(TABLES_KEPT)
        self.views = ViewDigests()
        #: Regions drawn and reused, for the tests and the benchmarks; and by region (or
        #: fragment template), the drawings and the seconds they took.
        self.drawn = 0
        self.reused = 0
        self.drawings: Counter[str] = Counter()
        self.seconds: defaultdict[str, float] = defaultdict(float)

    def draw(self, code: str, lang: str, region_id: str, template: str,
             inputs: Inputs) -> Part:
        """Region ``region_id`` of ``inputs``' viewer, drawn by ``template`` in ``lang``,
        or as drawn before for a context that held the same values of what it read."""
        splices: list[str] = []
        drawn = self._kept_or_drawn(
            code, (region_id, template, lang), inputs,
            lambda: render_template(template, **inputs.context), splices)
        htmls = tuple(self._fragment(code, lang, fragment_template, inputs).shown
                      for fragment_template in drawn.fragments)
        if drawn.assembled and all(
                now is then for now, then in zip(htmls, drawn.assembled[0][0], strict=True)):
            return drawn.assembled[0][1]
        html = drawn.shown
        for number, fragment_html in enumerate(htmls):
            html = html.replace(_SPLICE.format(number), fragment_html, 1)
        part = Part.of(region_id, html)
        drawn.assembled[:] = [(htmls, part)]
        return part

    def fragment(self, code: str, lang: str, template: str, inputs: Inputs) -> Markup:
        """A fragment of a fragment being drawn, by its own ``template`` from the same
        context: kept and shared on its own, and read by the fragment that holds it."""
        found = self._fragment(code, lang, template, inputs)
        for read, _ in found.reads:
            _record(read)
        html: Markup = found.shown
        return html

    def _fragment(self, code: str, lang: str, template: str, inputs: Inputs) -> Drawn:
        def draw() -> Markup:
            return Markup(render_template(template, **inputs.context))
        return self._kept_or_drawn(code, ("#fragment", template, lang), inputs, draw)

    def _kept_or_drawn(self, code: str, key: tuple[str, str, str], inputs: Inputs,
                       draw: Callable[[], Any], splices: list[str] | None = None) -> Drawn:
        """A drawing kept for a context that held what it read, or drawn now. While a
        region draws, ``splices`` collects the fragments it holds (see ``Drawn``)."""
        with self._lock:
            kept = list((self._tables.get(code) or {}).get(key, ()))
        found = next((drawn for drawn in kept if inputs.matches(drawn)), None)
        if found is not None:
            self.reused += 1
            with self._lock:  # the drawings in use stay, the others go first
                drawings = (self._tables.get(code) or {}).get(key)
                if drawings and found in drawings and drawings[0] is not found:
                    drawings.remove(found)
                    drawings.insert(0, found)
            return found
        token = _drawing.set((self, code, key[2], inputs, splices))
        started = time.perf_counter()
        try:
            with reading() as reads:
                shown = draw()
        finally:
            _drawing.reset(token)
        name = key[1] if key[0] == "#fragment" else key[0]
        self.seconds[name] += time.perf_counter() - started
        found = Drawn(shown, tuple((read, inputs.digest(read))
                                   for read in sorted(reads, key=repr)),
                      tuple(splices or ()))
        with self._lock:
            table = self._tables.get(code)
            if table is None:
                table = {}
                self._tables.put(code, table)
            table[key] = [found, *table.get(key, ())][:self.KEPT]
        self.drawn += 1
        self.drawings[name] += 1
        return found


#: The drawing under way, for the fragments drawn inside it: (memo, table, language,
#: inputs, and where a region being drawn lists the fragments it holds; None in a fragment).
_drawing: ContextVar[tuple[RegionMemo, str, str, Inputs, list[str] | None] | None] = \
    ContextVar("region_drawing", default=None)


@pass_context
def fragment(context: Context, template: str) -> Markup:
    """For a template: ``template`` drawn from the same context, kept and shared on its own
    while a push draws the region (see ``RegionMemo.draw``); drawn plainly otherwise."""
    drawing = _drawing.get()
    if drawing is None:
        return Markup(render_template(template, **context.get_all()))
    memo, code, lang, inputs, splices = drawing
    if splices is None:
        return memo.fragment(code, lang, template, inputs)
    splices.append(template)
    return Markup(_SPLICE.format(len(splices) - 1))
