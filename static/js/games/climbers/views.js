// The Climbers' tower in 3-D, the page's entry module: each view (svg.cl-3d) drawn from the
// records (#cl-td) and a phone's question (#cl-ask), from where its viewer sits, again
// after each swap or push (docs/tower.md).
import {draw, useMore} from "./paint.js";

// --- the records and the question ----------------------------------------------------
const orNull = (field) => (field === "-" ? null : field);

// A block's record: id, kind, x y z w d h, the six faces' colours, a stone, its mark.
function blockOf(rec) {
  const p = rec.split(" ");
  const [x, y, z, w, d, h] = p.slice(2, 8).map(Number);
  return {id: p[0], rec, kind: p[1], x, y, z, w, d, h,
          top: p[8], bottom: p[9], east: p[10], west: p[11], north: p[12], south: p[13],
          stone: orNull(p[14]), moved: p[15] === "1", stays: p[15] === "2"};
}

// A figure's record: seat, letter, colour, x y z (x y "-" on the table); its name in title.
function figureOf(rec, name) {
  const p = rec.split(" ");
  return {seat: +p[0], letter: p[1], colour: p[2], name,
          x: p[3] === "-" ? null : +p[3], y: p[4] === "-" ? null : +p[4], z: +p[5]};
}

// A ladder's record: which, then its foot and its top (x y z, "-" for the table).
function ladderOf(rec) {
  const p = rec.split(" ");
  const end = (i) => (p[i] === "-" ? null : {x: +p[i], y: +p[i + 1], z: +p[i + 2]});
  return {name: p[0], foot: end(1), top: end(4)};
}

// Each colour's letter in the reader's language, from "colour letter" pairs.
function lettersOf(said) {
  const letters = {};
  const pairs = (said || "").split(" ");
  for (let i = 0; i + 1 < pairs.length; i += 2) letters[pairs[i]] = pairs[i + 1];
  return letters;
}

// The tower the records of ``data`` (#cl-td, or a moment's own) describe.
export function read(data) {
  const tower = {blocks: [], figures: [], ladders: [], order: null,
                 letters: lettersOf(data.dataset.letters), screen: data.dataset.screen || ""};
  for (const el of data.children) {
    const d = el.dataset;
    if (d.b) tower.blocks.push(blockOf(d.b));
    else if (d.f) tower.figures.push(figureOf(d.f, el.title));
    else if (d.l) tower.ladders.push(ladderOf(d.l));
    else if (d.o) tower.order = d.o.split(" ");
  }
  return tower;
}

// A question's ids (space-separated) and their names (a "|"-list, in the same order):
// the set of ids, and each id's name (the id itself where none is said).
function namedIds(ids, names) {
  const list = ids.split(" ");
  const said = (names || "").split("|");
  const named = {};
  list.forEach((id, i) => { named[id] = said[i] || id; });
  return [new Set(list), named];
}

// The tops the figure can walk to: "x,y,z" each, with their names and ladders.
function reachOf(d) {
  const names = (d.reachNames || "").split("|");
  const ladders = (d.reachLadders || "").split("|");
  return d.reach.split(" ").map((s, i) => {
    const [x, y, z] = s.split(",").map(Number);
    return {key: `${x},${y}`, x, y, z, name: names[i], ladders: ladders[i] || ""};
  });
}

// The dearer ways to a lit top: "x,y,z,ladders" each, with their names.
function waysOf(d) {
  const names = (d.wayNames || "").split("|");
  return d.ways.split(" ").map((s, i) => {
    const [x, y, z, ladders] = s.split(",");
    return {key: `${x},${y}`, x: +x, y: +y, z: +z, ladders, name: names[i]};
  });
}

// The places a block may go: "key:x:y:z:w:d:h" each.
function ghostsOf(d) {
  return d.ghosts.split(" ").map((s) => {
    const [key, x, y, z, w, dd, h] = s.split(":");
    return {key, x: +x, y: +y, z: +z, w: +w, d: +dd, h: +h};
  });
}

