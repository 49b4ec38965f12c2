"""How long after a push Chromium shows The Climbers' tower drawn again (static/js/games/climbers/).

Run: .venv/bin/python bench/tower.py [--moves N] [--picks N] [--breakdown]
        [--save-traces DIR] [--invalidations]

A seeded game of three is played some turns in (support/strategies/climbers.py), then the table
screen at 1920 × 1080 and the phone whose turn it is at 360 × 740 open it in Debian's
Chromium. What is measured is what a person sees, in the page itself:

- the phone taps blocks (``--picks`` of them, one after the other): from the answer
  arriving (``htmx:before:swap``) to the frame that shows the block's ghost places;
- the player moves a block ``--moves`` times (on the server, as from another phone), each
  taken back by the host: for each push (a block moved, a block put back), from its
  message arriving on the websocket to the first frame shown after the view was drawn
  again, for the screen's large view, its last small view, and the phone.

A view is "drawn" when its SVG changes (a MutationObserver); a frame is "shown" once its
rendering is done (a message posted from ``requestAnimationFrame`` runs after it). Each
frame's time is the time between two frames shown while the drawing goes on: 16.7 ms when
no frame is late. On a busy machine these times include waiting for a core, so half as many
pushes again are traced (Chromium's trace, for the screen, then the phone): the main
thread's own time in each frame, its tasks and its rendering, which is what must stay under
16 ms. Chromium traces every page at once: each trace is read for the renderer of the page
it was started on. Printed: median, p90 and worst, in milliseconds, and the phone's frames
by what they do (the push swapped in, the tower drawn again, the rest); with ``--breakdown``,
what the frames over 16 ms spent their time on, on average (style with the elements it
restyled, layout, paint, script by file and function; "forced by script" when a script
read the page before its frame).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from companion.web.services import services  # noqa: E402
from support.browser import CHROMIUM_FLAGS, PHONE  # noqa: E402
from support.strategies.climbers import choose  # noqa: E402

NAMES = ("Ana", "Ben", "Chloé")
#: The tower's entry module (static/js/games/climbers/views.js), whose listeners draw the views: its
#: script time in a frame, as ``script_file`` names it, is a drawing.
DRAWING_SCRIPT = "  in views.js"
#: In every page before its scripts: when each push arrived, when each answer to a request
#: was about to be swapped in, when each tower view changed, and every frame shown.
WATCH = """(() => {
  const seen = window.__tower = {pushes: [], answers: [], drawn: [], frames: []};
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => seen.pushes.push(performance.now()));
    }
  };
  addEventListener("htmx:before:swap", () => seen.answers.push(performance.now()), true);
  const changed = new MutationObserver((records) => {
    const now = performance.now();
    const views = new Set();
    for (const r of records) {
      const svg = r.target.closest ? r.target.closest("svg.cl-3d") : null;
      if (svg && svg.id) views.add(svg.id);
    }
    for (const id of views) seen.drawn.push([now, id]);
  });
  addEventListener("DOMContentLoaded", () => changed.observe(document.body,
    {childList: true, subtree: true, attributes: true, attributeFilter: ["viewBox"]}));
  const frame = (start) => {
    const done = new MessageChannel();
    done.port1.onmessage = () => {
      seen.frames.push([start, performance.now()]);
      requestAnimationFrame(frame);
    };
    done.port2.postMessage(0);
  };
  requestAnimationFrame(frame);
})();"""


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"median {statistics.median(ordered):.1f}, p90 {p90:.1f}, "
            f"worst {ordered[-1]:.1f} ms ({len(ordered)})")


def shown_after(frames: list[list[float]], when: float) -> tuple[float, int] | None:
    """The time the first frame rendered after ``when`` was shown, and its index."""
    for i, (start, shown) in enumerate(frames):
        if start >= when:
            return shown, i
    return None


def measure(seen: dict[str, Any], starts: list[float], views: list[str],
            out: dict[str, list[float]], label: str) -> None:
    """For each start (a push, an answer): the time to the frame showing each of ``views``
    drawn again, and the frames' times while it was drawn."""
    frames = seen["frames"]
    ends = [*starts[1:], float("inf")]
    for start, end in zip(starts, ends, strict=True):
        drawn = [(t, view) for t, view in seen["drawn"] if start <= t < end and view in views]
        if not drawn:
            continue
        last_frame = None
        for view in views:
            times = [t for t, v in drawn if v == view]
            if not times:
                continue
            found = shown_after(frames, max(times))
            if found is None:
                continue
            out.setdefault(f"{label} {view}", []).append(found[0] - start)
            last_frame = max(last_frame or 0, found[1])
        if last_frame is None:
            continue
        first = shown_after(frames, start)
        if first is None:
            continue
        shown = [frames[first[1] - 1][1] if first[1] else start] + \
            [frames[i][1] for i in range(first[1], last_frame + 1)]
        out.setdefault(f"{label} frames", []).extend(b - a for a, b in itertools.pairwise(shown))


