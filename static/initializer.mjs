// Trunk's initializer for the playground page: moves the progress bar of the loading notice
// while the WebAssembly module downloads, and says so if it cannot start. Trunk hands over
// the uncompressed size, so the bar is right whether or not the host compresses the wasm.
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
    onSuccess: () => {},
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
