/**
 * Publishing CNIConfig's verbs on `libcni:verb` and the debug log, from outside the verbs'
 * bodies: each traced method is wrapped once, when the class is defined, by a function that
 * takes the plain path (one test, no allocation) unless someone subscribes or NODE_DEBUG is
 * on. The table below says which methods are verbs and where each finds its message fields.
 */
import type { NetworkConfigList, PluginConfig } from "../conf/index.js";
import {
  traceVerb,
  type Verb,
  type VerbMessage,
  type VerbMethod,
  verbTraced,
} from "../internal/diagnostics.js";
import { attempt } from "../internal/error-message.js";
import type { TraceContext } from "../internal/trace-context.js";
import type { RuntimeConf } from "./types.js";

interface Fields {
  network: string;
  cniVersion: string;
  rt: Partial<RuntimeConf> | undefined;
}

interface VerbSpec {
  verb: Verb;
  /** Where the trailing options are in the method's arguments. */
  optionsAt: number;
  fields(args: unknown[]): Fields;
}

const ofList = (args: unknown[]): Fields => {
  const list = args[0] as NetworkConfigList;
  return { network: list.name, cniVersion: list.cniVersion, rt: args[1] as RuntimeConf };
};
const ofPlugin = (args: unknown[]): Fields => {
  const { name, cniVersion } = (args[0] as PluginConfig).network;
  return { network: name, cniVersion, rt: args[1] as RuntimeConf };
};
const ofListOnly = (args: unknown[]): Fields => ({ ...ofList(args), rt: undefined });
const noFields: Fields = { network: "", cniVersion: "", rt: undefined };

const specs: Record<VerbMethod, VerbSpec> = {
  addNetworkList: { verb: "ADD", optionsAt: 2, fields: ofList },
  checkNetworkList: { verb: "CHECK", optionsAt: 2, fields: ofList },
  delNetworkList: { verb: "DEL", optionsAt: 2, fields: ofList },
  addNetwork: { verb: "ADD", optionsAt: 2, fields: ofPlugin },
  checkNetwork: { verb: "CHECK", optionsAt: 2, fields: ofPlugin },
  delNetwork: { verb: "DEL", optionsAt: 2, fields: ofPlugin },
  gcNetworkList: { verb: "GC", optionsAt: 2, fields: ofListOnly },
  getStatusNetworkList: { verb: "STATUS", optionsAt: 1, fields: ofListOnly },
};

interface CallOptionsLike {
  traceContext?: TraceContext;
}

/** One attachment a GC DELeted, as `libcni:verb`'s `collected` lists it. */
export type CollectedAttachment = { readonly containerID: string; readonly ifName: string };

/**
 * The key under which a traced GC gets its message's `collected` list in its options: a symbol
 * no caller can write, so the verb's signature stays upstream's.
 */
const collectedKey: unique symbol = Symbol("libcni gc collected");

/** The list a traced GC fills with what it DELeted, or undefined when it is not traced. */
export function collectedList(options: object): CollectedAttachment[] | undefined {
  return (options as { [collectedKey]?: CollectedAttachment[] })[collectedKey];
}

type VerbFn = (...args: unknown[]) => Promise<unknown>;

function traced(method: VerbMethod, spec: VerbSpec, original: VerbFn): VerbFn {
  return function (this: unknown, ...args: unknown[]): Promise<unknown> {
    if (!verbTraced()) return original.apply(this, args);
    const options = (args[spec.optionsAt] ?? {}) as CallOptionsLike;
    // A bad argument is the method's to report; the message makes do with what is there.
    const fields = attempt(() => spec.fields(args)) ?? noFields;
    const collected: CollectedAttachment[] | undefined = spec.verb === "GC" ? [] : undefined;
    const message: VerbMessage = {
      verb: spec.verb,
      method,
      network: String(fields.network ?? ""),
      containerID: String(fields.rt?.containerID ?? ""),
      ifName: String(fields.rt?.ifName ?? ""),
      cniVersion: String(fields.cniVersion ?? ""),
      traceContext: options.traceContext,
      durationMs: undefined,
      ...(collected && { collected }),
    };
    return traceVerb(message, (traceContext) => {
      if (traceContext !== options.traceContext || collected !== undefined) {
        const sink = collected === undefined ? {} : { [collectedKey]: collected };
        args[spec.optionsAt] = { ...options, traceContext, ...sink };
      }
      return original.apply(this, args);
    });
  };
}

/** Wraps the verbs of CNIConfig's prototype; called once, where the class is defined. */
export function traceVerbs(prototype: object): void {
  const methods = prototype as Record<VerbMethod, VerbFn>;
  for (const [method, spec] of Object.entries(specs) as [VerbMethod, VerbSpec][]) {
    methods[method] = traced(method, spec, methods[method]);
  }
}
