/**
 * The getNodes lookup on both faces, in process (tests/support/inProcess.ts), with the operator
 * token (tests/inprocess/support/network.ts names its private cloud): the workspace's nodes (none),
 * a private cloud's, and the platform's with filters and a search, each against the API. It is no
 * resource kind, so test:kind does not run it. getNodes called from a real program is the lookup
 * path of tests/e2e/lookups.test.ts.
 */
import { describeEachFace, type Props } from "../support/inProcess";
import { privateCloudOf } from "./support/network";

describeEachFace(
  "The getNodes lookup (operator token)",
  (ctx) => {
    const get = async (path: string, query?: Record<string, string | number>) => (await ctx().emu.staff.get(path, query)).body;
    /** The plugin answers an invoke with an object, a list as { items }; a program's lookup returns the list. */
    const nodes = async (args: Props) => {
      const answer = await ctx().face.invoke("getNodes", args);
      if (ctx().face.name === "dynamic") return answer as Array<Record<string, unknown>>;
      expect(Object.keys(answer as object)).toEqual(["items"]);
      return (answer as { items: Array<Record<string, unknown>> }).items;
    };

    it("getNodes answers the workspace's nodes (none), a private cloud's, and the platform's with filters", async () => {
      const pc = await privateCloudOf(ctx().emu);
      expect(await nodes({})).toEqual([]);
      const pcNodes = (await get(`/v1/workspaces/${pc}/nodes`)).items as Array<{
        id: string;
        name: string;
        group: string;
        region: string;
        cores: number;
        max_memory: number;
        flags: string[];
      }>;
      expect(pcNodes).toHaveLength(1);
      expect(await nodes({ workspaceId: pc })).toEqual(
        pcNodes.map((n) => ({
          id: n.id,
          name: n.name,
          owner: { id: pc, name: "private-cloud" },
          group: n.group,
          region: n.region,
          maxMemory: n.max_memory,
          cores: n.cores,
          flags: n.flags,
        })),
      );
      const platform = (await get("/v1/nodes", { region: "NA_01", group: "LIGHTNING", limit: 1000 })).items.map(
        (n: { id: string }) => n.id,
      );
      expect(platform.length).toBeGreaterThan(1);
      const filtered = await nodes({ scope: "platform", region: "NA_01", group: "LIGHTNING" });
      expect(filtered.map((n) => n.id)).toEqual(platform);
      expect(filtered.every((n) => n.region === "NA_01" && n.group === "LIGHTNING")).toBe(true);
      const searched = await nodes({ scope: "platform", q: "eu01" });
      expect(searched.length).toBeGreaterThan(0);
      expect(searched.map((n) => n.name)).toEqual(
        (await get("/v1/nodes", { q: "eu01", limit: 1000 })).items.map((n: { name: string }) => n.name),
      );
    });
  },
  { staff: true },
);