// What the phone's question lights on its own view ``svg``: the drawing's options.
export function askFor(svg) {
  if (svg.dataset.view !== "me") return {};
  const ask = document.getElementById("cl-ask");
  if (!ask) return {};
  const d = ask.dataset;
  const opts = {chosen: d.chosen || undefined, ghostLabel: d.ghostLabel,
                reachPick: d.reachPick, ghostPick: d.ghostPick};
  if (d.lit) [opts.lit, opts.names] = namedIds(d.lit, d.litNames);
  if (d.reach) opts.reach = reachOf(d);
  if (d.ways) opts.ways = waysOf(d);
  if (d.ladderMarks) {
    const p = d.ladderMarks.split(" ");
    opts.marks = {[p[0]]: p[1], [p[2]]: p[3]};
  }
  if (d.stones) {
    [opts.stones, opts.stoneNames] = namedIds(d.stones, d.stoneNames);
    opts.stoneColour = d.stoneColour;
  }
  if (d.ghosts) {
    opts.ghostsSaid = d.ghosts;
    opts.ghosts = ghostsOf(d);
    opts.chosenGhost = true;
  }
  if (d.ghost) opts.ghost = d.ghost;
  if (d.square) opts.chosenSquare = d.square;
  return opts;
}

// --- the views -------------------------------------------------------------------------
// Where the table screen is from a player, as the angle they see the tower from
// (0: from the table screen's side, north), turned a little so two sides show.
const SIDES = {behind: 0, right: 90, ahead: 180, left: 270};
const QUARTER = 30;

// A view's own turn (a swipe, the turn buttons), in degrees.
export const turned = new WeakMap();

// A view's angle: "me" (this phone's player's side), a side by name (a build step's
// builder), "screen", or degrees; turned a little so two sides show, unless drawn
// straight (a build step: its left is the words' left, "towards you" its bottom).
function homeAngle(svg) {
  const view = svg.dataset.view || "screen";
  let base = 0;
  if (view === "me") {
    const sitting = document.querySelector("[data-sitting]");
    base = SIDES[sitting ? sitting.dataset.sitting : "ahead"] ?? 180;
  } else if (view in SIDES) {
    base = SIDES[view];
  } else if (view !== "screen") {
    base = Number(view) || 0;
  }
  return base + (svg.dataset.straight === undefined ? QUARTER : 0);
}

export const angleOf = (svg) => homeAngle(svg) + (turned.get(svg) || 0);

// What each view was drawn from last; the views that wait for the frames after the one
// that shows the swap, one a frame, so that no frame carries both a push's swap and a
// drawing: data-later (the table screen's small views) always, data-later="push" (the
// phone's own) after a push, not after the player's own turn or tap.
const drawn = new WeakMap();
const queued = [];
let pushing = false;  // a push's message is being swapped in
const waits = (svg) => svg.dataset.later !== undefined && (svg.dataset.later !== "push" || pushing);
let waiting = false;

// After the first drawing: more.js (then every view drawn again with it), and with a
// phone's own view zoom.js, gestures.js and taps.js.
let more = null;  // more.js, once asked for
let fingers = false;
let zoom = null;  // zoom.js, once it has come
function loadLater(svg) {
  more ??= import("./more.js").then((module) => {
    useMore(module);
    redraw(true);
  });
  if (fingers || svg.dataset.turnable === undefined) return;
  fingers = true;
  import("./zoom.js").then((module) => { zoom = module; });
  import("./gestures.js");
  import("./taps.js");
}

function signature(data) {
  const ask = document.getElementById("cl-ask");
  const sitting = document.querySelector("[data-sitting]");
  return data.innerHTML + (ask ? ask.outerHTML : "") + (sitting ? sitting.dataset.sitting : "");
}

function viewKey(svg, said) {
  const angle = angleOf(svg);
  const zoomedIn = zoom && zoom.zoomed.get(svg);
  return [`${said}|${angle}|${svg.dataset.upto || ""}|${svg.dataset.mark || ""}|${zoomedIn ? zoomedIn.centre : ""}`, angle];
}

