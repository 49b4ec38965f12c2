// What The Climbers' tower needs after its first drawing, fetched then (views.js) and
// handed to the painting (paint.js's useMore): the ghost places laid out (each a target of
// its own, every place shown from one of the four quarter turns) and the zoom over crowded
// ones, the table screen's mark, a build step's see-through blocks, and a redraw that
// dresses and moves few nodes after a push.
import {camera, grow, meets} from "./projection.js";
import {MARGIN, NS, blockName, esc, pts, r1, sizeOf, stoneGhost} from "./paint.js";

// Whether a block hides the point (x, y, z) from the viewer: the line from it towards
// the viewer passes through the block.
function hides(b, p, toward) {
  let t0 = 1e-6, t1 = Infinity;
  const lo = [b.x, b.y, b.z], hi = [b.x + b.w, b.y + b.d, b.z + b.h];
  for (let i = 0; i < 3; i++) {
    if (Math.abs(toward[i]) < 1e-9) {
      if (p[i] <= lo[i] + 1e-6 || p[i] >= hi[i] - 1e-6) return false;
      continue;
    }
    let a = (lo[i] - p[i]) / toward[i], c = (hi[i] - p[i]) / toward[i];
    if (a > c) [a, c] = [c, a];
    if (a > t0) t0 = a;
    if (c < t1) t1 = c;
    if (t1 - t0 <= 1e-6) return false;
  }
  return true;
}
const seen = (p, blocks, toward) => !blocks.some((b) => hides(b, p, toward));

// The points of a ghost this viewer sees, best first: the middle of its top, of each side
// it shows, then of each quarter of its top; none when blocks hide them all.
function handlePoints(g, cam, blocks) {
  const cx = g.x + g.w / 2, cy = g.y + g.d / 2, top = g.z + g.h, mid = g.z + g.h / 2;
  const points = [[cx, cy, top]];
  if (cam.dx > 1e-6) points.push([g.x + g.w, cy, mid]);
  if (cam.dx < -1e-6) points.push([g.x, cy, mid]);
  if (cam.dy > 1e-6) points.push([cx, g.y + g.d, mid]);
  if (cam.dy < -1e-6) points.push([cx, g.y, mid]);
  for (const [qx, qy] of [[0.25, 0.25], [0.75, 0.25], [0.75, 0.75], [0.25, 0.75]]) {
    points.push([g.x + g.w * qx, g.y + g.d * qy, top]);
  }
  return points.filter((p) => seen(p, blocks, cam.toward));
}

const HANDLE_PX = 7;     // a ghost's handle: its radius on the screen, in pixels
const APART_PX = 26;     // and how far apart the large handles' middles are at least
const SMALL_PX = 4;      // the radius of the handles of the places crowded between them
const SMALL_APART_PX = 11;

