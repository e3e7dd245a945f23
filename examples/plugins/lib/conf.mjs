/**
 * What both example plugins read from their stdin: the standard fields (through libcni's
 * decoder, so a malformed config fails as any Go plugin's would), the plugin's own keys
 * (checked against the plugin's JSON Schema with ajv), and the runtime's capability arguments.
 */
import { Ajv } from "ajv";
import {
  CNIError,
  decodePluginConf,
  ErrDecodingFailure,
  ErrInvalidNetworkConfig,
} from "libcni/types";

// One instance for the process: a plugin runs once per operation and compiles its one schema
// when it is loaded. Stop at the first error: the message names one key.
const ajv = new Ajv({ allErrors: false });

/**
 * The schema of `dataDir`, the key both plugins keep their state under. Required, so that the
 * examples never write anywhere their configuration did not name.
 */
export const dataDirSchema = { type: "string", minLength: 1 };

/** The message of a bad `dataDir`, whatever ajv found wrong with it. */
export const dataDirMessage = () => "dataDir must be set to a directory";

/**
 * Makes a plugin's stdin parser. The schema is compiled once, here; a configuration it rejects
 * fails with `ErrInvalidNetworkConfig` (7), the message being the plugin's own for the
 * offending top-level key and the details ajv's account of what is wrong.
 * @param {object} schema JSON Schema of the whole configuration (other keys are let through:
 *   the runtime adds `runtimeConfig`, `prevResult`, `args`, ...)
 * @param {Record<string, (raw: Record<string, unknown>) => string>} messages per top-level key,
 *   the message of a configuration whose key is missing or invalid
 * @returns {(stdinData: Uint8Array) => { conf: import("libcni/types").PluginConf, raw: Record<string, unknown> }}
 */
export function configLoader(schema, messages) {
  const validate = ajv.compile(schema);
  return (stdinData) => {
    let raw;
    try {
      raw = JSON.parse(new TextDecoder().decode(stdinData));
    } catch (error) {
      throw new CNIError(
        ErrDecodingFailure,
        "failed to parse network configuration",
        String(error),
      );
    }
    // The standard fields first, as a Go plugin decodes its struct before checking its keys.
    const conf = decodePluginConf(raw);
    if (!validate(raw)) {
      const [first] = validate.errors ?? [];
      const key = first?.instancePath.split("/")[1] ?? first?.params.missingProperty;
      const message = messages[key]?.(raw) ?? `invalid ${conf.type} configuration`;
      const details = ajv.errorsText(validate.errors, { dataVar: "config" });
      throw new CNIError(ErrInvalidNetworkConfig, message, details);
    }
    return { conf, raw };
  };
}

/**
 * Whether an attachment is among the ones a GC must keep.
 * @param {import("libcni/types").PluginConf} conf
 * @param {string} containerID
 * @param {string} ifName
 */
export function isValidAttachment(conf, containerID, ifName) {
  return (conf.validAttachments ?? []).some(
    (a) => a.containerID === containerID && a.ifname === ifName,
  );
}
