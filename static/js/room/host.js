// The host's controls: Start (in the lobby), Play again, join requests to approve or refuse, hand
// the host role over, remove a player, and the bots.

import { $, h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { botControls } from "../bots.js";

// A host operation; a refusal is shown as a notice.
export function sendHost(page, op, args) {
  return page.send({ type: "host", op, ...args }).catch((error) => page.notice(page.errorText(error)));
}

export function hostButton(page, label, op, extra = {}, confirmText = null) {
  return h("button", {
    type: "button",
    dataset: { op },
    onclick: async () => {
      if (confirmText && !window.confirm(confirmText)) return;
      try {
        await page.send({ type: "host", op, ...extra });
      } catch (error) {
        page.notice(page.errorText(error));
      }
    },
  }, label);
}

export function renderHost(page) {
  const { session } = page;
  const box = $("#host-box");
  box.hidden = !session.host;
  if (!session.host) clear($("#lobby-start"));
  if (!session.host || !session.room) return;
  const controls = clear($("#host-controls"));
  const room = session.room;
  // Start is the lobby's first button, beside its title, not down in the side panel.
  const start = clear($("#lobby-start"));
  if (room.status === "lobby") {
    const button = hostButton(page, t("Start the game"), "start");
    button.classList.add("primary");
    start.append(button);
  }
  if (room.status === "finished" || (session.state && session.state.outcome)) {
    controls.append(hostButton(page, t("Play again"), "rematch"));
  }
  const refused = (error) => page.notice(page.errorText(error));
  for (const request of room.pending || []) {
    const seatsFree = (room.seats || []).filter((s) => s.free).map((s) => s.seat);
    const select = h("select", { "aria-label": t("Seat for {name}", { name: request.name }) },
      seatsFree.map((s) => h("option", { value: s }, t("Seat {n}", { n: s + 1 }))));
    controls.append(h("div", { class: "request" },
      h("span", {}, t("{name} asks to join", { name: request.name })),
      select,
      h("button", {
        type: "button",
        dataset: { op: "approve" },
        onclick: () => page.send({ type: "host", op: "approve", request: request.request, seat: Number(select.value) })
          .catch(refused),
      }, t("Approve")),
      h("button", {
        type: "button",
        dataset: { op: "reject" },
        onclick: () => page.send({ type: "host", op: "reject", request: request.request }).catch(refused),
      }, t("Refuse"))));
  }
  const others = (room.seats || []).filter((s) => s.name && !s.bot && s.seat !== session.seat);
  if (others.length) {
    const select = h("select", { "aria-label": t("Player") },
      others.map((s) => h("option", { value: s.seat }, s.name)));
    controls.append(h("div", { class: "request" }, select,
      h("button", {
        type: "button",
        dataset: { op: "handover" },
        onclick: () => page.send({ type: "host", op: "handover", seat: Number(select.value) }).catch(refused),
      }, t("Hand over host")),
      h("button", {
        type: "button",
        dataset: { op: "kick" },
        onclick: () => {
          const name = page.seatName(Number(select.value));
          if (!window.confirm(t("Remove {name} from the room?", { name }))) return;
          page.send({ type: "host", op: "kick", seat: Number(select.value) }).catch(refused);
        },
      }, t("Remove"))));
  }
  controls.append(...botControls(room, (op, args) => sendHost(page, op, args)));
}