// The ghosts' handles from this viewer: the places nearest the block's own first, each
// a large handle where it shows at least APART_PX from every large handle before it;
// the places crowded out get a small handle where one fits, apart from all the others;
// then, closer, where a small handle's middle stays clear of every other handle, the
// rest, a place a block hides with a hollow handle over that block. Those ``squeeze``
// names (no quarter turn has room for them) go where they show, room or not. A ghost
// left without room here is kept hidden: a turn shows it.
function placeHandles(ghosts, cam, blocks, chosen, scale, squeeze) {
  const from = chosen ? [chosen.x + chosen.w / 2, chosen.y + chosen.d / 2, chosen.z] : null;
  const near = (g) => (from ? Math.hypot(g.x + g.w / 2 - from[0], g.y + g.d / 2 - from[1], g.z - from[2]) : 0);
  const order = ghosts.map((g, i) => [near(g), i]).sort((a, b) => a[0] - b[0]).map(([, i]) => i);
  // where a ghost shows, and its top's middle (for a place a block hides: its handle
  // is drawn over that block, hollow)
  const seenAt = ghosts.map((g) => handlePoints(g, cam, blocks).map((p) => cam.point(...p)));
  const topAt = ghosts.map((g) => cam.point(g.x + g.w / 2, g.y + g.d / 2, g.z + g.h));
  const grid = new Map();
  const cellSize = APART_PX / scale;
  const near2 = (x, y, apart) => {
    const i = Math.floor(x / cellSize), j = Math.floor(y / cellSize);
    for (let a = i - 1; a <= i + 1; a++) for (let b = j - 1; b <= j + 1; b++) {
      for (const [px, py, need] of grid.get(`${a},${b}`) || []) {
        if (Math.hypot(px - x, py - y) < Math.max(apart, need)) return true;
      }
    }
    return false;
  };
  const put = (x, y, need) => {
    const key = `${Math.floor(x / cellSize)},${Math.floor(y / cellSize)}`;
    if (!grid.has(key)) grid.set(key, []);
    grid.get(key).push([x, y, need]);
  };
  const out = new Array(ghosts.length).fill(null);
  const passes = [[APART_PX, true], [SMALL_APART_PX, false], [SMALL_PX + 2, false]];
  for (const [pass, [apart, large]] of passes.entries()) {
    for (const i of order) {
      if (out[i]) continue;
      const clear = ([x, y]) => !near2(x, y, apart / scale);
      let at = seenAt[i].find(clear);
      let behind = false;
      if (!at && pass === 2 && !seenAt[i].length && clear(topAt[i])) { at = topAt[i]; behind = true; }
      // those no quarter turn has room for: at least where they show
      if (!at && pass === 2 && squeeze.has(i)) { at = seenAt[i][0] || topAt[i]; behind = !seenAt[i].length; }
      if (!at) continue;
      // a large handle keeps the small ones a small handle's width off its rim
      put(at[0], at[1], large ? (HANDLE_PX + SMALL_PX + 2) / scale : 0);
      out[i] = {sx: at[0], sy: at[1], large, behind, px: large ? HANDLE_PX : SMALL_PX};
    }
  }
  return out;
}

// The ghosts that none of the four quarter turns from ``angle`` gives room for, each
// squeezed in on the first turn (from the north round) that sees it, and the scale the
// handles are spaced at on every turn (the first drawing's): both kept while the ghosts,
// the blocks and the turn (give or take quarters) stay the same.
let squeezed = {key: null};
const rank = (a) => Math.round(((a % 360) + 360) % 360);
function squeezeIn(ghosts, angle, blocks, chosen, scale, key) {
  if (squeezed.key !== key) {
    const turns = [0, 90, 180, 270].map((q) => angle + q).sort((a, b) => rank(a) - rank(b));
    const left = new Set(ghosts.keys());
    for (const a of turns) {
      placeHandles(ghosts, camera(a), blocks, chosen, scale, new Set())
        .forEach((p, i) => { if (p) left.delete(i); });
    }
    const on = new Map();
    for (const i of left) {
      const first = turns.find((a) => handlePoints(ghosts[i], camera(a), blocks).length);
      on.set(i, rank(first === undefined ? angle : first));
    }
    squeezed = {key, scale, on};
  }
  const here = new Set();
  for (const [i, a] of squeezed.on) if (a === rank(angle)) here.add(i);
  return [here, squeezed.scale];
}

// The ghosts' faint tops and handles seen from ``angle``, as markup: each handle where
// placeHandles puts it (a tap takes the one nearest the finger); a ghost hidden here
// keeps a handle that is not drawn.
function ghosts({ghosts, angle, blocks, chosen, scale, opts, key}) {
  const cam = camera(angle);
  const [squeeze, spacing] = squeezeIn(ghosts, angle, blocks, chosen, scale,
                                       `${key}|${rank(angle) % 90}`);
  const at = placeHandles(ghosts, cam, blocks, chosen, spacing, squeeze);
  const tops = [], shown = [], hidden = [];
  ghosts.forEach((g, i) => {
    const p = at[i];
    const z = g.z + g.h;
    if (!p) {
      const [cx, cy] = cam.point(g.x + g.w / 2, g.y + g.d / 2, z);
      hidden.push(`<circle class="cl-ghost-dot hid" data-ghost="${g.key}" cx="${r1(cx)}" cy="${r1(cy)}" r="1"/>`);
      return;
    }
    tops.push(`<polygon class="cl-ghost-top" points="${pts(cam, [[g.x, g.y, z], [g.x + g.w, g.y, z], [g.x + g.w, g.y + g.d, z], [g.x, g.y + g.d, z]])}"/>`);
    const label = (opts.ghostLabel || "").replace("{n}", i + 1).replace("{total}", ghosts.length);
    const act = opts.ghostPick ? ` tabindex="0" role="button" aria-label="${esc(label)}"` : "";
    const kind = (p.large ? "" : " small") + (p.behind ? " behind" : "");
    shown.push([p.large, `<circle class="cl-ghost-dot${kind}" data-ghost="${g.key}"${act} cx="${r1(p.sx)}" cy="${r1(p.sy)}" r="${r1(p.px / scale)}"/>`]);
  });
  // the large handles last: drawn over the small ones
  return tops.concat(hidden, shown.filter((h) => !h[0]).map((h) => h[1]), shown.filter((h) => h[0]).map((h) => h[1])).join("");
}

