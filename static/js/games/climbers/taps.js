// What a tap on The Climbers' phone tower means and answers, fetched with its first drawing
// (views.js): the point the finger touched and what is drawn front-most there, the zoom
// where small targets crowd under the finger, and the question's answer for the target (a
// move sent at once, the picker's next question, or why not).
import {camera} from "./projection.js";
import {ladderMark} from "./paint.js";
import {angleOf, askFor, read, redraw} from "./views.js";
import {closeZoom, watchClose, zoomed} from "./zoom.js";

const FINGER_PX = 22;    // half a finger's width (44 CSS px, about 9 mm)
const CLEAR_PX = 5;      // how much nearer one target a tap on it is to take it at once

// --- what a finger means -------------------------------------------------------------------
// A tap is read where the finger touched the drawing. A touch's click comes where the
// browser's touch adjustment moved it, onto the nearest element it counts as clickable (a
// lit block beside the top touched, a figure beside the stone): the point comes from the
// touch's own pointer events, and what is drawn there is the browser's hit test at that
// very point, the front-most face in the painter's order the drawing keeps.
let touch = null;  // the last touch lifted: {x, y, at}
window.addEventListener("pointerup", (event) => {
  touch = event.pointerType === "touch" ? {x: event.clientX, y: event.clientY, at: event.timeStamp} : null;
}, true);

// Where a click was made: where a finger touched, where a mouse clicked, nowhere (a key).
function clickPoint(event) {
  if (!event.detail) return null;
  const touched = touch && (event.pointerType === "touch" ||
                            (!event.pointerType && event.timeStamp - touch.at < 1000));
  return touched ? [touch.x, touch.y] : [event.clientX, event.clientY];
}

// The tower a click's point lies on, and what is drawn there (a key's: its element).
function towerAt(event) {
  const point = clickPoint(event);
  const at = point ? document.elementFromPoint(point[0], point[1]) : event.target;
  const svg = at && at.closest && at.closest("svg.cl-3d[data-turnable]");
  return {svg, at, point};
}

const centreOf = (r) => [r.left + r.width / 2, r.top + r.height / 2];
const apart = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

// What a tap on the tower may mean, as the question reads it: a ghost place, a ladder way,
// a lit top, a figure, or a block (the face touched, and the square of its top nearest the
// point); a handle of the zoom, the target it stands for.
const TARGETS = ".cl-zoom-pick, [data-ghost], .cl-way, .cl-reach, .cl-pawn, g.cl-b";
function targetOf(svg, el, point) {
  const found = el && el.closest && el.closest(TARGETS);
  if (!found || !svg.contains(found)) return null;
  const d = found.dataset;
  if (found.matches(".cl-zoom-pick")) {
    const zoom = zoomed.get(svg);
    return zoom ? zoom.picks[Number(d.pick)].target : null;
  }
  if (d.ghost) return {kind: "ghost", key: d.ghost, el: found};
  if (found.matches(".cl-way")) return {kind: "way", square: d.square, ladders: d.ladders, el: found};
  if (found.matches(".cl-reach")) return {kind: "top", square: d.square, el: found};
  if (found.matches(".cl-pawn")) return {kind: "pawn", seat: d.seat, el: found};
  const onTop = el.dataset.face === "top" || Boolean(el.closest(".cl-stone"));
  return {kind: "block", block: d.block, onTop, square: topSquare(svg, found, point), el: found,
          face: el.matches("polygon") ? el : null};
}

// Where a target is drawn, its middle on the screen: a figure's head, the square of a top
// touched, the face of a block touched.
function middleOf(svg, t) {
  if (t.kind === "pawn") return centreOf(t.el.querySelector("circle").getBoundingClientRect());
  if (t.kind === "way") return centreOf(t.el.querySelector(".cl-way-hit").getBoundingClientRect());
  if (t.kind === "block" && t.onTop && t.square) return squareMiddle(svg, t.block, t.square);
  return centreOf((t.face || t.el).getBoundingClientRect());
}

