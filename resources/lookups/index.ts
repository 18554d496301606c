/**
 * Every lookup, plain (Promise) and Output form. One file per area; the plain forms are
 * re-exported here with errors worded for people (see common.ts).
 */
import { plainForm } from "./common";
import * as catalog from "./catalog";
import * as access from "./access";
import * as billing from "./billing";
import * as network from "./network";
import * as apps from "./apps";

export * from "./catalog";
export const getPlans = plainForm(catalog.getPlans);
export const getPlan = plainForm(catalog.getPlan);
export const getImages = plainForm(catalog.getImages);
export const getImage = plainForm(catalog.getImage);
export * from "./access";
export const getWorkspaceQuota = plainForm(access.getWorkspaceQuota);
export const getWorkspaceTopology = plainForm(access.getWorkspaceTopology);
export * from "./billing";
export const getBillingEstimate = plainForm(billing.getBillingEstimate);
export const getWallet = plainForm(billing.getWallet);
export const getUsage = plainForm(billing.getUsage);
export const getWorkspaceUsage = plainForm(billing.getWorkspaceUsage);
export const getResourceUsage = plainForm(billing.getResourceUsage);
export * from "./network";
export const getNodes = plainForm(network.getNodes);
export * from "./apps";
export const getAppTemplates = plainForm(apps.getAppTemplates);
export const getAppTemplate = plainForm(apps.getAppTemplate);
export const getRecipes = plainForm(apps.getRecipes);
export const getRecipe = plainForm(apps.getRecipe);
