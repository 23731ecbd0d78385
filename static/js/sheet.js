// The room's rule sheet as a printable agreement page: the preset it started from, every option
// that applies with its agreed value, a "house rule" mark on each option that differs from the
// preset, and a line per player to sign.

import { api } from "./api.js";
import { $, h, replace } from "./dom.js";
import { lang, t, tn } from "./i18n.js";
import { closestPreset, houseRules, sheetTable } from "./schemaform.js";
import { presetLabel } from "./sheetnames.js";

const roomId = $("#sheet-page").dataset.room;

async function start() {
  $("#print-button").addEventListener("click", () => window.print());
  let info;
  let games;
  try {
    [info, games] = await Promise.all([api.room(roomId), api.games()]);
  } catch (error) {
    $("#sheet-loading").hidden = true;
    $("#sheet-error").textContent = error.status === 404 ? t("This room does not exist.") : error.message;
    $("#sheet-error").hidden = false;
    return;
  }
  const game = games.find((g) => g.name === info.game);
  const title = (game && game.titles && (game.titles[lang] || game.titles.en)) || info.game;
  const sheet = info.sheet || {};
  const options = sheet.options || sheet;
  const presetName = info.preset || (game ? closestPreset(game.schema, game.presets, options) : null);
  const base = game && presetName ? (game.presets || {})[presetName] || null : null;
  $("#sheet-title").textContent = `${title} · ${t("Rule sheet")}`;
  document.title = `${title} · ${t("Rule sheet")} · Houserules`;
  const parts = [];
  const seats = info.capacity ? tn("{n} seat", "{n} seats", info.capacity) : "";
  if (base) {
    const changed = houseRules(game.schema, { ...base, ...options }, base);
    parts.push(h("p", { class: "sheet-preset", id: "sheet-preset" },
      t("Based on the preset {name}", { name: presetLabel(presetName) }), seats ? ` · ${seats}` : ""));
    parts.push(h("p", { class: "note", id: "sheet-house-rules" }, changed.length
      ? tn("{n} rule differs from the preset: marked “house rule”.", "{n} rules differ from the preset: each is marked “house rule”.", changed.length)
      : t("Played exactly as the preset.")));
  } else if (seats) {
    parts.push(h("p", { class: "sheet-preset", id: "sheet-preset" }, seats));
  }
  parts.push(game ? sheetTable(game.schema, options, { base }) : h("pre", {}, JSON.stringify(options, null, 2)));
  replace($("#sheet-body"), parts);
  const seated = (info.seats || []).filter((s) => s.name);
  const signatures = $("#signatures");
  replace(signatures, seated.map((s) => h("div", {}, s.name)));
  signatures.hidden = !seated.length;
  $("#sheet-loading").hidden = true;
}

start();
