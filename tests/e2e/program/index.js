// The end-to-end suite's program: declares whatever the test put in scenario.json beside it (a
// JSON list, written by tests/e2e/harness.ts), so one program drives every resource through the
// real engine.
//
//   { "type": "Disk", "name": "data", "args": { ... }, "opts": { "dependsOn": ["vm"] } }
//   "opts": { "retryOnError": 3 } is an onError hook allowing that many tries in all;
//   "opts": { "logAfterCreate": true } an afterCreate hook that logs.
//   { "lookup": "getPlans", "name": "plans", "args": { ... } }       // an invoke, exported
//   { "type": "Provider", "name": "eu", "args": { ... } }            // then "opts": { "provider": "eu" }
//   Options naming resources (dependsOn, parent, deletedWith, replaceWith, provider) name them by
//   their declared names; every other option is passed as it is.
//
// Each resource is a stack output of its name, unless it says "unexported": true.
// Inside args, { "$ref": "vm.id" } is another resource's output and { "$secret": v } a secret.
// `scenario:sdk`, when set, is the built sdk/nodejs to declare them with (the plugin face).
const pulumi = require("@pulumi/pulumi");
const svc = require(pulumi.runtime.getConfig("scenario:sdk") || "pulumi-svc");

const fs = require("node:fs");
const path = require("node:path");
const file = path.join(__dirname, "scenario.json");
const declarations = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : [];
const declared = {};

function resolve(value) {
  if (Array.isArray(value)) return value.map(resolve);
  if (value && typeof value === "object") {
    if ("$ref" in value) {
      const [name, ...path] = value.$ref.split(".");
      const target = declared[name];
      if (!target) throw new Error(`scenario: $ref to undeclared ${name}`);
      return path.reduce((o, key) => o[key], target);
    }
    if ("$secret" in value) return pulumi.secret(resolve(value.$secret));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  }
  return value;
}

function options(name, opts = {}) {
  const { retryOnError, logAfterCreate, ...out } = opts;
  if (retryOnError) out.hooks = { onError: [new pulumi.ErrorHook(`retry-${name}`, (args) => args.errors.length < retryOnError)] };
  if (logAfterCreate) out.hooks = { afterCreate: [new pulumi.ResourceHook(`log-${name}`, () => pulumi.log.info(`created ${name}`))] };
  if (opts.dependsOn) out.dependsOn = opts.dependsOn.map((n) => declared[n]);
  if (opts.parent) out.parent = declared[opts.parent];
  if (opts.deletedWith) out.deletedWith = declared[opts.deletedWith];
  if (opts.replaceWith) out.replaceWith = opts.replaceWith.map((n) => declared[n]);
  if (opts.provider) out.provider = declared[opts.provider];
  return out;
}

for (const d of declarations) {
  if (d.lookup) {
    const fn = svc[d.lookup];
    if (typeof fn !== "function") throw new Error(`scenario: pulumi-svc exports no lookup ${d.lookup}`);
    declared[d.name] = { result: fn(resolve(d.args || {}), options(d.name, d.opts)) };
    exports[d.name] = declared[d.name].result;
    continue;
  }
  const Type = svc[d.type];
  if (typeof Type !== "function") throw new Error(`scenario: pulumi-svc exports no resource ${d.type}`);
  declared[d.name] = new Type(d.name, resolve(d.args || {}), options(d.name, d.opts));
  if (!d.unexported) exports[d.name] = declared[d.name];
}