def frame_work(trace: dict[str, Any]) -> list[tuple[float, Counter[str]]]:
    """The renderer's main thread's own time (CPU, not waiting for it) in each frame of a
    Chromium trace: the tasks since the last frame's rendering, and that rendering; frames
    with under 2 ms (nothing drawn) left out. The trace holds every page of the browser:
    the page traced is the one its start names (its renderer's main thread). With each
    frame, what its time went to (``spent``)."""
    events = trace["traceEvents"]
    started = next(e for e in events if e.get("name") == "TracingStartedInBrowser")
    pid = started["args"]["data"]["frames"][0]["processId"]
    main = next((e["pid"], e["tid"]) for e in events if e.get("pid") == pid
                and e.get("name") == "thread_name"
                and e["args"].get("name") == "CrRendererMain")
    mine = sorted((e for e in events if (e.get("pid"), e.get("tid")) == main
                   and e.get("ph") == "X"), key=lambda e: (e["ts"], -e.get("dur", 0)))
    renders = [e["ts"] for e in mine if e["name"] == "WebFrameWidgetImpl::BeginMainFrame"]
    works: list[tuple[float, Counter[str]]] = []
    current, spent = 0.0, Counter[str]()
    end = script_end = call_end = -1.0
    rendering = False
    for e in mine:
        name, ts = e["name"], e["ts"]
        if name in ("ThreadControllerImpl::RunTask", "RunTask") and ts >= end:
            if rendering:  # the last task drew a frame: that frame is done
                if current >= 2:
                    works.append((current, spent))
                current, spent = 0.0, Counter()
            end = ts + e.get("dur", 0)
            current += e.get("tdur", e.get("dur", 0)) / 1000
            rendering = any(ts <= t <= end for t in renders)
            continue
        if ts >= end:
            continue  # outside any task
        forced = ts < script_end
        if name in SCRIPT and not forced:
            script_end = ts + e.get("dur", 0)
        if name == "FunctionCall" and ts >= call_end:
            call_end = ts + e.get("dur", 0)
            spent.update(script_file(e))
        if name in KINDS and not (name in SCRIPT and forced):
            spent.update(kind(e, forced))
    return works


#: The trace events a frame's time is told by, and what each does in words; those that
#: run script, whose style and layout are forced by it.
KINDS = {"ParseHTML": "parse HTML", "UpdateLayoutTree": "style", "Layout": "layout",
         "PrePaint": "pre-paint", "Paint": "paint", "Layerize": "layerize",
         "HitTest": "hit test", "FunctionCall": "script", "EventDispatch": "script",
         "TimerFire": "script", "FireAnimationFrame": "script", "EvaluateScript": "script",
         "v8.evaluateModule": "script", "MajorGC": "gc", "MinorGC": "gc"}
SCRIPT = {"FunctionCall", "EventDispatch", "TimerFire", "FireAnimationFrame",
          "EvaluateScript", "v8.evaluateModule"}


def kind(event: dict[str, Any], forced: bool) -> Counter[str]:
    """An event's time (what it called included) by its kind, style and layout forced by a
    script told apart; style also by the elements it restyled."""
    name = event["name"]
    ms = event.get("tdur", event.get("dur", 0)) / 1000
    label = KINDS[name] + (" (forced by script)" if forced else "")
    out = Counter({label: ms})
    args = event.get("args", {})
    if name == "UpdateLayoutTree":
        out[f"{label}: elements"] += int(args.get("elementCount", 0) or 0)
        out[f"{label}: count"] += 1
    if name == "Layout":
        out[f"{label}: count"] += 1
    return out


