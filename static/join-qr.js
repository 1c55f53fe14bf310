// <rp-qr-code link="…" svg-id="…">: the QR code of `link`, drawn by the QR module
// (qr-code.js and qr-code_bg.wasm beside this file), which is fetched and compiled once, the
// first time a code is asked for. The playground's and the lesson's pages put one in their
// "Join on a phone" dialog and load this script when it opens; their own modules hold no
// encoder (src/ui/join_code.rs).

const here = new URL(".", import.meta.url);
let module = null;

// The QR module, started once for the page.
function qrModule() {
  if (!module) {
    module = import(new URL("qr-code.js", here).href).then(async (glue) => {
      await glue.default({ module_or_path: new URL("qr-code_bg.wasm", here) });
      return glue;
    });
  }
  return module;
}

class QrCode extends HTMLElement {
  static observedAttributes = ["link", "svg-id"];

  connectedCallback() {
    this.draw();
  }

  attributeChangedCallback() {
    if (this.isConnected) this.draw();
  }

  async draw() {
    const link = this.getAttribute("link") ?? "";
    const id = this.getAttribute("svg-id") ?? "";
    let svg;
    try {
      svg = (await qrModule()).qrCodeSvg(link, id);
    } catch (error) {
      svg = null;
      if (this.getAttribute("link") !== link) return;
      const notice = document.createElement("p");
      notice.className = "notice";
      notice.setAttribute("role", "alert");
      notice.textContent = typeof error === "string" ? error : "the QR code could not be drawn (" + error + ")";
      this.replaceChildren(notice);
      return;
    }
    // A newer link may have come while the module loaded: only the latest is drawn.
    if (this.getAttribute("link") !== link) return;
    this.innerHTML = svg;
  }
}

if (!customElements.get("rp-qr-code")) customElements.define("rp-qr-code", QrCode);