// The middle of the square "x,y" of ``blockId``'s top, on the screen.
function squareMiddle(svg, blockId, square) {
  const data = document.getElementById("cl-td");
  const b = data && read(data).blocks.find((one) => one.id === blockId);
  const ctm = svg.getScreenCTM();
  if (!b || !ctm) return [0, 0];
  const [x, y] = square.split(",").map(Number);
  const [sx, sy] = camera(angleOf(svg)).point(x + 0.5, y + 0.5, b.z + b.h);
  const p = new DOMPoint(sx, sy).matrixTransform(ctm);
  return [p.x, p.y];
}

// The targets small enough to miss that answer the question and lie under a finger at
// ``point`` (their middle within FINGER_PX): the ghosts' handles while the question asks
// where a block goes; the lit tops, the ladder ways and the figures while it asks where
// the figure walks. Nearest first, each with its middle and how far that is.
function smallUnder(svg, point, d) {
  const selector = d.ghostPick ? ".cl-ghost-dot:not(.hid)" : d.reachPick ? ".cl-reach, .cl-way, .cl-pawn" : "";
  const found = [];
  for (const el of selector ? svg.querySelectorAll(selector) : []) {
    const t = targetOf(svg, el, null);
    t.mid = middleOf(svg, t);
    t.far = apart(t.mid, point);
    if (t.far <= FINGER_PX) found.push(t);
  }
  return found.sort((a, b) => a.far - b.far);
}

// What a finger at ``point`` means, ``at`` being drawn there: the target touched, where
// it is CLEAR_PX nearer its middle than any other target under the finger is to theirs,
// or where none is; a small target alone under a finger that touched nothing else it may
// mean. Else the zoom opens over those targets, and null. While a block's place is asked,
// a face or a figure touched is no place: a handle under the finger is meant before it.
function meantAt(svg, at, point) {
  const d = document.getElementById("cl-ask").dataset;
  if (zoomed.has(svg)) return zoomPicked(svg, at, point);
  let own = targetOf(svg, at, point);
  if (d.waiting !== undefined) return own;
  const near = smallUnder(svg, point, d);
  if (own && own.kind !== "ghost" && d.ghostPick && near.length) own = null;
  if (own && !near.some((t) => t.el === own.el)) {
    own.mid = middleOf(svg, own);
    own.far = apart(own.mid, point);
    near.push(own);
    near.sort((a, b) => a.far - b.far);
  }
  if (!near.length) return own;
  const mine = own && near.find((t) => t.el === own.el);
  const others = near.filter((t) => t !== mine);
  if (mine && (!others.length || mine.far + CLEAR_PX <= others[0].far)) return mine;
  if (!mine && near.length === 1) return near[0];
  return openZoom(svg, near, point) ? null : (mine || near[0]);
}

// --- the zoom over crowded targets -----------------------------------------------------------
// The zoom's handles under a finger at ``point`` (within ``reach`` px), nearest first.
function underFinger(svg, point, reach) {
  const found = [];
  for (const el of svg.querySelectorAll(".cl-zoom-dot")) {
    const d = apart(centreOf(el.getBoundingClientRect()), point);
    if (d <= reach) found.push([d, el]);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, el]) => el.closest(".cl-zoom-pick"));
}

// In the zoom, the target of the zoomed handle under the finger; a tap elsewhere steps
// out of the zoom (null).
function zoomPicked(svg, at, point) {
  const pick = (at && at.closest && at.closest(".cl-zoom-pick")) ||
    (point && underFinger(svg, point, FINGER_PX + 4)[0]);
  const target = pick ? targetOf(svg, pick, null) : null;
  if (!target || target.kind !== "ghost") closeZoom(svg);
  return target;
}