def script_file(event: dict[str, Any]) -> Counter[str]:
    """A script's time by its file and function."""
    data = event.get("args", {}).get("data", {})
    url = str(data.get("url", "")).rsplit("/", 1)[-1].split("?")[0] or "?"
    ms = event.get("tdur", event.get("dur", 0)) / 1000
    return Counter({f"  in {url} {data.get('functionName', '')}".rstrip(): ms})


def by_step(works: list[tuple[float, Counter[str]]]) -> dict[str, list[float]]:
    """The phone's frames of a push by what they do: the push swapped in (a frame that
    parses HTML, followed by a drawing), the tower drawn again (views.js's script), and the
    heaviest other frame before the next push's (the seats and log swapped later)."""
    drawing = [any(k.startswith(DRAWING_SCRIPT) and v > 1 for k, v in spent.items())
               for _, spent in works]
    swaps = {i for i, (_, spent) in enumerate(works[:-1])
             if spent.get("parse HTML", 0) > 0 and not drawing[i] and drawing[i + 1]}
    draws = [i for i, drawn in enumerate(drawing) if drawn]
    after = []
    for n, i in enumerate(draws):
        end = draws[n + 1] - 1 if n + 1 < len(draws) else len(works)
        rest = [works[k][0] for k in range(i + 1, end) if k not in swaps]
        if rest:
            after.append(max(rest))
    return {"the swap's frame": [works[i][0] for i in sorted(swaps)],
            "the drawing's frame": [works[i][0] for i in draws],
            "the heaviest frame after the drawing": after}


def breakdown(works: list[tuple[float, Counter[str]]], over: float = 16) -> str:
    """What the frames over ``over`` ms did, on average: each kind's time, largest first."""
    late = [spent for total, spent in works if total > over]
    if not late:
        return f"  no frame over {over:g} ms"
    total: Counter[str] = Counter()
    for spent in late:
        total.update(spent)
    rows = [f"  {len(late)} frames over {over:g} ms, on average a frame's:"]
    for what, value in total.most_common():
        unit = "" if what.endswith(("elements", "count")) else " ms"
        rows.append(f"    {what}: {value / len(late):.1f}{unit}")
    return "\n".join(rows)


