/**
 * A write the API refused (400) reaches the user in the program's words: the resource, each field
 * as the program declares it (the API's name beside it where they differ) and the API's message.
 */
import { ApiError } from "../../../provider/errors";
import { refusal } from "../../../provider/lifecycle/failures";
import { instanceFields } from "../../../resources/instance";

const refused = (fieldErrors: Array<{ field: string; message: string }>, reason: string | null = "validation failed") =>
  new ApiError("POST", "/v1/workspaces/7/instances", 400, reason, fieldErrors);

describe("refusal", () => {
  it.each([
    [
      "a field whose name is the API's",
      refused([{ field: "cpu", message: "must be from 1 to 128 cores" }]),
      'Instance "vm": the API refused it (POST /v1/workspaces/7/instances answered 400: validation failed). cpu: must be from 1 to 128 cores.',
    ],
    [
      "fields the program names otherwise, nested ones step by step",
      refused([
        { field: "memory_bytes", message: "must be at least 512 MiB" },
        { field: "cloud_init", message: "must be at most 64 KiB" },
        { field: "storage[0].size_bytes", message: "must be positive" },
      ]),
      'Instance "vm": the API refused it (POST /v1/workspaces/7/instances answered 400: validation failed). ' +
        "memoryBytes (the API's memory_bytes): must be at least 512 MiB; cloudInit (the API's cloud_init): must be at most 64 KiB; storage[0].sizeBytes (the API's storage[0].size_bytes): must be positive.",
    ],
    [
      "a field the resource does not declare, as the API names it",
      refused([{ field: "node", message: "is not in the region" }]),
      'Instance "vm": the API refused it (POST /v1/workspaces/7/instances answered 400: validation failed). node: is not in the region.',
    ],
    [
      "no field errors: the API's reason alone",
      refused([], "quota exceeded"),
      'Instance "vm": the API refused it (POST /v1/workspaces/7/instances answered 400: quota exceeded).',
    ],
  ])("names %s", (_what, err, message) => {
    expect((refusal(instanceFields, 'Instance "vm"', err) as Error).message).toBe(message);
  });

  it.each([
    ["a 409", new ApiError("POST", "/v1/x", 409, "taken")],
    ["a network failure", new Error("ECONNRESET")],
  ])("returns %s as it is", (_what, err) => {
    expect(refusal(instanceFields, 'Instance "vm"', err)).toBe(err);
  });
});
