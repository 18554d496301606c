import { parseJson, stringifyJson } from "../../../provider/json";

describe("lossless JSON", () => {
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
});
