// The project's linter for static/js, run by tests/test_js.py (`node tests/js/lint.mjs`; exit 1 and
// one line per finding when something is wrong).
//
// Why not ESLint: the one a Debian bookworm machine gets from its packages (eslint 6.4, espree 6)
// does not parse optional chaining `?.` or `??` (ES2020 syntax first parsed by ESLint 7.5), which
// the scripts use throughout, and the project installs nothing from npm. So this file checks, with
// node alone, what would otherwise go unnoticed until a browser loads the page:
//   - every file parses as an ES module (V8's own parser, vm.SourceTextModule: the file is parsed,
//     never run), as the browser would refuse it;
//   - every relative import names a file that exists, and every imported name is exported by it;
//   - no import is left unused;
//   - no `var`, no `==` / `!=` (but `== null`, which means null or undefined), no `debugger`, no
//     console.log / console.debug left from debugging.

import { spawnSync } from "node:child_process";
import vm from "node:vm";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export function moduleFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...moduleFiles(path));
    else if (name.endsWith(".js") || name.endsWith(".mjs")) out.push(path);
  }
  return out;
}

// Characters after which a "/" starts a regular expression rather than a division.
const BEFORE_REGEX = new Set("(,=:[!&|?{};+-*%<>~^".split(""));
const KEYWORDS_BEFORE_REGEX = /(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/;

// The source with comments, strings, template texts and regular expressions blanked out (each
// character a space, newlines kept), so the checks below see only code and keep line numbers.
export function codeOnly(source) {
  const out = source.split("");
  const blank = (from, to) => {
    for (let k = from; k < to; k += 1) if (out[k] !== "\n") out[k] = " ";
  };
  let i = 0;
  const braces = []; // for each open "${": the depth of braces inside it
  let last = ""; // the last significant character of code
  let lastWord = "";
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
      last = c;
    } else if (c === "`" || (c === "}" && braces.length && braces[braces.length - 1] === 0)) {
      if (c === "}") braces.pop();
      let j = i + 1;
      while (j < source.length && source[j] !== "`" && !(source[j] === "$" && source[j + 1] === "{")) {
        j += source[j] === "\\" ? 2 : 1;
      }
      blank(i + 1, j);
      if (source[j] === "$") {
        braces.push(0);
        i = j + 2;
        last = "{";
      } else {
        i = j + 1;
        last = "`";
      }
    } else if (c === "/" && (last === "" || BEFORE_REGEX.has(last) || KEYWORDS_BEFORE_REGEX.test(lastWord))) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== "\n" && (inClass || source[j] !== "/")) {
        if (source[j] === "\\") j += 1;
        else if (source[j] === "[") inClass = true;
        else if (source[j] === "]") inClass = false;
        j += 1;
      }
      blank(i + 1, j);
      i = j + 1;
      last = "/";
    } else {
      if (c === "{" && braces.length) braces[braces.length - 1] += 1;
      if (c === "}" && braces.length) braces[braces.length - 1] -= 1;
      if (!/\s/.test(c)) {
        last = c;
        lastWord = /[\w$]/.test(c) ? (/[\w$]$/.test(lastWord) ? lastWord + c : c) : "";
      }
      i += 1;
    }
  }
  return out.join("");
}

const IMPORT = /(^|\n)\s*import\s+([\s\S]*?)\s+from\s+["']([^"']+)["']\s*;?/g;
const BARE_IMPORT = /(^|\n)\s*import\s+["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

// The static imports of a module: [{from, names: [{imported, local}], namespace, line, text}].
export function importsOf(source) {
  const found = [];
  for (const match of source.matchAll(IMPORT)) {
    const clause = match[2];
    const entry = { from: match[3], names: [], namespace: null, text: match[0], index: match.index + match[1].length };
    const braces = clause.match(/\{([\s\S]*)\}/);
    const outside = clause.replace(/\{[\s\S]*\}/, "").split(",").map((s) => s.trim()).filter(Boolean);
    for (const part of outside) {
      const star = part.match(/^\*\s+as\s+([\w$]+)$/);
      if (star) entry.namespace = star[1];
      else entry.names.push({ imported: "default", local: part });
    }
    if (braces) {
      for (const part of braces[1].split(",").map((s) => s.trim()).filter(Boolean)) {
        const [imported, local] = part.split(/\s+as\s+/);
        entry.names.push({ imported: imported.trim(), local: (local || imported).trim() });
      }
    }
    found.push(entry);
  }
  for (const match of source.matchAll(BARE_IMPORT)) {
    found.push({ from: match[2], names: [], namespace: null, text: match[0], index: match.index + match[1].length });
  }
  return found;
}

// The names a module exports (``default`` for its default export).
export function exportsOf(source) {
  const code = codeOnly(source);
  const names = new Set();
  for (const m of code.matchAll(/\bexport\s+(?:async\s+)?(?:function\*?|class|const|let)\s+([\w$]+)/g)) names.add(m[1]);
  for (const m of code.matchAll(/\bexport\s+default\b/g)) names.add("default");
  for (const m of code.matchAll(/\bexport\s*\{([^}]*)\}/g)) {
    for (const part of m[1].split(",").map((s) => s.trim()).filter(Boolean)) {
      const [local, exported] = part.split(/\s+as\s+/);
      names.add((exported || local).trim());
    }
  }
  return names;
}

