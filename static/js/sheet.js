// The room's rule sheet as a printable agreement page: every option with its description in the
// page's language, the agreed value (changes from the default in bold), and a line per player to sign.

import { api } from "./api.js";
import { $, h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import { sheetTable } from "./schemaform.js";
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
  $("#sheet-title").textContent = `${title} · ${t("Rule sheet")}`;
  document.title = `${title} · ${t("Rule sheet")} · Houserules`;
  const parts = [];
  if (sheet.name || info.preset) parts.push(h("p", {}, sheet.name || presetLabel(info.preset)));
  parts.push(game ? sheetTable(game.schema, options) : h("pre", {}, JSON.stringify(options, null, 2)));
  replace($("#sheet-body"), parts);
  const seats = (info.seats || []).filter((s) => s.name);
  const signatures = $("#signatures");
  replace(signatures, seats.map((s) => h("div", {}, s.name)));
  signatures.hidden = !seats.length;
  $("#sheet-loading").hidden = true;
}

start();
