// Trunk's initializer for the playground page: moves the progress bar of the loading notice
// while the WebAssembly module downloads, and says so if it cannot start. Trunk counts the
// bytes as the browser receives them (uncompressed) against the size it built, so the bar
// moves the same whether or not the host compresses the wasm. A .js, not .mjs: every static
// host serves .js as JavaScript, which a module script needs.
export default function initializer() {
  const bar = () => document.getElementById("loading-progress");
  return {
    onStart: () => {},
    onProgress: ({ current, total }) => {
      const b = bar();
      if (b && total > 0) {
        b.max = total;
        b.value = Math.min(current, total);
      }
    },
    onComplete: () => {},
    onSuccess: () => {
      // Trunk counts the size before wasm-opt; the download is done, whatever it said.
      const b = bar();
      if (b && b.max) b.value = b.max;
    },
    onFailure: (error) => {
      const notice = document.getElementById("loading-notice");
      if (notice) {
        notice.className = "failure";
        notice.textContent = "The playground could not start (" + error + "). Reload the page, " +
          "or try a current Firefox, Chrome, Edge or Safari.";
      }
    },
  };
}
