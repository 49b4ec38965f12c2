// The tower painted into an <svg>: the blocks face by face in the painter's order, each
// face a <polygon> in its block's <g data-block>, then the lit tops, ladders and figures.
// The colours are the stylesheet's --cl-<colour> (static/css/games/climbers.css), read once.
import {UNIT, camera, grow, meets, outline, paintOrder} from "./projection.js";

export const NS = "http://www.w3.org/2000/svg";
const WHITE = "#fff";
const BLACK = "#111";

// --- the colours ---------------------------------------------------------------------
const fills = new Map();
const inks = new Map();
const shades = new Map();

// The colour ``name`` paints with, as the stylesheet gives it ("#rrggbb"; "" for none).
function fill(name) {
  if (!fills.has(name)) {
    const said = getComputedStyle(document.documentElement).getPropertyValue(`--cl-${name}`);
    fills.set(name, said.trim());
  }
  return fills.get(name);
}

const channels = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

// WCAG's relative luminance of a "#rrggbb" colour.
function luminance(hex) {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// The ink a letter is printed in on ``name``: white or near-black, whichever contrasts more.
function ink(name) {
  if (!inks.has(name)) {
    const on = luminance(fill(name)) + 0.05;
    inks.set(name, 1.05 / on > on / (luminance("#111111") + 0.05) ? WHITE : BLACK);
  }
  return inks.get(name);
}

// A face's colour, darkened by ``factor`` for its side (an unknown colour: grey).
function shade(name, factor) {
  const key = name + factor;
  if (!shades.has(key)) {
    const c = channels(fill(name) || fill("grey")).map((v) => Math.round(v * factor));
    shades.set(key, `rgb(${c.join(",")})`);
  }
  return shades.get(key);
}

// --- markup --------------------------------------------------------------------------
export const r1 = (v) => Math.round(v * 10) / 10;
export const pts = (cam, corners) => corners.map(([x, y, z]) => cam.point(x, y, z).map(r1).join(",")).join(" ");
export const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));

// The faces of box ``b`` the viewer sees: [face, corners, light] each.
function faces(b, cam) {
  const x0 = b.x, x1 = b.x + b.w, y0 = b.y, y1 = b.y + b.d, z0 = b.z, z1 = b.z + b.h;
  const out = [["top", [[x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]], 1]];
  if (cam.dx > 1e-6) out.push(["east", [[x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]], 0.78]);
  if (cam.dx < -1e-6) out.push(["west", [[x0, y0, z0], [x0, y1, z0], [x0, y1, z1], [x0, y0, z1]], 0.78]);
  if (cam.dy > 1e-6) out.push(["north", [[x0, y1, z0], [x1, y1, z0], [x1, y1, z1], [x0, y1, z1]], 0.62]);
  if (cam.dy < -1e-6) out.push(["south", [[x0, y0, z0], [x1, y0, z0], [x1, y0, z1], [x0, y0, z1]], 0.62]);
  return out;
}

function centre(cam, corners) {
  let sx = 0, sy = 0;
  for (const [x, y, z] of corners) { const p = cam.point(x, y, z); sx += p[0]; sy += p[1]; }
  return [sx / corners.length, sy / corners.length];
}

export function blockName(id, opts) {
  return (opts.names && opts.names[id]) || (opts.stones && opts.stones.has(id) && opts.stoneNames[id]) || "";
}

function blockClasses(b, opts) {
  let classes = "cl-b";
  if (opts.lit && opts.lit.has(b.id)) classes += " lit";
  if (b.id === opts.mark || (opts.mark === undefined && b.moved)) classes += " marked";
  if (b.stays) classes += " stays";
  if (b.id === opts.chosen) classes += " chosen";
  if (opts.stones && opts.stones.has(b.id)) classes += " stone-spot";
  if (opts.seeThrough && opts.seeThrough.has(b.id)) classes += " see-through";
  return classes;
}

// Where the blocking stone may go: the stone, faint, on the block (its ellipse's attributes).
export function stoneGhost(b, cam, colour) {
  const [cx, cy] = cam.point(b.x + b.w / 2, b.y + b.d / 2, b.z + b.h);
  return [["class", "cl-stone-ghost"], ["cx", r1(cx)], ["cy", r1(cy)], ["rx", UNIT * 0.7], ["ry", UNIT * 0.45],
          ["stroke", fill(colour) || WHITE]];
}

