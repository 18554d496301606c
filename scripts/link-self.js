#!/usr/bin/env node
// Makes `require("pulumi-svc")` resolve inside this repository, as it does in a user's project
// where the package sits in node_modules. The example programs and the dynamic-provider process
// (which loads the provider implementation by package name at call time) rely on it.
const fs = require("node:fs");
const path = require("node:path");

const repo = path.resolve(__dirname, "..");
const link = path.join(repo, "node_modules", "pulumi-svc");
try {
  const current = fs.readlinkSync(link);
  if (path.resolve(path.dirname(link), current) === repo) process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {
  // no link yet
}
fs.mkdirSync(path.dirname(link), { recursive: true });
fs.symlinkSync(path.relative(path.dirname(link), repo), link, "dir");
