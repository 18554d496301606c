import * as provider from "../../../provider/client/json";
import * as emulator from "pulumi-svc-emulator/core/json";

/** The provider's client and the emulator each have their own copy (two packages): both are held to this table. */
describe.each([
  ["the provider's client", provider],
  ["the emulator", emulator],
])("lossless JSON (%s)", (_, { parseJson, stringifyJson }) => {
  it("keeps integers above 2^53 exact both ways", () => {
    const text = '{"id":9223372036854775807,"small":42,"ratio":0.5,"name":"n"}';
    const parsed = parseJson(text) as Record<string, unknown>;
    expect(parsed.id).toBe(9223372036854775807n);
    expect(parsed.small).toBe(42);
    expect(stringifyJson(parsed)).toBe(text);
  });

  it("writes bigint identifiers as bare integers", () => {
    expect(stringifyJson({ instance_id: BigInt("9007199254740993") })).toBe('{"instance_id":9007199254740993}');
  });

  it.each([
    ["-9223372036854775808", -9223372036854775808n],
    ["9007199254740991", 9007199254740991],
    ["1e3", 1000],
    ["[1.25,null,true]", [1.25, null, true]],
  ])("parses %s as the other copy does", (text, value) => {
    expect(parseJson(text)).toEqual(value);
  });

  it("writes undefined as null", () => {
    expect(stringifyJson(undefined)).toBe("null");
  });
});
