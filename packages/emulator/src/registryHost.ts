/**
 * The emulator's own registry host canonicalisation, written from the spec (part 1, Registry
 * credential: the host is "canonicalised by the server when created, so aliases and full URLs
 * normalise to one form"; the request's `registry` is a "host, full URL or alias") and
 * independent of the provider's provider/fields/registryHost.ts, so that the two are tested against
 * each other rather than agreeing by construction. The emulator's choices (which aliases, which
 * ports count as default) are listed in emulator/README.md, part 1, Registries.
 */

/** Docker Hub's other names; the canonical one is docker.io. */
const DOCKER_HUB_ALIASES = new Set(["index.docker.io", "registry-1.docker.io", "registry.hub.docker.com", "hub.docker.com"]);

/** Ports a registry URL may spell out that do not make another registry (https and http defaults). */
const DEFAULT_PORTS = new Set(["443", "80"]);

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const MAX_HOST_LENGTH = 253;

/** The authority of a host or URL: what lies between "scheme://" and the first "/", "?" or "#". */
function authorityOf(text: string): string {
  const afterScheme = /^[a-z][a-z0-9+.-]*:\/\/(.*)$/.exec(text)?.[1] ?? text;
  return afterScheme.split(/[/?#]/, 1)[0];
}

/** "https://GHCR.io/v2/" -> "ghcr.io"; "index.docker.io" -> "docker.io"; null when no host remains. */
export function canonicalRegistryHost(input: string): string | null {
  const authority = authorityOf(input.trim().toLowerCase());
  const userinfoAndHost = authority.split("@");
  if (userinfoAndHost.length > 2) return null;
  const hostAndPort = userinfoAndHost[userinfoAndHost.length - 1];
  const match = /^([^:]*)(?::(\d{1,5}))?$/.exec(hostAndPort);
  if (!match) return null;
  const name = match[1].endsWith(".") ? match[1].slice(0, -1) : match[1];
  const port = match[2] === undefined || DEFAULT_PORTS.has(match[2]) ? "" : `:${match[2]}`;
  if (name === "" || !name.split(".").every((label) => LABEL.test(label))) return null;
  const host = (DOCKER_HUB_ALIASES.has(name) && port === "" ? "docker.io" : name) + port;
  return host.length <= MAX_HOST_LENGTH ? host : null;
}