def reset(page: Page) -> None:
    page.evaluate("for (const k of ['pushes', 'answers', 'drawn', 'frames']) "
                  "window.__tower[k].length = 0")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--picks", type=int, default=12)
    parser.add_argument("--breakdown", action="store_true",
                        help="what the traced frames over 16 ms spent their time on")
    parser.add_argument("--save-traces", type=Path, metavar="DIR",
                        help="keep Chromium's traces there (tower-screen.json, tower-phone.json)")
    parser.add_argument("--invalidations", action="store_true",
                        help="trace why styles and layouts were invalidated too (slower)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "tower.sqlite"), "RATE_BURST": 1e9,
                          "SEEDED_DEALS": True})
        httpd = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_port}"
        client = app.test_client()
        body = client.post("/api/tables", json={"game": "climbers", "players": 3,
                                                "seed": 8}).get_json()
        code = body["code"]
        tokens = [client.post(f"/api/tables/{code}/seats", json={"name": name, "seat": seat})
                  .get_json()["token"] for seat, name in enumerate(NAMES)]
        client.post(f"/api/tables/{code}/start",
                    headers={"Authorization": f"Bearer {body['host_token']}"})
        tables = services(app).tables
        table = tables.get(code)

        def play(count: int, tag: str) -> None:
            for number in range(count):
                seat = table.match.state["turn"]
                moves = table.match.moves_for(seat) if seat is not None else []
                if not moves:  # the game is over
                    return
                move = {"type": "built"} if table.match.state["phase"] == "build" else choose(
                    table.match.view_for(seat), seat, moves)
                tables.submit(table, seat, move, table.match.seq_for(seat), f"{tag}-{number}")
                yield_to_pages()

        pages: list[Page] = []
        made = itertools.count()

        def moved(count: int) -> None:
            """``count`` block moves by the seat to move, each taken back by the host: a
            push that moves a block, then one that puts it back."""
            seat = table.match.state["turn"]
            blocks = [m for m in table.match.moves_for(seat) if m["type"] == "block"]
            for number in range(count):
                move = blocks[(number * 37) % len(blocks)]
                tables.submit(table, seat, move, table.match.seq_for(seat), f"bench-{next(made)}")
                yield_to_pages()
                shown = table.match.seq_for(None)  # the move just made, as the screen numbers it
                tables.rewind(table, shown, shown)
                yield_to_pages()

        def yield_to_pages() -> None:
            for page in pages:
                page.wait_for_timeout(150)

        play(30, "tower")
        seat = table.match.state["turn"]
        results: dict[str, list[float]] = {}
        late: dict[str, str] = {}
        steps: dict[str, list[float]] = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                                 args=CHROMIUM_FLAGS)
            screen_context = browser.new_context(viewport={"width": 1920, "height": 1080})
            screen_context.add_init_script(WATCH)
            screen = screen_context.new_page()
            screen.goto(f"{base}/t/{code}/screen")
            screen.wait_for_selector("#cl-v-3 g.cl-b")
            context = browser.new_context(**PHONE)
            context.add_init_script(WATCH)
            context.add_cookies([{"name": f"seat_{code}", "value": tokens[seat], "url": base}])
            phone = context.new_page()
            phone.goto(f"{base}/t/{code}/play")
            phone.wait_for_selector("#cl-v-me g.cl-b")
            # the phone taps blocks: each answer draws the block's ghost places
            lit = [g.get_attribute("data-block")
                   for g in phone.locator("#cl-v-me g.cl-b.lit").all()]
            reset(phone)
            for block in (lit * args.picks)[:args.picks]:
                phone.evaluate("""(block) => htmx.ajax("GET", document.getElementById("cl-ask")
                  .dataset.url + "?pick=" + encodeURIComponent(JSON.stringify(
                  {type: "block", block})), {target: "#picker", swap: "outerHTML"})""", block)
                phone.wait_for_function("(b) => document.getElementById('cl-ask')"
                                        ".dataset.chosen === b", arg=block)
                phone.wait_for_timeout(250)
            ghosts = phone.locator("#cl-v-me .cl-ghost-dot").count()
            shown = phone.locator("#cl-v-me .cl-ghost-dot:not(.hid)").count()
            seen = phone.evaluate("window.__tower")
            measure(seen, seen["answers"], ["cl-v-me"], results, "phone, a block tapped:")
            # the game goes on: every page gets the pushes
            pages.extend([screen, phone])
            for page in pages:
                reset(page)
            moved(args.moves)
            seen = screen.evaluate("window.__tower")
            measure(seen, seen["pushes"], ["cl-v-main", "cl-v-1", "cl-v-2", "cl-v-3"],
                    results, "screen, a push:")
            seen = phone.evaluate("window.__tower")
            measure(seen, seen["pushes"], ["cl-v-me"], results, "phone, a push:")
            for page, label in ((screen, "screen"), (phone, "phone")):
                browser.start_tracing(page=page, categories=[
                    "devtools.timeline", "disabled-by-default-devtools.timeline", "blink",
                    *(["disabled-by-default-devtools.timeline.invalidationTracking"]
                      if args.invalidations else [])])
                moved(args.moves // 2)
                raw = browser.stop_tracing()
                if args.save_traces:
                    (args.save_traces / f"tower-{label}.json").write_bytes(raw)
                works = frame_work(json.loads(raw))
                results[f"{label}, a push: the main thread's work a frame"] = \
                    [total for total, _ in works]
                late[label] = breakdown(works)
                if label == "phone":
                    steps = by_step(works)
            browser.close()
        httpd.shutdown()
    load = os.getloadavg()
    print(f"load average {load[0]:.1f}; the phone's ghost places: {ghosts}, "
          f"{shown} of them drawn from its side")
    names = {"cl-v-main": "the large view shown", "cl-v-3": "the last small view shown",
             "cl-v-me": "the tower shown", "frames": "each frame meanwhile"}
    for key, values in results.items():
        label, view = key.split(": ")
        if view.startswith("the main thread"):
            print(f"{label} {view}: {percentiles(values)}")
            if label.startswith("phone"):
                for what, step in steps.items():
                    print(f"  {what}: {percentiles(step)}")
            if args.breakdown:
                print(late[label.split(",")[0]])
            continue
        if view in ("cl-v-1", "cl-v-2"):
            continue
        print(f"{label} {names.get(view, view)}: {percentiles(values)}")


if __name__ == "__main__":
    main()
