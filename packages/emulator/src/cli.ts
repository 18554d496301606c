#!/usr/bin/env node
/**
 * `svc-emulator --port <p> [--workflow-ms <n>] [--state <file>] [--seed <n>] [--id-mode large|small]`
 * (the package's bin: `npx svc-emulator` where the package is installed; `npm run --silent
 * emulator --` in this repository)
 *
 * The first line of output is a JSON object with url, token, workspaceId and staffToken;
 * human-friendly lines follow. Serves on 127.0.0.1 until interrupted.
 */
import { startEmulator, type EmulatorOptions } from "./server";

const USAGE = "usage: emulator [--port <p>] [--workflow-ms <n>] [--state <file>] [--seed <n>] [--id-mode large|small]";

function parseArgs(argv: string[]): EmulatorOptions {
  const options: EmulatorOptions = { port: 0 };
  const int = (flag: string, value: string | undefined, min: number, max: number) => {
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n < min || n > max)
      throw new Error(`${flag} needs an integer from ${min} to ${max}\n${USAGE}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    // Split at the first "=" only: the value may contain more (a --state path).
    const eq = argv[i].indexOf("=");
    const [flag, inline] = eq < 0 ? [argv[i], undefined] : [argv[i].slice(0, eq), argv[i].slice(eq + 1)];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "--port":
        options.port = int(flag, value(), 0, 65535);
        break;
      case "--workflow-ms":
        options.workflowMs = int(flag, value(), 0, 600_000);
        break;
      case "--state":
        options.stateFile = value();
        if (!options.stateFile) throw new Error(`--state needs a file path\n${USAGE}`);
        break;
      case "--seed":
        options.seed = int(flag, value(), 0, 2 ** 31 - 1);
        break;
      case "--id-mode": {
        const mode = value();
        if (mode !== "large" && mode !== "small") throw new Error(`--id-mode is large or small\n${USAGE}`);
        options.idMode = mode;
        break;
      }
      case "--help":
      case "-h":
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  const started = performance.now();
  const options = parseArgs(process.argv.slice(2));
  const emulator = await startEmulator(options);
  const { url, token, workspaceId, staffToken } = emulator;
  // Handlers first: a supervisor may send SIGTERM as soon as it has read the JSON line.
  const stop = async () => {
    await emulator.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  process.stdout.write(JSON.stringify({ url, token, workspaceId, staffToken }) + "\n");
  console.log(`svc API emulator listening on ${url} (started in ${Math.round(performance.now() - started)} ms)`);
  console.log(
    `  workflows take ${emulator.services.settings.workflowMs} ms; ${options.stateFile ? `state persisted to ${options.stateFile}` : "state in memory only"}`,
  );
  console.log(`  try: curl -H "Authorization: Bearer ${token}" ${url}/v1/workspaces/${workspaceId}`);
}

main().catch((err) => {
  console.error(`emulator: ${(err as Error).message}`);
  process.exit(1);
});