// The blocking stone lying on block ``b``.
function stoneSvg(b, cam) {
  const [cx, cy] = cam.point(b.x + b.w / 2, b.y + b.d / 2, b.z + b.h);
  return `<g class="cl-stone"><ellipse cx="${r1(cx)}" cy="${r1(cy)}" rx="${UNIT * 0.7}" ry="${UNIT * 0.45}" fill="${BLACK}" stroke="${fill(b.stone) || WHITE}" stroke-width="2.5"/>` +
    `<path d="M${r1(cx - 4)} ${r1(cy - 2.5)}l8 5m0 -5l-8 5" stroke="${WHITE}" stroke-width="1.5"/></g>`;
}

// A face of block ``b``, with its colour's letter where the view shows letters.
function faceSvg(b, [face, corners, light], cam, tower, opts) {
  const colour = b[face];
  let svg = `<polygon points="${pts(cam, corners)}" fill="${shade(colour, light)}" data-face="${face}"/>`;
  if (opts.letters) {
    const [cx, cy] = centre(cam, corners);
    svg += `<text x="${r1(cx)}" y="${r1(cy)}" fill="${ink(colour)}" class="cl-ltr" data-colour="${colour}">${esc(tower.letters[colour] || "")}</text>`;
  }
  return svg;
}

function blockSvg(b, cam, tower, opts, classes) {
  const name = blockName(b.id, opts);
  let g = `<g class="${classes}" data-block="${b.id}"` +
    (name ? ` tabindex="0" role="button" aria-label="${esc(name)}">` : ">");
  for (const face of faces(b, cam)) g += faceSvg(b, face, cam, tower, opts);
  if (opts.stones && opts.stones.has(b.id)) {
    g += `<ellipse ${stoneGhost(b, cam, opts.stoneColour).map(([k, v]) => `${k}="${v}"`).join(" ")}/>`;
  }
  if (b.stone) g += stoneSvg(b, cam);
  return g + "</g>";
}

// --- the figures ---------------------------------------------------------------------
const PAWN_H = UNIT * 2.6, PAWN_W = UNIT * 0.55, HEAD = UNIT * 0.62;
// The rectangle a pawn standing at (sx, sy) on the picture covers, its outline included.
const pawnBox = ([sx, sy]) => ({x0: sx - PAWN_W - 1.5, x1: sx + PAWN_W + 1.5,
                                y0: sy - PAWN_H * 0.85 - HEAD - 1.5, y1: sy + 1.5});

function pawn(f, at) {
  const [sx, sy] = at;
  const h = PAWN_H, w = PAWN_W;
  const colour = fill(f.colour);
  const body = `M${r1(sx - w)} ${r1(sy)}q0 ${r1(-h * 0.55)} ${r1(w * 0.45)} ${r1(-h * 0.7)}h${r1(w * 1.1)}q${r1(w * 0.45)} ${r1(h * 0.15)} ${r1(w * 0.45)} ${r1(h * 0.7)}z`;
  return `<g class="cl-pawn" data-seat="${f.seat}"><title>${esc(f.name)}</title>` +
    `<path d="${body}" fill="${colour}" stroke="${WHITE}" stroke-width="3" paint-order="stroke"/>` +
    `<path d="${body}" fill="${colour}" stroke="${BLACK}" stroke-width="1"/>` +
    `<circle cx="${r1(sx)}" cy="${r1(sy - h * 0.85)}" r="${r1(HEAD)}" fill="${colour}" stroke="${BLACK}" stroke-width="1"/>` +
    `<text x="${r1(sx)}" y="${r1(sy - h * 0.85)}" fill="${ink(f.colour)}" class="cl-pawn-ltr">${esc(f.letter)}</text></g>`;
}

// The groups of pawns standing ``at`` whose heads overlap, one through another (index lists).
const APART = 2 * HEAD + 1.5;
function crowds(at) {
  const head = (i) => [at[i][0], at[i][1] - PAWN_H * 0.85];
  const group = at.map((_, i) => i);
  const root = (i) => (group[i] === i ? i : root(group[i]));
  for (let i = 0; i < at.length; i++) {
    for (let j = i + 1; j < at.length; j++) {
      const [ax, ay] = head(i), [bx, by] = head(j);
      if (Math.hypot(ax - bx, ay - by) < APART - 0.5) group[root(j)] = root(i);
    }
  }
  const groups = new Map();
  at.forEach((_, i) => groups.set(root(i), [...(groups.get(root(i)) || []), i]));
  return [...groups.values()].filter((members) => members.length > 1);
}

