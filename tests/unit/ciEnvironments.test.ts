/**
 * examples/ci-environments: the names an environment gets (one table), and the summary table.
 */
import { stackName, workspaceName } from "../../examples/ci-environments/names";
import { summaryTable } from "../../examples/ci-environments/report";
import type { Outcome } from "../../examples/ci-environments/environment";

describe("an environment's names", () => {
  const cases: Array<[branch: string, stack: string, workspace: string]> = [
    ["main", "main", "ci-main"],
    ["feature/Login-Form", "feature-login-form", "ci-feature-login-form"],
    ["release/2.0", "release-2.0", "ci-release-2.0"],
    ["  fix//42  ", "fix-42", "ci-fix-42"],
    ["-.dependabot/npm_and_yarn/axios-1.8.2.", "dependabot-npm_and_yarn-axios-1.8.2", "ci-dependabot-npm_and_yar-2c244c"],
  ];
  it.each(cases)("%j: stack %s, workspace %s", (branch, stack, workspace) => {
    expect(stackName(branch)).toBe(stack);
    expect(workspaceName(stackName(branch))).toBe(workspace);
  });

  it("keeps workspace names within the API's 4 to 32 characters, and two long branches with one beginning apart", () => {
    const a = workspaceName(stackName("feature/a-very-long-branch-name-one"));
    const b = workspaceName(stackName("feature/a-very-long-branch-name-two"));
    expect(a).not.toBe(b);
    for (const name of [a, b, workspaceName("x")]) expect(name.length).toBeGreaterThanOrEqual(4);
    for (const name of [a, b]) expect(name.length).toBeLessThanOrEqual(32);
  });

  it("refuses a branch with nothing to name a stack with", () => {
    expect(() => stackName("///")).toThrow('environment name "///" has no letter or digit to name a stack with');
  });
});

describe("the summary table", () => {
  it("has a row per environment, columns as wide as their widest cell", () => {
    const outcomes: Outcome[] = [
      {
        environment: "main",
        stack: "main",
        workspace: "ci-main",
        result: "up",
        detail: "14 created",
        monthlyCost: "$34.68/month",
        seconds: 61,
      },
      {
        environment: "feature/x",
        stack: "feature-x",
        workspace: "ci-feature-x",
        result: "over budget",
        detail: "estimated ...",
        seconds: 9,
      },
    ];
    expect(summaryTable(outcomes).split("\n")).toEqual([
      "ENVIRONMENT  STACK      WORKSPACE     RESULT       COST          TIME  DETAIL",
      "main         main       ci-main       up           $34.68/month  61s   14 created",
      "feature/x    feature-x  ci-feature-x  over budget  -             9s    estimated ...",
    ]);
  });
});
