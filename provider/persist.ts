/** @deprecated Renamed `keepTrying` (keepTrying.ts): "persist" is the emulator's word for writing its state file. Kept for context.ts until it moves. */
export { keepTrying as persist, type KeepTryingOptions as PersistOptions } from "./keepTrying";
