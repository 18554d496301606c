/**
 * FirewallRule: the inputs at their documented boundaries (spec part 3, Firewall rules), the
 * cross-field rules and defaults at preview, and what each change does (there is no update
 * endpoint), through check and diff (which never call the API).
 */
import { check, diff, failureLines, recorded } from "../../support/preview";
import { firewallRuleDefinition } from "../../../resources/firewallRule";
import { I1 } from "./support";

describe("FirewallRule rules and changes at preview", () => {
  const WHERE = "spec part 3, Firewall rules";
  const rule = { instanceId: "1", type: "IPv4", protocol: "TCP", action: "ACCEPT", portStart: 22 };

  it.each<[what: string, inputs: Record<string, unknown>, failure: string]>([
    ["ports on ICMP", { ...rule, protocol: "ICMP" }, `portStart: ports apply only to TCP and UDP, not ICMP (${WHERE})`],
    [
      "portEnd without portStart",
      { ...rule, portStart: undefined, portEnd: 80 },
      `portEnd: portEnd needs portStart (port_start is required when port_end is set; ${WHERE})`,
    ],
    [
      "portEnd below portStart",
      { ...rule, portStart: 80, portEnd: 79 },
      `portEnd: portEnd (79) must be at least portStart (80) (${WHERE})`,
    ],
    [
      "bpsLimit and ppsLimit together",
      { ...rule, bpsLimit: 10, ppsLimit: 10 },
      `bpsLimit: bpsLimit and ppsLimit are mutually exclusive; set one (${WHERE})`,
    ],
    [
      "an IPv6 remote on an IPv4 rule",
      { ...rule, remote: "2001:db8::/32" },
      `type: remote 2001:db8::/32 is not an IPv4 CIDR; a IPv4 rule needs IPv4 CIDRs (${WHERE})`,
    ],
    [
      "an IPv4 local on an IPv6 rule",
      { ...rule, type: "IPv6", local: "10.0.0.0/8" },
      `type: local 10.0.0.0/8 is not an IPv6 CIDR; a IPv6 rule needs IPv6 CIDRs (${WHERE})`,
    ],
    // The family rules name no property, so their failure is reported on their first field, type.
  ])("refuses %s", async (_what, inputs, failure) => {
    expect(await failureLines(firewallRuleDefinition, inputs)).toEqual([failure]);
  });

  it("accepts ICMP without ports and a range whose end equals its start", async () => {
    expect(await failureLines(firewallRuleDefinition, { ...rule, protocol: "ICMP", portStart: undefined })).toEqual([]);
    expect(await failureLines(firewallRuleDefinition, { ...rule, portEnd: 22 })).toEqual([]);
  });

  it("fills the API's default remote for the rule's family and priority 1, and normalises CIDRs", async () => {
    expect(await recorded(firewallRuleDefinition, rule)).toEqual({ ...rule, remote: "0.0.0.0/0", priority: 1 });
    expect(await recorded(firewallRuleDefinition, { ...rule, type: "IPv6" })).toMatchObject({ remote: "::/0" });
    expect(await recorded(firewallRuleDefinition, { ...rule, remote: "10.1.2.3/16" })).toMatchObject({ remote: "10.1.0.0/16" });
  });

  it.each<[string, unknown]>([
    ["instanceId", "2"],
    ["type", "IPv6"],
    ["protocol", "UDP"],
    ["action", "DROP"],
    ["portStart", 23],
    ["portEnd", 30],
    ["remote", "10.0.0.0/8"],
    ["local", "10.1.0.0/16"],
    ["bpsLimit", 1000],
    ["ppsLimit", 1000],
    ["priority", 2],
    ["description", "ssh"],
  ])("replaces on %s (there is no update endpoint)", async (field, value) => {
    const olds = { ...(await recorded(firewallRuleDefinition, rule)), state: "AVAILABLE" };
    expect(await diff(firewallRuleDefinition, olds, { ...olds, [field]: value })).toEqual({
      changes: true,
      replaces: [field],
      deleteBeforeReplace: false,
    });
  });
});

describe("FirewallRule inputs at their documented boundaries", () => {
  const rule = { instanceId: I1, type: "IPv4", protocol: "TCP", action: "ACCEPT" };

  it.each([
    ["firewall ports 1 and 65535", firewallRuleDefinition, { ...rule, portStart: 1, portEnd: 65535 }],
    ["a firewall bps limit of 10,000,000,000", firewallRuleDefinition, { ...rule, bpsLimit: 10_000_000_000 }],
    ["a firewall priority of 100", firewallRuleDefinition, { ...rule, priority: 100 }],
  ])("accepts %s", async (_what, definition, news) => {
    expect((await check(definition, news)).failures).toEqual([]);
  });

  it.each([
    [
      "a fractional firewall port",
      firewallRuleDefinition,
      { ...rule, portStart: 80.5 },
      "portStart: must be a whole port number, 1 to 65535 (spec part 3, Firewall rules)",
    ],
    [
      "a fractional firewall pps limit",
      firewallRuleDefinition,
      { ...rule, ppsLimit: 0.5 },
      "ppsLimit: must be a whole number, 1 to 10,000,000,000 (spec part 3, Firewall rules)",
    ],
    [
      "a fractional firewall priority",
      firewallRuleDefinition,
      { ...rule, priority: 1.5 },
      "priority: must be a whole number, 1 to 100 (spec part 3, Firewall rules)",
    ],
  ])("refuses %s, naming the property and the rule", async (_what, definition, news, failure) => {
    expect((await check(definition, news)).failures).toContain(failure);
  });
});
