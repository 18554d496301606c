/**
 * The version matrix's entry this run belongs to (scripts/matrix.js; PULUMI_SVC_MATRIX, set by
 * scripts/test.js; the first entry when run by hand). A file of a smoke entry may run less of
 * itself there: what varies with Node.js and the CLI, where the entry that runs the whole suite
 * proves the rest (recover.test.ts, upgrade.test.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain script of scripts/, as tests/unit/matrix.test.ts reads it
const { MATRIX } = require("../../scripts/matrix.js") as { MATRIX: Array<{ name: string; files: "all" | string[] }> };

const entry = MATRIX.find((e) => e.name === (process.env.PULUMI_SVC_MATRIX ?? MATRIX[0].name));

/** Whether this run's entry runs the whole suite (newest), not a smoke set. */
export const wholeSuite = entry?.files === "all";