// Figures in line from this side, whose heads would cover each other's letters, stand
// side by side, centred where they were: every letter shows. ``figures``: [figure, the
// spot it stands on] in drawing order; returns [figure, spot, where its pawn stands] (the
// spot itself for a pawn left where it is).
function sideBySide(figures) {
  const at = figures.map(([, spot]) => spot);
  for (let round = 0; round < at.length; round++) {
    const crowded = crowds(at);
    if (!crowded.length) break;
    for (const members of crowded) {
      members.sort((a, b) => at[a][0] - at[b][0] || a - b);
      const mid = members.reduce((sum, i) => sum + at[i][0], 0) / members.length;
      members.forEach((i, k) => { at[i] = [mid + (k - (members.length - 1) / 2) * APART, at[i][1]]; });
    }
  }
  return figures.map(([f, spot], i) => [f, spot, at[i]]);
}

// Where a pawn stood aside (``sideBySide``) really stands: a ring in its colour on that
// spot, and a line from the pawn's foot to it.
function footMark(f, spot, at) {
  return `<g class="cl-pawn-foot">` +
    `<line x1="${r1(at[0])}" y1="${r1(at[1])}" x2="${r1(spot[0])}" y2="${r1(spot[1])}" stroke="${BLACK}" stroke-width="1.2"/>` +
    `<ellipse cx="${r1(spot[0])}" cy="${r1(spot[1])}" rx="${r1(PAWN_W * 0.8)}" ry="${r1(PAWN_W * 0.4)}" fill="${fill(f.colour)}" stroke="${BLACK}" stroke-width="1"/></g>`;
}

// Where each figure is drawn: those on the table in a row in front of the tower as this
// viewer sees it, then those standing on it, the farthest first.
function figureSpots(tower, cam, table) {
  const {x0, x1, y0, y1} = table;
  const onTable = tower.figures.filter((f) => f.x === null);
  const spots = onTable.map((f, i) => {
    const t = (i + 1) / (onTable.length + 1);
    const along = [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t];
    const x = Math.abs(cam.dx) > 0.7 ? (cam.dx > 0 ? x1 - 0.7 : x0 + 0.7) : along[0];
    const y = Math.abs(cam.dx) > 0.7 ? along[1] : (cam.dy > 0 ? y1 - 0.7 : y0 + 0.7);
    return [f, cam.point(x, y, 0)];
  });
  const standing = tower.figures.filter((f) => f.x !== null);
  standing.sort((a, b) => cam.depth(a.x, a.y, a.z) - cam.depth(b.x, b.y, b.z));
  for (const f of standing) spots.push([f, cam.point(f.x + 0.5, f.y + 0.5, f.z)]);
  return spots;
}

// The figures' markup: the foot marks of those stood aside, then the pawns. Grows the
// frame round each pawn and adds it to the obstacles.
function figuresSvg(tower, cam, table, frame, obstacles) {
  const placed = sideBySide(figureSpots(tower, cam, table));
  const out = [];
  for (const [f, spot, at] of placed) if (at !== spot) out.push(footMark(f, spot, at));
  for (const [f, , at] of placed) {
    const r = pawnBox(at);
    grow(frame, r);
    obstacles.push(r);
    out.push(pawn(f, at));
  }
  return out;
}

// --- ladders and the tops lit for a walk ----------------------------------------------
// A ladder the last walk climbed, from its foot to its top (grows the frame round it).
function ladderSvg(l, cam, frame) {
  if (!l.top) return "";
  const top = [l.top.x + 0.5, l.top.y + 0.5, l.top.z];
  const foot = l.foot ? [l.foot.x + 0.5, l.foot.y + 0.5, l.foot.z]
    : [top[0] + cam.dx * 1.5, top[1] + cam.dy * 1.5, 0];
  const [ax, ay] = cam.point(...foot);
  const [bx, by] = cam.point(...top);
  grow(frame, {x0: Math.min(ax, bx), x1: Math.max(ax, bx), y0: Math.min(ay, by), y1: Math.max(ay, by)});
  const len = Math.hypot(bx - ax, by - ay) || 1;
  const px = ((by - ay) / len) * 3, py = (-(bx - ax) / len) * 3;
  let d = `M${r1(ax + px)} ${r1(ay + py)}L${r1(bx + px)} ${r1(by + py)}M${r1(ax - px)} ${r1(ay - py)}L${r1(bx - px)} ${r1(by - py)}`;
  const rungs = Math.max(2, Math.round(len / 6));
  for (let i = 1; i < rungs; i++) {
    const t = i / rungs;
    const cx = ax + (bx - ax) * t, cy = ay + (by - ay) * t;
    d += `M${r1(cx + px)} ${r1(cy + py)}L${r1(cx - px)} ${r1(cy - py)}`;
  }
  return `<path class="cl-ladder-drawn" data-ladder="${esc(l.name)}" d="${d}"/>`;
}

