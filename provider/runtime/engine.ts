/**
 * Whether the pulumi engine that runs this provider is still there. A provider that outlives its
 * engine (a CI job killed with SIGKILL) must not go on changing things nobody records: the
 * engine's record of the run ends with the engine.
 *
 * The dynamic-provider host (`pulumi-resource-pulumi-nodejs`, the SDK's) is a shell script that
 * starts node, and the engine starts it in a process group of its own: when the engine is killed,
 * the host and its node stay, and node's parent (the shell) stays too, so a change of parent says
 * nothing here (the plugin face, which the engine starts directly, exits when re-parented:
 * plugin/main.ts). What does say it is the engine's address, the host's first argument: once the
 * engine's gRPC port refuses connections, the engine is gone. `watchEngine` checks every second;
 * `ensureEngineAlive`, called by the client before every request (provider/client/client.ts), refuses to
 * start a new API call once it is gone, and the process leaves shortly after.
 *
 * The engine can also say it is stopping: its Cancel call (the provider protocol's
 * SignalCancellation: on an interrupted deployment, and on every shutdown since pulumi 3.231).
 * The plugin face honours it as it honours an engine gone (`engineCancelled`): no new API call
 * starts, and the calls in flight finish, so what they changed is answered and recorded. The
 * process stays until the engine closes it.
 */
import * as net from "node:net";

/** An API call refused because the engine that asked for the work is gone. */
export class EngineGoneError extends Error {
  constructor(readonly address: string) {
    super(
      `the pulumi engine that started this provider (at ${address}) is gone: no new API call is started. ` +
        "The stack records what was pending: run npx svc-recover, then pulumi up",
    );
    this.name = "EngineGoneError";
  }
}

/** An API call refused because the engine asked this provider to stop (Cancel). */
class EngineCancelledError extends Error {
  constructor() {
    super(
      "the pulumi engine cancelled the deployment: no new API call is started. " +
        "If it was a create or update, run pulumi refresh (or npx svc-recover), then pulumi up",
    );
    this.name = "EngineCancelledError";
  }
}

const CHECK_EVERY_MS = 1000;
/** Time for the calls in flight to end on the refusal before the process leaves. */
const EXIT_AFTER_MS = 2000;

let watched: string | undefined;
let gone = false;
let cancelled = false;

/** The engine's address among a provider host's arguments (`127.0.0.1:43121`), if any. */
export function engineAddressIn(argv: string[]): string | undefined {
  return argv.find((a) => /^(\[[0-9a-f:]+\]|[\w.-]+):\d+$/i.test(a));
}

/** Whether nothing listens at `address` any more (only a refused connection counts: a slow answer is no proof). */
export function refusesConnections(address: string, timeoutMs = 2000): Promise<boolean> {
  const split = address.lastIndexOf(":");
  const host = address.slice(0, split).replace(/^\[|\]$/g, "");
  const port = Number(address.slice(split + 1));
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (refused: boolean) => {
      socket.destroy();
      resolve(refused);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(false));
    socket.once("error", (err: NodeJS.ErrnoException) => done(err.code === "ECONNREFUSED"));
  });
}

/**
 * Starts watching the engine at `address` (once per process; later calls are ignored). The timer
 * never keeps the process alive on its own. The process's stdout and stderr are watched too
 * (`outputsOf`): they are pipes the engine reads, so a write that fails with EPIPE says the same.
 */
export function watchEngine(
  address: string | undefined,
  onGone: () => void = () => setTimeout(() => process.exit(0), EXIT_AFTER_MS),
  outputs: readonly NodeJS.EventEmitter[] = [process.stdout, process.stderr],
): void {
  if (!address || watched) return;
  watched = address;
  const markGone = () => {
    if (gone) return;
    gone = true;
    clearInterval(timer);
    onGone();
  };
  const timer = setInterval(async () => {
    if (!gone && (await refusesConnections(address))) markGone();
  }, CHECK_EVERY_MS);
  timer.unref();
  // The dynamic-provider host (the SDK's) prints every uncaught error with console.error, and
  // several failed calls too. Once the engine is gone, that write fails, and its EPIPE, uncaught,
  // is printed again: a loop that starves the timers, so the exit above never comes, and grows
  // without bound (seen once: a host at 3.6 GB and 80% of a core five minutes after its engine
  // died mid-run, strace showing that one failed write again and again). A listener ends the loop
  // at its first turn.
  for (const output of outputs) output.on("error", (err: NodeJS.ErrnoException) => err.code === "EPIPE" && markGone());
}

/** The engine sent Cancel: from now on no API call starts (those in flight finish). */
export function engineCancelled(): void {
  cancelled = true;
}

/** Throws once the watched engine is gone (`EngineGoneError`) or has cancelled (`EngineCancelledError`). */
export function ensureEngineAlive(): void {
  if (gone) throw new EngineGoneError(watched!);
  if (cancelled) throw new EngineCancelledError();
}
