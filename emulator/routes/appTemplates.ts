/**
 * Part 2 App templates (to be implemented).
 */
import type { Domain } from "../core/domain";

export const appTemplatesDomain: Domain = {
  name: "appTemplates",
  routes: [],
};
