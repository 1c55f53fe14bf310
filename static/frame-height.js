// When a playground page (a widget's embed.html, a lesson, the playground) is shown in an
// iframe, it tells the page around it how tall its content is, each time that changes, so
// that `iframe-host.js` there can size the iframe to fit: no inner scrollbar, no gap.
//
// The message: { type: "resilience-playground:height", height: <CSS pixels> }, posted to the
// parent window. Without a host script nothing listens, and the iframe keeps its own height.

export const HEIGHT_MESSAGE = "resilience-playground:height";

export function reportHeight() {
  if (window.parent === window || typeof ResizeObserver !== "function") return;
  let last = -1;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, "*");
    }
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}
