// The page of a warm server: open the terminal's socket at once, while the page's scripts still
// load, rather than once they have run (its session starts then, unless it started as the page was
// served, at a size the server knew: the window's last, or the one its client hints gave). The server
// puts this script in the page itself (allowed by its hash), so it runs as the page arrives. What
// comes before the terminal listens is kept here, in order; page.js joins the terminal to this socket.
"use strict";

(() => {
  // The session starts at the size the socket's address gives: the window in the terminal's cells
  // (page.js: xterm's canvas renderer and fit addon, 16px Roboto Mono, the whole window). The font
  // is not in yet, so its cell is worked out from the font's own metrics (2048 units to the em,
  // every advance 1229, ascent 2146, descent 555: a test checks them against the font) as Chromium
  // measures them, whole pixels up and down, and xterm rounds them to device pixels.
  const ratio = window.devicePixelRatio || 1;
  const em = 16 / 2048;
  const cell = {
    width: Math.floor(1229 * em * ratio) / ratio,
    height: Math.ceil((Math.round(2146 * em) + Math.round(555 * em)) * ratio) / ratio,
  };
  const inCells = (cellSize) => ({
    width: Math.max(2, Math.floor(window.innerWidth / cellSize.width)),
    height: Math.max(1, Math.floor(window.innerHeight / cellSize.height)),
  });
  const predicted = inCells(cell);

  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const address = `${scheme}//${location.host}/ws?width=${predicted.width}&height=${predicted.height}`;
  const socket = new WebSocket(address);
  socket.binaryType = "arraybuffer";
  const kept = [];
  let size = null;
  function keep(event) {
    kept.push(event);
    event.stopImmediatePropagation(); // nobody else hears it now: it is given again, in turn, later
    if (event.type === "open") sendSize();
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

  // Another browser may measure the font otherwise: once the font is in, the window is measured in
  // it as the terminal will, and a size that differs is sent as soon as the socket is open (rather
  // than once the terminal's scripts have run, by when the session has drawn its lobby at the
  // size predicted, and would draw it again).
  function sendSize() {
    if (size && socket.readyState === WebSocket.OPEN) {
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
      const measured = {
        width: Math.floor(letter.width * ratio) / ratio,
        height: Math.ceil((letter.fontBoundingBoxAscent + letter.fontBoundingBoxDescent) * ratio) / ratio,
      };
      if (!(measured.width > 0 && measured.height > 0)) return;
      const real = inCells(measured);
      if (real.width !== predicted.width || real.height !== predicted.height) {
        size = real;
        sendSize();
      }
    },
    () => {}, // no font: the terminal tells its size itself
  );
})();
