/**
 * The security rules over a stack's recorded state, where the CLI cannot run a policy pack over it
 * (way.ts): the resources of `pulumi stack export`, read as the engine reads them for `pulumi
 * policy analyze` (a resource rule on each resource's inputs, a stack rule on the outputs), each
 * rule at its default level or the one the pack's --policy-pack-config file gives it.
 */
import { describe, RULES, type Level, type ResourceRule, type StackRule, type Subject } from "../security/rules";
import { exportedSubject, type ExportedResource } from "../security/subjects";

export interface Violation {
  policy: string;
  level: Level;
  why: string;
  /** The resource at fault (a stack rule's finding without one: the stack). */
  urn?: string;
  type?: string;
  message: string;
}

/** A --policy-pack-config file's entry: a level, or an object with `enforcementLevel` and the rule's settings. */
type ConfigEntry = string | ({ enforcementLevel?: string } & Record<string, unknown>);

export function violationsInState(resources: ExportedResource[], config: Record<string, ConfigEntry> = {}): Violation[] {
  const byUrn = new Map(resources.map((r) => [r.urn, r]));
  const subjects = (side: "inputs" | "outputs") =>
    resources.map((r) => exportedSubject(r, side)).filter((s): s is Subject => s !== undefined);
  const violations: Violation[] = [];
  for (const rule of RULES as Array<ResourceRule<object> | StackRule<object>>) {
    const entry = config[rule.name];
    const { enforcementLevel, ...settings } = typeof entry === "string" ? { enforcementLevel: entry } : (entry ?? {});
    const level = (enforcementLevel ?? rule.level) as Level | "disabled";
    if (level === "disabled") continue;
    const ruleConfig = { ...rule.defaults, ...settings };
    const found =
      rule.scope === "resource"
        ? subjects("inputs")
            .filter((s) => rule.kinds.includes(s.kind))
            .flatMap((s) => rule.decide(s, ruleConfig).map((f) => ({ subject: s, finding: f })))
        : rule.decide(subjects("outputs"), ruleConfig).map((f) => ({ subject: f.subject, finding: f }));
    for (const { subject, finding } of found)
      violations.push({
        policy: rule.name,
        level: level === "mandatory" ? "mandatory" : "advisory",
        why: rule.why,
        urn: subject?.urn,
        type: subject ? byUrn.get(subject.urn)?.type : undefined,
        message: subject ? describe(subject, finding) : `${finding.field} ${finding.problem}. Fix: ${finding.fix}.`,
      });
  }
  return violations;
}

/** A violation as the CLI prints one in a preview: level, policy, the resource, then the why and the message. */
export function violationLines(v: Violation): string[] {
  const at = v.urn ? `  (${v.type}: ${v.urn.slice(v.urn.lastIndexOf("::") + 2)})` : "";
  return [`    [${v.level}]  ${v.policy}${at}`, `    ${v.why}`, `    ${v.message}`];
}
