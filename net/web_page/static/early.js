// The page of a warm server, whose session started as the page was served: open the terminal's
// socket at once, while the page's scripts still load, rather than once they have run. The server
// puts this script in the page itself (allowed by its hash), so it runs as the page arrives. What
// comes before the terminal listens is kept here, in order; page.js joins the terminal to this socket.
"use strict";

(() => {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws`);
  socket.binaryType = "arraybuffer";
  const kept = [];
  function keep(event) {
    kept.push(event);
    event.stopImmediatePropagation(); // nobody else hears it now: it is given again, in turn, later
  }
  const types = ["open", "message", "error", "close"];
  for (const type of types) socket.addEventListener(type, keep);
  window.dominoesEarlySocket = {
    socket,
    // Give what was kept to the listeners added since, in order, then let events through.
    release() {
      for (const type of types) socket.removeEventListener(type, keep);
      for (const event of kept) socket.dispatchEvent(copy(event));
      kept.length = 0;
    },
  };

  function copy(event) {
    if (event.type === "message") return new MessageEvent("message", { data: event.data });
    if (event.type === "close") {
      return new CloseEvent("close", { code: event.code, reason: event.reason, wasClean: event.wasClean });
    }
    return new Event(event.type);
  }
})();
