// The rule-sheet form, generated from a game's RuleSheet JSON schema (pydantic) and the layout
// extras the server merges into it (app/games/form_layout.py): each option's short label
// ("x-label"), topic group ("x-group"), order, whether it is an essential, and when it applies
// ("x-shown-when"). An option without layout extras still renders, in the group "other".
// Option keys and rule ids never reach the visible text: they ride in tooltips (title) only.

import { h, clear } from "./dom.js";
import { lang, ptMaybe, t, tMaybe } from "./i18n.js";

// Topic groups of "More house rules", in the order the layout lists them.
export const GROUP_TITLES = {
  dealing: () => t("Dealing"),
  playing: () => t("Playing"),
  special_cards: () => t("Special cards"),
  scoring: () => t("Scoring and the end"),
  timers: () => t("Timers"),
  chips: () => t("Chips and stakes"),
  other: () => t("Other rules"),
};

function groupTitle(group) {
  return (GROUP_TITLES[group] || GROUP_TITLES.other)();
}

function resolve(schema, node) {
  let current = node || {};
  for (let depth = 0; depth < 8; depth += 1) {
    if (current.$ref) {
      const name = current.$ref.split("/").pop();
      const target = (schema.$defs || schema.definitions || {})[name] || {};
      const { $ref, ...rest } = current;
      current = { ...target, ...rest };
    } else if (current.allOf && current.allOf.length === 1) {
      const { allOf, ...rest } = current;
      current = { ...resolve(schema, allOf[0]), ...rest };
    } else {
      break;
    }
  }
  return current;
}

// The option's shape: {kind: bool|int|number|enum|string|list|levels|json, nullable, enum, min, max}.
export function fieldShape(schema, prop) {
  let node = resolve(schema, prop);
  let nullable = false;
  if (node.anyOf) {
    const options = node.anyOf.map((part) => resolve(schema, part));
    nullable = options.some((part) => part.type === "null");
    const real = options.find((part) => part.type !== "null") || {};
    const { anyOf, ...rest } = node;
    node = { ...real, ...rest };
  }
  const shape = { nullable, node };
  if (node.enum) {
    shape.kind = "enum";
    shape.enum = node.enum;
  } else if (node.const !== undefined) {
    shape.kind = "enum";
    shape.enum = [node.const];
  } else if (node.type === "boolean") shape.kind = "bool";
  else if (node.type === "integer") shape.kind = "int";
  else if (node.type === "number") shape.kind = "number";
  else if (node.type === "array") {
    const items = resolve(schema, node.items || {});
    shape.itemKind = items.type;
    if (items.properties && items.properties.small_blind && items.properties.big_blind) {
      shape.kind = "levels";
    } else {
      shape.kind = items.type === "object" || items.properties ? "json" : "list";
    }
  } else if (node.type === "object") shape.kind = "json";
  else shape.kind = "string";
  shape.min = node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : undefined);
  shape.max = node.maximum ?? (node.exclusiveMaximum !== undefined ? node.exclusiveMaximum - 1 : undefined);
  return shape;
}

// The option's description in the page language, from the catalogue (context "rule-sheet help",
// the English description as its id; rule ids already taken out by the server).
export function describe(prop, name) {
  const english = prop.description || prop.title;
  if (!english) return t("Rule");
  return ptMaybe("rule-sheet help", english) || english;
}

// The option's short label (context "rule-sheet label"); the description when the layout gives none.
export function labelOf(prop, name) {
  const english = prop["x-label"];
  if (!english) return describe(prop, name);
  return ptMaybe("rule-sheet label", english) || english;
}

// A tooltip in words: what the option decides, and for people who know the rules by number, its
// rule ids (never the option's key, which is for the server).
function tooltip(prop, name) {
  const rules = prop["x-rules"] || [];
  const text = describe(prop, name);
  return rules.length ? `${text} (${t("rules {ids}", { ids: rules.join(", ") })})` : text;
}

// A label for an enum value: the sheet's own translations if it gives some, else the catalogue.
export function valueLabel(prop, value) {
  const labels = prop.i18n_values || prop["x-labels"] || {};
  const entry = labels[String(value)];
  if (entry && typeof entry === "object") return entry[lang] || entry.en || String(value);
  if (value === null || value === undefined) return t("none");
  if (value === true) return t("yes");
  if (value === false) return t("no");
  return tMaybe(`option value: ${value}`) || String(value).replace(/_/g, " ");
}

