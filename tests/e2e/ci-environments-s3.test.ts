/**
 * examples/ci-environments with the state on a real S3-compatible object store (SeaweedFS,
 * tests/support/objectStore.ts): the whole flow of ci-environments.ts.
 */
import { freePort, startObjectStore } from "../support/objectStore";
import { ciEnvironmentCases } from "./ci-environments";

const BUCKET = "svc-ci-state";

ciEnvironmentCases(
  "an S3-compatible object store (SeaweedFS)",
  ["a missing bucket", "an unreachable object store"],
  async () => {
    const store = await startObjectStore();
    await store.makeBucket(BUCKET);
    return {
      url: store.url(BUCKET),
      lockUrl: `s3://${BUCKET}`,
      env: store.env,
      keys: (prefix) => store.keys(BUCKET, prefix),
      unusable: [
        [
          "a missing bucket",
          async () => ({
            url: store.url("no-such-bucket"),
            named: /bucket no-such-bucket at 127\.0\.0\.1:\d+\) cannot be used: .*NoSuchBucket/,
          }),
        ],
        [
          "an unreachable object store",
          async () => {
            const port = await freePort();
            return {
              url: store.url(BUCKET, `127.0.0.1:${port}`),
              named: new RegExp(`bucket ${BUCKET} at 127\\.0\\.0\\.1:${port}\\) cannot be used: .*connection refused`),
            };
          },
        ],
      ],
      stop: () => store.stop(),
    };
  },
  "whole",
);
