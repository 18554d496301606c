import { EnvelopeError, optionalWorkflowOf, resourceOf, workflowOf } from "../../../provider/client/envelope";

const wf = { id: "9223372036854775000", name: "create-disk", state: "QUEUED" };

describe("envelope readers", () => {
  it("reads a bare workflow", () => {
    expect(workflowOf(wf)).toEqual(wf);
  });

  it("reads the workflow of a WorkflowWithResource whatever its member is called", () => {
    expect(workflowOf({ workflow: wf, resource: { id: "1" } })).toEqual(wf);
    expect(workflowOf({ task: wf, disk: { id: "1" } })).toEqual(wf);
  });

  it("reads the resource of a WorkflowWithResource", () => {
    expect(resourceOf({ workflow: wf, resource: { id: "7", name: "x" } })).toEqual({ id: "7", name: "x" });
    expect(resourceOf({ workflow: wf, disk: { id: "8" } }, ["disk"])).toEqual({ id: "8" });
  });

  it("fails clearly when the shape is not understood", () => {
    expect(() => workflowOf({ job: 1 })).toThrow(EnvelopeError);
    expect(() => resourceOf({ workflow: wf })).toThrow(/could not understand the API's WorkflowWithResource answer \(keys: workflow\)/);
  });

  it("accepts a WorkflowData with no workflow", () => {
    expect(optionalWorkflowOf({ workflow: null, data: {} })).toBeNull();
  });
});
