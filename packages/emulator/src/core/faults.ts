/**
 * Fault injection (POST /_emulator/faults). A rule selects requests by method and path pattern
 * and, for a share of them, makes something go wrong:
 *
 * - `status`: answer 429 or 500/502/503 before the handler runs (nothing is written);
 * - `drop`: run the handler (the write is committed), then drop the connection unanswered;
 * - `slow`: delay the request by `delayMs`;
 * - `workflow`: workflows started by the request end FAILED, ABORTED or TIMED_OUT;
 * - `stuck`: workflows started by the request never end, so the resource stays PENDING.
 *
 * Path patterns are globs over the path without query: `*` is one segment, `**` any number.
 */
import { z } from "zod";
import type { Rng } from "./rng";
import type { WorkflowOutcome } from "../model";

export const FaultRuleInput = z.object({
  kind: z.enum(["status", "drop", "slow", "workflow", "stuck"]),
  method: z.string().toUpperCase().optional(),
  path: z.string().default("**"),
  share: z.number().min(0).max(1).default(1),
  status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)]).optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
  delayMs: z.number().int().min(0).max(120_000).optional(),
  outcome: z.enum(["FAILED", "ABORTED", "TIMED_OUT"]).optional(),
  /** How many times the rule may fire; unlimited when absent. */
  times: z.number().int().min(1).optional(),
});
export type FaultRuleInput = z.infer<typeof FaultRuleInput>;

export interface FaultRule extends FaultRuleInput {
  id: string;
  fired: number;
}

export interface RequestFaults {
  status?: { status: number; retryAfterSeconds?: number };
  dropAfterWrite?: boolean;
  delayMs?: number;
  workflowOutcome?: WorkflowOutcome;
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]+"),
    )
    .join(".*");
  return new RegExp(`^${escaped}$`);
}

export class Faults {
  private rules: FaultRule[] = [];
  private next = 1;

  constructor(private readonly rng: Rng) {}

  add(input: FaultRuleInput): FaultRule {
    if (input.kind === "status" && !input.status) throw new Error("a status fault needs status (429, 500, 502 or 503)");
    if (input.kind === "slow" && input.delayMs === undefined) throw new Error("a slow fault needs delayMs");
    if (input.kind === "workflow" && !input.outcome) throw new Error("a workflow fault needs outcome (FAILED, ABORTED or TIMED_OUT)");
    const rule: FaultRule = { ...input, id: String(this.next++), fired: 0 };
    this.rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.rules;
  }

  clear(): void {
    this.rules = [];
  }

  /** Decides, once per request, which faults hit it. */
  forRequest(method: string, path: string): RequestFaults {
    const out: RequestFaults = {};
    for (const rule of this.rules) {
      if (rule.times !== undefined && rule.fired >= rule.times) continue;
      if (rule.method && rule.method !== method) continue;
      if (!globToRegExp(rule.path).test(path)) continue;
      if (rule.share < 1 && this.rng.float() >= rule.share) continue;
      rule.fired++;
      switch (rule.kind) {
        case "status":
          out.status ??= { status: rule.status!, retryAfterSeconds: rule.retryAfterSeconds };
          break;
        case "drop":
          out.dropAfterWrite = true;
          break;
        case "slow":
          out.delayMs = (out.delayMs ?? 0) + rule.delayMs!;
          break;
        case "workflow":
          out.workflowOutcome ??= rule.outcome;
          break;
        case "stuck":
          out.workflowOutcome ??= "STUCK";
          break;
      }
    }
    return out;
  }
}
