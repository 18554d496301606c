/**
 * The policy pack `pulumi-svc-security` (policy/security in the package): `pulumi preview
 * --policy-pack node_modules/pulumi-svc/policy/security` checks every svc resource of the stack
 * against the rules of rules.ts, each advisory or mandatory by its default or the
 * --policy-pack-config file (docs/guides/security.md). It needs nothing from the API: every rule
 * decides from what the stack declares or records.
 *
 * A resource rule runs before each resource's step (a mandatory violation stops that step, in an
 * up too); a stack rule, once the whole plan is known (it stops a preview; in an up it runs after
 * the steps, so gate with a preview, as examples/ci-environments does).
 */
import { PolicyPack, type Policy, type ResourceValidationPolicy, type StackValidationPolicy } from "@pulumi/policy";
import { describe, RULES, type ResourceRule, type Rule, type StackRule, type Subject } from "./rules";
import { recordRequests } from "./requests";
import { shownSubject } from "./subjects";

/** The rule's configuration: its defaults, then what the --policy-pack-config file says. */
const configOf = <C>(rule: { defaults: C }, given: object): C => ({ ...rule.defaults, ...given }) as C;

const schemaOf = (rule: Rule) => (Object.keys(rule.configSchema).length ? { configSchema: { properties: rule.configSchema } } : {});

function resourcePolicy(rule: ResourceRule<object>): ResourceValidationPolicy {
  return {
    name: rule.name,
    description: rule.why,
    enforcementLevel: rule.level,
    ...schemaOf(rule as Rule),
    validateResource: (args, reportViolation) => {
      const subject = shownSubject(args);
      if (!subject || !rule.kinds.includes(subject.kind)) return;
      for (const finding of rule.decide(subject, configOf(rule, args.getConfig()))) reportViolation(describe(subject, finding));
    },
  };
}

function stackPolicy(rule: StackRule<object>): StackValidationPolicy {
  return {
    name: rule.name,
    description: rule.why,
    enforcementLevel: rule.level,
    ...schemaOf(rule as Rule),
    validateStack: (args, reportViolation) => {
      const subjects = args.resources.map(shownSubject).filter((s): s is Subject => s !== undefined);
      for (const finding of rule.decide(subjects, configOf(rule, args.getConfig()))) {
        const at = finding.subject ?? subjects[0];
        reportViolation(describe(at, finding), finding.subject?.urn);
      }
    },
  };
}

recordRequests();
const policies: Policy[] = (RULES as Array<ResourceRule<object> | StackRule<object>>).map((rule) =>
  rule.scope === "resource" ? resourcePolicy(rule) : stackPolicy(rule),
);
new PolicyPack("pulumi-svc-security", { policies });
