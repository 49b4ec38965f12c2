"""What a viewer's page lacks: its regions as parts (their list items apart), and the HTML
that brings a page that was sent some of them to show the newest.

A region's template marks the items of its lists (a log line, a board's square). When only
items changed, a viewer that has the region gets only the items added, changed or dropped,
each swapped in its place out of band; otherwise the whole region. When a region's own
element changed only in its attributes (the ``data-seq`` every move brings), a viewer gets
that element's opening tag, swapped in as ``outerAttributes`` (``static/js/companion.js``
sets the attributes and keeps what the element holds), with the items' edits if any; an
item whose own attributes alone changed (the seat whose turn it is) is sent the same way.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

#: A list item in a region's template: ``<!--i:LIST-->ELEMENT<!--/i-->``, where LIST is the
#: id of the element the item sits in and ELEMENT has an ``id`` of its own.
_OPEN, _CLOSE = "<!--i:", "<!--/i-->"
_LIST_ID = re.compile(r"[\w-]+")
_FIRST_TAG = re.compile(r"\s*<([a-zA-Z][\w-]*)([^>]*)>")
_ID = re.compile(r'\sid="([^"]+)"')
#: An attribute of an opening tag: its name (its value apart).
_ATTRIBUTE = re.compile(r'\s([^\s=/>]+)(?:="[^"]*")?')
_OOB = re.compile(r'\shx-swap-oob="[^"]*"')
_SPACES = re.compile(r"\s+")
#: The spaces a template's line may begin or end with (ASCII only: a French text's narrow
#: no-break space stays).
_INDENT = " \t\r"
#: Items that the HTML parser drops or misreads on their own are sent inside what they need:
#: (opening, element that holds an item to insert, closing), by the item's tag.
_SVG = ("<svg>", "g", "</svg>")
_CONTEXT = {**dict.fromkeys(("g", "path", "text", "circle", "ellipse", "rect", "polygon",
                             "line", "polyline"), _SVG),
            "tr": ("<table>", "tbody", "</table>"),
            **dict.fromkeys(("td", "th"), ("<table>", "tr", "</table>"))}
_PLAIN = ("", "template", "")


@dataclass(frozen=True)
class Item:
    """One element of a region's list: a log line, a square of a board, a block's faces."""

    id: str
    list_id: str
    html: str
    digest: str
    #: (opening, holder, closing): see ``_CONTEXT``.
    context: tuple[str, str, str]
    #: A digest of all but its opening tag's attribute values: two drawings of one shape
    #: differ in those values alone.
    shape: str = ""

    @property
    def record(self) -> str:
        """What a connection's record keeps of the item shown: its shape and digest."""
        return f"{self.shape}:{self.digest}"


@dataclass(frozen=True)
class Part:
    """One region of a page (an element with an ``id``), as a push would swap it in.

    A region's template marks its list items (see ``_OPEN``). When only items changed (the
    rest of the region, its ``skeleton``, is the same), a connection that has the region
    receives only the items added, changed and dropped, each put in its place. The
    region's own opening tag, its ``root``, is apart from the skeleton, and the ``body``
    (the rest) is digested apart: a change of attributes alone is sent alone.
    """

    id: str
    html: str
    digest: str
    skeleton: str = ""
    items: tuple[Item, ...] = ()
    root: str = ""
    body: str = ""

    @classmethod
    def of(cls, region_id: str, marked: str) -> Part:
        """The region drawn as ``marked`` (its items marked; the markers are not sent),
        its templates' indentation and blank lines left out (see ``compact``)."""
        marked = compact(marked)
        html: list[str] = []
        skeleton: list[str] = []
        items: list[Item] = []
        position = 0
        for start, list_id, inner, end in _marked_items(marked):
            between = marked[position:start]
            html += (between, inner)
            skeleton.append(between)
            items.append(_item(list_id, inner))
            position = end
        html.append(marked[position:])
        skeleton.append(marked[position:])
        whole = "".join(html)
        tag = _FIRST_TAG.match(whole)
        root = whole[:tag.end()].strip() if tag else ""
        # Spaces left by a template's conditions around an item are not a change.
        frame = _SPACES.sub(" ", "".join(skeleton)[tag.end() if tag else 0:]) if items else ""
        return cls(region_id, whole, digest_without_move_id(whole),
                   digest_without_move_id(frame) if items else "", tuple(items), root,
                   digest_without_move_id(whole[tag.end():]) if tag else "")


