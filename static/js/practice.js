// "Practise against bots": the room just made as its host gets a bot in every other seat over the
// room's own socket (the host's add_bot operation); with the last bot seated the game starts by
// itself (a person and bots filling a room start at once). Used by the home page.

import { lang, t } from "./i18n.js";

// Resolves once every free seat holds a bot; rejects with the server's {code, message} otherwise.
export function fillWithBots(roomId, token, level = "good") {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${window.location.host}/ws/${encodeURIComponent(roomId)}`);
  let counter = 0;
  let started = false;
  const waiting = new Map(); // message id -> [resolve, reject]

  function send(message) {
    counter += 1;
    const id = `practice-${counter}`;
    return new Promise((resolve, reject) => {
      waiting.set(id, [resolve, reject]);
      socket.send(JSON.stringify({ ...message, id }));
    });
  }

  return new Promise((resolve, reject) => {
    const fail = (error) => {
      socket.close();
      reject(error);
    };
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", token, last_version: null, lang }));
    });
    socket.addEventListener("close", () => reject({ code: "offline", message: t("The connection to the server closed.") }));
    socket.addEventListener("message", async (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if ((message.type === "ack" || message.type === "error") && waiting.has(message.id)) {
        const [done, refuse] = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.type === "ack") done(message);
        else refuse(message);
        return;
      }
      if (message.type === "error") {
        fail(message);
        return;
      }
      // The first room message names the free seats; one bot after the other takes them.
      if (message.type !== "room" || started) return;
      started = true;
      const free = (message.seats || []).filter((s) => s.free && !s.name).map((s) => s.seat);
      try {
        for (const seat of free) await send({ type: "host", op: "add_bot", seat, level });
        socket.close();
        resolve(free.length);
      } catch (error) {
        fail(error);
      }
    });
  });
}
