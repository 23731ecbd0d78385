// Home: choose a game and a preset, adjust the rule sheet, create the room and go to it as its host.

import { api, saveSeat, lastName, rememberName } from "./api.js";
import { $, h, clear } from "./dom.js";
import { lang, t, tMaybe } from "./i18n.js";
import { buildSheetForm } from "./schemaform.js";
import { presetLabel } from "./sheetnames.js";

const state = { games: [], game: null, form: null, saved: [] };


function gameTitle(game) {
  return (game.titles && (game.titles[lang] || game.titles.en)) || game.name;
}

function seatBounds(game) {
  const min = game.min_players ?? 2;
  const max = game.max_players ?? 10;
  return { min, max };
}

function showFieldError(id, message) {
  const el = document.getElementById(id);
  el.textContent = message || "";
  el.hidden = !message;
}

// The preset select holds presets ("preset:<name>") and this server's saved sheets ("sheet:<id>").
function chosen() {
  const [kind, ...rest] = $("#preset").value.split(":");
  return { kind, key: rest.join(":") };
}

function presetValues() {
  const { kind, key } = chosen();
  if (kind === "sheet") {
    const sheet = state.saved.find((s) => s.id === key);
    return sheet ? sheet.options : {};
  }
  return (state.game.presets || {})[key] || {};
}

function fillChoices(selected) {
  const select = clear($("#preset"));
  const presets = h("optgroup", { label: t("Presets") },
    Object.keys(state.game.presets || {}).map((key) => h("option", { value: `preset:${key}` }, presetLabel(key))));
  select.append(presets);
  if (state.saved.length) {
    select.append(h("optgroup", { label: t("Saved rule sheets") },
      state.saved.map((s) => h("option", { value: `sheet:${s.id}` }, t("{name} (version {n})", { name: s.name, n: s.version })))));
  }
  if (selected) select.value = selected;
}

async function loadSaved(game) {
  try {
    const sheets = await api.sheets(game.name);
    if (state.game !== game) return;
    state.saved = sheets || [];
    const current = $("#preset").value;
    fillChoices(current);
  } catch {
    state.saved = [];
  }
}

async function saveSheet() {
  const note = $("#sheet-save-note");
  const name = $("#sheet-name").value.trim();
  if (!name) {
    note.textContent = t("Give the sheet a name.");
    return;
  }
  if (!state.form.validate()) return;
  const { kind, key } = chosen();
  const body = { game: state.game.name, name, options: state.form.values() };
  if (kind === "preset") body.preset = key;
  try {
    const sheet = await api.saveSheet(body);
    state.saved = [sheet, ...state.saved];
    fillChoices(`sheet:${sheet.id}`);
    note.textContent = t("Saved as “{name}”.", { name: sheet.name });
    markChanged();
  } catch (error) {
    if (error.option && state.form.showError(error.option, error.message)) return;
    note.textContent = tMaybe(`error: ${error.code}`) || error.message;
  }
}

function markChanged() {
  const base = presetValues();
  const now = state.form.values();
  const changed = Object.keys(now).some((k) => JSON.stringify(now[k]) !== JSON.stringify(base[k] ?? now[k]));
  $("#sheet-changed").hidden = !changed;
}

function chooseGame(name) {
  const game = state.games.find((g) => g.name === name) || state.games[0];
  state.game = game;
  state.saved = [];
  fillChoices(null);
  loadSaved(game);
  const { min, max } = seatBounds(game);
  const seats = $("#seats");
  seats.min = min;
  seats.max = max;
  const current = Number(seats.value);
  if (!(current >= min && current <= max)) seats.value = String(Math.min(Math.max(4, min), max));
  state.form = buildSheetForm($("#sheet-form"), game.schema, presetValues(), { onChange: markChanged });
  markChanged();
}

function renderGames() {
  const box = clear($("#game-choices"));
  state.games.forEach((game, index) => {
    const id = `game-${game.name}`;
    box.append(
      h("label", { class: "choice", for: id },
        h("input", {
          type: "radio", name: "game", id, value: game.name, checked: index === 0,
          onchange: () => chooseGame(game.name),
        }),
        h("span", { class: "choice-title" }, gameTitle(game)),
      ),
    );
  });
  chooseGame(state.games[0].name);
}

async function create(event) {
  event.preventDefault();
  $("#create-error").hidden = true;
  showFieldError("seats-error", null);
  showFieldError("host-name-error", null);
  const name = $("#host-name").value.trim();
  const seats = Number($("#seats").value);
  const { min, max } = seatBounds(state.game);
  let ok = state.form.validate();
  if (!name) {
    showFieldError("host-name-error", t("Enter your name."));
    ok = false;
  }
  if (!Number.isInteger(seats) || seats < min || seats > max) {
    showFieldError("seats-error", t("Choose {min}–{max} seats.", { min, max }));
    ok = false;
  }
  if (!ok) {
    $("#sheet-details").open = true;
    return;
  }
  const { kind, key } = chosen();
  const base = presetValues();
  const all = state.form.values();
  const options = {};
  for (const [key, value] of Object.entries(all)) {
    if (JSON.stringify(value) !== JSON.stringify(base[key])) options[key] = value;
  }
  const button = $("#create-button");
  button.disabled = true;
  try {
    const body = { game: state.game.name, options, seats, name, approval: $("#approval").checked };
    if (kind === "sheet") body.sheet_id = key;
    else body.preset = key;
    const answer = await api.createRoom(body);
    rememberName(name);
    saveSeat(answer.room, { token: answer.token, seat: answer.seat, name });
    window.location.assign(answer.invite || `/r/${answer.room}`);
  } catch (error) {
    button.disabled = false;
    const message = tMaybe(`error: ${error.code}`) || error.message;
    if (error.option && state.form.showError(error.option, message)) {
      $("#sheet-details").open = true;
      state.form.focus(error.option);
    } else if (error.option === "seats" || error.code === "bad_seats") {
      showFieldError("seats-error", message);
    } else {
      const box = $("#create-error");
      box.textContent = message;
      box.hidden = false;
    }
  }
}

async function start() {
  $("#host-name").value = lastName();
  try {
    state.games = await api.games();
    if (!state.games.length) throw new Error(t("No games are installed on this server."));
  } catch (error) {
    $("#games-loading").hidden = true;
    const box = $("#games-error");
    box.textContent = `${t("Could not load the games.")} ${error.message || ""}`;
    box.hidden = false;
    return;
  }
  renderGames();
  $("#games-loading").hidden = true;
  $("#create-fields").hidden = false;
  $("#preset").addEventListener("change", () => {
    state.form.setValues(presetValues());
    markChanged();
  });
  $("#create-room").addEventListener("submit", create);
  $("#save-sheet").addEventListener("click", saveSheet);
}

start();
