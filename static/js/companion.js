// The little a phone needs beyond htmx: keep the screen awake while a game is on, vibrate
// when it becomes this phone's turn, and move the focus with the player's own taps. No inline script
// anywhere (strict CSP).
(() => {
  "use strict";

  let wakeLock = null;
  let wasMyTurn = null;
  // Where the Wake Lock API is missing (a page served over plain http on the local network
  // is not a secure context), NoSleep's silent looping video keeps the screen on instead.
  // Its script is fetched only there, once a game is on, and the video starts on a tap.
  let noSleep = null;
  let noSleepAsked = false;

  function status() {
    return document.getElementById("status");
  }

  function playing() {
    const s = status();
    return Boolean(s) && s.dataset.status === "playing";
  }

  function loadNoSleep() {
    const main = document.querySelector("[data-no-sleep]");
    if (noSleepAsked || !main || "wakeLock" in navigator) return;
    noSleepAsked = true;
    const script = document.createElement("script");
    script.src = main.dataset.noSleep;
    script.onload = () => { noSleep = new window.NoSleep(); };
    document.head.append(script);
  }

  async function keepAwake() {
    if (!playing()) {
      letSleep();
      return;
    }
    if (document.hidden) {
      // The browser stops the video of a hidden page: the next tap starts it again.
      if (noSleep && noSleep.isEnabled) noSleep.disable();
      return;
    }
    if (!("wakeLock" in navigator)) {
      loadNoSleep();
      return;
    }
    if (wakeLock && !wakeLock.released) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
    } catch (err) {
      // Refused (battery saver): the game goes on.
      wakeLock = null;
    }
  }

  // The video may play only in answer to the player's own tap or key.
  function keepAwakeOnTap() {
    if (noSleep && !noSleep.isEnabled && playing() && !document.hidden) {
      noSleep.enable().catch(() => {});  // refused: the game goes on
    }
  }

  // The game is over: the phone may sleep again.
  function letSleep() {
    if (wakeLock && !wakeLock.released) wakeLock.release().catch(() => {});
    wakeLock = null;
    if (noSleep && noSleep.isEnabled) noSleep.disable();
  }

  function turnChanged() {
    const s = status();
    if (!s) return;
    const mine = s.dataset.myTurn === "yes";
    if (mine && wasMyTurn === false && "vibrate" in navigator) navigator.vibrate([120, 60, 120]);
    wasMyTurn = mine;
    document.body.classList.toggle("my-turn", mine);
  }

  // What a question is about stays in sight above the picker, which sticks to the bottom
  // of the screen: the page scrolls just enough (and never past the first of them).
  function bringIntoSight(elements) {
    if (!elements.length) return;
    const picker = document.getElementById("picker");
    const sticky = picker && picker.offsetHeight && getComputedStyle(picker).position === "sticky";
    const limit = (sticky ? picker.getBoundingClientRect().top : innerHeight) - 8;
    const boxes = elements.map((el) => el.getBoundingClientRect());
    const bottom = Math.max(...boxes.map((box) => box.bottom));
    const top = Math.min(...boxes.map((box) => box.top));
    if (bottom > limit) window.scrollBy(0, Math.min(bottom - limit, Math.max(top - 8, 0)));
  }

  // What the question under way is about (a game marks it data-keep-in-sight: a stack being
  // moved and the squares it may land on) stays in sight above the panel.
  function keepPickInSight() {
    bringIntoSight([...document.querySelectorAll("[data-keep-in-sight]")]);
  }

  // A page opens on the player's own things (Heuchel & Meuchel's stacks), not above them.
  function openOnMine() {
    bringIntoSight([...document.querySelectorAll("[data-open-here]")]);
  }

  // Focus follows the player's own taps and keys: to the next answer the move needs, else
  // the turn line; to a refusal's OK, then back. A push nobody here asked for moves nothing.
  let acted = null;
  let refused = null;
  let focusLater = 0;
  // Requests on their way (a tap's answer, a refusal's "why"): until they are answered, a
  // push that redraws the page leaves the focus for that answer to place.
  let asking = 0;

  const focusable = (el) => el && el.getClientRects().length > 0;
  // Focus without a jump: the page scrolls only when the control is out of sight (or under
  // the panel), so a block just chosen stays where keepPickInSight put it.
  function show(el) {
    el.focus({preventScroll: true});
    // a part of The Climbers' tower brings the whole tower into sight
    const seen = el.closest("svg") || el;
    const r = seen.getBoundingClientRect();
    const p = document.getElementById("picker");
    const limit = p && !p.contains(el) && getComputedStyle(p).position === "sticky"
      ? p.getBoundingClientRect().top : innerHeight;
    if (r.top < 0) window.scrollBy(0, r.top - 12);
    else if (r.bottom > limit) window.scrollBy(0, Math.min(r.bottom - limit + 12, r.top - 12));
  }
  function focusStatus() {
    const s = status();
    if (s) { s.tabIndex = -1; s.focus(); }
  }

  function nextAnswer() {
    const picker = document.getElementById("picker");
    const candidates = [
      picker && picker.querySelector("[data-confirm-move]"),
      picker && picker.querySelector(".options button, .options input"),
      // a game's own tap targets that answer the question: data-answer, or the buttons a
      // script draws in a picture marked data-answer-parts (The Climbers' tower)
      document.querySelector("#private .playable, [data-answer], [data-answer-parts] [role=button]"),
      picker && picker.querySelector("button:not([data-change])"),  // not after a choice made
    ];
    return candidates.find(focusable) || null;
  }

  function moveFocus() {
    if (asking) return;
    const ok = document.querySelector("#notice.refusal [data-dismiss]");
    const here = document.activeElement;
    if (ok && refused && (!here || here === document.body)) ok.focus();  // a push redrew it
    if (ok && acted) {
      refused = acted;
      acted = null;
      ok.focus();
      return;
    }
    if (!acted || (here && here !== document.body && here !== acted && here.isConnected)) return;
    const next = nextAnswer();
    if (next && next !== acted) show(next);
    else if (here === acted && acted.isConnected) return;  // the answer is still on its way
    else focusStatus();
    acted = null;
  }

  // The panel stuck to the bottom covers at most 40 % of the screen, so the hand stays in
  // view: a taller question takes its place in the page, which scrolls to it (never a
  // scroll inside the panel, which a thumb would not find).
  function fitPanel() {
    const p = document.getElementById("picker");
    if (!p) return;
    p.classList.remove("in-flow");
    if (getComputedStyle(p).position === "sticky" && p.offsetHeight > innerHeight * 0.4) {
      p.classList.add("in-flow");
    }
  }

  // A control the keyboard scrolls to stops above the panel stuck to the bottom.
  function padForPanel() {
    const p = document.getElementById("picker");
    const h = p && getComputedStyle(p).position === "sticky" ? p.offsetHeight : 0;
    document.documentElement.style.scrollPaddingBottom = h ? `${h + 8}px` : "";
  }

  // A double tap is one tap. The browser counts the taps of a double tap (the same place,
  // at once) in each click's detail. A later tap of a double tap makes no move, whatever
  // the first one's answer has put under the finger (the next question's Confirm), and
  // after a tap that made a move it does nothing at all ("Change my choice" is not asked
  // for). A key's click (detail 0) is never one.
  let repeated = false;  // the click being handled is a double tap's later tap
  let tapMoved = false;  // the taps under way began with a move
  const stop = (event) => {
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  document.addEventListener("click", (event) => {
    repeated = event.detail > 1;
    if (!repeated) tapMoved = false;
    else if (tapMoved) stop(event);
    setTimeout(() => { repeated = false; });  // a submit it causes comes before this
  }, true);
  document.addEventListener("submit", (event) => {
    if (!event.target.matches("form[hx-post$='/move']")) return;
    if (repeated) stop(event);
    else tapMoved = true;
  }, true);

  document.addEventListener("click", (event) => {
    const control = event.target.closest("button, [role=button], a");
    if (!control || !control.closest(".phone-main")) return;
    // a refusal's OK, and the buttons that turn The Climbers' tower, ask for no answer
    if (control.matches("[data-dismiss], [data-turn-tower]")) return;
    acted = control;
  }, true);

  function refresh() {
    turnChanged();
    keepAwake();
    fitPanel();
    keepPickInSight();
    padForPanel();
    // the control tapped, kept by a morph as the next answer, stays in sight wherever the
    // swap moved it
    if (acted && document.activeElement === acted && acted.isConnected) show(acted);
    focusSoon();
  }

  function focusSoon() {
    clearTimeout(focusLater);  // once a response's swaps and pushes have all landed
    focusLater = setTimeout(moveFocus, 120);
  }

  // The bottom sheet that answers a refusal goes when the player has read it.
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-dismiss]");
    const notice = button && button.closest(".notice");
    if (!notice) return;
    notice.classList.remove("refusal");
    notice.replaceChildren();
    const back = refused && refused.isConnected ? refused : nextAnswer();
    refused = null;
    if (back) show(back); else focusStatus();
  });

  // A push whose region changed only in its own attributes (the head's data-seq) sends the
  // region's opening tag alone, swapped as "outerAttributes": set them, keep what it holds.
  htmx.registerExtension("region-attributes", {
    handle_swap(style, target, fragment) {
      const source = style === "outerAttributes" && fragment.firstElementChild;
      if (!source) return false;
      for (const { name, value } of source.attributes) {
        if (target.getAttribute(name) !== value) target.setAttribute(name, value);
      }
      return [target];
    },
  });

  // A push to a phone sends what a move changes in sight first, then, after a marker, the
  // regions further down the page (the seats, the log): those are swapped two frames later,
  // after the frame that shows the rest and the one that draws the tower again, so that no
  // frame carries all of a push's work. They are swapped in the order they came, and before
  // anything else is: the next push, or the answer to a tap.
  const LATER = "<!--later-->";
  const later = [];
  let laterTimer = 0;
  let swapping = Promise.resolve();

  function swapLater() {
    cancelAnimationFrame(laterTimer);
    const parts = later.splice(0);
    swapping = parts.reduce((done, [from, text]) => done.then(() => htmx.swap(
      {sourceElement: from, target: from, swap: "none", text, transition: false}))
      .catch((error) => console.error("htmx: a push's later part", error)), swapping);
    return swapping;
  }

  function swapLaterSoon() {
    cancelAnimationFrame(laterTimer);
    laterTimer = requestAnimationFrame(() => setTimeout(() => {
      laterTimer = requestAnimationFrame(() => setTimeout(swapLater, 0));
    }, 0));
  }

  document.addEventListener("htmx:ws:before:message:incoming", (event) => {
    const message = event.detail.message;
    if (later.length) event.detail.waitUntil(swapLater());
    const at = typeof message.data === "string" ? message.data.indexOf(LATER) : -1;
    if (at < 0) return;
    later.push([event.target, message.data.slice(at + LATER.length)]);
    message.data = message.data.slice(0, at);
    swapLaterSoon();
  });
  document.addEventListener("htmx:before:request", () => { if (later.length) swapLater(); });

  document.addEventListener("DOMContentLoaded", () => {
    refresh();
    openOnMine();
  });
  // A push that replaces the element with the keyboard's focus (its region swapped whole)
  // gives the focus to the element standing in its place: the same id, or the same tag at
  // the same place under the nearest ancestor with an id.
  let focusedBefore = null;
  function focusKey(el) {
    if (!el || el === document.body) return null;
    if (el.id) return {el, id: el.id};
    const holder = el.parentElement && el.parentElement.closest("[id]");
    if (!holder) return null;
    return {el, holder: holder.id, tag: el.tagName,
            index: [...holder.querySelectorAll(el.tagName)].indexOf(el)};
  }
  function focusBack() {
    const was = focusedBefore;
    if (!was || was.el.isConnected || document.activeElement !== document.body) return;
    const holder = was.id ? null : document.getElementById(was.holder);
    const again = was.id ? document.getElementById(was.id)
      : holder && holder.querySelectorAll(was.tag)[was.index];
    if (again) again.focus({preventScroll: true});
  }
  document.addEventListener("htmx:ws:before:message:incoming", () => {
    focusedBefore = focusKey(document.activeElement);
  });
  document.addEventListener("htmx:after:swap", () => { focusBack(); refresh(); });
  document.addEventListener("htmx:ws:after:message:incoming", () => { focusBack(); refresh(); });
  document.addEventListener("htmx:before:request", () => { asking += 1; });
  document.addEventListener("htmx:finally:request", () => {
    asking = Math.max(0, asking - 1);
    focusSoon();
  });
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("click", keepAwakeOnTap, true);
  document.addEventListener("keydown", keepAwakeOnTap, true);
  document.addEventListener("htmx:ws:after:connection", () => document.body.classList.remove("offline"));
  document.addEventListener("htmx:ws:close", () => document.body.classList.add("offline"));
})();
