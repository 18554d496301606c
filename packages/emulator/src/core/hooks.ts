/**
 * Cross-area events. When an instance is deleted, rows other areas keep about it (apps,
 * firewall rules, k3s nodes, load-balancer memberships, ...) must go too; the area that owns the
 * instance fires the event and each area registers its own cleanup, so no area reaches into
 * another's tables.
 */
import type { Services } from "./services";

export interface HookEvents {
  /** An instance is being removed for good (after its own rows are gone). */
  "instance.deleted": { instanceId: string; workspaceId: string };
  /** An instance went offline or online (power, suspend, termination scheduling). */
  "instance.power": { instanceId: string; online: boolean };
}

type Handler<E extends keyof HookEvents> = (services: Services, event: HookEvents[E]) => void;

const handlers = new Map<keyof HookEvents, Array<(services: Services, event: never) => void>>();

export function onHook<E extends keyof HookEvents>(event: E, handler: Handler<E>): void {
  const list = handlers.get(event) ?? [];
  list.push(handler as (services: Services, event: never) => void);
  handlers.set(event, list);
}

export function fireHook<E extends keyof HookEvents>(services: Services, event: E, payload: HookEvents[E]): void {
  for (const handler of handlers.get(event) ?? []) (handler as Handler<E>)(services, payload);
}
