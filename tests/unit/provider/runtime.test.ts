/**
 * What `check` reports about the provider's configuration (provider/configure/providerRuntime.ts): missing or
 * malformed settings, an API that does not answer, a rejected token; each distinct problem in
 * full once per provider process, and the API asked at most once per process.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type { SvcClient } from "../../../provider/client/client";
import { UnreachableError } from "../../../provider/client/client";
import { ApiError } from "../../../provider/errors";
import { probeApi, processRuntime, setConfigSources } from "../../../provider/configure/providerRuntime";

const config = { baseUrl: "https://api.example.com", token: "t", workspaceId: null };
const failingWith = (err: Error) => {
  const client = { withDeadline: () => client, request: async () => Promise.reject(err) };
  return client as unknown as SvcClient;
};
const answering = () => {
  const client = { withDeadline: () => client, request: async () => ({ items: [] }) };
  return client as unknown as SvcClient;
};

describe("the API probe", () => {
  it("finds nothing wrong when the API answers", async () => {
    expect(await probeApi(config, answering())).toEqual([]);
  });

  it("names the base URL nothing answers at", async () => {
    const [problem] = await probeApi(config, failingWith(new UnreachableError("GET", "/v1/plans", "ECONNREFUSED", config.baseUrl)));
    expect(problem.setting).toBe("svc:baseUrl");
    expect(problem.message).toMatch(/the API at https:\/\/api\.example\.com cannot be reached \(ECONNREFUSED\): check svc:baseUrl/);
  });

  it("says a 401 is a rejected token and what to set", async () => {
    const [problem] = await probeApi(config, failingWith(new ApiError("GET", "/v1/plans", 401, "Unrecognised token")));
    expect(problem).toEqual({
      setting: "svc:token",
      message: expect.stringMatching(
        /rejects the token \(GET \/v1\/plans answered 401: Unrecognised token\): set a valid API token with pulumi config set --secret svc:token/,
      ),
    });
  });

  it("says a 403 is a refused token", async () => {
    const [problem] = await probeApi(config, failingWith(new ApiError("GET", "/v1/plans", 403, null)));
    expect(problem.message).toMatch(/refuses the token \(GET \/v1\/plans answered 403\): check its grants/);
  });

  it("leaves server faults to the operations, which retry", async () => {
    expect(await probeApi(config, failingWith(new ApiError("GET", "/v1/plans", 503, null)))).toEqual([]);
  });
});

describe("preflight, once per provider process", () => {
  let server: http.Server;
  let url: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(401, { "X-Message": "Unrecognised token" }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const configure = (values: Record<string, string>) => setConfigSources({ get: (k) => values[k], env: {} });

  it("reports a missing setting in full for the first resource, then a short pointer, without asking the API", async () => {
    configure({ "svc:baseUrl": url });
    const first = await processRuntime.preflight!(true);
    expect(first).toEqual([{ property: "", reason: expect.stringMatching(/^no API token: set svc:token/) }]);
    configure({ "svc:baseUrl": url }); // every resource's configure sends the same settings
    const second = await processRuntime.preflight!(true);
    expect(second).toHaveLength(1);
    expect(second[0].reason).not.toMatch(/no API token/);
    expect(seen).toEqual([]);
  });

  it("asks the API only when told to, once, and reports a rejected token once", async () => {
    configure({ "svc:baseUrl": url, "svc:token": "wrong" });
    expect(await processRuntime.preflight!(false)).toEqual([]);
    expect(seen).toEqual([]);
    const [first, second] = await Promise.all([processRuntime.preflight!(true), processRuntime.preflight!(true)]);
    configure({ "svc:baseUrl": url, "svc:token": "wrong" });
    const third = await processRuntime.preflight!(true);
    expect(seen).toEqual(["GET /v1/plans?limit=1"]);
    const full = [first, second, third].flat().filter((f) => /rejects the token/.test(f.reason));
    expect(full).toHaveLength(1);
    expect([first, second, third].every((f) => f.length === 1)).toBe(true);
  });

  it("asks again when the settings change", async () => {
    configure({ "svc:baseUrl": url, "svc:token": "another" });
    // Asked again; the same problem is still reported (as the short pointer: its text is unchanged).
    expect(await processRuntime.preflight!(true)).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });
});