def compact(html: str) -> str:
    """``html`` without the indentation and blank lines of its templates: the spaces and
    line breaks around a line break become that one line break, which a browser shows as
    the space it showed before (no region holds preformatted text, and no attribute value
    runs over lines). Done with string methods: a regular expression took a millisecond
    for every few kilobytes."""
    if "\n" not in html:
        return html
    return "\n".join(line for line in (line.strip(_INDENT) for line in html.split("\n"))
                     if line)


def _marked_items(marked: str) -> Iterator[tuple[int, str, str, int]]:
    """Each item marked in ``marked`` (see ``_OPEN``): where its marker starts, its list's
    id, its element, where its closing marker ends. Found with ``str.find``: a regular
    expression's lazy match tried the closing marker at every character of a picture's
    hundreds of kilobytes."""
    start = marked.find(_OPEN)
    while start >= 0:
        name_end = marked.find("-->", start)
        close = marked.find(_CLOSE, name_end)
        list_id = marked[start + len(_OPEN):name_end]
        if name_end < 0 or close < 0 or not _LIST_ID.fullmatch(list_id):
            raise ValueError(f"a badly marked list item: {marked[start:start + 80]!r}")
        end = close + len(_CLOSE)
        yield start, list_id, marked[name_end + 3:close], end
        start = marked.find(_OPEN, end)


#: Items parsed lately: a move changes few of a region's items, so most are met again.
ITEMS_KEPT = 32768


@functools.lru_cache(maxsize=ITEMS_KEPT)
def _item(list_id: str, html: str) -> Item:
    tag = _FIRST_TAG.match(html)
    found = _ID.search(tag.group(2)) if tag else None
    if tag is None or found is None:
        raise ValueError(f"a list item of #{list_id} has no id on its element: {html[:80]!r}")
    shape = " ".join((tag.group(1), *_ATTRIBUTE.findall(tag.group(2)), html[tag.end():]))
    return Item(found.group(1), list_id, html, digest_without_move_id(html),
                _CONTEXT.get(tag.group(1).lower(), _PLAIN), digest_without_move_id(shape))


#: A confirm form carries a fresh id for each rendering, so that a double tap applies once;
#: it is not a change of the region.
_VOLATILE = b'name="client_move_id" value="'


def digest_without_move_id(html: str) -> str:
    """A digest of a region's HTML, leaving out the confirm form's fresh move id."""
    data = html.encode()
    start = data.find(_VOLATILE)
    if start >= 0:
        end = data.find(b'"', start + len(_VOLATILE))
        data = data[:start] + data[end:]
    return hashlib.blake2b(data, digest_size=12).hexdigest()


def record_shown(sent: dict[str, str], part: Part) -> None:
    """Record in ``sent`` that ``part`` is shown whole."""
    if part.root:
        sent[f"{part.id}#root"] = part.root
        sent[f"{part.id}#body"] = part.body
    shown = {item.id for item in part.items}
    for item_id in sent.get(f"{part.id}#items", "").split():
        if item_id not in shown:
            sent.pop(item_id, None)
    for item in part.items:
        sent[item.id] = item.record
    if part.items or f"{part.id}#items" in sent:
        sent[f"{part.id}#items"] = " ".join(item.id for item in part.items)
        sent[f"{part.id}#skeleton"] = part.skeleton
    sent[part.id] = part.digest


def catch_up(sent: dict[str, str], parts: Iterable[Part]) -> str:
    """The HTML that brings a viewer who was ``sent`` (a record kept by ``record_shown``) to
    show ``parts``: whole regions, or only their changed items; empty when nothing changed.
    Records it in ``sent``."""
    out: list[str] = []
    for part in parts:
        if sent.get(part.id) == part.digest:
            continue
        # Only a region that marks items is drawn by the server alone, piece by piece; a
        # page may change another's content itself (a refusal dismissed), which only the
        # whole region puts back.
        root = _root_change(sent.get(f"{part.id}#root"), part.root) if part.items else None
        edits = None
        if root is not None and sent.get(f"{part.id}#body") == part.body:
            edits = root
        elif root is not None and sent.get(f"{part.id}#skeleton") == part.skeleton:
            items = _item_changes(sent, part)
            edits = None if items is None else root + items
        out.append(part.html if edits is None else edits)
        record_shown(sent, part)
    return "".join(out)


