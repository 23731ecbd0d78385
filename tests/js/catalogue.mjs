// The page's script catalogue (app/web/i18n.py script_catalogue) read straight from
// locale/<lang>/LC_MESSAGES/messages.po, so the unit tests word texts as a page in that language
// does. useCatalogue(lang) must run before static/js/i18n.js is first imported (it reads the
// catalogue once, from the page's #i18n-catalogue block): test files import the modules they test
// dynamically, after it.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function unquote(line) {
  return JSON.parse(line.slice(line.indexOf('"')));
}

// Entries of a .po file: {context, id, plural, strings, fuzzy}.
export function readPo(text) {
  const entries = [];
  let entry = null;
  let field = null;
  const finish = () => {
    if (entry && entry.id !== undefined) entries.push(entry);
    entry = null;
    field = null;
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) {
      finish();
      continue;
    }
    entry = entry || { context: null, id: undefined, plural: null, strings: [], fuzzy: false };
    if (line.startsWith("#,")) {
      entry.fuzzy = entry.fuzzy || line.includes("fuzzy");
    } else if (line.startsWith("#")) {
      continue;
    } else if (line.startsWith("msgctxt ")) {
      entry.context = unquote(line);
      field = "context";
    } else if (line.startsWith("msgid_plural ")) {
      entry.plural = unquote(line);
      field = "plural";
    } else if (line.startsWith("msgid ")) {
      entry.id = unquote(line);
      field = "id";
    } else if (line.startsWith("msgstr")) {
      const index = line.startsWith("msgstr[") ? Number(line.slice(7, line.indexOf("]"))) : 0;
      entry.strings[index] = unquote(line);
      field = index;
    } else if (line.startsWith('"')) {
      if (typeof field === "number") entry.strings[field] += unquote(line);
      else if (field) entry[field] += unquote(line);
    }
  }
  finish();
  return entries;
}

// What the page embeds for ``lang``: messages (context\u0004id for an entry with a context),
// plural forms by singular id, the plural categories (one, other for our languages).
export function catalogue(lang) {
  const text = readFileSync(`${ROOT}locale/${lang}/LC_MESSAGES/messages.po`, "utf8");
  const messages = {};
  const plurals = {};
  for (const entry of readPo(text)) {
    if (!entry.id || entry.fuzzy) continue;
    if (entry.plural !== null) {
      if (entry.strings.length && entry.strings.every(Boolean)) plurals[entry.id] = entry.strings;
    } else if (entry.strings[0]) {
      messages[entry.context === null ? entry.id : `${entry.context}\u0004${entry.id}`] = entry.strings[0];
    }
  }
  return { lang, messages, plurals, plural_categories: ["one", "other"] };
}

// Puts the catalogue where static/js/i18n.js looks for it: a page's #i18n-catalogue block.
export function useCatalogue(lang) {
  const block = { textContent: JSON.stringify(catalogue(lang)) };
  globalThis.document = { getElementById: (id) => (id === "i18n-catalogue" ? block : null) };
}

// A module of static/js, by its path there ("cards.js", "room/session.js").
export function staticModule(path) {
  return import(new URL(`../../static/js/${path}`, import.meta.url).href);
}
