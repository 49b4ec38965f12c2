"""Driving phones through the pages, the way players do, for every game's browser test."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from playwright.sync_api import Browser, Locator, Page, expect

from companion.web.services import services
from support.browser import PHONE

#: Counts the phone's calls to the vibration and wake lock APIs, and the locks released
#: (headless Chromium has neither a motor nor a screen to keep on).
RECORD_DEVICE_CALLS = """
window.__vibrations = 0; window.__wakeLocks = 0; window.__wakeReleases = 0;
navigator.vibrate = () => { window.__vibrations += 1; return true; };
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
  request: async () => {
    window.__wakeLocks += 1;
    return {released: false, async release() { this.released = true; window.__wakeReleases += 1; }};
  }}});
"""

#: Counts the page's requests on their way and notes when the last request, swap or push
#: ended: the page's focus moves 120 ms after the last of them, so a key's answer is read
#: once the page has been quiet for longer than that.
WATCH_REQUESTS = """() => {
  if (window.__quiet) return;
  const q = window.__quiet = {asking: 0, at: performance.now()};
  const now = () => { q.at = performance.now(); };
  document.addEventListener('htmx:before:request', () => { q.asking += 1; now(); });
  document.addEventListener('htmx:finally:request', () => { q.asking -= 1; now(); });
  document.addEventListener('htmx:after:swap', now);
  document.addEventListener('htmx:ws:after:message:incoming', now);
}"""

#: Whether the page is quiet (``WATCH_REQUESTS`` watching): no request on its way, nothing
#: swapped for longer than the page's own 120 ms before the focus moves.
QUIET = "() => window.__quiet.asking === 0 && performance.now() - window.__quiet.at > 300"


#: Chromium counts a tap as the second of a double tap when it comes within about 400 ms and
#: 60 CSS px of the last one (measured with touch at 360 × 740): a tap comes this long after
#: the page's last tap, wherever that was. Where a tap lands is known only as it lands: the
#: page may scroll in between (the focus moves 120 ms after an answer, and a swap keeps the
#: question in sight), so a distance read before a tap may not be the distance it lands at.
APART_MS = 600
#: Each page's last tap: when (time.monotonic, read once the tap was made).
_last_taps: WeakKeyDictionary[Page, float] = WeakKeyDictionary()


def tap(control: Locator, force: bool = False) -> None:
    """A finger's tap on ``control``, a tap of its own as a player's are: never the second
    of a double tap with the page's last tap, which the phone's browser would count as one
    (``companion.js`` makes no move of it). ``force``: a control drawn aria-disabled, which
    still answers a tap."""
    page = control.page
    _wait_apart(page)
    control.tap(force=force)
    _last_taps[page] = time.monotonic()


def touch_at(page: Page, find: Callable[[], tuple[float, float] | None]) -> bool:
    """A finger's touch on the screen at the point ``find`` reads on the page (None:
    nowhere to touch), a tap of its own as ``tap``'s are, the point read once the last
    tap's time is out. Returns whether it touched."""
    _wait_apart(page)
    point = find()
    if point is None:
        return False
    page.touchscreen.tap(*point)
    _last_taps[page] = time.monotonic()
    return True


def _wait_apart(page: Page) -> None:
    """Wait until a tap is not the second of a double tap with the page's last tap."""
    last = _last_taps.get(page)
    wait = 0.0 if last is None else APART_MS - (time.monotonic() - last) * 1000
    if wait > 0:
        page.wait_for_timeout(wait)


def open_phone(browser: Browser, join_url: str, name: str, seat: int) -> Page:
    context = browser.new_context(**PHONE)
    context.add_init_script(RECORD_DEVICE_CALLS)
    page = context.new_page()
    page.goto(join_url)
    page.fill("input[name=name]", name)
    chosen_seat = page.locator(f"input[name=seat][value='{seat}']")
    tap(chosen_seat)
    expect(chosen_seat).to_be_checked()
    tap(page.locator("button[type=submit]"))
    page.wait_for_url(re.compile(r"/play$"))
    expect(page.locator("#status")).to_contain_text("Waiting for the host")
    return page