// A ladder way's letters ("S", "L", "S+L"), in the reader's language.
export function ladderMark(ladders, opts) {
  return ladders.split("+").map((l) => (opts.marks || {})[l] || l).join("+");
}

// A ladder way as a ladder standing on its top, with a stroke a finger's width wide that
// a tap takes, from a third of the way up: the top's own middle stays the top's.
// Neighbouring tops' ladders lean apart (by the square's parity), so that two ways on a
// plateau part above it.
function waySvg(way, cam, opts) {
  const [ax, ay] = cam.point(way.x + 0.5, way.y + 0.5, way.z);
  const lean = Math.abs((way.x + way.y) % 2) ? -1 : 1;
  const bx = ax + lean * UNIT * 0.9, by = ay - UNIT * 2.2;
  let d = `M${r1(ax - 2)} ${r1(ay)}L${r1(bx - 2)} ${r1(by)}M${r1(ax + 2)} ${r1(ay)}L${r1(bx + 2)} ${r1(by)}`;
  for (let i = 1; i < 5; i++) {
    const cx = ax + (bx - ax) * i / 5, cy = ay + (by - ay) * i / 5;
    d += `M${r1(cx - 2)} ${r1(cy)}L${r1(cx + 2)} ${r1(cy)}`;
  }
  return `<g class="cl-way" data-square="${way.key}" data-ladders="${esc(way.ladders)}" tabindex="0" role="button" aria-label="${esc(way.name || "")}">` +
    `<path class="cl-way-hit" d="M${r1(ax + (bx - ax) / 3)} ${r1(ay + (by - ay) / 3)}L${r1(bx)} ${r1(by - 3)}"/>` +
    `<path class="cl-way-ladder" d="${d}"/>` +
    `<text class="cl-way-mark" x="${r1(bx)}" y="${r1(by - 3)}">${esc(ladderMark(way.ladders, opts))}</text></g>`;
}

// A top the figure can walk to, lit, with the letter of the ladder the walk climbs with.
function reachSvg(sq, cam, opts) {
  const corners = [[sq.x + 0.1, sq.y + 0.1, sq.z], [sq.x + 0.9, sq.y + 0.1, sq.z], [sq.x + 0.9, sq.y + 0.9, sq.z], [sq.x + 0.1, sq.y + 0.9, sq.z]];
  const act = opts.reachPick ? ` tabindex="0" role="button" aria-label="${esc(sq.name || "")}"` : "";
  const out = [`<polygon class="cl-reach${sq.key === opts.chosenSquare ? " chosen" : ""}" data-square="${sq.key}" data-ladders="${esc(sq.ladders)}"${act} points="${pts(cam, corners)}"/>`];
  if (sq.ladders) {
    const [cx, cy] = cam.point(sq.x + 0.5, sq.y + 0.5, sq.z);
    out.push(`<text class="cl-reach-mark" x="${r1(cx)}" y="${r1(cy)}">${esc(ladderMark(sq.ladders, opts))}</text>`);
  }
  return out;
}

// The block that stays put this turn: its edges dashed over the tower, seen through
// whatever stands in front of it.
const staysSvg = (b, cam) => `<path class="cl-stays" d="${faces(b, cam).map(([, c]) => `M${pts(cam, c)}Z`).join("")}"/>`;

// --- a view's drawing ----------------------------------------------------------------
// more.js, once views.js has fetched it after the first drawing.
let more = null;
export function useMore(module) {
  more = module;
}

