/**
 * Resource options the dynamic-provider host drops, carried to the provider by the generated
 * classes (they see every option in their constructor; the host does not):
 *
 * - `replaceOnChanges`: the host forwards no list of changed properties, so the engine cannot
 *   tell a replacing change; the lifecycle's diff marks it.
 * - `ignoreChanges`: the engine keeps an ignored input's recorded input, but a dynamic provider's
 *   diff compares against recorded outputs, which a refresh moved (drift); the lifecycle keeps the
 *   recorded value of each ignored path in diff and update, as Pulumi documents.
 * - `import`: the engine's import reads with no properties, so the host cannot find the provider
 *   (`code must be a string, not undefined`); the class drops the option and the lifecycle adopts
 *   the object when every declared input matches it, writing nothing (check and create).
 * - `customTimeouts`: the host passes no timeout; the class folds them into the `timeouts` input
 *   (`timeouts` wins where it names the operation, as on the plugin face).
 *
 * The first three ride in one input, `__options`, recorded with the resource's inputs (never an
 * output, never diffed): the class's side is `superArgs` (classSupport.ts); adapter.ts takes them
 * off the properties into the lifecycle's typed call (provider/lifecycle/types.ts `Call`) and
 * puts them back where the host records them. The plugin face gets all of these from the engine
 * itself and never sees this input.
 */
import type { ResourceOptions } from "../lifecycle/types";

/**
 * The input under which a class of a kind with a name carries how to name it where the program
 * declares none (its logical name, what `pulumi:autonaming` asks: autonaming.ts), which the
 * plugin face gets from the engine's Check. The adapter takes it into the call; never recorded.
 */
export const NAMING_KEY = "__naming";

/** The input under which a class carries them; recorded with the resource's inputs, never an output. */
export const CARRIED_KEY = "__options";

/** The options a resource carries, as it carries them (check validates them); undefined when its class carried none. */
export const carriedOf = (props: Record<string, unknown>): ResourceOptions | undefined => props[CARRIED_KEY] as ResourceOptions | undefined;