// How a target shows on its zoomed handle: its mark (a place's number, a ladder's letter,
// a figure's letter, ↑ for a top, a block's own mark), its name for a screen reader, and
// whether it answers only with why not ("off").
function zoomLook(svg, t, d) {
  const label = (el) => el.getAttribute("aria-label") || "";
  if (t.kind === "ghost") {
    const keys = (d.ghosts || "").split(" ").map((s) => s.split(":")[0]);
    const n = keys.indexOf(t.key) + 1;
    return {mark: String(n), label: (d.ghostLabel || "").replace("{n}", n).replace("{total}", keys.length)};
  }
  if (t.kind === "way") return {mark: t.el.querySelector(".cl-way-mark").textContent, label: label(t.el)};
  if (t.kind === "top") {
    const ladders = t.el.dataset.ladders;
    return {mark: ladders ? ladderMark(ladders, askFor(svg)) : "↑", label: label(t.el)};
  }
  if (t.kind === "pawn") {
    return {mark: t.el.querySelector("text").textContent, label: t.el.querySelector("title").textContent, off: true};
  }
  const asks = askFor(svg);
  const lit = (asks.lit && asks.lit.has(t.block)) || (asks.stones && asks.stones.has(t.block));
  return lit && !t.onTop ? {mark: "✥", label: label(t.el)} : {mark: "?", label: d.whyLabel || "", off: true};
}

// Zooms ``svg`` in round the tap at ``point`` over the targets ``near`` under it.
function openZoom(svg, near, point) {
  const ctm = svg.getScreenCTM();
  const ask = document.getElementById("cl-ask");
  if (!ctm || !ask) return false;
  const inverse = ctm.inverse();
  const inDrawing = ([x, y]) => { const p = new DOMPoint(x, y).matrixTransform(inverse); return [p.x, p.y]; };
  const picks = near.map((t) => {
    const [x, y] = inDrawing(t.mid);
    const target = Object.assign({}, t, {el: null, face: null, mid: null});
    return Object.assign({target, x, y, ghost: t.kind === "ghost" ? t.key : null, means: meaning(t)},
                         zoomLook(svg, t, ask.dataset));
  });
  zoomed.set(svg, {said: ask.outerHTML, angle: angleOf(svg),
                   centre: inDrawing(point), picks});
  watchClose(svg);
  redraw(false);
  svg.scrollIntoView({block: "nearest"});
  const first = svg.querySelector(".cl-zoom-pick");
  if (first) first.focus({preventScroll: true});
  return true;
}

// What a target is, in a word a zoomed handle carries ("top:1,4", "block:D3"), the same
// for the thing drawn and its handle.
function meaning(t) {
  if (t.kind === "ghost") return `ghost:${t.key}`;
  if (t.kind === "way") return `way:${t.square}:${t.ladders}`;
  if (t.kind === "top") return `top:${t.square}`;
  if (t.kind === "pawn") return `pawn:${t.seat}`;
  return t.onTop && t.square ? `top:${t.square}` : `block:${t.block}`;
}

// --- what a tap answers --------------------------------------------------------------------
// A tap on the phone's tower answers the question asked: a lit block, a lit top or one of
// its ladder ways, a block lit for the stone, a ghost. Whatever else it touches says why
// not (whyPick), or, once a block or a top is chosen, chooses anew.

// A move a tap makes at once ("move-json client-id"), sent by the page's form.
function send(made) {
  const form = document.getElementById("cl-tap");
  if (!made || !form) return false;
  const [move, id] = made.split(" ");
  form.elements.move.value = move;
  form.elements.client_move_id.value = id;
  form.requestSubmit();
  return true;
}

// The ``i``-th of a "|"-list of a data attribute.
const nth = (list, i) => (i >= 0 ? (list || "").split("|")[i] || "" : "");

// The square of ``block``'s top that shows nearest the tap (its first, for a key).
function topSquare(svg, block, point) {
  const data = document.getElementById("cl-td");
  if (!data) return null;
  const tower = read(data);
  const b = tower.blocks.find((one) => one.id === block.dataset.block);
  if (!b) return null;
  const cam = camera(angleOf(svg));
  const ctm = svg.getScreenCTM();
  const at = point && ctm ? new DOMPoint(point[0], point[1]).matrixTransform(ctm.inverse()) : null;
  let best = null;
  let far = Infinity;
  for (let x = b.x; x < b.x + b.w; x++) for (let y = b.y; y < b.y + b.d; y++) {
    const covered = tower.blocks.some((o) => o.z >= b.z + b.h && o.x <= x && x < o.x + o.w &&
                                        o.y <= y && y < o.y + o.d);
    if (covered) continue;
    const [sx, sy] = cam.point(x + 0.5, y + 0.5, b.z + b.h);
    const d = at ? Math.hypot(sx - at.x, sy - at.y) : 0;
    if (d < far) { far = d; best = `${x},${y}`; }
  }
  return best;
}