// The zoom over crowded targets: each target under the finger (a ghost place, a lit top, a
// ladder way, a figure, the block touched) a handle a finger's width across, spread on
// rings round the tap in the order the targets lie round it, with a line to the spot
// where the target is drawn, over a veil that pales the rest. ``picks``: {x, y, mark,
// label, means, ghost (a place's key), off (a target that answers only why not)}, nearest
// the tap first, x and y in the drawing's units; ``centre``: the tap; ``unit``: one CSS
// pixel in the drawing's units once zoomed; ``room``: half the view's smaller side in
// pixels; ``view``: the zoomed viewBox. Targets past the rings' room (more than fit round
// one finger) are left out.
const ZOOM_HANDLE_PX = 23;   // a zoomed handle's radius: 46 px across, past a finger's width
const ZOOM_APART_PX = 54;    // how far apart the zoomed handles' middles are at least
const ZOOM_CLEAR_PX = 10;    // and how far a handle's rim stays off every place's spot
const ZOOM_EDGE_PX = 6;      // and inside the view's edge

// The rings round the tap, [radius, places on it] in pixels, the first one clear of the
// spots (which lie within ``spread`` of the tap) and the last one inside ``room``.
function zoomRings(count, spread, room) {
  const rings = [];
  for (let r = spread + ZOOM_CLEAR_PX + ZOOM_HANDLE_PX; count > 0; r += ZOOM_APART_PX) {
    if (r + ZOOM_HANDLE_PX + ZOOM_EDGE_PX > room && rings.length) break;
    // as many as keep their middles ZOOM_APART_PX apart along the ring
    const fits = Math.min(count, Math.floor(Math.PI / Math.asin(Math.min(1, ZOOM_APART_PX / (2 * r)))));
    rings.push([r, fits]);
    count -= fits;
  }
  return rings;
}

// How much larger a zoom shows the tower: ``most`` times, or less where the ring of
// handles round the tap (whose places lie ``spread`` px from it before the zoom) would
// not fit within ``room`` px of it: a phone held sideways gives its tower little height.
const zoomScale = (spread, room, most) =>
  Math.max(1.5, Math.min(most, (room - ZOOM_EDGE_PX - ZOOM_CLEAR_PX - 2 * ZOOM_HANDLE_PX) / Math.max(spread, 1)));

// A zoomed handle at (hx, hy) for the target ``pick`` (the ``index``-th), its line to where
// the target is drawn.
function zoomPick({x, y, mark, label, means, ghost, off}, index, [hx, hy], unit) {
  const kind = off ? " off" : "";
  const place = ghost ? ` data-ghost="${esc(ghost)}"` : "";
  return `<g class="cl-zoom-pick${kind}" data-pick="${index}" data-means="${esc(means)}"${place} tabindex="0" role="button" aria-label="${esc(label)}">` +
    `<line class="cl-zoom-lead" x1="${r1(x)}" y1="${r1(y)}" x2="${r1(hx)}" y2="${r1(hy)}" stroke-width="${r1(2 * unit)}"/>` +
    `<circle class="cl-zoom-spot" cx="${r1(x)}" cy="${r1(y)}" r="${r1(4 * unit)}" stroke-width="${r1(1.5 * unit)}"/>` +
    `<circle class="cl-zoom-dot" cx="${r1(hx)}" cy="${r1(hy)}" r="${r1(ZOOM_HANDLE_PX * unit)}" stroke-width="${r1(3 * unit)}"/>` +
    `<text class="cl-zoom-num" x="${r1(hx)}" y="${r1(hy)}" font-size="${r1(17 * unit)}">${esc(mark)}</text></g>`;
}

