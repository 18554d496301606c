/**
 * Every lookup, in both forms users call: plain (a Promise) and Output (`...Output`, taking
 * Inputs). One file per area declares each lookup once, as a plain async function with its TSDoc;
 * both forms are made here and only here (`lookupForms`, common.ts: mocks, errors worded for people).
 */
import { lookupForms } from "./common";
import * as catalog from "./catalog";
import * as access from "./access";
import * as billing from "./billing";
import * as network from "./network";
import * as apps from "./apps";

export * from "./catalog";
export const [getPlans, getPlansOutput] = lookupForms(catalog.getPlans);
export const [getPlan, getPlanOutput] = lookupForms(catalog.getPlan);
export const [getImages, getImagesOutput] = lookupForms(catalog.getImages);
export const [getImage, getImageOutput] = lookupForms(catalog.getImage);

export * from "./access";
export const [getWorkspaceQuota, getWorkspaceQuotaOutput] = lookupForms(access.getWorkspaceQuota);
export const [getWorkspaceTopology, getWorkspaceTopologyOutput] = lookupForms(access.getWorkspaceTopology);

export * from "./billing";
export const [getBillingEstimate, getBillingEstimateOutput] = lookupForms(billing.getBillingEstimate);
export const [getWallet, getWalletOutput] = lookupForms(billing.getWallet);
export const [getUsage, getUsageOutput] = lookupForms(billing.getUsage);
export const [getWorkspaceUsage, getWorkspaceUsageOutput] = lookupForms(billing.getWorkspaceUsage);
export const [getResourceUsage, getResourceUsageOutput] = lookupForms(billing.getResourceUsage);

export * from "./network";
export const [getNodes, getNodesOutput] = lookupForms(network.getNodes);

export * from "./apps";
export const [getAppTemplates, getAppTemplatesOutput] = lookupForms(apps.getAppTemplates);
export const [getAppTemplate, getAppTemplateOutput] = lookupForms(apps.getAppTemplate);
export const [getRecipes, getRecipesOutput] = lookupForms(apps.getRecipes);
export const [getRecipe, getRecipeOutput] = lookupForms(apps.getRecipe);