// Each view's size on the screen, kept up to date without asking for a layout.
const sizes = new WeakMap();
const resized = new ResizeObserver((entries) => {
  for (const entry of entries) sizes.set(entry.target, entry.contentRect);
});
export const sizeOf = (svg) => sizes.get(svg) || svg.getBoundingClientRect();

// A view's three layers and what each holds: a redraw writes only what changed.
const memory = new WeakMap();
function layers(svg) {
  let mem = memory.get(svg);
  if (!mem || mem.things.parentNode !== svg) {
    svg.innerHTML = '<g class="cl-under"></g><g class="cl-things"></g><g class="cl-over"></g>';
    const [under, things, over] = svg.children;
    mem = {under, things, over, underHtml: null, overHtml: null, viewBox: null,
           nodes: new Map(), geometry: null, order: null};
    memory.set(svg, mem);
    resized.observe(svg);
  }
  return mem;
}
const scratch = document.createElementNS(NS, "svg");

// The table's corners: round every block and place, a square and a half beyond.
function tableOf(boxes) {
  let x0 = 0, x1 = 4, y0 = 0, y1 = 2;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.w); y1 = Math.max(y1, b.y + b.d);
  }
  return {x0: x0 - 1.5, y0: y0 - 1.5, x1: x1 + 1.5, y1: y1 + 1.5};
}

// What a view shows: the blocks (the first ``upto`` of the build order; not the block whose
// places are asked, ``chosen``), the ghosts, the boxes to order, the table round them.
function sceneOf(tower, opts) {
  let blocks = tower.blocks;
  if (opts.upto !== undefined && tower.order) {
    const shown = new Set(tower.order.slice(0, opts.upto));
    blocks = blocks.filter((b) => shown.has(b.id));
  }
  const chosen = opts.chosenGhost ? blocks.find((b) => b.id === opts.chosen) : null;
  if (opts.chosenGhost) blocks = blocks.filter((b) => b.id !== opts.chosen);
  const ghosts = opts.ghosts || [];
  const boxes = blocks.slice();
  for (const g of ghosts) if (g.key === opts.ghost) boxes.push(Object.assign({kind: "ghost", id: `ghost ${g.key}`}, g));
  return {blocks, chosen, ghosts, boxes, table: tableOf(tower.blocks.concat(ghosts))};
}

// The painter's order of the scene's boxes, kept in the view's memory ([id, rectangle]
// each) while nothing moves; returns the geometry it stands for.
function ordered(v, boxes) {
  const geometry = `${v.angle}|` + boxes.map((b) => `${b.id} ${b.x} ${b.y} ${b.z} ${b.w} ${b.d} ${b.h}`).join(";");
  if (v.mem.geometry !== geometry) {
    const rects = boxes.map((b) => outline(b, v.cam));
    v.mem.order = paintOrder(boxes, rects, v.cam).map((i) => [boxes[i].id, rects[i]]);
    v.mem.geometry = geometry;
  }
  return geometry;
}

// What a box's node is made of (``sign``: its faces, redrawn when they change) and what the
// question makes of it (``look``: its classes, its name, the faint stone, dressed in place).
function looks(v, box, geometry) {
  if (box.kind === "ghost") return {classes: "", sign: geometry, look: ""};
  const {opts} = v;
  const classes = blockClasses(box, opts);
  const stone = opts.stones && opts.stones.has(box.id) ? opts.stoneColour : "";
  return {classes, sign: `${v.angle}|${box.rec}|${opts.letters ? 1 : 0}`,
          look: `${classes}|${blockName(box.id, opts)}|${stone}`};
}

function boxSvg(v, box, classes) {
  if (box.kind !== "ghost") return blockSvg(box, v.cam, v.tower, v.opts, classes);
  return `<g class="cl-ghost chosen" data-ghost="${box.key}">` +
    faces(box, v.cam).map(([, c]) => `<polygon points="${pts(v.cam, c)}"/>`).join("") + "</g>";
}

