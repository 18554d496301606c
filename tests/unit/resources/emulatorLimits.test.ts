/**
 * Limits the spec leaves open but the emulator enforces on the request bodies the resources send
 * (packages/emulator/src/routes/*.ts, packages/emulator/README.md): `check` refuses them at preview, so `pulumi preview`
 * fails instead of an `up` that stops midway. Each limit has one accepted boundary value and one
 * refused value; a refusal names the property and a message that says the limit is the emulator's.
 */
import { failuresOf } from "../../support/preview";
import { emulatorLimit } from "../../../provider/constraints";
import { appDefinition } from "../../../resources/app";
import { appTemplateDefinition } from "../../../resources/appTemplate";
import { couponDefinition } from "../../../resources/coupon";
import { diskDefinition } from "../../../resources/disk";
import { imageDefinition } from "../../../resources/image";
import { instanceDefinition } from "../../../resources/instance";
import { netLoadBalancerDefinition } from "../../../resources/netLoadBalancer";
import { recipeDefinition } from "../../../resources/recipe";
import { custom, disk, GiB, image, plan, times } from "./support";

const MiB = 1024 ** 2;
const text = (n: number, c = "x") => c.repeat(n);
/** The message ending: the rule's source, as the resource file names it. */
const limit = (where: string) => new RegExp(`\\(${emulatorLimit(where).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\)$`);

const storage = (n: number) => times(n, (i) => ({ sizeBytes: GiB, boot: i === 0 }));
const url = (n: number) => `https://images.example.com/${text(n - 27)}`;
const lb = { name: "lb", address: "203.0.113.7" };
const app = { instanceId: "1", name: "web", image: "nginx:1.27", ports: [{ hostPort: 80, containerPort: 80, http: true }] };
const tpl = { name: "Dashboard", description: "d", image: "grafana/grafana:11.2.0" };
const recipe = { name: "r", category: "TOOLS", description: "# r", commands: [{ path: "/opt/r.sh" }] };
const field = (id: string) => ({ id, label: "a", type: "TEXT" });
const coupon = { amount: 5_000_000, uses: 2 };

const INSTANCES = "spec part 2, Instances";
const DISKS = "spec part 2, Disks";
const IMAGES = "spec part 2, Images";
const LBS = "spec part 3, Network load balancers";
const APPS = "spec part 2, Apps";
const TEMPLATES = "spec part 2, App template";
const RECIPES = "spec part 2, Recipe";
const COUPONS = "spec part 3, Billing and usage: POST /v1/coupons";

type Limit = [
  what: string,
  spec: unknown,
  accepted: Record<string, unknown>,
  refused: Record<string, unknown>,
  property: string,
  reason: RegExp,
  source: RegExp,
];

