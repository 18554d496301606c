/**
 * Every lookup, plain (Promise) and Output form. One file per area.
 */
export { lookupClient } from "./common";
export * from "./catalog";
export * from "./access";
export * from "./billing";
export * from "./network";
export * from "./apps";