export function levelsText(levels) {
  if (!Array.isArray(levels) || !levels.length) return t("none");
  return levels
    .map((lv) => (lv.ante ? `${lv.small_blind}/${lv.big_blind} (${t("ante")} ${lv.ante})` : `${lv.small_blind}/${lv.big_blind}`))
    .join(", ");
}

export function formatValue(schema, prop, value) {
  const shape = fieldShape(schema, prop);
  if (Array.isArray(prop["x-choices"]) && typeof value === "number") return value === 0 ? t("off") : t("{n} s", { n: value });
  if (shape.kind === "levels") return levelsText(value);
  if (shape.kind === "json") return JSON.stringify(value);
  if (shape.kind === "bool" || shape.kind === "enum" || value === null) return valueLabel(prop, value);
  if (Array.isArray(value)) return value.map((v) => valueLabel(prop, v)).join(", ");
  return String(value);
}

export function optionNames(schema) {
  return Object.keys(schema.properties || {});
}

// The sheet's own player count (set from the room's seats, not shown as a rule).
export function seatOption(schema) {
  return (schema["x-seats"] && schema["x-seats"].option) || null;
}

// A description worth showing under its label: not the label again in other words ("Tournament:
// starting chips." under "Starting chips", "Cash game or tournament." under "Cash game or tournament").
function addsToLabel(help, label) {
  if (!help) return false;
  const words = (text) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 3));
  const labelWords = words(label);
  const extra = [...words(help)].filter((word) => !labelWords.has(word));
  return extra.length > 1;
}