// What a tap on a block the question does not light asks the companion about, to say why
// in one line: the walk onto the top tapped (a tap on a top, or no block asked for), the
// block moved, the blocking stone laid on it; once a block or a walk is chosen, that
// block, or the walk there, chosen anew (the answer: its next question, or why not); or,
// off turn, the turn itself.
function whyPick(t, d) {
  if (d.waiting !== undefined) return {};
  if (d.reachPick && (t.onTop || !(d.blockPick || d.stones)) && t.square) {
    return Object.assign(JSON.parse(d.reachPick), {to: t.square});
  }
  if (d.blockPick) return Object.assign(JSON.parse(d.blockPick), {block: t.block});
  if (d.stones) return {type: "stone", block: t.block};
  if (d.anewPick) {
    const anew = JSON.parse(d.anewPick);
    if (anew.type !== "walk") return Object.assign(anew, {block: t.block});
    if (t.square) return Object.assign(anew, {to: t.square});
  }
  return null;
}

// Whether the question asks for ``block`` (``ids``: a set askFor builds), read from the
// question itself at the tap, which a push may have changed a frame before the drawing.
const asked = (ids, block) => Boolean(ids && ids.has(block));

// A place tapped: the picker's next question, with that place.
function ghostAnswer(t, d) {
  const [x, y, long] = t.key.split("_");
  return {next: true, pick: Object.assign(JSON.parse(d.ghostPick), {x: Number(x), y: Number(y), long: long === "-" ? null : long})};
}

// A ladder way: the walk that way, sent at once.
function wayAnswer(t, d) {
  const at = (d.ways || "").split(" ").findIndex(
    (w) => w.startsWith(`${t.square},`) && w.endsWith(`,${t.ladders}`));
  send(nth(d.wayMoves, at));
  return null;
}

// A lit top: the walk, where a tap makes it, else the ladder asked next.
function topAnswer(t, d) {
  const at = (d.reach || "").split(" ").findIndex((s) => s.startsWith(`${t.square},`));
  if (send(nth(d.reachMoves, at))) return null;
  return {next: true, pick: Object.assign(JSON.parse(d.reachPick), {to: t.square})};
}

// A figure: why not its place (or, off turn, the turn), else the block it stands on.
function pawnAnswer(svg, t, d) {
  const data = document.getElementById("cl-td");
  const f = data && read(data).figures.find((one) => String(one.seat) === t.seat);
  if (d.reachPick || d.waiting !== undefined || !f || f.x === null) {
    const pick = d.reachPick && f
      ? Object.assign(JSON.parse(d.reachPick), {to: f.x === null ? "table" : `${f.x},${f.y}`})
      : (d.waiting !== undefined ? {} : null);
    return pick && {pick};
  }
  const under = svg.querySelector(`g.cl-b[data-block="${CSS.escape(blockUnder(f))}"]`);
  if (under) act(svg, {kind: "block", block: under.dataset.block, onTop: true, square: `${f.x},${f.y}`, el: under});
  return null;
}

// A block: the stone laid on it, the block chosen, or why not (with, for a top out of reach
// on a block that may move, that block's move as a choice beside the refusal).
function blockAnswer(svg, t, d) {
  const asks = askFor(svg);
  if (d.stoneMoves && asked(asks.stones, t.block)) {
    send(nth(d.stoneMoves, (d.stones || "").split(" ").indexOf(t.block)));
    return null;
  }
  const mayMove = d.blockPick && asked(asks.lit, t.block);
  const chosen = () => Object.assign(JSON.parse(d.blockPick), {block: t.block});
  if (mayMove && !(t.onTop && d.reachPick && t.square)) return {next: true, pick: chosen()};
  const pick = whyPick(t, d);
  return pick && {pick, instead: mayMove ? chosen() : null};
}

