/**
 * Every lookup, plain (Promise) and Output form. One file per area.
 */
export { lookupClient } from "./common";
export * from "./catalog";