function zoomSvg({picks, centre, unit, room, view}) {
  const [cx, cy] = centre;
  const spread = Math.max(...picks.map((p) => Math.hypot(p.x - cx, p.y - cy))) / unit;
  const rings = zoomRings(picks.length, spread, room);
  const out = [`<rect class="cl-zoom-veil" x="${r1(view[0])}" y="${r1(view[1])}" width="${r1(view[2])}" height="${r1(view[3])}"/>`];
  let from = 0;
  for (const [radius, fits] of rings) {
    // this ring's places round the tap, each on its own slot, the slots turned to lie
    // as near as they can to where the places are
    const group = picks.slice(from, from + fits)
      .map((p, i) => [Math.atan2(p.y - cy, p.x - cx), p, from + i]).sort((a, b) => a[0] - b[0]);
    from += fits;
    const step = 2 * Math.PI / group.length;
    let sin = 0, cos = 0;
    group.forEach(([a], i) => { sin += Math.sin(a - i * step); cos += Math.cos(a - i * step); });
    const turn = Math.atan2(sin, cos);
    group.forEach(([, pick, index], i) => {
      const a = turn + i * step;
      out.push(zoomPick(pick, index, [cx + Math.cos(a) * radius * unit, cy + Math.sin(a) * radius * unit], unit));
    });
  }
  return `<g class="cl-zoom">${out.join("")}</g>`;
}

const ZOOM = 3;  // how much larger the zoom shows the tower, at most

// A view ``size`` on the screen (its ``frameBox`` the whole tower) zoomed in round a tap:
// ZOOM times larger (less where the handles round the tap would not fit in the view),
// centred on the tap: its viewBox and markup.
export function zoomIn({centre, picks}, size, frameBox) {
  const fit = Math.min(size.width / frameBox[2], size.height / frameBox[3]);
  const [cx, cy] = centre;
  const room = Math.min(size.width, size.height) / 2;
  const spread = Math.max(...picks.map(({x, y}) => Math.hypot(x - cx, y - cy))) * fit;
  const px = fit * zoomScale(spread, room, ZOOM);
  const view = [cx - size.width / 2 / px, cy - size.height / 2 / px, size.width / px, size.height / px];
  return [view, zoomSvg({picks, centre: [cx, cy], unit: 1 / px, view, room})];
}

// The table screen's mark: an arrow towards the screen's side and the words, put on the
// picture on that side of the tower, as near it as it goes without covering a block or a
// figure, so it is always in sight and hides nothing (a tap goes through it).
const MARK_FONT = 5;
function screenMark(words, cam, frame, obstacles) {
  const w = MARK_FONT * (1.4 + 0.66 * [...words].length), h = MARK_FONT * 1.5;
  const len = Math.hypot(cam.north[0], cam.north[1]) || 1;
  const ux = cam.north[0] / len, uy = cam.north[1] / len;
  const cx = (frame.x0 + frame.x1) / 2, cy = (frame.y0 + frame.y1) / 2;
  const gap = 1.5;
  const box = (t) => ({x0: cx + ux * t - w / 2, x1: cx + ux * t + w / 2,
                       y0: cy + uy * t - h / 2, y1: cy + uy * t + h / 2});
  const free = (t) => { const r = box(t); r.x0 -= gap; r.x1 += gap; r.y0 -= gap; r.y1 += gap;
                        return !obstacles.some((o) => meets(o, r)); };
  // from just outside the frame, in towards the tower while nothing is covered
  const out = Math.min(Math.abs(ux) > 1e-6 ? ((frame.x1 - frame.x0) / 2 + w / 2 + gap) / Math.abs(ux) : Infinity,
                       Math.abs(uy) > 1e-6 ? ((frame.y1 - frame.y0) / 2 + h / 2 + gap) / Math.abs(uy) : Infinity);
  let t = out;
  while (t - 1 > 0 && free(t - 1)) t -= 1;
  const r = box(t);
  grow(frame, r);
  const ax = r.x0 + MARK_FONT * 0.6, ay = (r.y0 + r.y1) / 2;
  const s = MARK_FONT * 0.6;  // the arrow: a narrow triangle pointing towards the screen
  const tip = [ax + ux * s, ay + uy * s], left = [ax - ux * s * 0.8 - uy * s * 0.55, ay - uy * s * 0.8 + ux * s * 0.55],
        right = [ax - ux * s * 0.8 + uy * s * 0.55, ay - uy * s * 0.8 - ux * s * 0.55];
  return `<g class="cl-side"><path d="M${[tip, left, right].map((p) => p.map(r1).join(" ")).join("L")}z"/>` +
    `<text x="${r1(r.x0 + MARK_FONT * 1.4)}" y="${r1(ay)}">${esc(words)}</text></g>`;
}

