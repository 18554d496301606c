/**
 * examples/ci-environments with the state in a real PostgreSQL database (the CLI's postgres://
 * backend, pulumi 3.176 and newer; tests/support/postgres.ts): the part of ci-environments.ts
 * that depends on where the state is (the S3 file runs the whole flow).
 * The password travels as PGPASSWORD, never in the URL.
 */
import { freePort } from "../support/objectStore";
import { startPostgres } from "../support/postgres";
import { ciEnvironmentCases } from "./ci-environments";

const DATABASE = "svc_ci_state";

ciEnvironmentCases(
  "a PostgreSQL database",
  ["a missing database", "an unreachable database server"],
  async () => {
    const pg = await startPostgres();
    await pg.makeDatabase(DATABASE);
    return {
      url: pg.url(DATABASE),
      // The CLI masks the user and password of the URL it names a lock by (lockURLForError).
      lockUrl: `postgres://****:****@127.0.0.1:${pg.port}/${DATABASE}`,
      env: pg.env,
      keys: (prefix) => pg.keys(DATABASE, prefix),
      unusable: [
        [
          "a missing database",
          async () => ({ url: pg.url("no_such_db"), named: /database no_such_db at 127\.0\.0\.1:\d+\) cannot be used: .*does not exist/ }),
        ],
        [
          "an unreachable database server",
          async () => {
            const port = await freePort();
            return {
              url: pg.url(DATABASE, `127.0.0.1:${port}`),
              named: new RegExp(`database ${DATABASE} at 127\\.0\\.0\\.1:${port}\\) cannot be used: .*connection refused`),
            };
          },
        ],
      ],
      stop: () => pg.stop(),
    };
  },
  "state",
);