// The boxes' nodes in the painter's order: a node whose faces still hold is kept (more.js
// dresses it anew), the others made in a detached SVG. Grows the frame and the obstacles.
function boxNodes(v, boxes, geometry, frame, obstacles) {
  const byId = new Map(boxes.map((b) => [b.id, b]));
  const nodes = [], fresh = [];
  for (const [id, rect] of v.mem.order) {
    const box = byId.get(id);
    obstacles.push(rect);
    grow(frame, rect);
    const {classes, sign, look} = looks(v, box, geometry);
    const known = v.mem.nodes.get(id);
    if (known && known.sign === sign && (known.look === look || more)) {
      if (known.look !== look) { more.dress(known.node, box, v.cam, v.opts, classes); known.look = look; }
      nodes.push(known.node);
      continue;
    }
    fresh.push({id, sign, look, at: nodes.length, html: boxSvg(v, box, classes)});
    nodes.push(null);
  }
  if (fresh.length) {
    scratch.innerHTML = fresh.map((f) => f.html).join("");
    const made = [...scratch.children];
    fresh.forEach(({id, sign, look, at}, i) => {
      nodes[at] = made[i];
      v.mem.nodes.set(id, {sign, look, node: made[i]});
    });
  }
  for (const id of [...v.mem.nodes.keys()]) if (!byId.has(id)) v.mem.nodes.delete(id);
  return nodes;
}

// What is drawn over the blocks, before the ghosts' handles and the mark (a build step
// has no ladders nor figures).
function overSvg(v, scene, frame, obstacles) {
  const {cam, opts, tower} = v;
  const over = scene.blocks.filter((b) => b.stays).map((b) => staysSvg(b, cam));
  for (const sq of opts.reach || []) over.push(...reachSvg(sq, cam, opts));
  for (const way of opts.ways || []) over.push(waySvg(way, cam, opts));
  if (opts.upto !== undefined) return over;
  for (const l of tower.ladders) over.push(ladderSvg(l, cam, frame));
  return over.concat(figuresSvg(tower, cam, scene.table, frame, obstacles));
}

export const MARGIN = UNIT * 0.8;  // round the tower and its figures in the picture

// The layers and the viewBox written where they changed.
function write(mem, svg, under, over, viewBox) {
  if (mem.underHtml !== under) { mem.under.innerHTML = under; mem.underHtml = under; }
  if (mem.overHtml !== over) { mem.over.innerHTML = over; mem.overHtml = over; }
  if (mem.viewBox !== viewBox) { svg.setAttribute("viewBox", viewBox); mem.viewBox = viewBox; }
}

// The tower drawn into ``svg`` from ``angle``. opts: upto (the first blocks of the build
// order only), mark (the block outlined; in a build step, what stands in front of it is
// drawn see-through), letters, lit (block ids), reach (squares lit for a walk), ways,
// stones, ghosts (places a block may go), chosen, zoom.
export function draw(svg, tower, angle, opts) {
  const v = {svg, tower, angle, opts, cam: camera(angle), mem: layers(svg)};
  const scene = sceneOf(tower, opts);
  const geometry = ordered(v, scene.boxes);
  if (opts.upto !== undefined && more) opts.seeThrough = more.inFront(v.mem.order, opts.mark);
  const frame = {x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity};
  const obstacles = [];
  const nodes = boxNodes(v, scene.boxes, geometry, frame, obstacles);
  if (more) more.arrange(v.mem.things, nodes);
  else v.mem.things.replaceChildren(...nodes);
  // A build step is framed to the whole tower, so each step is drawn at the same size.
  if (opts.upto !== undefined) for (const b of tower.blocks) grow(frame, outline(b, v.cam));
  for (const g of scene.ghosts) grow(frame, outline({x: g.x, y: g.y, z: g.z + g.h, w: g.w, d: g.d, h: 0}, v.cam));
  const over = overSvg(v, scene, frame, obstacles);
  if (!Number.isFinite(frame.x0)) Object.assign(frame, {x0: -UNIT, x1: UNIT, y0: -UNIT, y1: UNIT});
  if (more) over.push(...more.marks(v, scene, frame, obstacles, geometry));
  let frameBox = [frame.x0 - MARGIN, frame.y0 - MARGIN, frame.x1 - frame.x0 + 2 * MARGIN, frame.y1 - frame.y0 + 2 * MARGIN];
  if (opts.zoom && more) {
    const [view, zoom] = more.zoomIn(opts.zoom, sizeOf(svg), frameBox);
    frameBox = view;
    over.push(zoom);
  }
  svg.classList.toggle("cl-zooming", Boolean(opts.zoom));
  const {x0, y0, x1, y1} = scene.table;
  const under = `<polygon class="cl-table" points="${pts(v.cam, [[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]])}"/>`;
  write(v.mem, svg, under, over.join(""), frameBox.map(r1).join(" "));
}
