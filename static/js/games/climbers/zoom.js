// The zoom over crowded targets on a phone's tower, fetched with its first drawing
// (views.js): which view is zoomed in round which tap, the words and the way out under it,
// and a close request (Back, Escape) that steps out of it. taps.js opens it, more.js
// draws it, gestures.js closes it.
import {redraw} from "./views.js";

// A view zoomed in round a tap among crowded targets: {said (the question it was opened
// for), angle, centre (the tap, in the drawing's units), picks (each target under the
// finger, nearest first: more.js's zoom draws them, taps.js made them)}.
export const zoomed = new WeakMap();

// The view's zoom, while the question asked and the side seen stay the same.
export function zoomFor(svg, angle) {
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
export function watchClose(svg) {
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
export const watchesClose = (svg) => closeWatchers.has(svg);

// The words and the way out under a zoomed view, shown while it is zoomed (kept so
// through a push that swaps the page round the view).
export function showBar(svg) {
  const figure = svg.closest("figure");
  const bar = figure && figure.querySelector(".cl-zoom-bar");
  if (bar && bar.hidden === zoomed.has(svg)) bar.hidden = !zoomed.has(svg);
}

// Back to the whole tower, the block still chosen.
export function closeZoom(svg) {
  unwatchClose(svg);
  if (zoomed.delete(svg)) redraw(false);
}
