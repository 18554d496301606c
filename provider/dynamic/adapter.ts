/**
 * The lifecycle as the dynamic-provider host calls it, a `pulumi.dynamic.ResourceProvider`: what a
 * resource of this face carries beside its own properties is taken off on the way in, and given
 * back on the way out where the host needs it, so the lifecycle sees a resource's properties only,
 * as on the plugin face.
 *
 * `__provider` (providerText.ts) is in every request: the host finds the provider by it, and adds
 * it back to every answer itself (check's inputs, the properties of create, read and update), but
 * not to a failure's. A create or update that fails midway records the PartialFailure's properties
 * as the resource's outputs (the host's grpcResponseFromError passes them as they are), and a later
 * refresh or delete finds the provider there: so they get it here.
 */
import type * as pulumi from "@pulumi/pulumi";
import { PartialFailure, type Lifecycle } from "../lifecycle";
import { PROVIDER_KEY } from "./providerText";

type Props = Record<string, unknown>;

/** A resource's own properties: without what the dynamic face carries beside them. */
export function ownProperties(props: Props): Props {
  const { [PROVIDER_KEY]: _text, ...own } = props ?? {};
  return own;
}

/** What the host records of a failure that keeps the resource: its properties, with what the request carried. */
async function keptWithCarried<R>(request: Props, answer: Promise<R>): Promise<R> {
  try {
    return await answer;
  } catch (err) {
    if (err instanceof PartialFailure) Object.assign(err.properties, { [PROVIDER_KEY]: request[PROVIDER_KEY] });
    throw err;
  }
}

/** The methods the host calls, each one lifecycle call. */
export function forDynamicHost(lifecycle: Lifecycle): pulumi.dynamic.ResourceProvider {
  return {
    check: (olds, news) => lifecycle.check(ownProperties(olds), ownProperties(news)),
    diff: (id, olds, news) => lifecycle.diff(id, ownProperties(olds), ownProperties(news)),
    create: (props) => keptWithCarried(props, lifecycle.create(ownProperties(props))),
    read: (id, props) => lifecycle.read(id, ownProperties(props)),
    update: (id, olds, news) => keptWithCarried(news, lifecycle.update(id, ownProperties(olds), ownProperties(news))),
    delete: (id, props) => lifecycle.delete(id, ownProperties(props)),
  };
}
