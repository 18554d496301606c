import { isLoopbackHost, resolveConfig } from "../../../provider/config";

const sources = (config: Record<string, string>, env: Record<string, string> = {}) => ({ get: (k: string) => config[k], env });

describe("provider configuration", () => {
  it("reads stack config first and the environment second", () => {
    const c = resolveConfig(sources({ "svc:baseUrl": "https://api.example.com/", "svc:token": "t1" }, { SVC_TOKEN: "t2", SVC_WORKSPACE_ID: "42" }));
    expect(c).toEqual({ baseUrl: "https://api.example.com", token: "t1", workspaceId: "42" });
  });

  it("falls back to SVC_BASE_URL, SVC_TOKEN and SVC_WORKSPACE_ID", () => {
    const c = resolveConfig(sources({}, { SVC_BASE_URL: "http://127.0.0.1:8080", SVC_TOKEN: "tok", SVC_WORKSPACE_ID: "9007199254740993" }));
    expect(c).toEqual({ baseUrl: "http://127.0.0.1:8080", token: "tok", workspaceId: "9007199254740993" });
  });

  it("explains a missing token", () => {
    expect(() => resolveConfig(sources({ "svc:baseUrl": "https://api.example.com" }))).toThrow(/svc:token.*SVC_TOKEN/);
  });

  it("explains a missing or malformed URL", () => {
    expect(() => resolveConfig(sources({ "svc:token": "t" }))).toThrow(/svc:baseUrl/);
    expect(() => resolveConfig(sources({ "svc:token": "t", "svc:baseUrl": "not a url" }))).toThrow(/not a valid URL/);
    expect(() => resolveConfig(sources({ "svc:token": "t", "svc:baseUrl": "ftp://x" }))).toThrow(/https/);
  });

  it("refuses plain http except to loopback", () => {
    expect(() => resolveConfig(sources({ "svc:token": "t", "svc:baseUrl": "http://api.example.com" }))).toThrow(/plain http/);
    for (const url of ["http://localhost:1", "http://127.0.0.1:2", "http://[::1]:3", "http://127.8.9.10:4"]) {
      expect(resolveConfig(sources({ "svc:token": "t", "svc:baseUrl": url })).baseUrl).toBe(url);
    }
  });

  // Names that merely start like a loopback address resolve wherever their owner likes.
  it.each(["http://127.0.0.1.nip.io", "http://127.evil.example", "http://localhost.evil.example", "http://[::2]:1", "http://128.0.0.1"])(
    "refuses plain http to %s, which is not loopback",
    (url) => {
      expect(() => resolveConfig(sources({ "svc:token": "t", "svc:baseUrl": url }))).toThrow(/plain http to a non-loopback host/);
    },
  );

  it.each([
    ["localhost", true],
    ["LOCALHOST", true],
    ["127.255.0.1", true],
    ["[::1]", true],
    ["127.0.0.1.nip.io", false],
    ["127.evil.example", false],
    ["10.0.0.1", false],
    ["::2", false],
  ])("isLoopbackHost(%s) is %s", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it("rejects a workspace id that is not numeric", () => {
    expect(() => resolveConfig(sources({ "svc:token": "t", "svc:baseUrl": "https://a.b", "svc:workspaceId": "abc" }))).toThrow(/workspaceId/);
  });
});