function sameValue(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// Does an option apply, given the sheet's current values? ("x-shown-when": every condition holds.)
export function applies(prop, values) {
  if (prop["x-hidden"]) return false; // an option this game has no use for
  const when = prop["x-shown-when"];
  if (!when) return true;
  return Object.entries(when).every(([other, rule]) => {
    const value = values[other];
    if (Array.isArray(rule)) return rule.some((allowed) => sameValue(allowed, value));
    if (rule && Array.isArray(rule.not)) return !rule.not.some((refused) => sameValue(refused, value));
    return true;
  });
}

// Options in the form's order: essentials first, then by group and order.
export function orderedOptions(schema) {
  const props = schema.properties || {};
  const groups = schema["x-groups"] || Object.keys(GROUP_TITLES);
  const rank = (name) => {
    const prop = props[name];
    const group = groups.indexOf(prop["x-group"] || "other");
    return [group < 0 ? groups.length : group, prop["x-order"] ?? 1000];
  };
  return Object.keys(props).sort((a, b) => {
    const [ga, oa] = rank(a);
    const [gb, ob] = rank(b);
    return ga - gb || oa - ob;
  });
}

// Options that differ from the base sheet (a preset), leaving out the seat count, which is the room's.
export function houseRules(schema, values, base) {
  const seat = seatOption(schema);
  const role = schema["x-seats"] && schema["x-seats"].role;
  const changed = [];
  for (const name of optionNames(schema)) {
    if (!base || !(name in base) || !(name in values)) continue;
    if (name === seat && (role === "exact" || Number(values[name]) <= Number(base[name]))) continue;
    if (!sameValue(values[name], base[name])) changed.push(name);
  }
  return changed;
}

// The preset a sheet reads as: the one it differs from in the fewest rules (the first listed on a
// tie). Rooms keep the whole agreed sheet, so this names the preset on the printed sheet.
export function closestPreset(schema, presets, values) {
  let best = null;
  let fewest = Infinity;
  for (const [name, preset] of Object.entries(presets || {})) {
    const count = houseRules(schema, { ...preset, ...values }, preset).length;
    if (count < fewest) {
      best = name;
      fewest = count;
    }
  }
  return best;
}

function levelsEditor(schema, prop, id, errorId, onEdit) {
  const body = h("tbody");
  const editor = h("div", { class: "levels-editor", id, role: "group", "aria-describedby": errorId });
  const structures = prop["x-structures"] || {};
  const start = h("select", { id: `${id}-structure`, "aria-label": t("Start from a blind structure") },
    h("option", { value: "" }, t("Start from a ready structure…")),
    Object.keys(structures).map((key) => h("option", { value: key }, t(`blind structure: ${key}`))));

  function cell(value, min, label) {
    return h("td", {}, h("input", {
      type: "number", inputmode: "numeric", min, step: 1, value: String(value ?? ""), "aria-label": label,
    }));
  }

  function renumber() {
    [...body.rows].forEach((row, index) => {
      row.cells[0].textContent = String(index + 1);
      const inputs = row.querySelectorAll("input");
      inputs[0].setAttribute("aria-label", t("Level {n}: small blind", { n: index + 1 }));
      inputs[1].setAttribute("aria-label", t("Level {n}: big blind", { n: index + 1 }));
      inputs[2].setAttribute("aria-label", t("Level {n}: ante", { n: index + 1 }));
      row.querySelector("button").setAttribute("aria-label", t("Remove level {n}", { n: index + 1 }));
    });
  }

  function addRow(level) {
    const remove = h("button", { type: "button", class: "remove-level" }, "×");
    const row = h("tr", {},
      h("td", { class: "level-no" }, ""),
      cell(level.small_blind, 1, ""), cell(level.big_blind, 1, ""), cell(level.ante ?? 0, 0, ""),
      h("td", {}, remove));
    remove.addEventListener("click", () => {
      row.remove();
      renumber();
      onEdit();
    });
    for (const input of row.querySelectorAll("input")) input.addEventListener("change", onEdit);
    body.append(row);
  }

  function write(levels) {
    clear(body);
    for (const level of levels || []) addRow(level);
    renumber();
  }

  function read() {
    return [...body.rows].map((row) => {
      const [sb, bb, ante] = [...row.querySelectorAll("input")].map((input) => input.value.trim());
      return {
        small_blind: sb === "" ? NaN : Number(sb),
        big_blind: bb === "" ? NaN : Number(bb),
        ante: ante === "" ? 0 : Number(ante),
      };
    });
  }

  const add = h("button", { type: "button", class: "add-level" }, t("Add a level"));
  add.addEventListener("click", () => {
    const rows = read();
    const last = rows[rows.length - 1];
    const next = last && Number.isFinite(last.big_blind)
      ? { small_blind: last.big_blind, big_blind: last.big_blind * 2, ante: last.ante ? last.big_blind * 2 : 0 }
      : { small_blind: 10, big_blind: 20, ante: 0 };
    addRow(next);
    renumber();
    onEdit();
    body.rows[body.rows.length - 1].querySelector("input").focus();
  });
  start.addEventListener("change", () => {
    if (!start.value) return;
    write(structures[start.value]);
    start.value = "";
    onEdit();
  });
  editor.append(
    h("div", { class: "levels-start" }, start),
    h("div", { class: "levels-scroll" },
      h("table", { class: "levels-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("Level")),
          h("th", { scope: "col" }, t("Small blind")),
          h("th", { scope: "col" }, t("Big blind")),
          h("th", { scope: "col" }, t("Ante")),
          h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("Remove"))))),
        body)),
    add);

  function check() {
    const rows = read();
    for (const [index, row] of rows.entries()) {
      const n = index + 1;
      if (![row.small_blind, row.big_blind, row.ante].every(Number.isInteger)) {
        return t("Level {n}: enter whole numbers.", { n });
      }
      if (row.small_blind < 1 || row.big_blind < 1 || row.ante < 0) return t("Level {n}: blinds start at 1.", { n });
      if (row.small_blind > row.big_blind) {
        return t("Level {n}: the small blind may not exceed the big blind.", { n });
      }
    }
    return null;
  }

  return { element: editor, write, read, check, focus: () => (body.querySelector("input") || add).focus() };
}

// The form's own styles (static/css/form.css), linked once on pages that do not link them already
// (the room page's lobby sheet).
function ensureStyles() {
  if (document.querySelector('link[href*="css/form.css"]')) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/form.css" }));
}