const LIMITS: Limit[] = [
  // Instance (packages/emulator/src/routes/instances.ts CreateInstance, PatchInstance; commands.ts UpgradeInstance).
  [
    "Instance name of 64 characters / 65",
    instanceDefinition,
    { ...plan, name: text(64) },
    { ...plan, name: text(65) },
    "name",
    /^must be at most 64 characters/,
    limit(INSTANCES),
  ],
  [
    "Instance name with spaces around / only spaces",
    instanceDefinition,
    { ...plan, name: " vm " },
    { ...plan, name: "   " },
    "name",
    /^must not be blank/,
    limit(INSTANCES),
  ],
  [
    "Instance cpu of 128 / 129",
    instanceDefinition,
    { ...custom, cpu: 128 },
    { ...custom, cpu: 129 },
    "cpu",
    /^must be at most 128 cores/,
    limit(INSTANCES),
  ],
  [
    "Instance memoryBytes of 512 MiB / one byte less",
    instanceDefinition,
    { ...custom, memoryBytes: 512 * MiB },
    { ...custom, memoryBytes: 512 * MiB - 1 },
    "memoryBytes",
    /^must be at least 512 MiB/,
    limit(INSTANCES),
  ],
  [
    "Instance storage of 16 entries / 17",
    instanceDefinition,
    { ...custom, storage: storage(16) },
    { ...custom, storage: storage(17) },
    "storage",
    /^must have at most 16 entries/,
    limit(INSTANCES),
  ],
  [
    "Instance ips of 16 / 17",
    instanceDefinition,
    { ...plan, ips: times(16, () => ({ family: "IPv4" })) },
    { ...plan, ips: times(17, () => ({ family: "IPv6" })) },
    "ips",
    /^must list at most 16 addresses/,
    limit(INSTANCES),
  ],
  [
    "Instance vpcIds of 8 distinct (one repeated: sent once) / 9",
    instanceDefinition,
    { ...plan, vpcIds: [...times(8, (i) => String(i + 1)), "1"] },
    { ...plan, vpcIds: times(9, (i) => String(i + 1)) },
    "vpcIds",
    /^must list at most 8 VPCs/,
    limit(INSTANCES),
  ],
  [
    "Instance cloudInit of 65536 characters / 65537",
    instanceDefinition,
    { ...plan, cloudInit: text(65_536) },
    { ...plan, cloudInit: text(65_537) },
    "cloudInit",
    /^must be at most 65536 characters/,
    limit(INSTANCES),
  ],
  [
    "Instance osName of 64 characters / 65",
    instanceDefinition,
    { ...plan, osName: text(64) },
    { ...plan, osName: text(65) },
    "osName",
    /^must be at most 64 characters/,
    limit(INSTANCES),
  ],
  [
    "Instance osName of one character / empty",
    instanceDefinition,
    { ...plan, osName: "U" },
    { ...plan, osName: "" },
    "osName",
    /^must not be empty/,
    limit(INSTANCES),
  ],
  // Disk (packages/emulator/src/routes/disks.ts NAME).
  [
    "Disk name of 64 characters / 65",
    diskDefinition,
    { ...disk, name: text(64) },
    { ...disk, name: text(65) },
    "name",
    /^must be at most 64 characters/,
    limit(DISKS),
  ],
  [
    "Disk name of one character / only spaces",
    diskDefinition,
    { ...disk, name: "d" },
    { ...disk, name: " " },
    "name",
    /^must not be blank/,
    limit(DISKS),
  ],
  // Image (packages/emulator/src/routes/images.ts zHttpUrl, zOs).
  [
    "Image source url of 2048 characters / 2049",
    imageDefinition,
    { ...image, source: { type: "URL", url: url(2048) } },
    { ...image, source: { type: "URL", url: url(2049) } },
    "source.url",
    /^must be at most 2048 characters/,
    limit(IMAGES),
  ],
  [
    "Image os name of 64 characters / 65",
    imageDefinition,
    { ...image, os: { family: "LINUX", name: text(64) } },
    { ...image, os: { family: "LINUX", name: text(65) } },
    "os.name",
    /^must be at most 64 characters/,
    limit(IMAGES),
  ],
  // NetLoadBalancer (packages/emulator/src/routes/netlbs.ts Name).
  [
    "NetLoadBalancer name of 64 characters / 65",
    netLoadBalancerDefinition,
    { ...lb, name: text(64) },
    { ...lb, name: text(65) },
    "name",
    /^must be at most 64 characters/,
    limit(LBS),
  ],
  // App (packages/emulator/src/routes/apps.ts CreateApp, PatchApp, FromTemplate; appTemplates.ts zImageRef, zEnvKey, zMount).
  [
    "App name of 64 characters / 65",
    appDefinition,
    { ...app, name: text(64) },
    { ...app, name: text(65) },
    "name",
    /^must be at most 64 characters/,
    limit(APPS),
  ],
  [
    "App image of 255 characters / 256",
    appDefinition,
    { ...app, image: `${text(250, "a")}:1.27` },
    { ...app, image: `${text(251, "a")}:1.27` },
    "image",
    /^must be at most 255 characters/,
    limit(APPS),
  ],
  [
    "App image in lower case / with an upper-case path",
    appDefinition,
    { ...app, image: "registry:5000/team/app:V1" },
    { ...app, image: "ghcr.io/Org/app:v2" },
    "image",
    /^must name the image in lower case/,
    limit(APPS),
  ],
  [
    "App environment name A.b-c_1 / 1A",
    appDefinition,
    { ...app, environment: { "A.b-c_1": "x" } },
    { ...app, environment: { "1A": "x" } },
    "environment.1A",
    /^environment names must start with a letter or _/,
    limit(APPS),
  ],
  [
    "App environment name of 255 characters / 256",
    appDefinition,
    { ...app, environment: { [text(255, "A")]: "x" } },
    { ...app, environment: { [text(256, "A")]: "x" } },
    `environment.${text(256, "A")}`,
    /at most 255 characters/,
    limit(APPS),
  ],
  [
    "App environment value of 65536 characters / 65537",
    appDefinition,
    { ...app, environment: { A: text(65_536) } },
    { ...app, environment: { A: text(65_537) } },
    "environment.A",
    /^environment values must be at most 65536 characters/,
    limit(APPS),
  ],
  [
    "App mounts of 50 / 51",
    appDefinition,
    { ...app, mounts: times(50, (i) => ({ hostPath: `/h${i}`, containerPath: `/c${i}` })) },
    { ...app, mounts: times(51, (i) => ({ hostPath: `/h${i}`, containerPath: `/c${i}` })) },
    "mounts",
    /^must have at most 50 mounts/,
    limit(APPS),
  ],
  [
    "App mount path of 4096 characters / 4097",
    appDefinition,
    { ...app, mounts: [{ hostPath: `/${text(4095)}`, containerPath: "/c" }] },
    { ...app, mounts: [{ hostPath: "/h", containerPath: `/${text(4096)}` }] },
    "mounts[0].containerPath",
    /^must be at most 4096 characters/,
    limit(APPS),
  ],
  [
    "App ports of 50 / 51",
    appDefinition,
    { ...app, ports: times(50, (i) => ({ hostPort: 8000 + i, containerPort: 80, http: i === 0 })) },
    { ...app, ports: times(51, (i) => ({ hostPort: 8000 + i, containerPort: 80, http: i === 0 })) },
    "ports",
    /^must have at most 50 ports/,
    limit(APPS),
  ],
  // AppTemplate (packages/emulator/src/routes/appTemplates.ts templateFields, zTemplateEnv, zTemplatePort, APP_CATEGORIES).
  [
    "AppTemplate name of 64 characters / 65",
    appTemplateDefinition,
    { ...tpl, name: text(64) },
    { ...tpl, name: text(65) },
    "name",
    /^must be at most 64 characters/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate description of 1000 characters / 1001",
    appTemplateDefinition,
    { ...tpl, description: text(1000) },
    { ...tpl, description: text(1001) },
    "description",
    /^must be at most 1000 characters/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate image of 255 characters / 256",
    appTemplateDefinition,
    { ...tpl, image: `${text(250, "a")}:1.27` },
    { ...tpl, image: `${text(251, "a")}:1.27` },
    "image",
    /^must be at most 255 characters/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate image in lower case / with an upper-case name",
    appTemplateDefinition,
    { ...tpl, image: "grafana/grafana:11.2.0" },
    { ...tpl, image: "Grafana/grafana:11.2.0" },
    "image",
    /^must name the image in lower case/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate category NETWORK / FINANCE",
    appTemplateDefinition,
    { ...tpl, category: "NETWORK" },
    { ...tpl, category: "FINANCE" },
    "category",
    /^must be one of DEFAULT, GAMES, SOFTWARE, INFRASTRUCTURE, AI, MEDIA, TOOLS, DATABASES, MONITORING, PRODUCTIVITY, DEVOPS, AUTOMATION, NETWORK/,
    /\(the emulator's closed list: spec part 2, App templates names AI, .* "and others"\)$/,
  ],
  [
    "AppTemplate environment of 200 entries / 201",
    appTemplateDefinition,
    { ...tpl, environment: times(200, (i) => ({ key: `K${i}` })) },
    { ...tpl, environment: times(201, (i) => ({ key: `K${i}` })) },
    "environment",
    /^must have at most 200 entries/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate environment key _a.b-c / a-digit start",
    appTemplateDefinition,
    { ...tpl, environment: [{ key: "_a.b-c" }] },
    { ...tpl, environment: [{ key: "9A" }] },
    "environment[0].key",
    /^must start with a letter or _/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate environment value of 65536 characters / 65537",
    appTemplateDefinition,
    { ...tpl, environment: [{ key: "A", value: text(65_536) }] },
    { ...tpl, environment: [{ key: "A", value: text(65_537) }] },
    "environment[0].value",
    /^must be at most 65536 characters/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate environment description of 1000 characters / 1001",
    appTemplateDefinition,
    { ...tpl, environment: [{ key: "A", description: text(1000) }] },
    { ...tpl, environment: [{ key: "A", description: text(1001) }] },
    "environment[0].description",
    /^must be at most 1000 characters/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate mounts of 50 / 51",
    appTemplateDefinition,
    { ...tpl, mounts: times(50, (i) => ({ hostPath: `/h${i}`, containerPath: `/c${i}` })) },
    { ...tpl, mounts: times(51, (i) => ({ hostPath: `/h${i}`, containerPath: `/c${i}` })) },
    "mounts",
    /^must have at most 50 mounts/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate mount path of 4096 characters / 4097",
    appTemplateDefinition,
    { ...tpl, mounts: [{ hostPath: `/${text(4095)}`, containerPath: "/c" }] },
    { ...tpl, mounts: [{ hostPath: `/${text(4096)}`, containerPath: "/c" }] },
    "mounts[0].hostPath",
    /^must be at most 4096 characters/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate ports of 50 / 51",
    appTemplateDefinition,
    { ...tpl, ports: times(50, (i) => ({ name: `p${i}`, containerPort: 1000 + i })) },
    { ...tpl, ports: times(51, (i) => ({ name: `p${i}`, containerPort: 1000 + i })) },
    "ports",
    /^must have at most 50 ports/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate port name of 32 characters / 33",
    appTemplateDefinition,
    { ...tpl, ports: [{ name: text(32, "p"), containerPort: 80 }] },
    { ...tpl, ports: [{ name: text(33, "p"), containerPort: 80 }] },
    "ports[0].name",
    /^must be at most 32 characters/,
    limit(TEMPLATES),
  ],
  [
    "AppTemplate port description of 1000 characters / 1001",
    appTemplateDefinition,
    { ...tpl, ports: [{ name: "web", description: text(1000), containerPort: 80 }] },
    { ...tpl, ports: [{ name: "web", description: text(1001), containerPort: 80 }] },
    "ports[0].description",
    /^must be at most 1000 characters/,
    limit(TEMPLATES),
  ],
  // Recipe (packages/emulator/src/routes/recipes.ts recipeFields, zCommand, zField).
  [
    "Recipe name of 100 characters / 101",
    recipeDefinition,
    { ...recipe, name: text(100) },
    { ...recipe, name: text(101) },
    "name",
    /^must be at most 100 characters/,
    limit(RECIPES),
  ],
  [
    "Recipe name of one character / only spaces",
    recipeDefinition,
    { ...recipe, name: "r" },
    { ...recipe, name: "  " },
    "name",
    /^must not be blank/,
    limit(RECIPES),
  ],
  [
    "Recipe description of 100000 characters / 100001",
    recipeDefinition,
    { ...recipe, description: text(100_000) },
    { ...recipe, description: text(100_001) },
    "description",
    /^must be at most 100000 characters/,
    limit(RECIPES),
  ],
  [
    "Recipe commands of 50 / 51",
    recipeDefinition,
    { ...recipe, commands: times(50, (i) => ({ path: `/opt/${i}.sh` })) },
    { ...recipe, commands: times(51, (i) => ({ path: `/opt/${i}.sh` })) },
    "commands",
    /^must list at most 50 commands/,
    limit(RECIPES),
  ],
  [
    "Recipe command path of 4096 characters / 4097",
    recipeDefinition,
    { ...recipe, commands: [{ path: `/${text(4095)}` }] },
    { ...recipe, commands: [{ path: `/${text(4096)}` }] },
    "commands[0].path",
    /^must be at most 4096 characters/,
    limit(RECIPES),
  ],
  [
    "Recipe command args of 100 / 101",
    recipeDefinition,
    { ...recipe, commands: [{ path: "/a", args: times(100, String) }] },
    { ...recipe, commands: [{ path: "/a", args: times(101, String) }] },
    "commands[0].args",
    /^must have at most 100 args/,
    limit(RECIPES),
  ],
  [
    "Recipe command arg of 4096 characters / 4097",
    recipeDefinition,
    { ...recipe, commands: [{ path: "/a", args: [text(4096)] }] },
    { ...recipe, commands: [{ path: "/a", args: [text(4097)] }] },
    "commands[0].args[0]",
    /^args must be at most 4096 characters each/,
    limit(RECIPES),
  ],
  [
    "Recipe icon of 2048 characters / 2049",
    recipeDefinition,
    { ...recipe, icon: url(2048) },
    { ...recipe, icon: url(2049) },
    "icon",
    /^must be at most 2048 characters/,
    limit(RECIPES),
  ],
  [
    "Recipe fields of 50 / 51",
    recipeDefinition,
    { ...recipe, fields: times(50, (i) => field(`F${i}`)) },
    { ...recipe, fields: times(51, (i) => field(`F${i}`)) },
    "fields",
    /^must have at most 50 fields/,
    limit(RECIPES),
  ],
  [
    "Recipe field id of 64 characters / 65",
    recipeDefinition,
    { ...recipe, fields: [field(text(64, "F"))] },
    { ...recipe, fields: [field(text(65, "F"))] },
    "fields[0].id",
    /^must be at most 64 characters/,
    limit(RECIPES),
  ],
  [
    "Recipe field label of 100 characters / 101",
    recipeDefinition,
    { ...recipe, fields: [{ ...field("A"), label: text(100) }] },
    { ...recipe, fields: [{ ...field("A"), label: text(101) }] },
    "fields[0].label",
    /^must be at most 100 characters/,
    limit(RECIPES),
  ],
  [
    "Recipe field description of 1000 characters / 1001",
    recipeDefinition,
    { ...recipe, fields: [{ ...field("A"), description: text(1000) }] },
    { ...recipe, fields: [{ ...field("A"), description: text(1001) }] },
    "fields[0].description",
    /^must be at most 1000 characters/,
    limit(RECIPES),
  ],
  // Coupon (packages/emulator/src/routes/billing.ts CouponBody, zAmount, zExpiryDays, COUPON_CODE, zFlag, zMemo).
  [
    "Coupon amount of 10^12 micro-USD / one more",
    couponDefinition,
    { ...coupon, amount: 1_000_000_000_000 },
    { ...coupon, amount: 1_000_000_000_001 },
    "amount",
    /^must be at most 1,000,000,000,000 micro-USD/,
    limit(COUPONS),
  ],
  [
    "Coupon uses of 1,000,000 / one more",
    couponDefinition,
    { ...coupon, uses: 1_000_000 },
    { ...coupon, uses: 1_000_001 },
    "uses",
    /^must be at most 1,000,000/,
    limit(COUPONS),
  ],
  [
    "Coupon code of 3 characters / 2",
    couponDefinition,
    { ...coupon, code: "ab-" },
    { ...coupon, code: "ab" },
    "code",
    /^must be 3 to 32 letters, digits or -/,
    limit(COUPONS),
  ],
  [
    "Coupon code of 32 characters / 33",
    couponDefinition,
    { ...coupon, code: text(32, "A") },
    { ...coupon, code: text(33, "A") },
    "code",
    /^must be 3 to 32 letters, digits or -/,
    limit(COUPONS),
  ],
  [
    "Coupon code welcome-2026 / starting with -",
    couponDefinition,
    { ...coupon, code: "welcome-2026" },
    { ...coupon, code: "-welcome" },
    "code",
    /^must be 3 to 32 letters, digits or -, not starting with -/,
    limit(COUPONS),
  ],
  [
    "Coupon code of letters and digits / with _",
    couponDefinition,
    { ...coupon, code: "SPRING2026" },
    { ...coupon, code: "SPRING_2026" },
    "code",
    /^must be 3 to 32 letters, digits or -/,
    limit(COUPONS),
  ],
  [
    "Coupon expiryDays of 3650 / 3651",
    couponDefinition,
    { ...coupon, expiryDays: 3650 },
    { ...coupon, expiryDays: 3651 },
    "expiryDays",
    /^must be at most 3650 days/,
    limit(COUPONS),
  ],
  [
    "Coupon flags of 32 distinct (one repeated: sent once) / 33",
    couponDefinition,
    { ...coupon, flags: [...times(32, (i) => `F${i}`), "F0"] },
    { ...coupon, flags: times(33, (i) => `F${i}`) },
    "flags",
    /^must list at most 32 distinct flags/,
    limit(COUPONS),
  ],
  [
    "Coupon flag BETA_ACCESS / beta_access",
    couponDefinition,
    { ...coupon, flags: ["BETA_ACCESS"] },
    { ...coupon, flags: ["beta_access"] },
    "flags[0]",
    /^flags must be upper-case identifiers such as BETA_ACCESS/,
    limit(COUPONS),
  ],
  [
    "Coupon flag of 32 characters / 33",
    couponDefinition,
    { ...coupon, flags: [text(32, "F")] },
    { ...coupon, flags: [text(33, "F")] },
    "flags[0]",
    /^flags must be upper-case identifiers/,
    limit(COUPONS),
  ],
  [
    "Coupon note of 500 characters / 501",
    couponDefinition,
    { ...coupon, note: text(500) },
    { ...coupon, note: text(501) },
    "note",
    /^must be at most 500 characters/,
    limit(COUPONS),
  ],
];

describe("emulator limits: the accepted boundary value passes the preview check", () => {
  it.each(LIMITS)("%s", async (_what, spec, accepted) => {
    expect(await failuresOf(spec, accepted)).toEqual([]);
  });
});

describe("emulator limits: the refused value fails the preview check, naming the property, the rule and its source", () => {
  it.each(LIMITS)("%s", async (_what, spec, _accepted, refused, property, reason, source) => {
    const found = await failuresOf(spec, refused);
    expect(found).toContainEqual({ property, reason: expect.stringMatching(reason) });
    expect(found.find((f) => f.property === property && reason.test(f.reason))!.reason).toMatch(source);
  });
});
