// The provider benchmark's baseline: BENCH_N dynamic resources whose provider answers at once,
// the engine's floor for a dynamic resource. See bench/README.md.
const pulumi = require("@pulumi/pulumi");

const noop = {
  async create(inputs) {
    return { id: `noop-${inputs.index}`, outs: inputs };
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
    super(noop, name, args);
  }
}

const n = Number(process.env.BENCH_N || "100");
for (let i = 0; i < n; i++) new Noop(`noop-${i}`, { index: i, name: `bench-noop-${i}` });
