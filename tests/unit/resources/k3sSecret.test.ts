/**
 * K3sSecret at preview: the limits the emulator documents for the secret body (packages/emulator/README.md,
 * Managed Kubernetes), refused by `check` before any API call, and what each change does (diff).
 * tests/inprocess/k3sSecret.test.ts proves the changes against the API, on both faces.
 */
import { diff, failuresOf, recorded } from "../../support/preview";
import { k3sSecretDefinition } from "../../../resources/k3sSecret";

describe("K3sSecret preview checks", () => {
  it("accepts a name and keys of letters, digits, -, _ and .", async () => {
    expect(await failuresOf(k3sSecretDefinition, { name: "app-creds", data: { "db.password_1-x": "v" } })).toEqual([]);
  });

  it.each([
    [
      "no name",
      { name: "", data: { a: "v" } },
      "name",
      "must not be empty (spec part 3, Kubernetes secret: name is required, unique in the workspace)",
    ],
    [
      "a value that is no string",
      { name: "creds", data: { a: 1 } },
      "data.a",
      "values must be strings (spec part 3, Kubernetes secret: data is an object of key to value)",
    ],
  ])("refuses %s, citing the spec", async (_what, inputs, property, reason) => {
    expect(await failuresOf(k3sSecretDefinition, inputs)).toContainEqual({ property, reason });
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