// What a view ``v`` being drawn (paint.js's draw) has over the rest: the other ghosts'
// handles, spaced for its size on the screen, then the table screen's mark (on a phone's
// views and the build steps), placed first: the handles are spaced in the frame it grows.
export function marks(v, scene, frame, obstacles, geometry) {
  const {svg, tower, opts} = v;
  const shown = tower.screen && opts.letters && (svg.dataset.view !== "screen" || opts.upto !== undefined);
  const mark = shown ? screenMark(tower.screen, v.cam, frame, obstacles) : "";
  if (opts.ghost || !scene.ghosts.length) return [mark];
  const size = sizeOf(svg);
  const scale = Math.min(size.width / (frame.x1 - frame.x0 + 2 * MARGIN),
                         size.height / (frame.y1 - frame.y0 + 2 * MARGIN)) || 1;
  return [ghosts({ghosts: scene.ghosts, angle: v.angle, blocks: scene.blocks, chosen: scene.chosen,
                  scale, opts, key: `${opts.ghostsSaid}|${geometry.slice(geometry.indexOf("|"))}`}), mark];
}

// The blocks drawn over block ``id`` (after it in the painter's ``order``, where their
// pictures meet): a build step draws them see-through, so its new block shows whole.
export function inFront(order, id) {
  const at = order.findIndex(([one]) => one === id);
  if (at < 0) return new Set();
  const rect = order[at][1];
  return new Set(order.slice(at + 1).filter(([, r]) => meets(r, rect)).map(([one]) => one));
}

// A block's node drawn before, dressed for what the question asks of it now (its
// classes, its name, the faint stone): its faces stay, so the browser styles and lays out
// a few attributes, not a new node.
export function dress(node, b, cam, opts, classes) {
  const name = blockName(b.id, opts);
  const set = (attr, value) => {
    if (value === null) node.removeAttribute(attr);
    else if (node.getAttribute(attr) !== value) node.setAttribute(attr, value);
  };
  set("class", classes);
  set("tabindex", name ? "0" : null);
  set("role", name ? "button" : null);
  set("aria-label", name || null);
  const want = opts.stones && opts.stones.has(b.id) ? stoneGhost(b, cam, opts.stoneColour) : null;
  const old = node.querySelector(":scope > .cl-stone-ghost");
  if (old && want && old.getAttribute("stroke") === want[want.length - 1][1]) return;
  if (old) old.remove();
  if (!want) return;
  const ghost = document.createElementNS(NS, "ellipse");
  for (const [attr, value] of want) ghost.setAttribute(attr, value);
  node.insertBefore(ghost, node.querySelector(":scope > .cl-stone"));
}

// ``nodes`` in this order as the children of ``parent``, moving as few as it can: those
// along the longest run already in order stay where they are.
export function arrange(parent, nodes) {
  const wanted = new Set(nodes);
  for (const child of [...parent.children]) if (!wanted.has(child)) child.remove();
  const at = new Map();
  [...parent.children].forEach((child, i) => at.set(child, i));
  const seq = nodes.map((n) => (at.has(n) ? at.get(n) : -1));
  // the longest increasing run of positions (patience sorting)
  const tails = [], prev = new Array(seq.length).fill(-1), tailAt = [];
  seq.forEach((v, i) => {
    if (v < 0) return;
    let lo = 0, hi = tails.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (tails[mid] < v) lo = mid + 1; else hi = mid; }
    tails[lo] = v; tailAt[lo] = i; prev[i] = lo ? tailAt[lo - 1] : -1;
  });
  const keep = new Set();
  for (let i = tailAt[tails.length - 1] ?? -1; i >= 0; i = prev[i]) keep.add(i);
  let next = null;
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (!keep.has(i)) parent.insertBefore(nodes[i], next);
    next = nodes[i];
  }
}
