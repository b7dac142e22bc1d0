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
  let opened = false;
  let size = null;
  function keep(event) {
    kept.push(event);
    event.stopImmediatePropagation(); // nobody else hears it now: it is given again, in turn, later
    if (event.type === "open") {
      opened = true;
      sendSize();
    }
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

  // The session began at the size this browser's window had last, or 80x24 for a new one, and the
  // terminal tells it its size only once its scripts have run: by then the session had drawn the
  // lobby at the old size, and drew it again. So the window is measured in the terminal's cells
  // here, as soon as the font is in, the way the terminal will (page.js: xterm's canvas renderer,
  // 16px Roboto Mono, the fit addon over the whole window), and sent once the socket is open.
  function sendSize() {
    if (opened && size && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(["resize", size]));
      size = null;
    }
  }
  document.fonts.load("16px 'Roboto Mono'").then(
    () => {
      const context = new OffscreenCanvas(1, 1).getContext("2d");
      context.font = "16px 'Roboto Mono', Monaco, 'Courier New', monospace";
      const letter = context.measureText("W");
      const ratio = window.devicePixelRatio || 1;
      const cellWidth = Math.floor(letter.width * ratio) / ratio;
      const cellHeight = Math.ceil((letter.fontBoundingBoxAscent + letter.fontBoundingBoxDescent) * ratio) / ratio;
      if (!(cellWidth > 0 && cellHeight > 0)) return;
      size = {
        width: Math.max(2, Math.floor(window.innerWidth / cellWidth)),
        height: Math.max(1, Math.floor(window.innerHeight / cellHeight)),
      };
      sendSize();
    },
    () => {}, // no font: the terminal tells its size itself
  );
})();
