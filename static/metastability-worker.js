// The metastability explorer's Web Worker: computes the grid's cells off the page's thread,
// so the page keeps drawing while it fills. It runs the same WebAssembly the page runs: the
// page posts the glue's URL and the module it has already compiled (nothing is downloaded
// twice), then one cell request per message (a line of text); each answer is the simulator's
// reply line.

let simulator = null;

async function start({ glue, module }) {
  try {
    const bindings = await import(glue);
    await bindings.default({ module_or_path: module });
    simulator = bindings;
    self.postMessage({ ready: true });
  } catch (error) {
    self.postMessage({ failed: String(error) });
  }
}

self.onmessage = (event) => {
  if (typeof event.data !== "string") {
    start(event.data);
  } else if (simulator) {
    self.postMessage(simulator.metastabilityCell(event.data));
  }
};
