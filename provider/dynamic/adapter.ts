/**
 * The lifecycle as the dynamic-provider host calls it, a `pulumi.dynamic.ResourceProvider`: what a
 * resource of this face carries beside its own properties is taken off on the way in, into the
 * lifecycle's typed call where the lifecycle acts on it, and given back on the way out where the
 * host records it, so the lifecycle sees what it sees on the plugin face.
 *
 * - `__provider` (providerText.ts) is in every request: the host finds the provider by it, and adds
 *   it back to every answer itself (check's inputs, the properties of create, read and update), but
 *   not to a failure's. A create or update that fails midway records the PartialFailure's
 *   properties as the resource's outputs (the host's grpcResponseFromError passes them as they
 *   are), and a later refresh or delete finds the provider there: so they get it here.
 * - `__naming` (carriedOptions.ts) becomes the call's `naming`, for check; it is never recorded.
 * - `__inputs` (declaredInputs.ts) is put into the outputs create and update record, and into a
 *   failure's properties: the declared inputs, which read needs and the host never passes it.
 * - `__options` (carriedOptions.ts) becomes the call's `options`, and stays where it was recorded:
 *   in check's inputs (as check validated it, `import` only while the resource is new), in the
 *   properties a failure records, and in the inputs a refresh records where the recorded
 *   properties held it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { PartialFailure, type Call, type Lifecycle } from "../lifecycle";
import type { Naming } from "../lifecycle/autoname";
import { CARRIED_KEY, NAMING_KEY, carriedOf } from "./carriedOptions";
import { INPUTS_KEY, declaredOf, withDeclared } from "./declaredInputs";
import { PROVIDER_KEY } from "./providerText";

type Props = Record<string, unknown>;

/** A resource's own properties: without what the dynamic face carries beside them. */
export function ownProperties(props: Props): Props {
  const { [PROVIDER_KEY]: _text, [CARRIED_KEY]: _options, [NAMING_KEY]: _naming, [INPUTS_KEY]: _inputs, ...own } = props ?? {};
  return own;
}

/** The lifecycle's call for a request: the options its resource carries, and how to name it. */
const callOf = (props: Props): Call => ({ options: carriedOf(props), naming: props[NAMING_KEY] as Naming | undefined });

/** `props` with the options `from` carried, where it carried any (as recorded: `__options` is an input). */
const withCarried = (props: Props, from: Props): Props =>
  from[CARRIED_KEY] === undefined ? props : { ...props, [CARRIED_KEY]: from[CARRIED_KEY] };

async function check(lifecycle: Lifecycle, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const { inputs, failures, options } = await lifecycle.check(ownProperties(olds), ownProperties(news), {
    ...callOf(news),
    optionsAt: CARRIED_KEY,
  });
  return { inputs: options === undefined ? inputs : { ...inputs, [CARRIED_KEY]: options }, failures };
}

async function read(lifecycle: Lifecycle, id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
  const declared = declaredOf(props);
  const result = await lifecycle.read(id, ownProperties(props), declared);
  if (!result.inputs) return result;
  // What this read records as inputs is what the next read starts from.
  const outs = declared && result.props ? withDeclared(result.props, result.inputs) : result.props;
  return { ...result, props: outs, inputs: withCarried(result.inputs, props) };
}

/** A create or update: its outputs with the declared inputs, as a failure's that keeps the object (with what the request carried). */
async function writing<R extends { outs?: Props }>(request: Props, answer: Promise<R>): Promise<R> {
  const declared = ownProperties(request);
  try {
    const result = await answer;
    return { ...result, outs: withDeclared(result.outs ?? {}, declared) };
  } catch (err) {
    if (err instanceof PartialFailure)
      Object.assign(
        err.properties,
        withDeclared(err.properties, declared),
        withCarried({ [PROVIDER_KEY]: request[PROVIDER_KEY] }, request),
      );
    throw err;
  }
}

/** The methods the host calls (a `pulumi.dynamic.ResourceProvider`), each one lifecycle call. */
export function forDynamicHost(lifecycle: Lifecycle) {
  return {
    check: (olds, news) => check(lifecycle, olds, news),
    diff: (id, olds, news) => lifecycle.diff(id, ownProperties(olds), ownProperties(news), callOf(news)),
    create: (props) => writing(props, lifecycle.create(ownProperties(props), callOf(props))),
    read: (id, props) => read(lifecycle, id, props),
    update: (id, olds, news) => writing(news, lifecycle.update(id, ownProperties(olds), ownProperties(news), callOf(news))),
    delete: (id, props) => lifecycle.delete(id, ownProperties(props)),
  } satisfies pulumi.dynamic.ResourceProvider;
}
