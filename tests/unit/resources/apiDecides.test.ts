/**
 * Values the spec allows but the emulator refuses (its own limits: packages/emulator/src/routes/*.ts,
 * packages/emulator/README.md). The spec gives no such limit, so the API decides: `check` lets each
 * through at preview, and the API's refusal at `up` reaches the user with the field and the API's
 * message (tests/e2e/api-decides.test.ts proves that path through the engine, on both faces). The
 * table keeps every rule the provider once enforced from the emulator's choices (issue 37), each
 * with the value that rule refused; "x / y" names the value the emulator still accepts, then the one
 * it refuses.
 */
import { failuresOf } from "../../support/preview";
import { appDefinition } from "../../../resources/app";
import { appTemplateDefinition } from "../../../resources/appTemplate";
import { couponDefinition } from "../../../resources/coupon";
import { diskDefinition } from "../../../resources/disk";
import { imageDefinition } from "../../../resources/image";
import { instanceDefinition } from "../../../resources/instance";
import { netLoadBalancerDefinition } from "../../../resources/netLoadBalancer";
import { recipeDefinition } from "../../../resources/recipe";
import { k3sServiceDefinition } from "../../../resources/k3sService";
import { k3sSecretDefinition } from "../../../resources/k3sSecret";
import { custom, disk, GiB, image, plan, times } from "./support";

const MiB = 1024 ** 2;
const text = (n: number, c = "x") => c.repeat(n);

const storage = (n: number) => times(n, (i) => ({ sizeBytes: GiB, boot: i === 0 }));
const url = (n: number) => `https://images.example.com/${text(n - 27)}`;
const lb = { name: "lb", address: "203.0.113.7" };
const app = { instanceId: "1", name: "web", image: "nginx:1.27", ports: [{ hostPort: 80, containerPort: 80, http: true }] };
const tpl = { name: "Dashboard", description: "d", image: "grafana/grafana:11.2.0" };
const recipe = { name: "r", category: "TOOLS", description: "# r", commands: [{ path: "/opt/r.sh" }] };
const field = (id: string) => ({ id, label: "a", type: "TEXT" });
const coupon = { amount: 5_000_000, uses: 2 };
const service = { name: "web", image: "nginx:1.27", mode: "SPREAD", targetInstanceIds: ["1"], replicas: 2 };
const secret = { name: "db", data: { PASSWORD: "s3cret" } };

type Case = [what: string, definition: unknown, refusedByTheEmulator: Record<string, unknown>];

