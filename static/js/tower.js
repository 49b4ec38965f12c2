// The Climbers' tower in 3-D, drawn in the browser from the records the server sends
// (#cl-td, see companion/web/games/climbers_tower.py), seen from where each viewer sits.
//
// An own SVG projection: the blocks are boxes on a grid, drawn face by face in the
// painter's order (a block behind another is drawn first), each face a <polygon> carrying
// its block's id: a tap is read at the point the finger touched, the front-most face there,
// or the zoom where small targets crowd under the finger (tower-taps.js). A swipe turns the
// tower by projecting it again; "My side" turns it back. Figures are drawn last, through
// any block in front of them. What a phone's question lights up (the blocks it may move,
// the tops its figure can walk to, the places a block may go) comes from #cl-ask.
(() => {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const FILL = {red: "#d62828", yellow: "#f4c20d", "dark-blue": "#1d3557",
                "light-blue": "#8ecae6", violet: "#7b2cbf", grey: "#9e9e9e"};
  const DARK = new Set(["red", "dark-blue", "violet"]);
  const ELEVATION = 0.62;  // radians above the table the viewer looks from
  const UNIT = 10;         // one square across, in the picture's units
  // Where the table screen is from a player, as the angle they see the tower from
  // (0: from the table screen's side, north), turned a little so two sides show.
  const SIDES = {behind: 0, right: 90, ahead: 180, left: 270};
  const QUARTER = 30;

  const shades = {};
  function shade(colour, factor) {
    const key = colour + factor;
    if (!shades[key]) {
      const hex = FILL[colour] || FILL.grey;
      const c = [1, 3, 5].map((i) => Math.round(parseInt(hex.slice(i, i + 2), 16) * factor));
      shades[key] = `rgb(${c.join(",")})`;
    }
    return shades[key];
  }

  // --- the records -------------------------------------------------------------------
  function read(data) {
    const blocks = [];
    const figures = [];
    const ladders = [];
    let order = null;
    for (const el of data.children) {
      const d = el.dataset;
      if (d.b) {
        const p = d.b.split(" ");
        const n = p.slice(2, 8).map(Number);
        blocks.push({id: p[0], rec: d.b, kind: p[1], x: n[0], y: n[1], z: n[2], w: n[3], d: n[4], h: n[5],
                     top: p[8], bottom: p[9], east: p[10], west: p[11], north: p[12],
                     south: p[13], stone: p[14] === "-" ? null : p[14], moved: p[15] === "1",
                     stays: p[15] === "2"});
      } else if (d.f) {
        const p = d.f.split(" ");
        figures.push({seat: +p[0], letter: p[1], colour: p[2], name: el.title,
                      x: p[3] === "-" ? null : +p[3], y: p[4] === "-" ? null : +p[4], z: +p[5]});
      } else if (d.l) {
        const p = d.l.split(" ");
        const end = (i) => (p[i] === "-" ? null : {x: +p[i], y: +p[i + 1], z: +p[i + 2]});
        ladders.push({name: p[0], foot: end(1), top: end(4)});
      } else if (d.o) {
        order = d.o.split(" ");
      }
    }
    const letters = {};
    const pairs = (data.dataset.letters || "").split(" ");
    for (let i = 0; i + 1 < pairs.length; i += 2) letters[pairs[i]] = pairs[i + 1];
    return {blocks, figures, ladders, order, letters, screen: data.dataset.screen || ""};
  }

  // --- the projection ----------------------------------------------------------------
  function camera(angle) {
    const a = (angle * Math.PI) / 180;
    const sin = Math.sin(a);
    const cos = Math.cos(a);
    const se = Math.sin(ELEVATION);
    const ce = Math.cos(ELEVATION);
    // toward the viewer across the table (dx, dy), and the picture's right (rx, ry)
    const dx = sin, dy = cos, rx = -cos, ry = sin;
    return {
      dx, dy,
      // the way to the viewer, in the tower's space (what lies along it hides a point)
      toward: [dx * ce, dy * ce, se],
      // the picture's way to the table screen's side (north)
      north: [UNIT * ry, UNIT * dy * se],
      point: (x, y, z) => [UNIT * (x * rx + y * ry), UNIT * ((x * dx + y * dy) * se - z * ce)],
      depth: (x, y, z) => (x * dx + y * dy) * ce + z * se,
    };
  }

  // Whether box a stands behind box b along an axis that parts them; 0 when none says.
  function behind(a, b, cam) {
    const eps = 1e-6;
    if (a.x + a.w <= b.x && Math.abs(cam.dx) > eps) return cam.dx > 0 ? 1 : -1;
    if (b.x + b.w <= a.x && Math.abs(cam.dx) > eps) return cam.dx > 0 ? -1 : 1;
    if (a.y + a.d <= b.y && Math.abs(cam.dy) > eps) return cam.dy > 0 ? 1 : -1;
    if (b.y + b.d <= a.y && Math.abs(cam.dy) > eps) return cam.dy > 0 ? -1 : 1;
    if (a.z + a.h <= b.z) return 1;
    if (b.z + b.h <= a.z) return -1;
    return 0;
  }

  // The rectangle a box covers on the picture.
  function outline(box, cam) {
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const x of [box.x, box.x + box.w]) for (const y of [box.y, box.y + box.d]) {
      for (const z of [box.z, box.z + box.h]) {
        const [sx, sy] = cam.point(x, y, z);
        if (sx < x0) x0 = sx;
        if (sx > x1) x1 = sx;
        if (sy < y0) y0 = sy;
        if (sy > y1) y1 = sy;
      }
    }
    return {x0, x1, y0, y1};
  }

  const meets = (a, b) => !(a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0);
  function grow(frame, r) {
    if (r.x0 < frame.x0) frame.x0 = r.x0;
    if (r.x1 > frame.x1) frame.x1 = r.x1;
    if (r.y0 < frame.y0) frame.y0 = r.y0;
    if (r.y1 > frame.y1) frame.y1 = r.y1;
  }

  // The boxes in the painter's order: each after every box it hides part of.
  function paintOrder(boxes, rects, cam) {
    const n = boxes.length;
    const after = boxes.map(() => []);
    const count = new Array(n).fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (!meets(rects[i], rects[j])) continue;
        const s = behind(boxes[i], boxes[j], cam);
        if (s > 0) { after[i].push(j); count[j]++; }
        else if (s < 0) { after[j].push(i); count[i]++; }
      }
    }
    const depth = boxes.map((b) => cam.depth(b.x + b.w / 2, b.y + b.d / 2, b.z + b.h / 2));
    const ready = [];
    for (let i = 0; i < n; i++) if (!count[i]) ready.push(i);
    const out = [];
    const done = new Array(n).fill(false);
    while (out.length < n) {
      if (!ready.length) {  // a cycle (never between boxes on a grid): the nearest last
        let far = -1;
        for (let i = 0; i < n; i++) if (!done[i] && (far < 0 || depth[i] < depth[far])) far = i;
        ready.push(far);
        count[far] = 0;
      }
      ready.sort((p, q) => depth[q] - depth[p]);
      const i = ready.pop();
      if (done[i]) continue;
      done[i] = true;
      out.push(i);
      for (const j of after[i]) if (--count[j] === 0 && !done[j]) ready.push(j);
    }
    return out;
  }

  // --- drawing -----------------------------------------------------------------------
  const r1 = (v) => Math.round(v * 10) / 10;
  const pts = (cam, corners) => corners.map(([x, y, z]) => cam.point(x, y, z).map(r1).join(",")).join(" ");
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));

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

  function blockName(id, opts) {
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
  function stoneGhost(b, cam, colour) {
    const [cx, cy] = cam.point(b.x + b.w / 2, b.y + b.d / 2, b.z + b.h);
    return [["class", "cl-stone-ghost"], ["cx", r1(cx)], ["cy", r1(cy)], ["rx", UNIT * 0.7], ["ry", UNIT * 0.45],
            ["stroke", FILL[colour] || "#fff"]];
  }

  function blockSvg(b, cam, tower, opts, classes) {
    const stoneSpot = opts.stones && opts.stones.has(b.id);
    const name = blockName(b.id, opts);
    let g = `<g class="${classes}" data-block="${b.id}"` +
      (name ? ` tabindex="0" role="button" aria-label="${esc(name)}">` : ">");
    for (const [face, corners, light] of faces(b, cam)) {
      const colour = b[face];
      g += `<polygon points="${pts(cam, corners)}" fill="${shade(colour, light)}" data-face="${face}"/>`;
      if (opts.letters) {
        const [cx, cy] = centre(cam, corners);
        const ink = DARK.has(colour) ? "#fff" : "#111";
        g += `<text x="${r1(cx)}" y="${r1(cy)}" fill="${ink}" class="cl-ltr" data-colour="${colour}">${esc(tower.letters[colour] || "")}</text>`;
      }
    }
    if (stoneSpot) g += `<ellipse ${stoneGhost(b, cam, opts.stoneColour).map(([k, v]) => `${k}="${v}"`).join(" ")}/>`;
    if (b.stone) {
      const [cx, cy] = cam.point(b.x + b.w / 2, b.y + b.d / 2, b.z + b.h);
      g += `<g class="cl-stone"><ellipse cx="${r1(cx)}" cy="${r1(cy)}" rx="${UNIT * 0.7}" ry="${UNIT * 0.45}" fill="#111" stroke="${FILL[b.stone] || "#fff"}" stroke-width="2.5"/>` +
           `<path d="M${r1(cx - 4)} ${r1(cy - 2.5)}l8 5m0 -5l-8 5" stroke="#fff" stroke-width="1.5"/></g>`;
    }
    return g + "</g>";
  }

  // A block's node drawn before, dressed for what the question asks of it now (its
  // classes, its name, the faint stone): its faces stay, so the browser styles and lays out
  // a few attributes, not a new node.
  function dress(node, b, cam, opts, classes) {
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

  const PAWN_H = UNIT * 2.6, PAWN_W = UNIT * 0.55, HEAD = UNIT * 0.62;
  // The rectangle a pawn standing at (sx, sy) on the picture covers, its outline included.
  const pawnBox = ([sx, sy]) => ({x0: sx - PAWN_W - 1.5, x1: sx + PAWN_W + 1.5,
                                  y0: sy - PAWN_H * 0.85 - HEAD - 1.5, y1: sy + 1.5});

  function pawn(f, at) {
    const [sx, sy] = at;
    const h = PAWN_H, w = PAWN_W;
    const ink = DARK.has(f.colour) ? "#fff" : "#111";
    const body = `M${r1(sx - w)} ${r1(sy)}q0 ${r1(-h * 0.55)} ${r1(w * 0.45)} ${r1(-h * 0.7)}h${r1(w * 1.1)}q${r1(w * 0.45)} ${r1(h * 0.15)} ${r1(w * 0.45)} ${r1(h * 0.7)}z`;
    return `<g class="cl-pawn" data-seat="${f.seat}"><title>${esc(f.name)}</title>` +
      `<path d="${body}" fill="${FILL[f.colour]}" stroke="#fff" stroke-width="3" paint-order="stroke"/>` +
      `<path d="${body}" fill="${FILL[f.colour]}" stroke="#111" stroke-width="1"/>` +
      `<circle cx="${r1(sx)}" cy="${r1(sy - h * 0.85)}" r="${r1(HEAD)}" fill="${FILL[f.colour]}" stroke="#111" stroke-width="1"/>` +
      `<text x="${r1(sx)}" y="${r1(sy - h * 0.85)}" fill="${ink}" class="cl-pawn-ltr">${esc(f.letter)}</text></g>`;
  }

  // Figures in line from this side, whose heads would cover each other's letters, stand
  // side by side, centred where they were: every letter shows. ``figures``: [figure, the
  // spot it stands on] in drawing order; returns [figure, spot, where its pawn stands] (the
  // spot itself for a pawn left where it is).
  const APART = 2 * HEAD + 1.5;
  function sideBySide(figures) {
    const at = figures.map(([, spot]) => spot);
    const head = (i) => [at[i][0], at[i][1] - PAWN_H * 0.85];
    for (let round = 0; round < at.length; round++) {
      // the groups of pawns whose heads overlap, one through another
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
      const crowded = [...groups.values()].filter((members) => members.length > 1);
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
      `<line x1="${r1(at[0])}" y1="${r1(at[1])}" x2="${r1(spot[0])}" y2="${r1(spot[1])}" stroke="#111" stroke-width="1.2"/>` +
      `<ellipse cx="${r1(spot[0])}" cy="${r1(spot[1])}" rx="${r1(PAWN_W * 0.8)}" ry="${r1(PAWN_W * 0.4)}" fill="${FILL[f.colour]}" stroke="#111" stroke-width="1"/></g>`;
  }

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
  function ladderMark(ladders, opts) {
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
    }
    return mem;
  }
  const scratch = document.createElementNS(NS, "svg");

  // The tower drawn into ``svg`` from ``angle``. opts: upto (the first blocks of the build
  // order only), mark (the block outlined; in a build step, what stands in front of it is
  // drawn see-through), letters, lit (block ids), reach (squares lit
  // for a walk), ghosts (places a block may go), chosen.
  function draw(svg, tower, angle, opts) {
    const cam = camera(angle);
    const mem = layers(svg);
    let blocks = tower.blocks;
    if (opts.upto !== undefined && tower.order) {
      const shown = new Set(tower.order.slice(0, opts.upto));
      blocks = blocks.filter((b) => shown.has(b.id));
    }
    const chosenBlock = opts.chosenGhost ? blocks.find((b) => b.id === opts.chosen) : null;
    if (opts.chosenGhost) blocks = blocks.filter((b) => b.id !== opts.chosen);
    const ghosts = opts.ghosts || [];
    let x0 = 0, x1 = 4, y0 = 0, y1 = 2;
    for (const b of tower.blocks.concat(ghosts)) {
      x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
      x1 = Math.max(x1, b.x + b.w); y1 = Math.max(y1, b.y + b.d);
    }
    x0 -= 1.5; y0 -= 1.5; x1 += 1.5; y1 += 1.5;

    // the painter's order (the chosen ghost drawn as a block), kept while nothing moves
    const boxes = blocks.slice();
    for (const g of ghosts) if (g.key === opts.ghost) boxes.push(Object.assign({kind: "ghost", id: `ghost ${g.key}`}, g));
    const geometry = `${angle}|` + boxes.map((b) => `${b.id} ${b.x} ${b.y} ${b.z} ${b.w} ${b.d} ${b.h}`).join(";");
    if (mem.geometry !== geometry) {
      const rects = boxes.map((b) => outline(b, cam));
      mem.order = paintOrder(boxes, rects, cam).map((i) => [boxes[i].id, rects[i]]);
      mem.geometry = geometry;
    }
    if (opts.upto !== undefined && window.clTowerMore) {
      opts.seeThrough = window.clTowerMore.inFront(mem.order, opts.mark, meets);
    }
    const byId = new Map(boxes.map((b) => [b.id, b]));
    const frame = {x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity};
    const obstacles = [];
    const nodes = [], fresh = [];
    for (const [id, rect] of mem.order) {
      const box = byId.get(id);
      obstacles.push(rect);
      grow(frame, rect);
      const classes = box.kind === "ghost" ? "" : blockClasses(box, opts);
      // its faces (redrawn when they change) and what the question makes of it (dressed)
      const sign = box.kind === "ghost" ? geometry : `${angle}|${box.rec}|${opts.letters ? 1 : 0}`;
      const look = box.kind === "ghost" ? "" : `${classes}|${blockName(id, opts)}|${opts.stones && opts.stones.has(id) ? opts.stoneColour : ""}`;
      const known = mem.nodes.get(id);
      if (known && known.sign === sign) {
        if (known.look !== look) { dress(known.node, box, cam, opts, classes); known.look = look; }
        nodes.push(known.node);
        continue;
      }
      const html = box.kind === "ghost"
        ? `<g class="cl-ghost chosen" data-ghost="${box.key}">` + faces(box, cam).map(([, c]) => `<polygon points="${pts(cam, c)}"/>`).join("") + "</g>"
        : blockSvg(box, cam, tower, opts, classes);
      fresh.push([id, sign, look, nodes.length, html]);
      nodes.push(null);
    }
    if (fresh.length) {
      scratch.innerHTML = fresh.map((f) => f[4]).join("");
      const made = [...scratch.children];
      fresh.forEach(([id, sign, look, at], i) => {
        nodes[at] = made[i];
        mem.nodes.set(id, {sign, look, node: made[i]});
      });
    }
    for (const id of [...mem.nodes.keys()]) if (!byId.has(id)) mem.nodes.delete(id);
    if (window.clTowerMore) window.clTowerMore.arrange(mem.things, nodes);
    else mem.things.replaceChildren(...nodes);

    // A build step is framed to the whole tower, so each step is drawn at the same size.
    if (opts.upto !== undefined) for (const b of tower.blocks) grow(frame, outline(b, cam));
    for (const g of ghosts) {
      const z = g.z + g.h;
      grow(frame, outline({x: g.x, y: g.y, z, w: g.w, d: g.d, h: 0}, cam));
    }
    // The block that stays put this turn: its edges dashed over the tower, seen through
    // whatever stands in front of it.
    const over = blocks.filter((b) => b.stays).map((b) =>
      `<path class="cl-stays" d="${faces(b, cam).map(([, c]) => `M${pts(cam, c)}Z`).join("")}"/>`);
    for (const sq of opts.reach || []) {
      const corners = [[sq.x + 0.1, sq.y + 0.1, sq.z], [sq.x + 0.9, sq.y + 0.1, sq.z], [sq.x + 0.9, sq.y + 0.9, sq.z], [sq.x + 0.1, sq.y + 0.9, sq.z]];
      const act = opts.reachPick ? ` tabindex="0" role="button" aria-label="${esc(sq.name || "")}"` : "";
      over.push(`<polygon class="cl-reach${sq.key === opts.chosenSquare ? " chosen" : ""}" data-square="${sq.key}" data-ladders="${esc(sq.ladders)}"${act} points="${pts(cam, corners)}"/>`);
      if (sq.ladders) {  // the walk a tap makes climbs with a ladder: its letter on the top
        const [cx, cy] = cam.point(sq.x + 0.5, sq.y + 0.5, sq.z);
        over.push(`<text class="cl-reach-mark" x="${r1(cx)}" y="${r1(cy)}">${esc(ladderMark(sq.ladders, opts))}</text>`);
      }
    }
    // A dearer way to a lit top that never goes lower than the turn began, where the
    // cheapest does: a ladder standing on that top, a target of its own.
    for (const way of opts.ways || []) over.push(waySvg(way, cam, opts));
    if (opts.upto === undefined) {
      for (const l of tower.ladders) over.push(ladderSvg(l, cam, frame));
      const onTable = tower.figures.filter((f) => f.x === null);
      const figures = [];
      onTable.forEach((f, i) => {
        const t = (i + 1) / (onTable.length + 1);
        const along = [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t];
        // in front of the tower, as this viewer sees it
        const x = Math.abs(cam.dx) > 0.7 ? (cam.dx > 0 ? x1 - 0.7 : x0 + 0.7) : along[0];
        const y = Math.abs(cam.dx) > 0.7 ? along[1] : (cam.dy > 0 ? y1 - 0.7 : y0 + 0.7);
        figures.push([f, cam.point(x, y, 0)]);
      });
      const standing = tower.figures.filter((f) => f.x !== null);
      standing.sort((a, b) => cam.depth(a.x, a.y, a.z) - cam.depth(b.x, b.y, b.z));
      for (const f of standing) figures.push([f, cam.point(f.x + 0.5, f.y + 0.5, f.z)]);
      const placed = sideBySide(figures);
      for (const [f, spot, at] of placed) if (at !== spot) over.push(footMark(f, spot, at));
      for (const [f, , at] of placed) {
        const r = pawnBox(at);
        grow(frame, r);
        obstacles.push(r);
        over.push(pawn(f, at));
      }
    }
    if (!Number.isFinite(frame.x0)) Object.assign(frame, {x0: -UNIT, x1: UNIT, y0: -UNIT, y1: UNIT});
    // the mark, on a phone's views and build steps, before the handles (they use its frame)
    const mark = window.clTowerMore && tower.screen && opts.letters && (svg.dataset.view !== "screen" || opts.upto !== undefined)
      ? window.clTowerMore.mark(tower.screen, cam, frame, obstacles, {meets, grow, esc, r1}) : "";
    // the other ghosts' handles (tower-more.js lays them out), where a tap takes them
    if (!opts.ghost && ghosts.length && window.clTowerMore) {
      const size = sizes.get(svg) || svg.getBoundingClientRect();
      const m = UNIT * 0.8;
      const scale = Math.min(size.width / (frame.x1 - frame.x0 + 2 * m), size.height / (frame.y1 - frame.y0 + 2 * m)) || 1;
      over.push(window.clTowerMore.ghosts({ghosts, angle, blocks, chosen: chosenBlock, scale, opts,
                                 key: `${opts.ghostsSaid}|${geometry.slice(geometry.indexOf("|"))}`},
                                {camera, pts, esc, r1}));
    }
    over.push(mark);
    // the frame: the tower and its figures (the table may run past it), and a margin
    const m = UNIT * 0.8;
    let frameBox = [frame.x0 - m, frame.y0 - m, frame.x1 - frame.x0 + 2 * m, frame.y1 - frame.y0 + 2 * m];
    // zoomed in round a tap among crowded handles: ZOOM times larger (less where the
    // handles round the tap would not fit in the view), centred on the tap
    if (opts.zoom && window.clTowerMore) {
      const size = sizes.get(svg) || svg.getBoundingClientRect();
      const fit = Math.min(size.width / frameBox[2], size.height / frameBox[3]);
      const [cx, cy] = opts.zoom.centre;
      const spread = Math.max(...opts.zoom.picks.map(({x, y}) => Math.hypot(x - cx, y - cy))) * fit;
      const px = fit * window.clTowerMore.zoomScale(spread, Math.min(size.width, size.height) / 2, ZOOM);
      frameBox = [cx - size.width / 2 / px, cy - size.height / 2 / px, size.width / px, size.height / px];
      over.push(window.clTowerMore.zoom({picks: opts.zoom.picks, centre: [cx, cy], unit: 1 / px, view: frameBox,
                                         room: Math.min(size.width, size.height) / 2}, {esc, r1}));
    }
    svg.classList.toggle("cl-zooming", Boolean(opts.zoom));
    const under = `<polygon class="cl-table" points="${pts(cam, [[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]])}"/>`;
    if (mem.underHtml !== under) { mem.under.innerHTML = under; mem.underHtml = under; }
    const overHtml = over.join("");
    if (mem.overHtml !== overHtml) { mem.over.innerHTML = overHtml; mem.overHtml = overHtml; }
    const viewBox = frameBox.map(r1).join(" ");
    if (mem.viewBox !== viewBox) { svg.setAttribute("viewBox", viewBox); mem.viewBox = viewBox; }
  }

  // --- the views on the page -----------------------------------------------------------
  const turned = new WeakMap();  // a view's own turn (a swipe), in degrees
  // A view zoomed in round a tap among crowded targets: {said (the question it was opened
  // for), angle, centre (the tap, in the drawing's units), picks (each target under the
  // finger, nearest first: tower-more.js's zoom draws them, tower-taps.js made them)}.
  const zoomed = new WeakMap();
  const ZOOM = 3;          // how much larger the zoom shows the tower

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

  // A question's ids (space-separated) and their names (a "|"-list, in the same order):
  // the set of ids, and each id's name (the id itself where none is said).
  function namedIds(ids, names) {
    const list = ids.split(" ");
    const said = (names || "").split("|");
    const named = {};
    list.forEach((id, i) => { named[id] = said[i] || id; });
    return [new Set(list), named];
  }

  function askFor(svg) {
    if (svg.dataset.view !== "me") return {};
    const ask = document.getElementById("cl-ask");
    if (!ask) return {};
    const d = ask.dataset;
    const opts = {chosen: d.chosen || undefined, ghostLabel: d.ghostLabel,
                  reachPick: d.reachPick, ghostPick: d.ghostPick};
    if (d.lit) [opts.lit, opts.names] = namedIds(d.lit, d.litNames);
    if (d.reach) {
      const names = (d.reachNames || "").split("|");
      const ladders = (d.reachLadders || "").split("|");
      opts.reach = d.reach.split(" ").map((s, i) => {
        const [x, y, z] = s.split(",").map(Number);
        return {key: `${x},${y}`, x, y, z, name: names[i], ladders: ladders[i] || ""};
      });
    }
    if (d.ways) {
      const names = (d.wayNames || "").split("|");
      opts.ways = d.ways.split(" ").map((s, i) => {
        const [x, y, z, ladders] = s.split(",");
        return {key: `${x},${y}`, x: +x, y: +y, z: +z, ladders, name: names[i]};
      });
    }
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
      opts.ghosts = d.ghosts.split(" ").map((s) => {
        const [key, x, y, z, w, dd, h] = s.split(":");
        return {key, x: +x, y: +y, z: +z, w: +w, d: +dd, h: +h};
      });
      opts.chosenGhost = true;
    }
    if (d.ghost) opts.ghost = d.ghost;
    if (d.square) opts.chosenSquare = d.square;
    return opts;
  }

  // What each view was drawn from last; the views that wait for the frames after the one
  // that shows the swap, one a frame, so that no frame carries both a push's swap and a
  // drawing: data-later (the table screen's small views) always, data-later="push" (the
  // phone's own) after a push, not after the player's own turn or tap.
  const drawn = new WeakMap();
  const sizes = new WeakMap();
  const watching = new WeakSet();
  const resized = new ResizeObserver((entries) => {
    for (const entry of entries) sizes.set(entry.target, entry.contentRect);
  });
  const queued = [];
  let pushing = false;  // a push's message is being swapped in
  const waits = (svg) => svg.dataset.later !== undefined && (svg.dataset.later !== "push" || pushing);
  let waiting = false;

  // tower-more.js (ghosts' handles, the screen's mark, a build step's see-through blocks,
  // fewer moves) comes after a drawing, and on a phone tower-taps.js (what a tap on its
  // tower means and answers).
  const moreUrl = document.currentScript && document.currentScript.dataset.more;
  const tapsUrl = document.currentScript && document.currentScript.dataset.taps;
  let fetching = false;
  let fetchingTaps = false;
  function loadMore(svg) {
    if (!fetching && moreUrl) {
      fetching = true;
      const script = document.createElement("script");
      script.src = moreUrl;
      script.onload = () => redraw(true);
      document.head.appendChild(script);
    }
    if (!fetchingTaps && tapsUrl && svg.dataset.turnable !== undefined) {
      fetchingTaps = true;
      const taps = document.createElement("script");
      taps.src = tapsUrl;
      document.head.appendChild(taps);
    }
  }

  function signature(data) {
    const ask = document.getElementById("cl-ask");
    const sitting = document.querySelector("[data-sitting]");
    return data.innerHTML + (ask ? ask.outerHTML : "") + (sitting ? sitting.dataset.sitting : "");
  }

  function viewKey(svg, said) {
    const angle = homeAngle(svg) + (turned.get(svg) || 0);
    const zoom = zoomed.get(svg);
    return [`${said}|${angle}|${svg.dataset.upto || ""}|${svg.dataset.mark || ""}|${zoom ? zoom.centre : ""}`, angle];
  }

  // What names the view's focused answer (a block, a top, a way, a ghost's handle) again
  // once a drawing has replaced its node: a keyboard player keeps their place through a
  // push, or the late script's drawing.
  function focusedIn(svg) {
    const el = document.activeElement;
    if (!el || el === svg || !svg.contains(el) || !el.classList.length) return null;
    const attr = ["data-block", "data-square", "data-ghost"].find((name) => el.hasAttribute(name));
    return attr ? `.${CSS.escape(el.classList[0])}[${attr}="${CSS.escape(el.getAttribute(attr))}"][tabindex]` : null;
  }

  function drawView(svg, data, tower, key, angle) {
    if (!watching.has(svg)) { watching.add(svg); resized.observe(svg); }
    const opts = Object.assign({letters: svg.dataset.letters !== "no"}, askFor(svg));
    if (svg.dataset.upto) opts.upto = Number(svg.dataset.upto);
    if (svg.dataset.mark) opts.mark = svg.dataset.mark;
    opts.zoom = zoomFor(svg, opts, angle);
    const focus = focusedIn(svg);
    draw(svg, tower, angle, opts);
    if (focus && !svg.contains(document.activeElement)) {
      const again = svg.querySelector(focus);
      if (again) again.focus({preventScroll: true});
    }
    showZoomBar(svg);
    drawn.set(svg, key);
    loadMore(svg);
  }

  // The records a view draws: the page's (#cl-td), or its own (data-records: the tower at
  // a moment of the game's record, beside another moment's).
  function recordsOf(svg) {
    return document.getElementById(svg.dataset.records || "cl-td");
  }

  function redraw(force) {
    const towers = new Map();  // each set of records, read once: [said, tower]
    for (const svg of document.querySelectorAll("svg.cl-3d")) {
      const data = recordsOf(svg);
      if (!data) continue;
      if (!towers.has(data)) towers.set(data, [signature(data), null]);
      const known = towers.get(data);
      const [key, angle] = viewKey(svg, known[0]);
      showZoomBar(svg);
      if (!force && drawn.get(svg) === key && svg.firstChild) continue;
      if (!force && waits(svg)) {
        if (!queued.includes(svg)) queued.push(svg);
        continue;
      }
      known[1] = known[1] || read(data);
      drawView(svg, data, known[1], key, angle);
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
        if (drawn.get(svg) !== key || !svg.firstChild) drawView(svg, data, read(data), key, angle);
      }
      if (queued.length) nextFrame();
    }, 0));
  }

  // A swipe across a view turns it; a tap is left to the page.
  let swipe = null;
  document.addEventListener("pointerdown", (event) => {
    const svg = event.target.closest && event.target.closest("svg.cl-3d[data-turnable]");
    if (!svg) return;
    swipe = {svg, x: event.clientX, start: turned.get(svg) || 0, moved: false};
  });
  document.addEventListener("pointermove", (event) => {
    if (!swipe) return;
    const dx = event.clientX - swipe.x;
    if (Math.abs(dx) > 8) swipe.moved = true;
    if (!swipe.moved) return;
    turned.set(swipe.svg, swipe.start + dx * 0.6);
    redraw(false);
  });
  document.addEventListener("pointerup", () => {
    if (swipe && swipe.moved) {
      const svg = swipe.svg;
      svg.dataset.swiped = "1";
      setTimeout(() => { delete svg.dataset.swiped; }, 0);
    }
    swipe = null;
  });
  document.addEventListener("click", (event) => {
    const svg = event.target.closest && event.target.closest("svg.cl-3d");
    if (svg && svg.dataset.swiped) { event.stopPropagation(); event.preventDefault(); return; }
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

  // --- the zoom over crowded targets ------------------------------------------------------
  // The view's zoom, while the question asked and the side seen stay the same.
  function zoomFor(svg, opts, angle) {
    const zoom = zoomed.get(svg);
    const ask = document.getElementById("cl-ask");
    if (zoom && (!ask || zoom.said !== ask.outerHTML || zoom.angle !== angle)) {
      zoomed.delete(svg);
      unwatchClose(svg);
    }
    return zoomed.get(svg) || null;
  }

  // While a view is zoomed, a close request (the phone's Back button or gesture, Escape)
  // steps out of the zoom, not off the page: a CloseWatcher, where the browser has one.
  const closeWatchers = new WeakMap();
  function watchClose(svg) {
    if (typeof CloseWatcher !== "function" || closeWatchers.has(svg)) return;
    const watcher = new CloseWatcher();
    watcher.onclose = () => { closeWatchers.delete(svg); closeZoom(svg); };
    closeWatchers.set(svg, watcher);
  }
  function unwatchClose(svg) {
    const watcher = closeWatchers.get(svg);
    closeWatchers.delete(svg);
    if (watcher) watcher.destroy();
  }

  // The words and the way out under a zoomed view, shown while it is zoomed (kept so
  // through a push that swaps the page round the view).
  function showZoomBar(svg) {
    const figure = svg.closest("figure");
    const bar = figure && figure.querySelector(".cl-zoom-bar");
    if (bar && bar.hidden === zoomed.has(svg)) bar.hidden = !zoomed.has(svg);
  }

  // Back to the whole tower, the block still chosen.
  function closeZoom(svg) {
    unwatchClose(svg);
    if (zoomed.delete(svg)) redraw(false);
  }

  // Back, the zoom's own button or a tap off the zoomed tower steps out of the zoom; Back
  // and the zoom's button do nothing else (the block stays chosen).
  document.addEventListener("click", (event) => {
    const svg = document.querySelector("svg.cl-3d.cl-zooming");
    if (!svg || !event.target.closest || svg.contains(event.target)) return;
    const back = event.target.closest("[data-back], [data-zoom-out]");
    closeZoom(svg);
    if (back) { event.stopPropagation(); event.preventDefault(); }
  }, true);
  document.addEventListener("keydown", (event) => {  // a browser without CloseWatcher
    const svg = document.querySelector("svg.cl-3d.cl-zooming");
    if (svg && event.key === "Escape" && !closeWatchers.has(svg)) closeZoom(svg);
  });

  // What tower-taps.js, which reads a tap on the phone's tower, needs of the drawing and of
  // the zoom it opens.
  window.clTower = {read, camera, homeAngle, turned, zoomed, askFor, redraw, ladderMark,
                    watchClose, closeZoom};

  document.addEventListener("DOMContentLoaded", refresh);
  document.addEventListener("htmx:after:swap", refresh);
  document.addEventListener("htmx:ws:before:message:incoming", () => { pushing = true; });
  document.addEventListener("htmx:ws:after:message:incoming", () => {
    refresh();
    pushing = false;
  });
  document.addEventListener("htmx:finally:request", () => setTimeout(refresh, 0));
})();
