// The benchmarks' svc stack: half Disks (whose create answers with a workflow), half Vpcs
// (created synchronously), BENCH_N resources in all. BENCH_PREFIX names them and BENCH_RANGE
// picks the second octet of their ranges, so several stacks can share one workspace
// (bench:ratelimit). See bench/README.md.
const svc = require("pulumi-svc");

const n = Number(process.env.BENCH_N || "100");
const prefix = process.env.BENCH_PREFIX || "bench";
const range = Number(process.env.BENCH_RANGE || "0");
for (let i = 0; i < Math.ceil(n / 2); i++) {
  new svc.Disk(`disk-${i}`, { name: `${prefix}-disk-${i}`, size: 1024 ** 3, backend: "LOCAL", region: "NA_01" });
}
for (let i = 0; i < Math.floor(n / 2); i++) {
  new svc.Vpc(`vpc-${i}`, {
    name: `${prefix}-vpc-${i}`,
    description: "provider benchmark",
    range: `10.${(range + Math.floor(i / 256)) % 256}.${i % 256}.0/24`,
  });
}
