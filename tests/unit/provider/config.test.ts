import { configProblems, isLoopbackHost, reportOnce, resolveConfig } from "../../../provider/runtime/config";

const sources = (config: Record<string, string>, env: Record<string, string> = {}) => ({ get: (k: string) => config[k], env });

describe("provider configuration", () => {
  it("reads stack config first and the environment second", () => {
    const c = resolveConfig(
      sources({ "svc:baseUrl": "https://api.example.com/", "svc:token": "t1" }, { SVC_TOKEN: "t2", SVC_WORKSPACE_ID: "42" }),
    );
    expect(c).toEqual({ baseUrl: "https://api.example.com", token: "t1", workspaceId: "42" });
  });

  it("falls back to SVC_BASE_URL, SVC_TOKEN and SVC_WORKSPACE_ID", () => {
    const c = resolveConfig(sources({}, { SVC_BASE_URL: "http://127.0.0.1:8080", SVC_TOKEN: "tok", SVC_WORKSPACE_ID: "9007199254740993" }));
    expect(c).toEqual({ baseUrl: "http://127.0.0.1:8080", token: "tok", workspaceId: "9007199254740993" });
  });

  it("reads svc:maxRequestsPerSecond (or SVC_MAX_REQUESTS_PER_SECOND) as a positive number", () => {
    const base = { "svc:baseUrl": "https://api.example.com", "svc:token": "t" };
    expect(resolveConfig(sources({ ...base, "svc:maxRequestsPerSecond": "2.5" })).maxRequestsPerSecond).toBe(2.5);
    expect(resolveConfig(sources(base, { SVC_MAX_REQUESTS_PER_SECOND: "4" })).maxRequestsPerSecond).toBe(4);
    expect(resolveConfig(sources(base))).not.toHaveProperty("maxRequestsPerSecond");
    for (const bad of ["0", "-1", "fast", "Infinity"])
      expect(configProblems(sources({ ...base, "svc:maxRequestsPerSecond": bad }))).toEqual([
        {
          setting: "svc:maxRequestsPerSecond",
          message: expect.stringContaining(`"${bad}" is not a positive number of requests per second`),
        },
      ]);
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
    expect(() => resolveConfig(sources({ "svc:token": "t", "svc:baseUrl": "https://a.b", "svc:workspaceId": "abc" }))).toThrow(
      /workspaceId/,
    );
  });

  it("lists every problem of a configuration, each naming its setting and what to set", () => {
    expect(configProblems(sources({}))).toEqual([
      { setting: "svc:baseUrl", message: expect.stringMatching(/set svc:baseUrl .*SVC_BASE_URL/) },
      { setting: "svc:token", message: expect.stringMatching(/set svc:token .*SVC_TOKEN/) },
    ]);
    expect(
      configProblems(sources({ "svc:baseUrl": "http://api.example.com", "svc:token": "t", "svc:workspaceId": "x1" })).map((p) => p.setting),
    ).toEqual(["svc:baseUrl", "svc:workspaceId"]);
    expect(configProblems(sources({ "svc:baseUrl": "https://a.b", "svc:token": "t" }))).toEqual([]);
  });
});

describe("configuration problems reported by check", () => {
  const missingToken = { setting: "svc:token" as const, message: "no API token: set svc:token" };
  const badUrl = { setting: "svc:baseUrl" as const, message: 'svc:baseUrl "x" is not a valid URL' };

  it("reports each distinct problem in full once per process, then as a short pointer", () => {
    const reported = new Set<string>();
    const first = reportOnce([missingToken], reported);
    expect(first).toEqual([{ property: "", reason: "no API token: set svc:token" }]);
    const second = reportOnce([missingToken], reported);
    expect(second).toHaveLength(1);
    expect(second[0].reason).toMatch(/^svc:token: /);
    expect(second[0].reason).not.toContain("no API token");
  });

  it("reports a new problem in full even after another was reported", () => {
    const reported = new Set<string>();
    reportOnce([missingToken], reported);
    const both = reportOnce([badUrl, missingToken], reported);
    expect(both[0]).toEqual({ property: "", reason: badUrl.message });
    expect(both[1].reason).not.toContain("no API token");
  });

  it("reports nothing for a usable configuration", () => {
    expect(reportOnce([], new Set())).toEqual([]);
  });
});
