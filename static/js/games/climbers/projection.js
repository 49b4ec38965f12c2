// The tower seen from a side: the camera that puts it on the picture, and the painter's
// order of its boxes (exact: boxes on a grid never intersect, docs/tower.md).

export const UNIT = 10;    // one square across, in the picture's units
const ELEVATION = 0.62;    // radians above the table the viewer looks from

// The camera of a viewer at ``angle`` degrees round the tower (0: from the table screen's
// side, north).
export function camera(angle) {
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
export function outline(box, cam) {
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

export const meets = (a, b) => !(a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0);

export function grow(frame, r) {
  if (r.x0 < frame.x0) frame.x0 = r.x0;
  if (r.x1 > frame.x1) frame.x1 = r.x1;
  if (r.y0 < frame.y0) frame.y0 = r.y0;
  if (r.y1 > frame.y1) frame.y1 = r.y1;
}

// For each box, the boxes it hides part of (drawn after it), and how many hide part of it.
function hiding(boxes, rects, cam) {
  const after = boxes.map(() => []);
  const count = new Array(boxes.length).fill(0);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      if (!meets(rects[i], rects[j])) continue;
      const s = behind(boxes[i], boxes[j], cam);
      if (s > 0) { after[i].push(j); count[j]++; }
      else if (s < 0) { after[j].push(i); count[i]++; }
    }
  }
  return {after, count};
}

// The boxes in the painter's order (their indexes): each after every box it hides part of,
// the farthest first among those free to go.
export function paintOrder(boxes, rects, cam) {
  const n = boxes.length;
  const {after, count} = hiding(boxes, rects, cam);
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
