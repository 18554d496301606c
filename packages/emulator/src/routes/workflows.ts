/**
 * GET /v1/workflows/{wfid} (spec part 1, "Workflows"): the one workflow endpoint whose shape is
 * given. A workflow is visible to whoever can see its workspace.
 */
import type { Domain } from "../core/domain";
import { notFound } from "../core/errors";
import { ok } from "../core/router";
import { pathId } from "../core/validation";

export const workflowsDomain: Domain = {
  name: "workflows",
  routes: [
    {
      method: "GET",
      path: "/v1/workflows/:wfid",
      handler: (ctx) => {
        const wf = ctx.store.t.workflows.get(pathId(ctx.params.wfid, "wfid"));
        if (!wf) throw notFound("Workflow");
        if (wf.workspaceId) ctx.access(wf.workspaceId);
        else if (!ctx.principal.staff && wf.args.userId !== ctx.principal.user.id) throw notFound("Workflow");
        return ok(ctx.workflows.view(wf));
      },
    },
  ],
};