function lineAt(source, index) {
  return source.slice(0, index).split("\n").length;
}

// Findings for one module, as "path:line: text".
export function lintModule(path, source, readModule) {
  const name = relative(ROOT, path);
  const findings = [];
  const report = (index, text) => findings.push(`${name}:${lineAt(source, index)}: ${text}`);
  const code = codeOnly(source);

  const imports = importsOf(source);
  let rest = code;
  for (const entry of imports) {
    // The import statement itself does not count as a use of what it imports.
    rest = rest.slice(0, entry.index) + " ".repeat(entry.text.length - (entry.text.length - entry.text.trimStart().length)) + rest.slice(entry.index + entry.text.trimStart().length);
    if (!entry.from.startsWith(".")) {
      // node's own modules for the tests and this file; the pages load nothing but our files.
      const forNode = entry.from.startsWith("node:") && !name.startsWith("static/");
      if (!forNode) report(entry.index, `imports "${entry.from}", which is no file of ours (no bundler: relative paths only)`);
      continue;
    }
    const target = resolve(dirname(path), entry.from);
    const targetSource = readModule(target);
    if (targetSource === null) {
      report(entry.index, `imports "${entry.from}", which does not exist`);
      continue;
    }
    const exported = exportsOf(targetSource);
    for (const { imported } of entry.names) {
      if (!exported.has(imported)) report(entry.index, `imports ${imported} from "${entry.from}", which does not export it`);
    }
  }
  for (const entry of imports) {
    const locals = entry.names.map((n) => n.local).concat(entry.namespace ? [entry.namespace] : []);
    for (const local of locals) {
      const used = new RegExp(`(^|[^\\w$.]|\\.\\.\\.)${local.replace(/\$/g, "\\$")}(?![\\w$])`).test(rest);
      if (!used) report(entry.index, `imports ${local}, which is never used`);
    }
  }
  for (const match of source.matchAll(DYNAMIC_IMPORT)) {
    if (match[1].startsWith(".") && readModule(resolve(dirname(path), match[1])) === null) {
      report(match.index, `imports "${match[1]}", which does not exist`);
    }
  }

  for (const match of code.matchAll(/(^|[^\w$.])var\s+[\w${[]/g)) report(match.index, "var: use const or let");
  for (const match of code.matchAll(/[^=!<>]([=!]=)(?!=)(\s*null\b)?/g)) {
    if (!match[2]) report(match.index, `${match[1]}: use ${match[1]}= (only == null may stay loose)`);
  }
  for (const match of code.matchAll(/(^|[^\w$.])debugger\b/g)) report(match.index, "debugger left in");
  for (const match of code.matchAll(/\bconsole\.(log|debug)\s*\(/g)) report(match.index, `console.${match[1]} left in`);
  return findings;
}

// Whether the source parses as an ES module; "line: message" when it does not. (Needs node's
// --experimental-vm-modules: the command below starts itself again with it.) V8 gives no line for a
// module that does not parse, so `node --check` is asked for it then (a process per broken file).
export function syntaxError(source) {
  try {
    new vm.SourceTextModule(source); // parsing is the check; nothing is linked or run
    return null;
  } catch (error) {
    const run = spawnSync(process.execPath, ["--check", "--input-type=module"], { input: source, encoding: "utf8" });
    const at = run.stderr.match(/\[stdin\]:(\d+)/);
    return `${at ? at[1] : "?"}: ${error.name}: ${error.message}`;
  }
}

export function lint(dirs) {
  const cache = new Map();
  const readModule = (path) => {
    if (!cache.has(path)) cache.set(path, existsSync(path) ? readFileSync(path, "utf8") : null);
    return cache.get(path);
  };
  const findings = [];
  for (const dir of dirs) {
    for (const path of moduleFiles(dir)) {
      const source = readModule(path);
      const broken = syntaxError(source);
      if (broken) {
        findings.push(`${relative(ROOT, path)}:${broken}`);
        continue;
      }
      findings.push(...lintModule(path, source, readModule));
    }
  }
  return findings;
}

const main = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (main && !vm.SourceTextModule) {
  const again = spawnSync(process.execPath, ["--experimental-vm-modules", "--no-warnings", ...process.argv.slice(1)],
    { stdio: "inherit" });
  process.exitCode = again.status === null ? 1 : again.status;
} else if (main) {
  const dirs = process.argv.length > 2 ? process.argv.slice(2).map((d) => resolve(d)) : [join(ROOT, "static/js"), join(ROOT, "tests/js")];
  const findings = lint(dirs);
  for (const finding of findings) process.stdout.write(`${finding}\n`);
  process.exitCode = findings.length ? 1 : 0;
}
