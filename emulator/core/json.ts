/** The emulator speaks the same lossless JSON as the provider's client. */
export { parseJson, stringifyJson } from "../../provider/json";