// The form. Options marked essential go to `essentials` when that container is given (the home page
// shows them before "More house rules"); the others go to `container`, one fieldset per topic group.
// The sheet's seat option is hidden (the room's seats set it) unless `showSeatOption`.
export function buildSheetForm(container, schema, values, { onChange, essentials = null, showSeatOption = false } = {}) {
  ensureStyles();
  clear(container);
  if (essentials) clear(essentials);
  const inputs = {};
  const errors = {};
  const fields = {};
  const hiddenValues = {};
  const props = schema.properties || {};
  const seat = showSeatOption ? null : seatOption(schema);
  const groupBoxes = {};
  const essentialFields = [];
  const mainBox = essentials || h("fieldset", { class: "sheet-group essentials" }, h("legend", {}, t("Main rules")));
  if (!essentials) container.append(mainBox);

  function boxFor(group) {
    if (!groupBoxes[group]) {
      groupBoxes[group] = h("fieldset", { class: "sheet-group", dataset: { group } }, h("legend", {}, groupTitle(group)));
      container.append(groupBoxes[group]);
    }
    return groupBoxes[group];
  }

  for (const name of orderedOptions(schema)) {
    const prop = props[name];
    if (name === seat) {
      hiddenValues[name] = prop.default;
      continue;
    }
    const shape = fieldShape(schema, prop);
    const id = `opt-${name}`;
    const errorId = `${id}-error`;
    const helpId = `${id}-help`;
    const described = `${helpId} ${errorId}`;
    let input;
    let levels = null;
    let chooser = null;
    if (shape.kind === "int" && Array.isArray(prop["x-choices"])) {
      // A timer: off / 15 s / 30 s / 60 s / custom…, the number field only for a custom value.
      chooser = h("select", { id: `${id}-choice`, "aria-describedby": described });
      for (const value of prop["x-choices"]) {
        chooser.append(h("option", { value: String(value) }, value === 0 ? t("off") : t("{n} s", { n: value })));
      }
      chooser.append(h("option", { value: "custom" }, t("custom…")));
      input = h("input", {
        type: "number", id, name, inputmode: "numeric", "aria-describedby": described,
        min: shape.min, max: shape.max, step: 1, hidden: true,
      });
    } else if (shape.kind === "bool") {
      input = h("input", { type: "checkbox", id, name, "aria-describedby": described });
    } else if (shape.kind === "enum") {
      input = h("select", { id, name, "aria-describedby": described });
      const choices = shape.nullable ? [null, ...shape.enum] : shape.enum;
      for (const value of choices) {
        input.append(h("option", { value: JSON.stringify(value) }, valueLabel(prop, value)));
      }
    } else if (shape.kind === "int" || shape.kind === "number") {
      input = h("input", {
        type: "number", id, name, inputmode: "numeric", "aria-describedby": described,
        min: shape.min, max: shape.max, step: shape.kind === "int" ? 1 : "any",
      });
      if (shape.nullable) input.placeholder = t("none");
    } else if (shape.kind === "list") {
      input = h("input", { type: "text", id, name, "aria-describedby": described });
      input.placeholder = t("comma-separated");
    } else if (shape.kind === "levels") {
      levels = levelsEditor(schema, prop, id, errorId, () => changed(name));
      input = levels.element;
    } else if (shape.kind === "json") {
      input = h("textarea", { id, name, rows: 3, spellcheck: "false", "aria-describedby": described, class: "json" });
    } else {
      input = h("input", { type: "text", id, name, "aria-describedby": described, maxlength: prop.maxLength });
    }
    const error = h("p", { class: "field-error", id: errorId, role: "alert", hidden: true });
    const labelText = labelOf(prop, name);
    const help = describe(prop, name);
    const label = levels
      ? h("span", { class: "label", id: `${id}-label`, title: tooltip(prop, name) }, labelText)
      : h("label", { for: chooser ? chooser.id : id, title: tooltip(prop, name) }, labelText);
    if (chooser) input.setAttribute("aria-label", `${labelText} (${t("seconds")})`);
    const helpLine = addsToLabel(help, labelText) ? h("small", { class: "help", id: helpId }, help) : null;
    const field = h("div", { class: `field field-${shape.kind}`, dataset: { option: name } });
    let toggle = null;
    if (helpLine) {
      // On a phone the help waits behind "?" beside the label (static/css/form.css), so the form
      // is a list of short labels; wider screens show it always and hide the button.
      toggle = h("button", {
        type: "button", class: "help-toggle", "aria-expanded": "false", "aria-controls": helpId,
        "aria-label": `? ${t("Help: {rule}", { rule: labelText })}`,
        onclick: () => {
          const open = field.classList.toggle("help-open");
          toggle.setAttribute("aria-expanded", open ? "true" : "false");
        },
      }, "?");
    }
    const heading = toggle ? h("div", { class: "label-row" }, label, toggle) : label;
    if (shape.kind === "bool") field.append(h("div", { class: "check" }, input, label, toggle || ""), helpLine || "", error);
    else if (chooser) field.append(heading, h("div", { class: "choice-row" }, chooser, input), helpLine || "", error);
    else field.append(heading, input, helpLine || "", error);
    if (levels) input.setAttribute("aria-labelledby", `${id}-label`);
    const essential = Boolean(prop["x-essential"]);
    if (essential) essentialFields.push([prop["x-essential-order"] ?? 1000, field]);
    else boxFor(prop["x-group"] || "other").append(field);
    fields[name] = field;
    inputs[name] = { input, shape, prop, levels, chooser };
    errors[name] = error;
    if (!levels) input.addEventListener("change", () => changed(name));
    if (chooser) {
      chooser.addEventListener("change", () => {
        const custom = chooser.value === "custom";
        input.hidden = !custom;
        if (custom) input.focus();
        else input.value = chooser.value;
        changed(name);
      });
    }
  }

  essentialFields.sort((a, b) => a[0] - b[0]).forEach(([, field]) => mainBox.append(field));

  function changed(name) {
    showError(name, null);
    validateOne(name);
    refresh();
    if (onChange) onChange(name);
  }

  function read(name) {
    if (!(name in inputs)) return hiddenValues[name];
    const { input, shape, levels, chooser } = inputs[name];
    if (levels) return levels.read();
    if (chooser && chooser.value !== "custom") return Number(chooser.value);
    if (shape.kind === "bool") return input.checked;
    if (shape.kind === "enum") return JSON.parse(input.value);
    if (shape.kind === "int" || shape.kind === "number") {
      if (input.value === "") return shape.nullable ? null : undefined;
      return Number(input.value);
    }
    if (shape.kind === "list") {
      const parts = input.value.split(",").map((s) => s.trim()).filter(Boolean);
      return shape.itemKind === "integer" || shape.itemKind === "number" ? parts.map(Number) : parts;
    }
    if (shape.kind === "json") {
      try {
        return input.value.trim() ? JSON.parse(input.value) : [];
      } catch {
        return undefined;
      }
    }
    return input.value;
  }

  function write(name, value) {
    if (!(name in inputs)) {
      hiddenValues[name] = value;
      return;
    }
    const { input, shape, levels, chooser } = inputs[name];
    if (chooser) {
      const listed = [...chooser.options].some((option) => option.value === String(value));
      chooser.value = listed ? String(value) : "custom";
      input.hidden = listed;
    }
    if (levels) levels.write(value || []);
    else if (shape.kind === "bool") input.checked = Boolean(value);
    else if (shape.kind === "enum") input.value = JSON.stringify(value === undefined ? null : value);
    else if (shape.kind === "list") input.value = (value || []).join(", ");
    else if (shape.kind === "json") input.value = value === undefined ? "" : JSON.stringify(value);
    else input.value = value === null || value === undefined ? "" : String(value);
  }

  function allValues() {
    const out = {};
    for (const name of optionNames(schema)) out[name] = read(name);
    return out;
  }

  // Hide what cannot apply now, and any group left empty.
  function refresh() {
    const now = allValues();
    for (const [name, field] of Object.entries(fields)) field.hidden = !applies(props[name], now);
    for (const box of Object.values(groupBoxes)) {
      box.hidden = ![...box.querySelectorAll(":scope > .field")].some((field) => !field.hidden);
    }
  }

  function showError(name, message) {
    const error = errors[name];
    if (!error || fields[name].hidden) return false;
    error.textContent = message || "";
    error.hidden = !message;
    const { input } = inputs[name];
    input.setAttribute("aria-invalid", message ? "true" : "false");
    return true;
  }

  function problem(name) {
    const { shape, levels } = inputs[name];
    if (levels) return levels.check();
    if (shape.kind === "json" && read(name) === undefined) return t("This is not valid JSON.");
    if (shape.kind !== "int" && shape.kind !== "number") return null;
    const value = read(name);
    if (value === undefined || (typeof value === "number" && Number.isNaN(value))) return t("Enter a number.");
    if (value === null) return null;
    if (shape.kind === "int" && !Number.isInteger(value)) return t("Enter a whole number.");
    if (shape.min !== undefined && value < shape.min) return t("At least {n}.", { n: shape.min });
    if (shape.max !== undefined && value > shape.max) return t("At most {n}.", { n: shape.max });
    return null;
  }

  function validateOne(name) {
    if (fields[name].hidden) return true;
    const message = problem(name);
    if (message) {
      showError(name, message);
      return false;
    }
    inputs[name].input.setAttribute("aria-invalid", "false");
    return true;
  }

  const form = {
    values: allValues,
    setValues(next) {
      for (const name of optionNames(schema)) {
        const fallback = props[name].default;
        write(name, next && name in next ? next[name] : fallback);
        if (name in inputs) showError(name, null);
      }
      refresh();
    },
    set(name, value) {
      write(name, value);
      refresh();
    },
    showError,
    clearErrors() {
      for (const name of Object.keys(inputs)) showError(name, null);
    },
    validate() {
      let ok = true;
      let first = null;
      for (const name of Object.keys(inputs)) {
        const good = validateOne(name);
        if (!good && !first) first = name;
        ok = good && ok;
      }
      form.firstInvalid = first;
      return ok;
    },
    isEssential(name) {
      return Boolean(props[name] && props[name]["x-essential"]);
    },
    focus(name) {
      if (!inputs[name]) return;
      if (inputs[name].levels) inputs[name].levels.focus();
      else if (inputs[name].chooser && inputs[name].input.hidden) inputs[name].chooser.focus();
      else inputs[name].input.focus();
    },
    firstInvalid: null,
    // Mark the options that differ from `base` (a preset's values): the "•" beside the label, and
    // under the field "preset: <its value> · reset", the reset button putting the preset's value
    // back. Returns the changed options.
    markHouseRules(base) {
      const now = allValues();
      const changedNames = base ? houseRules(schema, now, { ...now, ...base }) : [];
      for (const [name, field] of Object.entries(fields)) {
        const isChanged = changedNames.includes(name);
        field.classList.toggle("house-rule", isChanged);
        let note = field.querySelector(":scope > .preset-note");
        if (!isChanged) {
          if (note) note.remove();
          continue;
        }
        if (!note) {
          note = h("p", { class: "preset-note" });
          field.insertBefore(note, errors[name]);
        }
        const label = labelOf(props[name], name);
        const reset = h("button", {
          type: "button", class: "link reset", "aria-label": `${t("reset")}: ${label}`,
          onclick: () => {
            write(name, base[name]);
            changed(name);
            form.focus(name);
          },
        }, t("reset"));
        clear(note);
        note.append(t("in the preset: {value}", { value: formatValue(schema, props[name], base[name]) }), " · ", reset);
      }
      return changedNames;
    },
  };
  form.setValues(values);
  return form;
}

