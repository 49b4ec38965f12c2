// What a finger does to a phone's tower besides a tap, fetched with its first drawing
// (views.js): a swipe across the view turns it (and is no tap), and Back, the zoom's own
// button, Escape or a tap off the zoomed tower step out of the zoom over crowded targets.
import {redraw, turned} from "./views.js";
import {closeZoom, watchesClose} from "./zoom.js";

const SWIPE_PX = 8;       // how far a finger goes before it swipes, not taps
const DEGREES_PX = 0.6;   // how far a swipe turns the tower, a pixel

let swipe = null;
document.addEventListener("pointerdown", (event) => {
  const svg = event.target.closest && event.target.closest("svg.cl-3d[data-turnable]");
  if (!svg) return;
  swipe = {svg, x: event.clientX, start: turned.get(svg) || 0, moved: false};
});
document.addEventListener("pointermove", (event) => {
  if (!swipe) return;
  const dx = event.clientX - swipe.x;
  if (Math.abs(dx) > SWIPE_PX) swipe.moved = true;
  if (!swipe.moved) return;
  turned.set(swipe.svg, swipe.start + dx * DEGREES_PX);
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
// The click that ends a swipe is left to nobody.
document.addEventListener("click", (event) => {
  const svg = event.target.closest && event.target.closest("svg.cl-3d");
  if (svg && svg.dataset.swiped) { event.stopPropagation(); event.preventDefault(); }
}, true);

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
  if (svg && event.key === "Escape" && !watchesClose(svg)) closeZoom(svg);
});
