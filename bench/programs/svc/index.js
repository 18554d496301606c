// The provider benchmark's svc stack: half Disks (whose create answers with a workflow), half
// Vpcs (created synchronously), BENCH_N resources in all. See bench/README.md.
const svc = require("pulumi-svc");

const n = Number(process.env.BENCH_N || "100");
for (let i = 0; i < Math.ceil(n / 2); i++) {
  new svc.Disk(`disk-${i}`, { name: `bench-disk-${i}`, size: 1024 ** 3, backend: "LOCAL", region: "NA_01" });
}
for (let i = 0; i < Math.floor(n / 2); i++) {
  new svc.Vpc(`vpc-${i}`, {
    name: `bench-vpc-${i}`,
    description: "provider benchmark",
    range: `10.${Math.floor(i / 256) % 256}.${i % 256}.0/24`,
  });
}
