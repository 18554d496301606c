#!/usr/bin/env node
// Lines of every function in the given TypeScript files (declarations, methods, arrows,
// function expressions; a function's lines include those of the functions inside it), longest
// first: `node scripts/function-lengths.js provider/*.ts provider/**/*.ts [--over 60]`.
// Used to measure "functions you can read at once" (issue 19).
const fs = require("node:fs");
const ts = require("typescript");

const args = process.argv.slice(2);
const overAt = args.indexOf("--over");
const over = overAt >= 0 ? Number(args.splice(overAt, 2)[1]) : 0;
const rows = [];
for (const file of args) {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name
        ? node.name.getText(source)
        : ts.isVariableDeclaration(node.parent)
          ? node.parent.name.getText(source)
          : "(anonymous)";
      rows.push({ lines: end - start + 1, where: `${file}:${start + 1}`, name });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
rows.sort((a, b) => b.lines - a.lines);
const shown = rows.filter((r) => r.lines > over);
for (const r of over ? shown : shown.slice(0, 10)) console.log(`${String(r.lines).padStart(5)}  ${r.where}  ${r.name}`);
console.log(`${rows.filter((r) => r.lines > 60).length} functions over 60 lines; longest ${rows[0]?.lines ?? 0}`);
