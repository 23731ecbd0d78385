// The rule-sheet form, generated from a game's RuleSheet JSON schema (pydantic). Each option is
// labelled with its description in the page's language (json_schema_extra "i18n"), and each field
// has its own error line so a refusal (client check or server "option") shows beside the field.

import { h, clear } from "./dom.js";
import { lang, t, tMaybe } from "./i18n.js";

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

// The option's shape: {kind: bool|int|number|enum|string|list, nullable, enum, min, max}.
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
    // Lists of plain values are typed as "a, b, c"; lists of objects (blind levels) as JSON.
    shape.kind = items.type === "object" || items.properties ? "json" : "list";
    shape.itemKind = items.type;
  } else if (node.type === "object") shape.kind = "json";
  else shape.kind = "string";
  shape.min = node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : undefined);
  shape.max = node.maximum ?? (node.exclusiveMaximum !== undefined ? node.exclusiveMaximum - 1 : undefined);
  return shape;
}

// The option's description in the page language, falling back to English and then the title.
export function describe(prop, name) {
  const texts = prop.i18n || {};
  return texts[lang] || texts.en || prop.description || prop.title || name;
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

export function formatValue(schema, prop, value) {
  const shape = fieldShape(schema, prop);
  if (shape.kind === "json") return JSON.stringify(value);
  if (shape.kind === "bool" || shape.kind === "enum" || value === null) return valueLabel(prop, value);
  if (Array.isArray(value)) return value.map((v) => valueLabel(prop, v)).join(", ");
  return String(value);
}

export function optionNames(schema) {
  return Object.keys(schema.properties || {});
}

export function buildSheetForm(container, schema, values, { onChange } = {}) {
  clear(container);
  const inputs = {};
  const errors = {};
  const props = schema.properties || {};
  for (const name of Object.keys(props)) {
    const prop = props[name];
    const shape = fieldShape(schema, prop);
    const id = `opt-${name}`;
    const errorId = `${id}-error`;
    let input;
    if (shape.kind === "bool") {
      input = h("input", { type: "checkbox", id, name, "aria-describedby": errorId });
    } else if (shape.kind === "enum") {
      input = h("select", { id, name, "aria-describedby": errorId });
      const choices = shape.nullable ? [null, ...shape.enum] : shape.enum;
      for (const value of choices) {
        input.append(h("option", { value: JSON.stringify(value) }, valueLabel(prop, value)));
      }
    } else if (shape.kind === "int" || shape.kind === "number") {
      input = h("input", {
        type: "number", id, name, inputmode: "numeric", "aria-describedby": errorId,
        min: shape.min, max: shape.max, step: shape.kind === "int" ? 1 : "any",
      });
      if (shape.nullable) input.placeholder = t("none");
    } else if (shape.kind === "list") {
      input = h("input", { type: "text", id, name, "aria-describedby": errorId });
      input.placeholder = t("comma-separated");
    } else if (shape.kind === "json") {
      input = h("textarea", { id, name, rows: 3, spellcheck: "false", "aria-describedby": errorId, class: "json" });
    } else {
      input = h("input", { type: "text", id, name, "aria-describedby": errorId, maxlength: prop.maxLength });
    }
    const error = h("p", { class: "field-error", id: errorId, role: "alert", hidden: true });
    const label = h("label", { for: id }, describe(prop, name));
    const meta = h("small", { class: "option-name" }, name);
    const field = h("div", { class: `field field-${shape.kind}`, dataset: { option: name } });
    if (shape.kind === "bool") field.append(h("div", { class: "check" }, input, label), meta, error);
    else field.append(label, input, meta, error);
    container.append(field);
    inputs[name] = { input, shape, prop };
    errors[name] = error;
    input.addEventListener("change", () => {
      showError(name, null);
      validateOne(name);
      if (onChange) onChange(name);
    });
  }

  function read(name) {
    const { input, shape } = inputs[name];
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
    const { input, shape } = inputs[name];
    if (shape.kind === "bool") input.checked = Boolean(value);
    else if (shape.kind === "enum") input.value = JSON.stringify(value === undefined ? null : value);
    else if (shape.kind === "list") input.value = (value || []).join(", ");
    else if (shape.kind === "json") input.value = value === undefined ? "" : JSON.stringify(value);
    else input.value = value === null || value === undefined ? "" : String(value);
  }

  function showError(name, message) {
    const error = errors[name];
    if (!error) return false;
    error.textContent = message || "";
    error.hidden = !message;
    inputs[name].input.setAttribute("aria-invalid", message ? "true" : "false");
    return true;
  }

  function validateOne(name) {
    const { input, shape } = inputs[name];
    if (shape.kind === "json" && read(name) === undefined) {
      showError(name, t("This is not valid JSON."));
      return false;
    }
    if (shape.kind !== "int" && shape.kind !== "number") return true;
    const value = read(name);
    if (value === undefined || (typeof value === "number" && Number.isNaN(value))) {
      showError(name, t("Enter a number."));
      return false;
    }
    if (value === null) return true;
    if (shape.kind === "int" && !Number.isInteger(value)) {
      showError(name, t("Enter a whole number."));
      return false;
    }
    if (shape.min !== undefined && value < shape.min) {
      showError(name, t("At least {n}.", { n: shape.min }));
      return false;
    }
    if (shape.max !== undefined && value > shape.max) {
      showError(name, t("At most {n}.", { n: shape.max }));
      return false;
    }
    input.setAttribute("aria-invalid", "false");
    return true;
  }

  const form = {
    values() {
      const out = {};
      for (const name of Object.keys(inputs)) out[name] = read(name);
      return out;
    },
    setValues(next) {
      for (const name of Object.keys(inputs)) {
        const fallback = props[name].default;
        write(name, next && name in next ? next[name] : fallback);
        showError(name, null);
      }
    },
    showError,
    clearErrors() {
      for (const name of Object.keys(inputs)) showError(name, null);
    },
    validate() {
      let ok = true;
      for (const name of Object.keys(inputs)) ok = validateOne(name) && ok;
      return ok;
    },
    focus(name) {
      if (inputs[name]) inputs[name].input.focus();
    },
  };
  form.setValues(values);
  return form;
}

// The read-only sheet as a table (printable page, room side panel).
export function sheetTable(schema, values) {
  const props = schema.properties || {};
  const body = h("tbody");
  for (const name of Object.keys(props)) {
    const prop = props[name];
    const value = values && name in values ? values[name] : prop.default;
    const changed = JSON.stringify(value) !== JSON.stringify(prop.default);
    body.append(
      h("tr", { dataset: { option: name }, class: changed ? "changed" : "" },
        h("th", { scope: "row" }, describe(prop, name), h("small", { class: "option-name" }, name)),
        h("td", { class: "value" }, formatValue(schema, prop, value)),
      ),
    );
  }
  return h("table", { class: "sheet-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Rule")), h("th", { scope: "col" }, t("Agreed")))),
    body);
}
