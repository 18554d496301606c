/**
 * The plugin's schema.json is generated (npm run generate) from the resources' TypeScript
 * declarations and definitions: it must say what the code says (that the committed file matches a
 * fresh generation is tests/unit/generated.test.ts's). Its
 * validity under the running CLI's metaschema needs that CLI's Go module: tests/e2e/schema-metaschema.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { docOf } from "../../provider/fields/sentences";
import { firewallRuleFields } from "../../resources/firewallRule";
import { generateSchema } from "../../scripts/schema";
import { definitionOf, kinds } from "../../resources/kinds";
import { nestedSetsOf } from "../../scripts/fieldTypes";
import { WIDE_NOTE } from "../../provider/fields/integer";

jest.setTimeout(120_000);

type Property = { type?: string; additionalProperties?: unknown; description?: string; replaceOnChanges?: boolean; secret?: boolean };
type Schema = {
  version: string;
  config: { variables: Record<string, Property> };
  provider: { inputProperties: Record<string, Property> };
  resources: Record<string, { inputProperties: Record<string, Property>; properties: Record<string, Property>; requiredInputs: string[] }>;
  functions: Record<string, { outputs: { properties: Record<string, unknown> } }>;
};

describe("schema.json", () => {
  const fresh = generateSchema() as unknown as Schema;

  it("declares every resource kind, with the package's version", () => {
    expect(Object.keys(fresh.resources)).toEqual(kinds().map((k) => `svc:index:${k}`));
    expect(fresh.version).toBe(JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")).version);
  });

  it("marks what replaces, what is secret and what is required from the specs and the Args interfaces", () => {
    const vpc = fresh.resources["svc:index:Vpc"];
    expect(vpc.inputProperties.range.replaceOnChanges).toBe(true);
    expect(vpc.inputProperties.workspaceId.replaceOnChanges).toBe(true);
    expect(vpc.inputProperties.name.replaceOnChanges).toBeUndefined();
    // A name left out is made by the provider (provider/lifecycle/autoname.ts).
    expect(vpc.requiredInputs).toEqual(["description", "range"]);
    expect(fresh.resources["svc:index:ApiToken"].properties.code.secret).toBe(true);
    expect(fresh.resources["svc:index:RegistryCredential"].inputProperties.password.secret).toBe(true);
    expect(fresh.config.variables.token.secret).toBe(true);
  });

  it("configures the provider as provider/runtime/config.ts reads its settings, with their environment fallbacks", () => {
    expect(Object.keys(fresh.config.variables)).toEqual(["baseUrl", "token", "workspaceId", "maxRequestsPerSecond"]);
    expect(fresh.provider.inputProperties).toEqual(fresh.config.variables);
    expect(fresh.config.variables.baseUrl.description).toContain("`SVC_BASE_URL`");
    expect(fresh.config.variables.workspaceId.description).toContain("`SVC_WORKSPACE_ID`");
    expect(fresh.config.variables.maxRequestsPerSecond).toMatchObject({ type: "number" });
    expect(fresh.config.variables.maxRequestsPerSecond.description).toContain("`SVC_MAX_REQUESTS_PER_SECOND`");
  });

  it("says in descriptions what the schema's types cannot: allowed values, map keys", () => {
    // The field's doc names two of the three protocols: the note names them all.
    expect(fresh.resources["svc:index:FirewallRule"].inputProperties.protocol.description).toBe(
      `${docOf(firewallRuleFields.protocol)} One of: \`ICMP\`, \`TCP\`, \`UDP\`.`,
    );
    // Partial<Record<GrantKind, ...>> is a map, not an object type without properties.
    const grants = fresh.resources["svc:index:ApiToken"].properties.grants;
    expect(grants.additionalProperties).toEqual({ type: "string" });
    expect(grants.description).toContain("`WORKSPACE`");
  });

  it("answers a list lookup as { items }, as the plugin and the mocks do", () => {
    expect(Object.keys(fresh.functions["svc:index:getPlans"].outputs.properties)).toEqual(["items"]);
    expect(fresh.functions["svc:index:getPlan"].outputs.properties).toHaveProperty("id");
  });

  // Issue 37: each number the spec types integer is `integer` where it fits Java's and .NET's 32-bit
  // int in ordinary use; bytes, rates, micro-USD and the 4-byte ASN stay `number` (provider/fields/integer.ts).
  const typed = (type: string) =>
    Object.entries(fresh.resources).flatMap(([token, r]) =>
      Object.entries(r.inputProperties)
        .filter(([, p]) => p.type === type)
        .map(([name]) => `${token.slice("svc:index:".length)}.${name}`),
    );

  it("types integer the inputs the spec types integer that fit 32 bits, and keeps number for the wide ones", () => {
    expect(typed("integer")).toEqual([
      "FirewallRule.portStart",
      "FirewallRule.portEnd",
      "FirewallRule.priority",
      "Instance.cpu",
      "K3sService.replicas",
      "ApiToken.expiresInDays",
      "Coupon.uses",
      "Coupon.expiryDays",
      "BgpConfig.maxPrefixes",
    ]);
    expect(typed("number")).toEqual([
      "Disk.size",
      "FirewallRule.bpsLimit",
      "FirewallRule.ppsLimit",
      "Instance.memoryBytes",
      "Coupon.amount",
      "BgpConfig.asn",
    ]);
    // Each says why it is a number.
    for (const field of typed("number")) {
      const [kind, name] = field.split(".");
      expect([field, fresh.resources[`svc:index:${kind}`].inputProperties[name].description]).toEqual([
        field,
        expect.stringContaining(WIDE_NOTE),
      ]);
    }
    // An input's output says what its input says.
    for (const [token, r] of Object.entries(fresh.resources))
      for (const [name, p] of Object.entries(r.inputProperties))
        if (r.properties[name] && (p.type === "integer" || p.type === "number"))
          expect([token, name, r.properties[name].type]).toEqual([token, name, p.type]);
  });

  it("refuses a fraction at preview for every numeric input and nested member, integer or number, citing the spec", () => {
    const refusal = (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ message: string }> } } }) => {
      const result = schema.safeParse(1.5);
      return result.success ? "accepted" : result.error!.issues.map((i) => i.message).join("; ");
    };
    const numeric = typed("integer").concat(typed("number"));
    expect(numeric).toHaveLength(15);
    for (const field of numeric) {
      const [kind, name] = field.split(".");
      const f = definitionOf(kind).fields[name] as { schema: Parameters<typeof refusal>[0] };
      expect([field, refusal(f.schema)]).toEqual([field, expect.stringMatching(/whole .*\(spec part \d/)]);
    }
    // Nested members typed integer (ports, storage sizes, bandwidth): each refuses a fraction too.
    const members = kinds().flatMap((kind) =>
      nestedSetsOf(kind).flatMap(([, set]) =>
        Object.entries(set.members)
          .filter(([, m]) => (m.schema as { def?: { type?: string } }).def?.type === "number")
          .map(([name, m]) => [`${kind}.${name}`, refusal(m.schema)]),
      ),
    );
    expect(members.length).toBeGreaterThanOrEqual(6);
    for (const [name, message] of members) expect([name, message]).toEqual([name, expect.stringMatching(/whole .*\(spec part \d/)]);
  });
});
