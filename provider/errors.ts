/**
 * Errors the provider raises, worded for a person reading `pulumi up` output: what was being
 * done, to which resource, what the API said (method, path, status, X-Message reason, field
 * errors) and, where we know it, what to do next. Request bodies are never included: they may
 * hold secrets.
 */
export interface FieldError {
  field: string;
  message: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** A non-2xx answer from the API. */
export class ApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly reason: string | null,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(ApiError.describe(method, path, status, reason, fieldErrors));
    this.name = "ApiError";
  }

  static describe(method: string, path: string, status: number, reason: string | null, fieldErrors: FieldError[]): string {
    const head = `${method} ${path} answered ${status} ${STATUS_TEXT[status] ?? ""}`.trimEnd();
    const fields = fieldErrors.length ? ` (${fieldErrors.map((f) => `${f.field}: ${f.message}`).join("; ")})` : "";
    const hint =
      status === 401
        ? " Check svc:token / SVC_TOKEN: the token is unknown or expired."
        : status === 403
          ? " Check the token's grants and your role in the workspace."
          : "";
    return `${head}${reason ? `: ${reason}` : ""}${fields}.${hint}`;
  }

  get notFound(): boolean {
    return this.status === 404;
  }
}

/** No answer at all: the connection failed or was dropped. Whether a write happened is unknown. */
export class NetworkError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly code: string,
    /** True when the request provably never reached the server (connection refused, DNS). */
    readonly notSent: boolean,
  ) {
    super(`${method} ${path} failed without an answer (${code})${notSent ? "" : "; the server may or may not have applied it"}`);
    this.name = "NetworkError";
  }
}

/** An asynchronous workflow ended otherwise than COMPLETED. */
export class WorkflowError extends Error {
  constructor(
    readonly workflowId: string,
    readonly state: string,
    message: string,
  ) {
    super(message);
    this.name = "WorkflowError";
  }
}

/** A wait ran past its deadline (the resource's `timeouts`). */
export class DeadlineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeadlineError";
  }
}

/** Invalid provider configuration (base URL, token, workspace). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * The answer, or undefined when the API says 404: the resource does not exist or is not visible
 * to this token (the spec answers both the same way). Any other failure is thrown.
 */
export async function ifFound<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (err) {
    if (err instanceof ApiError && err.notFound) return undefined;
    throw err;
  }
}

/** Sentences joined as prose: each ends with a full stop (unless it has its own) and one space apart. */
export function sentences(...parts: Array<string | undefined | null | false>): string {
  return parts
    .map((p) => (p || "").trim())
    .filter((p) => p.length > 0)
    .map((p) => (/[.!?]["')]?$/.test(p) ? p : `${p}.`))
    .join(" ");
}

/**
 * An error as it reaches people: its message alone, the stack dropped (the message already says
 * what failed, where and what to do), unless PULUMI_SVC_DEBUG is set. The dynamic-provider host
 * prints `${err}: ${err.stack}`, and a program's runtime prints an unhandled error with
 * util.inspect, which (Node 20) can loop until "RangeError: Invalid string length" on some stack
 * frames through node_modules, hiding the message. Returns the same error, for `throw forPeople(err)`.
 */
export function forPeople(err: unknown): unknown {
  if (err instanceof Error && !process.env.PULUMI_SVC_DEBUG) err.stack = "";
  return err;
}