// What names the view's focused answer (a block, a top, a way, a ghost's handle) again
// once a drawing has replaced its node: a keyboard player keeps their place through a
// push, or the late module's drawing.
function focusedIn(svg) {
  const el = document.activeElement;
  if (!el || el === svg || !svg.contains(el) || !el.classList.length) return null;
  const attr = ["data-block", "data-square", "data-ghost"].find((name) => el.hasAttribute(name));
  return attr ? `.${CSS.escape(el.classList[0])}[${attr}="${CSS.escape(el.getAttribute(attr))}"][tabindex]` : null;
}

function optionsOf(svg, angle) {
  const opts = Object.assign({letters: svg.dataset.letters !== "no"}, askFor(svg));
  if (svg.dataset.upto) opts.upto = Number(svg.dataset.upto);
  if (svg.dataset.mark) opts.mark = svg.dataset.mark;
  opts.zoom = zoom && zoom.zoomFor(svg, angle);
  return opts;
}

function drawView(svg, tower, key, angle) {
  const opts = optionsOf(svg, angle);
  const focus = focusedIn(svg);
  draw(svg, tower, angle, opts);
  if (focus && !svg.contains(document.activeElement)) {
    const again = svg.querySelector(focus);
    if (again) again.focus({preventScroll: true});
  }
  if (zoom) zoom.showBar(svg);
  drawn.set(svg, key);
  loadLater(svg);
}

// The records a view draws: the page's, or its own (a moment of the game's record).
function recordsOf(svg) {
  return document.getElementById(svg.dataset.records || "cl-td");
}

// Every view drawn again whose records, question, side or turn changed (``force``: every
// one, at once); the views that wait are queued for the frames after this one.
export function redraw(force) {
  const towers = new Map();  // each set of records, read once: [said, tower]
  for (const svg of document.querySelectorAll("svg.cl-3d")) {
    const data = recordsOf(svg);
    if (!data) continue;
    if (!towers.has(data)) towers.set(data, [signature(data), null]);
    const known = towers.get(data);
    const [key, angle] = viewKey(svg, known[0]);
    if (zoom) zoom.showBar(svg);
    if (!force && drawn.get(svg) === key && svg.firstChild) continue;
    if (!force && waits(svg)) {
      if (!queued.includes(svg)) queued.push(svg);
      continue;
    }
    known[1] = known[1] || read(data);
    drawView(svg, known[1], key, angle);
  }
  if (queued.length && !waiting) nextFrame();
}

// One waiting view drawn after the next frame is shown, then the next one after that.
function nextFrame() {
  waiting = true;
  requestAnimationFrame(() => setTimeout(() => {
    waiting = false;
    const svg = queued.shift();
    const data = svg && recordsOf(svg);
    if (svg && svg.isConnected && data) {
      const [key, angle] = viewKey(svg, signature(data));
      if (drawn.get(svg) !== key || !svg.firstChild) drawView(svg, read(data), key, angle);
    }
    if (queued.length) nextFrame();
  }, 0));
}

// --- the page --------------------------------------------------------------------------
// The buttons under a phone's view turn it a quarter, or back to its player's side.
document.addEventListener("click", (event) => {
  const turn = event.target.closest && event.target.closest("[data-turn-tower]");
  if (!turn) return;
  for (const view of document.querySelectorAll("svg.cl-3d[data-turnable]")) {
    const step = Number(turn.dataset.turnTower);
    turned.set(view, step ? (turned.get(view) || 0) + step : 0);
  }
  redraw(false);
}, true);

function refresh() {
  redraw(false);
}

document.addEventListener("DOMContentLoaded", refresh);
document.addEventListener("htmx:after:swap", refresh);
document.addEventListener("htmx:ws:before:message:incoming", () => { pushing = true; });
document.addEventListener("htmx:ws:after:message:incoming", () => {
  refresh();
  pushing = false;
});
document.addEventListener("htmx:finally:request", () => setTimeout(refresh, 0));
