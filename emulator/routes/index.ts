/**
 * Every area of the API, in the order of the spec's three parts.
 */
import type { Domain } from "../core/domain";
import type { RouteDef } from "../core/router";
import { workflowsDomain } from "./workflows";

export const allDomains: Domain[] = [
  // Part 1: conventions, access and account.
  workflowsDomain,
  // Part 2: compute.
  // Part 3: networking, managed Kubernetes, billing.
];

export const allRoutes: RouteDef[] = allDomains.flatMap((d) => d.routes);
