// The chat list, the passing notice, and the keyboard help (? and / everywhere, the table's own keys).

import { $, h, clear } from "../dom.js";
import { lang, t } from "../i18n.js";
import { trimList } from "../tablehost.js";

const NOTICE_MS = 6000;

// A chat line's time: the server's Unix seconds or ISO text, else now.
export function chatTime(at, now = new Date()) {
  if (typeof at === "number") return new Date(at * 1000);
  return at ? new Date(at) : now;
}

export function addChat(page, message) {
  const list = $("#chat");
  const time = chatTime(message.at);
  list.append(h("li", {},
    h("time", { datetime: time.toISOString() }, time.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" })),
    " ",
    h("b", {}, message.name || page.seatName(message.seat)),
    ": ",
    message.text));
  trimList(list);
}

// The page's notice: a line at the foot that goes after a few seconds (a newer one replaces it).
export function createNotice() {
  let timer = null;
  return (text) => {
    let box = $("#notice");
    if (!box) {
      box = h("p", { id: "notice", class: "notice", role: "alert" });
      document.body.append(box);
    }
    box.textContent = text;
    box.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(() => { box.hidden = true; }, NOTICE_MS);
  };
}

function renderKeys(session) {
  const list = clear($("#keys-list"));
  const common = [
    ["?", t("Show or hide the keys")],
    ["/", t("Write in the chat")],
  ];
  const module = session.tableModule;
  const own = module && module.keys ? module.keys() : [];
  for (const [key, text] of [...own, ...common]) list.append(h("dt", {}, h("kbd", {}, key)), h("dd", {}, text));
}

export function toggleKeys(session, force) {
  const box = $("#keys-help");
  const show = force === undefined ? box.hidden : force;
  if (show) renderKeys(session);
  box.hidden = !show;
  $("#keys-button").setAttribute("aria-expanded", show ? "true" : "false");
}

// Inputs that take no typed text: a tick box (the turn alerts) keeps the table's keys working.
const UNTYPED_INPUTS = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"]);

// Whether a key pressed in ``target`` is the person's own typing (the chat, a name, a choice), which
// the page's shortcuts must leave alone; a focused tick box keeps only Space and Enter, its own keys.
export function keyBelongsTo(target, key) {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  return !UNTYPED_INPUTS.has(String(target.type || "text").toLowerCase()) || key === " " || key === "Enter";
}

export function onKey(session, event) {
  if (keyBelongsTo(event.target, event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "?") {
    toggleKeys(session);
    event.preventDefault();
  } else if (event.key === "/") {
    $("#chat-input").focus();
    event.preventDefault();
  } else if (event.key === "Escape" && !$("#keys-help").hidden) {
    toggleKeys(session, false);
  } else if (session.table && session.table.onKey) {
    if (session.table.onKey(event)) event.preventDefault();
  }
}
