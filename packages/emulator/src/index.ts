export { startEmulator, DEFAULT_WORKFLOW_MS, type EmulatorOptions, type RunningEmulator } from "./server";
export type { Bootstrap } from "./seed";
export { totpCode } from "./core/totp";
