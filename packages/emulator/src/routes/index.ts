/**
 * Every area of the API, in the order of the spec's three parts.
 */
import type { Domain } from "../core/domain";
import type { RouteDef } from "../core/router";
import { workflowsDomain } from "./workflows";
import { tokensDomain } from "./tokens";
import { accountDomain } from "./account";
import { workspacesDomain } from "./workspaces";
import { invitesDomain } from "./invites";
import { sshDomain } from "./ssh";
import { registriesDomain } from "./registries";
import { instancesDomain } from "./instances";
import { floatingIpsDomain } from "./floatingIps";
import { commandsDomain } from "./commands";
import { snapshotsDomain } from "./snapshots";
import { disksDomain } from "./disks";
import { catalogDomain } from "./catalog";
import { appsDomain } from "./apps";
import { appTemplatesDomain } from "./appTemplates";
import { imagesDomain } from "./images";
import { recipesDomain } from "./recipes";
import { firewallDomain } from "./firewall";
import { vpcsDomain } from "./vpcs";
import { netLbsDomain } from "./netlbs";
import { bgpDomain } from "./bgp";
import { netCommandsDomain } from "./netcommands";
import { k3sDomain } from "./k3s";
import { billingDomain } from "./billing";

export const allDomains: Domain[] = [
  // Part 1: conventions, access and account.
  workflowsDomain,
  tokensDomain,
  accountDomain,
  workspacesDomain,
  invitesDomain,
  sshDomain,
  registriesDomain,
  // Part 2: compute.
  instancesDomain,
  floatingIpsDomain,
  commandsDomain,
  snapshotsDomain,
  disksDomain,
  catalogDomain,
  appsDomain,
  appTemplatesDomain,
  imagesDomain,
  recipesDomain,
  // Part 3: networking, managed Kubernetes, billing.
  firewallDomain,
  vpcsDomain,
  netLbsDomain,
  bgpDomain,
  netCommandsDomain,
  k3sDomain,
  billingDomain,
];

export const allRoutes: RouteDef[] = allDomains.flatMap((d) => d.routes);
