/**
 * The provider's watch on its engine (provider/runtime/engine.ts): the address is found among a host's
 * arguments, a closed port means the engine is gone, and from then on no API call starts. The
 * end-to-end proof (a killed `pulumi up` whose provider host sends nothing more and leaves) is in
 * tests/e2e/recover-input.test.ts and tests/e2e/kill.ts.
 */
import { EventEmitter } from "node:events";
import * as net from "node:net";
import { engineAddressIn, ensureEngineAlive, EngineGoneError, refusesConnections, watchEngine } from "../../../provider/runtime/engine";
import { SvcClient } from "../../../provider/client/client";

const listen = () =>
  new Promise<net.Server>((resolve) => {
    const server = net.createServer((socket) => socket.end());
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
const addressOf = (server: net.Server) => `127.0.0.1:${(server.address() as net.AddressInfo).port}`;

describe("the engine watch", () => {
  it("finds the engine's address among the host's arguments", () => {
    expect(engineAddressIn(["127.0.0.1:43121"])).toBe("127.0.0.1:43121");
    expect(engineAddressIn(["--tracing", "x", "localhost:5000"])).toBe("localhost:5000");
    expect(engineAddressIn(["--flag"])).toBeUndefined();
  });

  it("tells a listening engine from a gone one", async () => {
    const server = await listen();
    const address = addressOf(server);
    expect(await refusesConnections(address)).toBe(false);
    await new Promise((r) => server.close(r));
    expect(await refusesConnections(address)).toBe(true);
  });

  it("starts no API call once the engine is gone", async () => {
    const server = await listen();
    const address = addressOf(server);
    const gone = new Promise<void>((resolve) => watchEngine(address, resolve));
    expect(() => ensureEngineAlive()).not.toThrow();
    await new Promise((r) => server.close(r));
    await gone;
    expect(() => ensureEngineAlive()).toThrow(EngineGoneError);
    // The client refuses before sending anything (nothing listens at this base URL either way).
    const client = new SvcClient({ baseUrl: "http://127.0.0.1:9", token: "t" } as never);
    await expect(client.get("/v1/plans")).rejects.toThrow(/the pulumi engine that started this provider .* is gone/);
  });

  it("takes an EPIPE on its output as the engine gone, the engine's port still open (a killed destroy)", async () => {
    const server = await listen();
    let engine!: typeof import("../../../provider/runtime/engine");
    // A fresh copy: the process watches one engine, and the test above took this module's watch.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    jest.isolateModules(() => (engine = require("../../../provider/runtime/engine")));
    const stderr = new EventEmitter();
    let left = 0;
    engine.watchEngine(addressOf(server), () => left++, [stderr]);
    // Another error is no proof, and is not left uncaught either (a listener takes it).
    stderr.emit("error", Object.assign(new Error("write EIO"), { code: "EIO" }));
    expect(() => engine.ensureEngineAlive()).not.toThrow();
    stderr.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    stderr.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    expect(left).toBe(1);
    expect(() => engine.ensureEngineAlive()).toThrow(engine.EngineGoneError);
    await new Promise((r) => server.close(r));
  });
});
