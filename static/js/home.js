// Home: choose a game and a preset, adjust the rule sheet, create the room and go to it as its host.

import { api, saveSeat, lastName, rememberName } from "./api.js";
import { $, h, clear } from "./dom.js";
import { lang, t, tMaybe } from "./i18n.js";
import { buildSheetForm } from "./schemaform.js";
import { presetLabel } from "./sheetnames.js";

const state = { games: [], game: null, form: null };


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

function presetValues() {
  const key = $("#preset").value;
  return (state.game.presets || {})[key] || {};
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
  const select = clear($("#preset"));
  for (const key of Object.keys(game.presets || {})) select.append(h("option", { value: key }, presetLabel(key)));
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
  const preset = $("#preset").value;
  const base = presetValues();
  const all = state.form.values();
  const options = {};
  for (const [key, value] of Object.entries(all)) {
    if (JSON.stringify(value) !== JSON.stringify(base[key])) options[key] = value;
  }
  const button = $("#create-button");
  button.disabled = true;
  try {
    const answer = await api.createRoom({
      game: state.game.name, preset, options, seats, name, approval: $("#approval").checked,
    });
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
}

start();
