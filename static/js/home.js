// Home: choose a game and a preset, adjust the rule sheet, create the room and go to it as its host.

import { api, saveSeat, lastName, rememberName, sheetToken } from "./api.js";
import { $, h, clear } from "./dom.js";
import { lang, t, tn, refusalText } from "./i18n.js";
import { buildSheetForm, seatOption } from "./schemaform.js";
import { presetLabel } from "./sheetnames.js";
import { fillWithBots } from "./practice.js";

const state = { games: [], game: null, form: null, saved: [] };


function gameTitle(game) {
  return (game.titles && (game.titles[lang] || game.titles.en)) || game.name;
}

// One seat count: the room's seats, bounded by what the game's sheet allows; the sheet's own player
// count ("most" players or an "exact" number) is set to it.
function seatRule(game) {
  const schema = game.schema || {};
  const option = seatOption(schema);
  const role = (schema["x-seats"] && schema["x-seats"].role) || "most";
  const prop = option ? schema.properties[option] : null;
  const min = game.min_players ?? 2;
  const max = (prop && prop.maximum) ?? game.max_players ?? 10;
  return { option, role, min, max };
}

function seatBounds(game) {
  const { min, max } = seatRule(game);
  return { min, max };
}

function showSeatRange() {
  const { option, role, min, max } = seatRule(state.game);
  const base = presetValues();
  let text = t("{min}–{max} players", { min, max });
  if (option && role === "most" && Number(base[option]) < max) {
    text = t("{min}–{max} players; the preset is for up to {most}.", { min, max, most: base[option] });
  }
  $("#seats-range").textContent = text;
}

function applySeats() {
  const { option } = seatRule(state.game);
  const seats = Number($("#seats").value);
  if (!option || !Number.isInteger(seats)) return;
  // The table is as big as the room: the sheet's count follows the seats (a house rule only when it
  // goes beyond the preset's, see houseRules).
  state.form.set(option, seats);
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
  // A game's first pick is the preset of the page's language (its seed's own variant).
  const own = (state.game.language_presets || {})[lang];
  if (selected) select.value = selected;
  else if (own && own in (state.game.presets || {})) select.value = `preset:${own}`;
  showUpdate();
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
    if (error.option && state.form.showError(error.option, refusalText(error))) return;
    note.textContent = refusalText(error);
  }
}

// A sheet saved from this browser (it holds the edit token) may be changed in place: the new
// version keeps its id, so rooms made from it later get the change. Anyone may save a copy.
function ownSheet() {
  const { kind, key } = chosen();
  if (kind !== "sheet" || !sheetToken(key)) return null;
  return state.saved.find((s) => s.id === key) || null;
}

function showUpdate() {
  const sheet = ownSheet();
  const button = $("#update-sheet");
  button.hidden = !sheet;
  if (sheet) button.textContent = t("Update “{name}”", { name: sheet.name });
}

async function updateSheet() {
  const note = $("#sheet-save-note");
  const sheet = ownSheet();
  if (!sheet || !state.form.validate()) return;
  try {
    const changed = await api.updateSheet(sheet.id, { options: state.form.values() });
    state.saved = state.saved.map((s) => (s.id === changed.id ? changed : s));
    fillChoices(`sheet:${changed.id}`);
    note.textContent = t("“{name}” is now version {n}.", { name: changed.name, n: changed.version });
    markChanged();
  } catch (error) {
    if (error.option && state.form.showError(error.option, refusalText(error))) return;
    note.textContent = refusalText(error);
  }
}

function markChanged() {
  const base = presetValues();
  const now = state.form.values();
  const changed = state.form.markHouseRules({ ...now, ...base });
  const box = $("#sheet-changed");
  box.textContent = changed.length ? tn("{n} house rule beyond the preset", "{n} house rules beyond the preset", changed.length) : "";
  box.hidden = !changed.length;
  // The seat count is the room's, not a field of the form: its mark stays here.
  for (const field of document.querySelectorAll("#create-room .row [data-option]")) {
    field.classList.toggle("house-rule", changed.includes(field.dataset.option));
  }
}

function onSeats() {
  applySeats();
  markChanged();
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
  // The sheet's player count is set here, so a refusal naming it shows beside the seats.
  const seatField = seats.closest(".field");
  if (seatRule(game).option) seatField.dataset.option = seatRule(game).option;
  else delete seatField.dataset.option;
  state.form = buildSheetForm($("#sheet-form"), game.schema, presetValues(), {
    onChange: markChanged, essentials: $("#sheet-essentials"),
  });
  fitSeatsToPreset();
}

// A preset that names an exact player count (Thousand for 4) sets the seats; otherwise the seats
// stay as chosen within the game's range.
function fitSeatsToPreset() {
  const { option, role, min, max } = seatRule(state.game);
  const seats = $("#seats");
  const base = presetValues();
  let current = Number(seats.value);
  if (option && role === "exact" && Number.isInteger(base[option])) current = base[option];
  if (!(current >= min && current <= max)) current = Math.min(Math.max(4, min), max);
  seats.value = String(current);
  showFieldError("seats-error", null);
  showSeatRange();
  applySeats();
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

// The room the form asks for, or null when a field needs fixing (its error shown, focus on it).
function roomRequest() {
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
    const first = state.form.firstInvalid;
    if (first && !state.form.isEssential(first)) $("#sheet-details").open = true;
    if (first) state.form.focus(first);
    return null;
  }
  const { kind, key } = chosen();
  const base = presetValues();
  const all = state.form.values();
  const options = {};
  for (const [key, value] of Object.entries(all)) {
    if (JSON.stringify(value) !== JSON.stringify(base[key])) options[key] = value;
  }
  const body = { game: state.game.name, options, seats, name, approval: $("#approval").checked };
  if (kind === "sheet") body.sheet_id = key;
  else body.preset = key;
  return body;
}

async function create(event) {
  event.preventDefault();
  await makeRoom(roomRequest(), false);
}

// Practice: the same room, with bots in every other seat; it starts as the last one sits down.
async function practise() {
  const body = roomRequest();
  await makeRoom(body && { ...body, approval: false }, true);
}

async function makeRoom(body, withBots) {
  if (!body) return;
  const buttons = [$("#create-button"), $("#practice-button")];
  for (const b of buttons) b.disabled = true;
  try {
    const answer = await api.createRoom(body);
    rememberName(body.name);
    saveSeat(answer.room, { token: answer.token, seat: answer.seat, name: body.name });
    if (withBots) await fillWithBots(answer.room, answer.token);
    window.location.assign(answer.invite || `/r/${answer.room}`);
  } catch (error) {
    for (const b of buttons) b.disabled = false;
    const message = refusalText(error);
    const { option } = seatRule(state.game);
    if (error.option && error.option !== option && state.form.showError(error.option, message)) {
      if (!state.form.isEssential(error.option)) $("#sheet-details").open = true;
      state.form.focus(error.option);
    } else if (error.option === "seats" || error.option === option || error.code === "bad_seats") {
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
    fitSeatsToPreset();
    showUpdate();
  });
  $("#seats").addEventListener("change", onSeats);
  $("#seats").addEventListener("input", onSeats);
  $("#create-room").addEventListener("submit", create);
  $("#practice-button").addEventListener("click", practise);
  $("#save-sheet").addEventListener("click", saveSheet);
  $("#update-sheet").addEventListener("click", updateSheet);
}

start();
