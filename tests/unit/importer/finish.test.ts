/**
 * `svc-import --finish` on what `pulumi import --file` (CLI 3.274.1; Node.js, Python and Go hosts
 * 3.163, pulumi-yaml 1.25, pulumi-java 1.9) generated for one import of seven objects, kept in
 * ./generated with the stack's state: the placeholders become config reads (declared once), the
 * references the generator wrote stay, a literal it left is made a reference (Go names the
 * resource it had left unnamed), and --retain sets retainOnDelete on every resource.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { finishProgram, importedOf } from "../../../importer/finish";
import { languageOf } from "../../../importer/languages";

const dir = path.join(__dirname, "generated");
const state = importedOf(JSON.parse(fs.readFileSync(path.join(dir, "state.json"), "utf8")));
const generated = (file: string) => fs.readFileSync(path.join(dir, `${file}.txt`), "utf8");
const db1 = state.find((r) => r.name === "db-1")!.id;

/** Per generated program: how it writes the reference from pg-data to db-1, and that reference as a literal id (a generator that fell short). */
const CASES = [
  {
    file: "index.ts",
    reference: "instanceId: db_1.id",
    literal: `instanceId: "${db1}"`,
    configRead: 'config.requireSecret("ghcrIoPassword")',
  },
  {
    file: "__main__.py",
    reference: "instance_id=db_1.id",
    literal: `instance_id="${db1}"`,
    configRead: 'config.require_secret("ghcrIoPassword")',
  },
  {
    file: "main.go",
    reference: "InstanceId: db_1.ID()",
    literal: `InstanceId: pulumi.String("${db1}")`,
    configRead: 'cfg.RequireSecret("ghcrIoPassword")',
  },
  { file: "resources.yaml", reference: 'instanceId: ${["db-1"].id}', literal: `instanceId: '${db1}'`, configRead: "${ghcrIoPassword}" },
  {
    file: "App.java",
    reference: ".instanceId(db_1.id())",
    literal: `.instanceId("${db1}")`,
    configRead: 'config.requireSecret("ghcrIoPassword")',
  },
];

describe.each(CASES)("finishing $file", ({ file, reference, literal, configRead }) => {
  const language = languageOf(file)!;
  const text = generated(file);

  it("finds a declaration of each imported resource", () => {
    expect(
      language
        .declarations(text)
        .map((d) => d.name)
        .sort(),
    ).toEqual(state.map((r) => r.name).sort());
  });

  it("reads each secret from its config secret, declared once, and keeps the references the generator wrote", () => {
    expect(text).toContain("svc-import-secret:ghcrIoPassword");
    const done = finishProgram(language, text, state);
    expect(done.text).not.toContain("svc-import-secret:");
    expect(done.text).toContain(configRead);
    expect(done.secrets.map((s) => s.key).sort()).toEqual(["appSecretApiKey", "appSecretDbPassword", "ghcrIoPassword"]);
    expect(done.secrets.find((s) => s.key === "ghcrIoPassword")!.sets).toBe("RegistryCredential ghcr-io: password");
    expect(done).toMatchObject({ added: [], left: [], retained: 0 });
    expect(done.native.sort()).toEqual(["db-1-tcp-5432.instanceId -> db-1", "pg-data.instanceId -> db-1"]);
    // pg-data's and the firewall rule's.
    expect(done.text.split(reference)).toHaveLength(3);
    // Finishing twice changes nothing more.
    expect(finishProgram(language, done.text, state).text).toBe(done.text);
  });

  it("turns a tie the generator left literal into a reference", () => {
    // As a generator that fell short writes it (Go: with the target unnamed, as it names only what is referred to).
    let unfinished = text.replace(reference, literal);
    if (file === "main.go")
      unfinished = unfinished
        .replace("db_1, err := svc.NewInstance", "_, err = svc.NewInstance")
        .replace("db_1.ID()", `pulumi.String("${db1}")`);
    expect(unfinished).not.toBe(text);
    const done = finishProgram(language, unfinished, state);
    expect(done.added).toContain("pg-data.instanceId -> db-1");
    expect(done.text).toContain(reference);
    expect(done.text).not.toContain(db1);
  });

  it("writes the disk's size in bytes whole, without an exponent", () => {
    // pulumi-yaml writes it 2.147483648e+10 (Go's 'g' format); the others write its digits (Java as a double, its type there).
    const done = finishProgram(language, text, state);
    expect(done.text).toMatch(/\bsize[:=(]\s*21474836480\b|Size: +pulumi\.Float64\(21474836480\)/);
    expect(done.text).not.toMatch(/\d[eE][+-]?\d/);
  });

  it("with --retain, sets retainOnDelete on every resource", () => {
    const done = finishProgram(language, text, state, { retain: true });
    expect(done.retained).toBe(state.length);
    expect(done.text.match(/retain_on_delete=True|RetainOnDelete\(true\)|retainOnDelete(: true|\(true\))/g)).toHaveLength(state.length);
  });
});

it("a Java map of secrets becomes the Output of the map (its builders take no map of Outputs)", () => {
  const done = finishProgram(languageOf("App.java")!, generated("App.java"), state);
  expect(done.text).toContain(
    '.data(Output.all(config.requireSecret("appSecretApiKey"), config.requireSecret("appSecretDbPassword")).applyValue(v -> Map.ofEntries(Map.entry("API_KEY", v.get(0)), Map.entry("DB_PASSWORD", v.get(1)))))',
  );
});
