/**
 * What an environment is called where: a branch name (`feature/Login-Form`) becomes the Pulumi
 * stack name and the name of the API workspace that holds the environment's resources.
 *
 * Pure functions: the same branch always gives the same names, on every runner, so a second job
 * (update, drift check, destroy) finds what the first made without any shared record.
 */
import { createHash } from "node:crypto";

/** Pulumi stack names: letters, digits, `-`, `_`, `.`, at most 100 characters. */
const STACK_MAX = 100;
/** Workspace names are 4 to 32 characters (spec part 1, Workspaces: POST /v1/workspaces). */
const WORKSPACE_MAX = 32;
/** Every environment's workspace starts with this, so people can tell them from their own. */
const WORKSPACE_PREFIX = "ci-";

const shortHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 6);

/** The stack of a branch: lower case, anything outside [a-z0-9_.-] as `-`, runs of `-` folded. */
export function stackName(branch: string): string {
  const name = branch
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
  if (!name) throw new Error(`environment name ${JSON.stringify(branch)} has no letter or digit to name a stack with`);
  return name.length <= STACK_MAX ? name : `${name.slice(0, STACK_MAX - 7)}-${shortHash(name)}`;
}

/**
 * The workspace of a stack: `ci-<stack>`, and when that is longer than the API allows, its
 * beginning and a hash of the whole, so two long branch names that share a beginning do not
 * share a workspace.
 */
export function workspaceName(stack: string): string {
  const name = `${WORKSPACE_PREFIX}${stack}`;
  if (name.length <= WORKSPACE_MAX) return name;
  return `${name.slice(0, WORKSPACE_MAX - 7)}-${shortHash(stack)}`;
}
