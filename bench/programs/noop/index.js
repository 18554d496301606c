// The provider benchmark's baselines: BENCH_N dynamic resources whose provider answers at once,
// the engine's floor for a dynamic resource. With BENCH_OUTPUTS=k each resource also records k
// outputs with values (the "shaped" no-op): what a resource with as many outputs as an svc one
// costs the engine and the SDK, with no API behind it. See bench/README.md.
const pulumi = require("@pulumi/pulumi");

const extra = Number(process.env.BENCH_OUTPUTS || "0");
const outputNames = Array.from({ length: extra }, (_, i) => `output${i}`);

const noop = {
  async create(inputs) {
    const outs = { ...inputs };
    for (const name of outputNames) outs[name] = `value of ${name}`;
    return { id: `noop-${inputs.index}`, outs };
  },
  async read(id, props) {
    return { id, props };
  },
  async diff() {
    return { changes: false };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
  async delete() {},
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name, args) {
    super(noop, name, { ...Object.fromEntries(outputNames.map((n) => [n, undefined])), ...args });
  }
}

const n = Number(process.env.BENCH_N || "100");
for (let i = 0; i < n; i++) new Noop(`noop-${i}`, { index: i, name: `bench-noop-${i}` });
