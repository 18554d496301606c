/**
 * The budget as the engine lets a policy enforce it before a change is made. A resource policy
 * sees each resource just before its step, in the order the program declares them, and a mandatory
 * violation there stops that step: the only place that stops `pulumi up --skip-preview` (and the
 * automation API's up) before spending. Resources the program no longer declares are never seen,
 * and each one seen stays in the stack, so the running total only grows towards the stack's
 * estimate: it passes the budget exactly when the whole stack would, at the first resource that
 * takes it over.
 */
import type { ResourceCost } from "./pricing";
import { budgetExceeded, stackCost } from "./report";

export class RunningBudget {
  /** By URN: a resource analyzed twice (a replacement's second pass) counts once. */
  private readonly seen = new Map<string, ResourceCost>();
  private exceeded = false;

  constructor(private readonly maxMonthly: number) {}

  /**
   * Adds a resource's cost; answers the budget's message at the first resource that takes the
   * running total over it (once: later resources only add to the same overrun).
   */
  add(urn: string, cost: ResourceCost | undefined): string | undefined {
    if (cost) this.seen.set(urn, cost);
    if (this.exceeded || !cost) return undefined;
    const message = budgetExceeded(this.maxMonthly, stackCost([...this.seen.values()]));
    if (!message) return undefined;
    this.exceeded = true;
    return `${message} (reached at ${cost.name}; resources declared after it are not counted)`;
  }
}