const CASES: Case[] = [
  ["Instance name of 64 characters / 65", instanceDefinition, { ...plan, name: text(65) }],
  ["Instance name with spaces around / only spaces", instanceDefinition, { ...plan, name: "   " }],
  ["Instance cpu of 128 / 129", instanceDefinition, { ...custom, cpu: 129 }],
  ["Instance memoryBytes of 512 MiB / one byte less", instanceDefinition, { ...custom, memoryBytes: 512 * MiB - 1 }],
  ["Instance storage of 16 entries / 17", instanceDefinition, { ...custom, storage: storage(17) }],
  ["Instance ips of 16 / 17", instanceDefinition, { ...plan, ips: times(17, () => ({ family: "IPv6" })) }],
  ["Instance vpcIds of 8 distinct (one repeated: sent once) / 9", instanceDefinition, { ...plan, vpcIds: times(9, (i) => String(i + 1)) }],
  ["Instance cloudInit of 65536 characters / 65537", instanceDefinition, { ...plan, cloudInit: text(65_537) }],
  ["Instance osName of 64 characters / 65", instanceDefinition, { ...plan, osName: text(65) }],
  ["Instance osName of one character / empty", instanceDefinition, { ...plan, osName: "" }],
  ["Disk name of 64 characters / 65", diskDefinition, { ...disk, name: text(65) }],
  ["Disk name of one character / only spaces", diskDefinition, { ...disk, name: " " }],
  ["Image source url of 2048 characters / 2049", imageDefinition, { ...image, source: { type: "URL", url: url(2049) } }],
  ["Image os name of 64 characters / 65", imageDefinition, { ...image, os: { family: "LINUX", name: text(65) } }],
  ["NetLoadBalancer name of 64 characters / 65", netLoadBalancerDefinition, { ...lb, name: text(65) }],
  ["App name of 64 characters / 65", appDefinition, { ...app, name: text(65) }],
  ["App image of 255 characters / 256", appDefinition, { ...app, image: `${text(251, "a")}:1.27` }],
  ["App image in lower case / with an upper-case path", appDefinition, { ...app, image: "ghcr.io/Org/app:v2" }],
  ["App environment name A.b-c_1 / 1A", appDefinition, { ...app, environment: { "1A": "x" } }],
  ["App environment name of 255 characters / 256", appDefinition, { ...app, environment: { [text(256, "A")]: "x" } }],
  ["App environment value of 65536 characters / 65537", appDefinition, { ...app, environment: { A: text(65_537) } }],
  ["App mounts of 50 / 51", appDefinition, { ...app, mounts: times(51, (i) => ({ hostPath: `/h${i}`, containerPath: `/c${i}` })) }],
  ["App mount path of 4096 characters / 4097", appDefinition, { ...app, mounts: [{ hostPath: "/h", containerPath: `/${text(4096)}` }] }],
  ["App ports of 50 / 51", appDefinition, { ...app, ports: times(51, (i) => ({ hostPort: 8000 + i, containerPort: 80, http: i === 0 })) }],
  ["AppTemplate name of 64 characters / 65", appTemplateDefinition, { ...tpl, name: text(65) }],
  ["AppTemplate description of 1000 characters / 1001", appTemplateDefinition, { ...tpl, description: text(1001) }],
  ["AppTemplate image of 255 characters / 256", appTemplateDefinition, { ...tpl, image: `${text(251, "a")}:1.27` }],
  ["AppTemplate image in lower case / with an upper-case name", appTemplateDefinition, { ...tpl, image: "Grafana/grafana:11.2.0" }],
  ["AppTemplate category NETWORK / FINANCE", appTemplateDefinition, { ...tpl, category: "FINANCE" }],
  ["AppTemplate environment of 200 entries / 201", appTemplateDefinition, { ...tpl, environment: times(201, (i) => ({ key: `K${i}` })) }],
  ["AppTemplate environment key _a.b-c / a-digit start", appTemplateDefinition, { ...tpl, environment: [{ key: "9A" }] }],
  [
    "AppTemplate environment value of 65536 characters / 65537",
    appTemplateDefinition,
    { ...tpl, environment: [{ key: "A", value: text(65_537) }] },
  ],
  [
    "AppTemplate environment description of 1000 characters / 1001",
    appTemplateDefinition,
    { ...tpl, environment: [{ key: "A", description: text(1001) }] },
  ],
  [
    "AppTemplate mounts of 50 / 51",
    appTemplateDefinition,
    { ...tpl, mounts: times(51, (i) => ({ hostPath: `/h${i}`, containerPath: `/c${i}` })) },
  ],
  [
    "AppTemplate mount path of 4096 characters / 4097",
    appTemplateDefinition,
    { ...tpl, mounts: [{ hostPath: `/${text(4096)}`, containerPath: "/c" }] },
  ],
  [
    "AppTemplate ports of 50 / 51",
    appTemplateDefinition,
    { ...tpl, ports: times(51, (i) => ({ name: `p${i}`, containerPort: 1000 + i })) },
  ],
  ["AppTemplate port name of 32 characters / 33", appTemplateDefinition, { ...tpl, ports: [{ name: text(33, "p"), containerPort: 80 }] }],
  [
    "AppTemplate port description of 1000 characters / 1001",
    appTemplateDefinition,
    { ...tpl, ports: [{ name: "web", description: text(1001), containerPort: 80 }] },
  ],
  ["Recipe name of 100 characters / 101", recipeDefinition, { ...recipe, name: text(101) }],
  ["Recipe name of one character / only spaces", recipeDefinition, { ...recipe, name: "  " }],
  ["Recipe description of 100000 characters / 100001", recipeDefinition, { ...recipe, description: text(100_001) }],
  ["Recipe commands of 50 / 51", recipeDefinition, { ...recipe, commands: times(51, (i) => ({ path: `/opt/${i}.sh` })) }],
  ["Recipe command path of 4096 characters / 4097", recipeDefinition, { ...recipe, commands: [{ path: `/${text(4096)}` }] }],
  ["Recipe command args of 100 / 101", recipeDefinition, { ...recipe, commands: [{ path: "/a", args: times(101, String) }] }],
  ["Recipe command arg of 4096 characters / 4097", recipeDefinition, { ...recipe, commands: [{ path: "/a", args: [text(4097)] }] }],
  ["Recipe icon of 2048 characters / 2049", recipeDefinition, { ...recipe, icon: url(2049) }],
  ["Recipe fields of 50 / 51", recipeDefinition, { ...recipe, fields: times(51, (i) => field(`F${i}`)) }],
  ["Recipe field id of 64 characters / 65", recipeDefinition, { ...recipe, fields: [field(text(65, "F"))] }],
  ["Recipe field label of 100 characters / 101", recipeDefinition, { ...recipe, fields: [{ ...field("A"), label: text(101) }] }],
  [
    "Recipe field description of 1000 characters / 1001",
    recipeDefinition,
    { ...recipe, fields: [{ ...field("A"), description: text(1001) }] },
  ],
  ["Coupon amount of 10^12 micro-USD / one more", couponDefinition, { ...coupon, amount: 1_000_000_000_001 }],
  ["Coupon uses of 1,000,000 / one more", couponDefinition, { ...coupon, uses: 1_000_001 }],
  ["Coupon code of 3 characters / 2", couponDefinition, { ...coupon, code: "ab" }],
  ["Coupon code of 32 characters / 33", couponDefinition, { ...coupon, code: text(33, "A") }],
  ["Coupon code welcome-2026 / starting with -", couponDefinition, { ...coupon, code: "-welcome" }],
  ["Coupon code of letters and digits / with _", couponDefinition, { ...coupon, code: "SPRING_2026" }],
  ["Coupon expiryDays of 3650 / 3651", couponDefinition, { ...coupon, expiryDays: 3651 }],
  ["Coupon flags of 32 distinct (one repeated: sent once) / 33", couponDefinition, { ...coupon, flags: times(33, (i) => `F${i}`) }],
  ["Coupon flag BETA_ACCESS / beta_access", couponDefinition, { ...coupon, flags: ["beta_access"] }],
  ["Coupon flag of 32 characters / 33", couponDefinition, { ...coupon, flags: [text(33, "F")] }],
  ["Coupon note of 500 characters / 501", couponDefinition, { ...coupon, note: text(501) }],
  ["K3sService replicas of 100 / 101", k3sServiceDefinition, { ...service, replicas: 101 }],
  ["K3sService replicas of 1 / 0", k3sServiceDefinition, { ...service, replicas: 0 }],
  ["K3sService name as a DNS label / with capitals", k3sServiceDefinition, { ...service, name: "Web" }],
  ["K3sService name as a DNS label / with an underscore", k3sServiceDefinition, { ...service, name: "web_app" }],
  ["K3sService name as a DNS label / ending with -", k3sServiceDefinition, { ...service, name: "web-" }],
  ["K3sService name of 63 characters / 64", k3sServiceDefinition, { ...service, name: "a".repeat(64) }],
  ["K3sService image in lower case / with capitals in its path", k3sServiceDefinition, { ...service, image: "Nginx:1.27" }],
  ["K3sService image of 512 characters / 513", k3sServiceDefinition, { ...service, image: `${text(508, "a")}:1.2` }],
  ["K3sService targetInstanceIds of 100 / 101", k3sServiceDefinition, { ...service, targetInstanceIds: times(101, (i) => String(i + 1)) }],
  [
    "K3sService ports of 64 / 65",
    k3sServiceDefinition,
    { ...service, ports: times(65, (i) => ({ hostPort: 1000 + i, containerPort: 80 })) },
  ],
  [
    "K3sService http on a TCP port / on a UDP port",
    k3sServiceDefinition,
    { ...service, ports: [{ hostPort: 5353, containerPort: 53, protocol: "UDP", http: true }] },
  ],
  [
    "K3sService volumes of 64 / 65",
    k3sServiceDefinition,
    { ...service, volumes: times(65, (i) => ({ hostPath: `/srv/${i}`, containerPath: `/d/${i}` })) },
  ],
  ["K3sService environment name _A1 / 1A", k3sServiceDefinition, { ...service, environment: { "1A": "x" } }],
  [
    "K3sService environment value of 32 KiB / one character more",
    k3sServiceDefinition,
    { ...service, environment: { A: text(32 * 1024 + 1) } },
  ],
  ["K3sService secretRefs of 64 / 65", k3sServiceDefinition, { ...service, secretRefs: times(65, (i) => `s-${i}`) }],
  ["K3sService secretRefs entry as a DNS label / Bad_Name", k3sServiceDefinition, { ...service, secretRefs: ["Bad_Name"] }],
  ["K3sSecret name as a DNS label / with capitals", k3sSecretDefinition, { ...secret, name: "Db" }],
  ["K3sSecret data key a.b-c_1 / with a space", k3sSecretDefinition, { ...secret, data: { "A KEY": "x" } }],
  ["K3sSecret data value of 1 MiB / one character more", k3sSecretDefinition, { ...secret, data: { A: text(MiB + 1) } }],
  ["Image os name of one character / empty", imageDefinition, { ...image, os: { family: "LINUX", name: "" } }],
  ["AppTemplate category TOOLS / tools", appTemplateDefinition, { ...tpl, category: "tools" }],
  [
    "App mount path of 4096 characters / 4097 (host side)",
    appDefinition,
    { ...app, mounts: [{ hostPath: `/${text(4096)}`, containerPath: "/c" }] },
  ],
];

describe("the API decides: a value only the emulator refuses passes the preview check", () => {
  it.each(CASES)("%s", async (_what, definition, inputs) => {
    expect(await failuresOf(definition, inputs)).toEqual([]);
  });
});
