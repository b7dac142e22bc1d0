// The page around textual-serve's terminal (textual.js): where its socket is, the connecting and
// closed notices, keyboard focus, and a handle on the terminal (window.dominoesTerminal) for
// reading its screen. textual.js sets window.onload to start; this script runs after it.
"use strict";

(() => {
  const element = document.getElementById("terminal");
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  element.dataset.sessionWebsocketUrl = `${scheme}//${location.host}/ws`;

  // Why a socket closed, for the notice: the server gives a reason when it ends a session. And
  // keys in pieces: the server takes messages of at most 64 KiB, and a long paste is one
  // ["stdin", text] from the terminal; it goes as several, each well under the cap.
  const NativeWebSocket = window.WebSocket;
  const PIECE = 4096; // UTF-16 units of pasted text in one message: at most 24 KiB once encoded
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      const early = window.dominoesEarlySocket;
      if (early) {
        // The socket early.js opened: the terminal has it, at the size it asked for.
        window.dominoesEarlySocket = null;
        adopt(early.socket, args[0]);
        queueMicrotask(() => early.release()); // once the terminal has added its listeners, in this task
        return early.socket;
      }
      super(...args);
      adopt(this, null);
    }
  };

  function adopt(socket, address) {
    window.dominoesSocket = socket;
    socket.addEventListener("close", (event) => showClosed(event));
    socket.send = (data) => sendInPieces(socket, data);
    const size = address && new URL(address, location.href).searchParams;
    if (size && size.has("width")) {
      const resize = JSON.stringify(["resize", { width: Number(size.get("width")), height: Number(size.get("height")) }]);
      if (socket.readyState === NativeWebSocket.OPEN) setTimeout(() => socket.send(resize), 0);
      else socket.addEventListener("open", () => socket.send(resize), { once: true });
    }
  }

  function sendInPieces(socket, data) {
    const send = (message) => NativeWebSocket.prototype.send.call(socket, message);
    if (typeof data !== "string" || data.length <= PIECE || !data.startsWith('["stdin",')) {
      send(data);
      return;
    }
    let text;
    try {
      text = JSON.parse(data)[1];
    } catch {
      send(data);
      return;
    }
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + PIECE, text.length);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1; // keep a surrogate pair whole
      send(JSON.stringify(["stdin", text.slice(start, end)]));
      start = end;
    }
  }

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

  // textual.js keeps its terminal to itself: catch it as it is made (the first object given a
  // `terminal` that is an xterm Terminal), then leave Object.prototype as it was.
  Object.defineProperty(Object.prototype, "terminal", {
    configurable: true,
    set(value) {
      Object.defineProperty(this, "terminal", { value, writable: true, configurable: true, enumerable: true });
      if (value && value.buffer && typeof value.focus === "function") {
        delete Object.prototype.terminal;
        window.dominoesTerminal = value;
        // textual.js loads two renderers, WebGL then canvas, and the last loaded draws: starting the
        // WebGL one (a GL context, in software on a machine without a GPU) only slowed the start.
        const loadAddon = value.loadAddon.bind(value);
        value.loadAddon = (addon) => {
          if (addon && addon.onContextLoss !== undefined) return; // only the WebGL renderer has this event
          loadAddon(addon);
        };
      }
    },
  });

  // Keys go to the terminal as soon as it shows something.
  new MutationObserver(() => {
    if (document.body.classList.contains("-first-byte") && !document.body.classList.contains("-closed")) {
      window.dominoesTerminal?.focus();
    }
  }).observe(document.body, { attributes: true, attributeFilter: ["class"] });

  // Measure the terminal's cells in its own font, not a fallback: wait for the font before starting.
  const start = window.onload;
  window.onload = async (event) => {
    try {
      await document.fonts.load("16px 'Roboto Mono'");
    } catch {
      // the fallback font will do
    }
    start(event);
  };
})();
