/**
 * The request log behind GET /_emulator/requests: what tests assert on ("preview made no
 * mutating request", "the create was sent once"). A bounded ring; password-like fields in
 * bodies are masked so the log never holds a secret in plaintext.
 */
export interface LoggedRequest {
  seq: number;
  time: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
  body: unknown;
  durationMs: number;
}

const SECRET_KEYS = /^(password|old_password|code|mfa|data)$/i;

export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_KEYS.test(k) && v !== null && v !== undefined) out[k] = typeof v === "object" ? "[masked object]" : "[masked]";
      else out[k] = typeof v === "bigint" ? v.toString() : maskSecrets(v);
    }
    return out;
  }
  return typeof value === "bigint" ? value.toString() : value;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private seq = 0;

  constructor(private readonly capacity = 50_000) {}

  record(entry: Omit<LoggedRequest, "seq">): void {
    this.entries.push({
      ...entry,
      seq: ++this.seq,
      query: maskSecrets(entry.query) as Record<string, unknown>,
      body: maskSecrets(entry.body),
    });
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  list(filter: { since?: number; method?: string; pathPrefix?: string } = {}): LoggedRequest[] {
    return this.entries.filter(
      (e) =>
        (filter.since === undefined || e.seq > filter.since) &&
        (!filter.method || e.method === filter.method.toUpperCase()) &&
        (!filter.pathPrefix || e.path.startsWith(filter.pathPrefix)),
    );
  }

  get lastSeq(): number {
    return this.seq;
  }

  clear(): void {
    this.entries = [];
  }
}