def seated_page(browser: Browser, base: str, table: Any, seat: int, lang: str = "en") -> Page:
    """The play page, at 360 × 740, of a phone already seated at ``table`` (an ``ApiTable``:
    its seat cookie is set), in ``lang``."""
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": f"seat_{table.code}", "value": table.tokens[seat],
                          "url": base}, {"name": "lang", "value": lang, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/t/{table.code}/play")
    return page


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def tap_through(page: Page, move: dict[str, Any] | None,
                target: Callable[[str], Locator | None] = lambda key: None,
                drawn: Callable[[str], int | None] | None = None) -> int:
    """Tap through the picker the way a player does and return the taps it took.

    ``target(key)`` is what the player taps to answer the question ``key`` on the phone's own
    partial (a card, a square); None: the picker's button for ``move``'s value, or with no
    ``move`` the first answer (ticking as many cards as asked in a multiple choice). An answer
    that leaves one move makes it; else the last tap is Confirm.

    ``drawn(key)``, asked first, answers ``key`` on a drawing the page's script reads taps
    from (The Climbers' tower): it taps and returns the taps it took, or None where nothing
    drawn answers ``key``. Such a tap makes the move at once or moves the picker on."""
    picker = page.locator("#picker")
    made = f"#status[data-seq='{seq_of(page) + 1}']" if drawn else ""
    taps = 0
    for _ in range(10):
        confirm = picker.locator("form.confirm button[data-confirm-move]")
        if confirm.count():
            tap(confirm)
            return taps + 1
        key = picker.get_attribute("data-key")
        step = picker.get_attribute("data-step")
        tapped = drawn(key) if drawn else None
        if tapped is not None:
            taps += tapped
            page.wait_for_function("([made, step]) => document.querySelector(made) || "
                                   "document.getElementById('picker').dataset.step !== step",
                                   arg=[made, step])
            if page.locator(made).count():
                return taps
            continue
        boxes = picker.locator("input[type=checkbox]")
        if move is None and boxes.count():
            wanted = int(re.search(r"(\d+)", picker.locator("h2").inner_text()).group(1))
            for index in range(wanted):
                tap(boxes.nth(index))
                expect(boxes.nth(index)).to_be_checked()
            tap(picker.locator("button[type=submit]"))
            taps += wanted + 1
        else:
            found = target(key)
            if found is None:
                options = picker.locator("button.option")
                found = options.first if move is None else picker.locator(
                    f"button.option[data-value='{move[key]}']")
            settles = found.get_attribute("data-confirm-move") is not None
            tap(found)
            taps += 1
            if settles:
                return taps
        expect(picker).not_to_have_attribute("data-step", step)
    raise AssertionError(f"the picker never made {move}")


def take_turn(page: Page) -> int:
    """Tap through the picker on this phone: a playable card, then the first answer each
    time. Returns the taps it took."""
    playable = page.locator("#private .cardbtn.playable")
    taps = 0
    if playable.count():
        tap(playable.first)
        expect(page.locator("#picker")).to_have_attribute("data-step", "1")
        taps = 1
    return taps + tap_through(page, None)


def quiet(page: Page) -> None:
    """Wait until the page is quiet: every answer and push drawn (``WATCH_REQUESTS``)."""
    page.wait_for_function(QUIET)


def seq_of(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-seq"))


def start_table(browser: Browser, live_server: dict[str, Any], game: str,
                names: tuple[str, ...], seed: int) -> tuple[Any, Page, list[Page]]:
    """A table of ``game`` with the table screen open as the host and a phone in every
    seat, started with the first seat to play: (the server's table, the screen, the
    phones)."""
    app, base = live_server["app"], live_server["base"]
    body = app.test_client().post("/api/tables", json={
        "game": game, "players": len(names), "seed": seed}).get_json()
    code, host_token = body["code"], body["host_token"]
    screen_context = browser.new_context(viewport={"width": 1280, "height": 900})
    screen_context.add_cookies([{"name": f"host_{code}", "value": host_token, "url": base}])
    screen = screen_context.new_page()
    screen.goto(f"{base}/t/{code}/screen")
    phones = [open_phone(browser, f"{base}/j/{code}", name, seat)
              for seat, name in enumerate(names)]
    expect(screen.locator("#seats .dot.here")).to_have_count(len(names))
    screen.select_option("select[name=first_seat]", "0")
    screen.click("text=Start the game")
    return services(app).tables.get(code), screen, phones
