/**
 * The client's transport (provider/client/transport.ts) over real sockets: the proxy variables users set
 * (as axios honoured them before), an answer cut off or never sent, a redirect not followed.
 * The transport against the emulator is in client.test.ts; end to end, every e2e test.
 */
import * as http from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { SvcClient } from "../../../provider/client/client";
import { ApiError, NetworkError } from "../../../provider/errors";
import { useTestEmulator, type TestEmulator } from "pulumi-svc-emulator/testing";
import { rejection } from "./rejection";

const once = { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 10 };

/** A loopback HTTP server for one test; its URL. */
async function serve(handler: http.RequestListener): Promise<{ url: string; server: http.Server; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, server, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

/** A forward proxy (absolute-form requests, as HTTP proxies receive them) that records what it forwarded. */
function forwardProxy(seen: string[]): http.RequestListener {
  return (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const upstream = http.request(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  };
}

describe("the transport", () => {
  let t: TestEmulator;
  useTestEmulator((started) => (t = started));

  // proxy-from-env reads a variable's lower-case name before its upper-case one: both are set.
  const NAMES = ["http_proxy", "https_proxy", "no_proxy"];
  const setEnv = (name: string, value: string) => (process.env[name] = process.env[name.toUpperCase()] = value);
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of NAMES.flatMap((n) => [n, n.toUpperCase()])) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
  const clientOf = (baseUrl: string, timeoutMs?: number) =>
    new SvcClient({ baseUrl, token: t.emu.token, workspaceId: t.workspaceId }, { retry: once, ...(timeoutMs ? { timeoutMs } : {}) });

  it("goes through the proxy HTTP_PROXY names, and around it for a host NO_PROXY lists", async () => {
    const seen: string[] = [];
    const proxy = await serve(forwardProxy(seen));
    try {
      setEnv("http_proxy", proxy.url);
      setEnv("no_proxy", "");
      const ws = await clientOf(t.emu.url).get<{ id: string }>(`/v1/workspaces/${t.workspaceId}`);
      expect(ws.id).toBe(t.workspaceId);
      expect(seen).toEqual([`GET ${t.emu.url}/v1/workspaces/${t.workspaceId}`]);

      setEnv("no_proxy", new URL(t.emu.url).hostname);
      await clientOf(t.emu.url).get(`/v1/workspaces/${t.workspaceId}`);
      expect(seen).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it("keeps a base URL's path and sends the query as the API reads it", async () => {
    const urls: string[] = [];
    const api = await serve((req, res) => (urls.push(req.url!), res.writeHead(200, { "content-type": "application/json" }).end("{}")));
    try {
      await clientOf(`${api.url}/api/`).get("/v1/plans", { region: "NA_01", id: ["1", "2"], page: undefined });
      expect(urls).toEqual(["/api/v1/plans?region=NA_01&id=1&id=2"]);
    } finally {
      await api.close();
    }
  });

  it("reports an answer cut off before its end as a connection lost after sending", async () => {
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"id":');
      setTimeout(() => res.destroy(), 20);
    });
    try {
      const err = await rejection(clientOf(api.url).get("/v1/plans"));
      expect(err).toBeInstanceOf(NetworkError);
      expect(err).toMatchObject({ code: "ECONNRESET", notSent: false });
    } finally {
      await api.close();
    }
  });

  it("ends a request that gets no answer within its timeout", async () => {
    const api = await serve(() => undefined);
    try {
      const err = await rejection(clientOf(api.url, 200).get("/v1/plans"));
      expect(err).toBeInstanceOf(NetworkError);
      expect(err).toMatchObject({ code: "ETIMEDOUT", notSent: false });
    } finally {
      await api.close();
    }
  });

  it("follows no redirect: a 3xx is the answer", async () => {
    const api = await serve((_req, res) => res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end());
    try {
      const err = await rejection(clientOf(api.url).get("/v1/plans"));
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 302 });
    } finally {
      await api.close();
    }
  });

  it("tunnels to an https API through the proxy HTTPS_PROXY names (CONNECT)", async () => {
    const seen: string[] = [];
    const proxy = await serve(forwardProxy(seen));
    // The tunnel leads to the emulator, which speaks plain HTTP: the proxy sees the CONNECT, the TLS handshake then fails.
    proxy.server.on("connect", (req: http.IncomingMessage, socket: Socket) => {
      seen.push(`CONNECT ${req.url}`);
      const [host, port] = req.url!.split(":");
      const upstream = connect(Number(port), host, () => {
        socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.pipe(socket).pipe(upstream);
      });
      upstream.on("error", () => socket.destroy());
      socket.on("error", () => upstream.destroy());
    });
    try {
      setEnv("https_proxy", proxy.url);
      setEnv("no_proxy", "");
      const { host } = new URL(t.emu.url);
      const err = await rejection(clientOf(`https://${host}`).get("/v1/plans"));
      expect(err).toBeInstanceOf(NetworkError);
      expect(seen).toEqual([`CONNECT ${host}`]);
    } finally {
      await proxy.close();
    }
  });
});