def _root_change(before: str | None, now: str) -> str | None:
    """What changes a region's element from the opening tag ``before`` to ``now`` and keeps
    what it holds: nothing when they are the same; ``now``, empty and swapped in as
    ``outerAttributes``, when only values changed or attributes came; None (send the whole
    region) when an attribute went, or nothing was recorded."""
    if before is None or not now:
        return None
    if before == now:
        return ""
    if not set(_ATTRIBUTE.findall(before)) <= set(_ATTRIBUTE.findall(now)):
        return None
    tag = _FIRST_TAG.match(now)
    assert tag is not None
    # The swap takes the place of the region's own, where the template wrote it: the
    # opening tag still begins as the region's does (``<section id="status"``).
    opening = _OOB.sub("", now)
    opening = f'{opening[:-1].rstrip("/ ")} hx-swap-oob="outerAttributes">'
    return f"{opening}</{tag.group(1)}>"


def _item_changes(sent: dict[str, str], part: Part) -> str | None:
    """The edits that turn the items ``sent`` into ``part``'s: drop the items gone, put new
    ones after the item before them (or first in their list), morph the changed ones. None
    when the items kept changed order, or the edits would outweigh the whole region.

    Out-of-band targets are found before any edit is made, so new items that follow each
    other go in together, after an item the page already has."""
    before = sent.get(f"{part.id}#items", "").split()
    old = set(before)
    now = {item.id for item in part.items}
    kept = [item.id for item in part.items if item.id in old]
    if kept != [item_id for item_id in before if item_id in now]:
        return None
    out = [f'<template id="{item_id}" hx-swap-oob="delete"></template>'
           for item_id in before if item_id not in now]
    previous: dict[str, str] = {}
    run: list[Item] = []  # new items, one after the other in one list

    def put_run() -> None:
        if run:
            opening, holder, closing = run[0].context
            after = previous.get(run[0].list_id)
            where = f"afterend:#{after}" if after else f"afterbegin:#{run[0].list_id}"
            html = "".join(item.html for item in run)
            out.append(f'{opening}<{holder} hx-swap-oob="{where}">{html}</{holder}>{closing}')
            previous[run[0].list_id] = run[-1].id
            run.clear()

    for item in part.items:
        if item.id not in old:
            if run and (run[-1].list_id != item.list_id or run[-1].context != item.context):
                put_run()
            if run or previous.get(item.list_id) is None or previous[item.list_id] in old:
                run.append(item)
                continue
            return None  # after an item of another run: cannot happen in one list
        put_run()
        shown = sent.get(item.id, "")
        if shown != item.record:
            opening, _, closing = item.context
            changed = _with_oob(item.html, "outerMorph")
            if shown.partition(":")[0] == item.shape:  # its attributes' values alone
                changed = min(changed, _attributes_of(item), key=len)
            out.append(opening + changed + closing)
        previous[item.list_id] = item.id
    put_run()
    edits = "".join(out)
    return None if len(edits) >= len(part.html) else edits


def _attributes_of(item: Item) -> str:
    """``item``'s element, empty, swapped in as ``outerAttributes``: what changes its
    attributes' values and keeps what it holds."""
    tag = _FIRST_TAG.match(item.html)
    assert tag is not None
    return f"{_with_oob(item.html[:tag.end()], 'outerAttributes')}</{tag.group(1)}>"


def _with_oob(html: str, swap: str) -> str:
    """The element ``html`` begins with, swapped out of band by ``swap``."""
    start = html.index("<")
    end = start + 1
    while end < len(html) and (html[end].isalnum() or html[end] == "-"):
        end += 1
    return f'{html[:end]} hx-swap-oob="{swap}"{html[end:]}'
