/**
 * The plugin honours the engine's Cancel as it honours an engine gone (provider/runtime/engine.ts): a
 * create whose POST is in flight when Cancel comes gets its answer (the API made the disk), and
 * then starts no other API call (not even the wait on the disk's workflow); a later call starts
 * none at all. The API is the emulator behind
 * a pass-through that holds the POST until released, so "in flight" is a fact, not a timing.
 */
import * as http from "node:http";
import type * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as rpc from "@pulumi/pulumi/proto/provider_pb";
import { providerService } from "../../../plugin/server";
import { startTestEmulator, type TestEmulator } from "pulumi-svc-emulator/testing";

const URN = "urn:pulumi:dev::proj::svc:index:Disk::data";

/** A pass-through to `target` that logs each request as it arrives and holds POSTs until `release`. */
function holdingProxy(target: string) {
  const arrived: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let posted!: () => void;
  const postArrived = new Promise<void>((resolve) => (posted = resolve));
  const server = http.createServer(async (req, res) => {
    arrived.push(`${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method === "POST") {
      posted();
      await released;
    }
    const answer = await fetch(new URL(req.url!, target), {
      method: req.method,
      headers: { authorization: req.headers.authorization ?? "", "content-type": "application/json" },
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return { server, arrived, release, postArrived };
}

function call<Res>(service: grpc.UntypedServiceImplementation, method: string, request: unknown): Promise<Res> {
  const handler = service[method] as unknown as (call: { request: unknown }, cb: grpc.sendUnaryData<Res>) => void;
  return new Promise((resolve, reject) => handler({ request }, (err, res) => (err ? reject(err) : resolve(res as Res))));
}

function createDisk(workspaceId: string, name: string): rpc.CreateRequest {
  const req = new rpc.CreateRequest();
  req.setUrn(URN);
  req.setProperties(Struct.fromJavaScript({ name, size: 10 * 1024 ** 3, backend: "LOCAL", region: "NA_01", workspaceId }));
  return req;
}

describe("the plugin after the engine's Cancel", () => {
  let emu: TestEmulator;
  let proxy: ReturnType<typeof holdingProxy>;
  beforeAll(async () => {
    emu = await startTestEmulator({ workflowMs: 60_000 });
    proxy = holdingProxy(emu.emu.url);
    await new Promise<void>((resolve) => proxy.server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    proxy.release();
    await new Promise((resolve) => proxy.server.close(resolve));
    await emu.stop();
  });

  it("lets the call in flight finish, then starts no API call", async () => {
    const service = providerService();
    const configure = new rpc.ConfigureRequest();
    const { port } = proxy.server.address() as { port: number };
    configure.setArgs(Struct.fromJavaScript({ baseUrl: `http://127.0.0.1:${port}`, token: emu.emu.token, workspaceId: emu.workspaceId }));
    await call(service, "configure", configure);

    const creating = call(service, "create", createDisk(emu.workspaceId, "in-flight")).then(
      () => "created",
      (err: Error) => err.message,
    );
    await proxy.postArrived;
    await call(service, "cancel", new Empty());
    const before = proxy.arrived.length;
    proxy.release();

    // The POST was answered: the API made the disk. Waiting on its workflow would be a new call.
    expect(await creating).toMatch(/the pulumi engine cancelled the deployment: no new API call is started/);
    expect(proxy.arrived.slice(before)).toEqual([]);
    expect(proxy.arrived.filter((r) => r.startsWith("POST"))).toEqual([`POST /v1/workspaces/${emu.workspaceId}/disks`]);
    const disks = (await emu.api.get(`/v1/workspaces/${emu.workspaceId}/disks`)).body.items as Array<{ name: string }>;
    expect(disks.map((d) => d.name)).toEqual(["in-flight"]);

    // A call that comes after Cancel sends nothing.
    await expect(call(service, "create", createDisk(emu.workspaceId, "after"))).rejects.toThrow(/engine cancelled/);
    expect(proxy.arrived.length).toBe(before);
  });
});
