// The linter (lint.mjs) finds each defect it is there for, and not what only looks like one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codeOnly, exportsOf, lintModule } from "./lint.mjs";

const LINT = new URL("./lint.mjs", import.meta.url).pathname;

function findings(source, others = {}) {
  const read = (path) => {
    const name = path.split("/").pop();
    return name in others ? others[name] : null;
  };
  return lintModule("/x/static/js/m.js", source, read).map((f) => f.replace(/^.*?m\.js:/, ""));
}

test("a name imported that the module does not export, and a file that is not there", () => {
  const a = "export function x() {}\nexport const y = 1;\n";
  assert.deepEqual(findings('import { x, z } from "./a.js";\nx(z);\n', { "a.js": a }),
    ['1: imports z from "./a.js", which does not export it']);
  assert.deepEqual(findings('import { x } from "./gone.js";\nx();\n'), ['1: imports "./gone.js", which does not exist']);
  assert.deepEqual(findings('import x from "lodash";\nx();\n'), ['1: imports "lodash", which is no file of ours (no bundler: relative paths only)']);
});

test("an import never used, even when its name is in a comment or a string", () => {
  const a = "export function x() {}\nexport { x as w };\n";
  assert.deepEqual(findings('import { x, w } from "./a.js";\n// w here\nconst s = "w";\nx(s);\n', { "a.js": a }),
    ["1: imports w, which is never used"]);
  assert.deepEqual(findings('import { x } from "./a.js";\nf(...x());\n', { "a.js": a }), []);
});

test("var, loose equality, debugger and console.log", () => {
  assert.deepEqual(findings("var a = 1;\nif (a == 2) debugger;\nconsole.log(a != 3);\n"), [
    "1: var: use const or let",
    "2: ==: use === (only == null may stay loose)",
    "3: !=: use !== (only == null may stay loose)",
    "2: debugger left in",
    "3: console.log left in",
  ]);
});

test("what only looks like a defect: == null, strings, regexes, templates, comments", () => {
  const source = [
    "const a = b == null || c != null;",
    'const s = "x == y; var z; console.log(1)";',
    "const r = /==|var /g.test(s) && `a ${a === 1 ? \"==\" : '!='} b`;",
    "// var x == y; console.log()",
    "const d = a / 2 / 3;",
    "const variable = a !== b && a >= b && a <= b;",
  ].join("\n");
  assert.deepEqual(findings(source), []);
});

test("codeOnly keeps code and lines, blanks the rest", () => {
  const source = 'a("b") // c\n/* d */ e(/f/, `g${h}i`);';
  const code = codeOnly(source);
  assert.equal(code.split("\n").length, 2);
  assert.match(code, /^a\(" *"\) +\n +e\(\/ *\/, ` *\$\{h\} *`\);$/);
});

test("exports: functions, classes, constants, lists with renames, the default", () => {
  const source = "export async function a() {}\nexport class B {}\nexport const c = 1;\nexport { d, e as f };\nexport default 1;\n";
  assert.deepEqual([...exportsOf(source)].sort(), ["B", "a", "c", "d", "default", "f"]);
});

test("the command fails on a file that does not parse, and names it", () => {
  const dir = mkdtempSync(join(tmpdir(), "lint-"));
  try {
    writeFileSync(join(dir, "good.js"), "export const a = 1;\n");
    writeFileSync(join(dir, "bad.js"), "export const a = ;\n");
    const run = spawnSync(process.execPath, [LINT, dir], { encoding: "utf8" });
    assert.equal(run.status, 1);
    assert.match(run.stdout, /bad\.js:1: SyntaxError/);
    assert.doesNotMatch(run.stdout, /good\.js/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
