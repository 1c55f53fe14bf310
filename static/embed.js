// embed.html's start: mounts the widget its query string describes. A file of its own, so the
// page's Content-Security-Policy allows no inline script.
import { mount } from "./widgets.js";
import { reportHeight } from "./frame-height.js";

mount(document.getElementById("widget"), location.search.replace(/^\?/, ""));
reportHeight();
