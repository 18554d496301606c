/**
 * Progress a person can follow during `pulumi up`: one line when something starts, changes
 * state or retries, written to the provider's stderr (the engine shows it under the stack).
 * Lines name the resource and the operation; they never contain inputs, which may be secret.
 */
export type ProgressSink = (line: string) => void;

let sink: ProgressSink = (line) => process.stderr.write(`${line}\n`);

export function setProgressSink(next: ProgressSink): void {
  sink = next;
}

export function progress(label: string, message: string): void {
  sink(`svc: ${label}: ${message}`);
}
