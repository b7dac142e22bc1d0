// The page's terminal: xterm.js (served before this script as /static/terminal/terminal.js) joined
// to the session's socket, which speaks textual-serve's protocol: keys and sizes go as JSON text,
// ["stdin", TEXT] and ["resize", {width, height}]; the session's output comes as binary messages.
// Also the connecting and closed notices, keyboard focus, and a handle on the terminal
// (window.dominoesTerminal) for reading its screen.
"use strict";

(async () => {
  const FONT = "'Roboto Mono', Monaco, 'Courier New', monospace";
  const FIRST_OUTPUT = 64 * 1024; // bytes of the session's first output parsed as they come
  const PIECE = 4096; // UTF-16 units of pasted text in one message: at most 24 KiB once encoded

  const element = document.getElementById("terminal");
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";

  // Measure the terminal's cells in its own font, not a fallback: wait for the font first.
  try {
    await document.fonts.load("16px 'Roboto Mono'");
  } catch {
    // the fallback font will do
  }

  const terminal = new Terminal({
    fontSize: Number(element.dataset.fontSize) || 16,
    fontFamily: FONT,
    scrollback: 0,
    allowProposedApi: true, // for `unicode`: widths of Unicode 11, as the session's own measure
  });
  const fit = new FitAddon.FitAddon();
  terminal.loadAddon(fit);
  terminal.loadAddon(new CanvasAddon.CanvasAddon()); // draws box lines itself: they join whatever the font
  terminal.loadAddon(new Unicode11Addon.Unicode11Addon());
  terminal.unicode.activeVersion = "11";
  terminal.open(element);
  fit.fit();
  window.dominoesTerminal = terminal;

  // The socket early.js opened as the page arrived (on a warm server), or one of our own now.
  const early = window.dominoesEarlySocket;
  window.dominoesEarlySocket = null;
  const socket = early
    ? early.socket
    : new WebSocket(`${scheme}//${location.host}/ws?width=${terminal.cols}&height=${terminal.rows}`);
  socket.binaryType = "arraybuffer";
  window.dominoesSocket = socket;

  function send(message) {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }
  const sendSize = () => send(["resize", { width: terminal.cols, height: terminal.rows }]);

  // Keys in pieces: the server takes messages of at most 64 KiB, and a long paste is one piece of
  // data from the terminal; it goes as several, each well under the cap.
  terminal.onData((text) => {
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + PIECE, text.length);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1; // keep a surrogate pair whole
      send(["stdin", text.slice(start, end)]);
      start = end;
    }
  });
  terminal.onResize(sendSize);
  window.addEventListener("resize", () => fit.fit());

  // xterm parses what it is given in a later task, so the browser would first draw the empty
  // terminal (a whole frame, in software on most machines) and only then read the lobby. The
  // session's first output is parsed as it comes (the write buffer's own synchronous path, in the
  // xterm.js this page is served with), and drawn in the first frame.
  const writeBuffer = terminal._core && terminal._core._writeBuffer;
  let parsedAtOnce = writeBuffer && typeof writeBuffer.writeSync === "function" ? FIRST_OUTPUT : 0;
  function write(bytes) {
    if (parsedAtOnce > 0) {
      parsedAtOnce -= bytes.length;
      writeBuffer.writeSync(bytes);
    } else {
      terminal.write(bytes);
    }
  }

  socket.addEventListener("open", sendSize);
  socket.addEventListener("message", (event) => {
    if (typeof event.data === "string") return; // ["pong", TEXT]: nothing to do
    const bytes = new Uint8Array(event.data);
    write(bytes);
    if (bytes.length > 10 && !document.body.classList.contains("-first-byte")) {
      document.body.classList.add("-first-byte");
      if (!document.body.classList.contains("-closed")) terminal.focus(); // keys go to the terminal as soon as it shows something
    }
  });
  socket.addEventListener("close", (event) => {
    document.body.classList.add("-closed");
    showClosed(event);
  });
  if (early) early.release(); // what came before these listeners, in order (its opening too)

  // Why a socket closed, for the notice: the server gives a reason when it ends a session.
  function showClosed(event) {
    const reason = document.getElementById("closed-reason");
    const advice = document.getElementById("closed-advice");
    const button = document.getElementById("reconnect");
    if (event.code === 1000 && event.reason === "the session ended") {
      reason.textContent = "You left the lobby.";
      advice.textContent = "Your matches are saved.";
      button.textContent = "Back to the lobby";
    } else if (event.code === 1000 && event.reason) {
      reason.textContent = `The server ended the session: ${event.reason}.`;
    }
    setTimeout(() => button.focus(), 0);
  }

  document.getElementById("reconnect").addEventListener("click", () => location.reload());
})();