// The read-only sheet as a table (printable page): each option applying to this sheet, its agreed
// value, and a "house rule" mark where it differs from the base sheet (the preset it started from).
export function sheetTable(schema, values, { base = null } = {}) {
  const props = schema.properties || {};
  const seat = seatOption(schema);
  const now = {};
  for (const name of optionNames(schema)) now[name] = values && name in values ? values[name] : props[name].default;
  const changed = new Set(base ? houseRules(schema, now, base) : []);
  const body = h("tbody");
  for (const name of orderedOptions(schema)) {
    const prop = props[name];
    if (name === seat || !applies(prop, now)) continue;
    const isChanged = changed.has(name);
    const rules = prop["x-rules"] || [];
    const note = [describe(prop, name), rules.length ? `(${rules.join(", ")})` : ""].filter(Boolean).join(" ");
    const valueCell = h("td", { class: "value" }, formatValue(schema, prop, now[name]));
    if (isChanged) {
      valueCell.append(
        h("span", { class: "house-rule-mark" }, t("house rule")),
        h("small", { class: "preset-value" }, t("in the preset: {value}", { value: formatValue(schema, prop, base[name]) })),
      );
    }
    body.append(
      h("tr", { dataset: { option: name }, class: isChanged ? "changed house-rule" : "" },
        h("th", { scope: "row" }, labelOf(prop, name), h("small", { class: "rule-note" }, note)),
        valueCell,
      ),
    );
  }
  return h("table", { class: "sheet-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Rule")), h("th", { scope: "col" }, t("Agreed")))),
    body);
}