// What a tap on the target ``t`` answers: {pick, next} (the picker's next question) or
// {pick, instead} (why not, and a choice beside it); null once a move is sent, or when
// the question asks nothing of it.
function answerFor(svg, t, d) {
  if (t.kind === "ghost" && d.ghostPick) return ghostAnswer(t, d);
  if (t.kind === "way" && d.wayMoves) return wayAnswer(t, d);
  if ((t.kind === "top" || (t.kind === "block" && t.onTop && lit(d, t.square))) && d.reachPick) return topAnswer(t, d);
  if (t.kind === "pawn") return pawnAnswer(svg, t, d);
  if (t.kind === "block") return blockAnswer(svg, t, d);
  return null;
}

// The question's answer for the target ``t``: a move sent at once, the picker's next
// question, or why not.
function act(svg, t) {
  const d = document.getElementById("cl-ask").dataset;
  const source = t.el && t.el.isConnected ? t.el : svg;
  const answer = answerFor(svg, t, d);
  if (!answer) return;
  const query = `${answer.next ? d.url : d.why}?pick=${encodeURIComponent(JSON.stringify(answer.pick))}`;
  if (answer.next) {
    htmx.ajax("GET", query, {source, target: "#picker", swap: "outerHTML"});
    return;
  }
  const asking = Promise.resolve(htmx.ajax("GET", query, {source, swap: "none"}));
  if (answer.instead) asking.then(() => offerInstead(answer.instead, d.insteadLabel), () => {});
}

// Whether the square "x,y" is among the tops the question lights.
const lit = (d, square) => Boolean(square) && (d.reach || "").split(" ").some((s) => s.startsWith(`${square},`));

// The block whose top a figure stands on.
function blockUnder(f) {
  const data = document.getElementById("cl-td");
  let best = null;
  for (const b of data ? read(data).blocks : []) {
    if (b.x <= f.x && f.x < b.x + b.w && b.y <= f.y && f.y < b.y + b.d && (!best || b.z > best.z)) best = b;
  }
  return best ? best.id : "";
}

// The walk's refusal just shown, for a top on a block that may move: that block's move
// beside it, a choice of its own. Choosing anew (any other tap on the tower) takes the
// choice away with the refusal it answered.
function offerInstead(pick, words) {
  const notice = document.querySelector("#notice.refusal");
  if (!notice || !words || notice.querySelector("[data-instead]")) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "option cl-instead";
  button.dataset.instead = JSON.stringify(pick);
  button.textContent = words;
  notice.insertBefore(button, notice.querySelector("[data-dismiss]"));
}
function dropInstead() {
  for (const button of document.querySelectorAll("#notice [data-instead]")) button.remove();
}
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("[data-instead]");
  const ask = document.getElementById("cl-ask");
  if (!button || !ask || !window.htmx) return;
  const query = `${ask.dataset.url}?pick=${encodeURIComponent(button.dataset.instead)}`;
  htmx.ajax("GET", query, {source: button, target: "#picker", swap: "outerHTML"});
});

// A tap on a tower: read where it touched (above). A click the browser's adjustment moved
// off what the finger touched on a tower is aimed again at what it touched, before
// anything else on the page sees it (the focus that follows a tap, a button beside the
// tower).
function tapped(svg, at, point) {
  if (svg.dataset.swiped || !document.getElementById("cl-ask") || !window.htmx) return;
  dropInstead();
  const meant = point ? meantAt(svg, at, point)
    : zoomed.has(svg) ? zoomPicked(svg, at, null) : targetOf(svg, at, null);
  if (meant) act(svg, meant);
}
window.addEventListener("click", (event) => {
  const {svg, at, point} = towerAt(event);
  if (!svg || !point || !event.isTrusted || at === event.target) return;
  event.stopImmediatePropagation();
  event.preventDefault();
  at.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window,
                                            detail: event.detail, clientX: point[0], clientY: point[1]}));
}, true);
document.addEventListener("click", (event) => {
  const {svg, at, point} = towerAt(event);
  if (svg && svg.contains(event.target)) tapped(svg, at, point);
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" && event.key !== " ") return;
  const el = event.target.closest && event.target.closest("svg.cl-3d [role=button]");
  if (!el) return;
  event.preventDefault();
  el.dispatchEvent(new MouseEvent("click", {bubbles: true}));
});
