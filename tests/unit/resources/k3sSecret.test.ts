/**
 * K3sSecret at preview: the limits the emulator documents for the secret body (packages/emulator/README.md,
 * Managed Kubernetes), refused by `check` before any API call, and what each change does (diff).
 * tests/e2e/k3s.test.ts proves the same through the real CLI.
 */
import { diff, failuresOf, recorded } from "../../support/preview";
import { k3sSecretDefinition } from "../../../resources/k3sSecret";

describe("K3sSecret preview checks", () => {
  it("accepts a DNS-label name and keys of letters, digits, -, _ and .", async () => {
    expect(await failuresOf(k3sSecretDefinition, { name: "app-creds", data: { "db.password_1-x": "v" } })).toEqual([]);
  });

  it.each([
    ["a name with capitals", { name: "AppCreds", data: { a: "v" } }, "name", /DNS label/],
    ["a key with a space", { name: "creds", data: { "a b": "v" } }, "data", /keys must be 1 to 253/],
    ["a value over 1 MiB", { name: "creds", data: { a: "x".repeat(1024 * 1024 + 1) } }, "data.a", /at most 1 MiB/],
  ])("refuses %s", async (_what, inputs, property, reason) => {
    const found = await failuresOf(k3sSecretDefinition, inputs);
    expect(found.find((f) => f.property.startsWith(property))?.reason).toMatch(reason);
  });
});

describe("K3sSecret changes at preview", () => {
  const creds = { name: "app-creds", data: { DB_PASSWORD: "s3cret" } };
  const recordedSecret = async () => ({ ...(await recorded(k3sSecretDefinition, creds)), keys: ["DB_PASSWORD"] });

  it("PUTs new data in place", async () => {
    const olds = await recordedSecret();
    expect(await diff(k3sSecretDefinition, olds, { ...olds, data: { DB_PASSWORD: "n3w", DB_USER: "app" } })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("writes the data again when the recorded data no longer matches the API's keys (null)", async () => {
    const olds = { ...(await recordedSecret()), data: null };
    expect(await diff(k3sSecretDefinition, olds, await recorded(k3sSecretDefinition, creds))).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("replaces on a new name; the old secret goes after the new one exists", async () => {
    const olds = await recordedSecret();
    expect(await diff(k3sSecretDefinition, olds, { ...olds, name: "app-creds-v2" })).toEqual({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: false,
    });
  });

  it("replaces on another workspace, deleting first when the name stays (names are unique in a workspace)", async () => {
    const olds = await recordedSecret();
    expect(await diff(k3sSecretDefinition, olds, { ...olds, workspaceId: "43" })).toEqual({
      changes: true,
      replaces: ["workspaceId"],
      deleteBeforeReplace: true,
    });
  });
});
