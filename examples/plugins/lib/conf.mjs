/**
 * What both example plugins read from their stdin: the standard fields (through libcni's
 * decoder, so a malformed config fails as any Go plugin's would), the plugin's own keys, and
 * the runtime's capability arguments.
 */
import {
  CNIError,
  decodePluginConf,
  ErrDecodingFailure,
  ErrInvalidNetworkConfig,
} from "libcni/types";

/**
 * Parses a plugin's stdin.
 * @param {Uint8Array} stdinData the network configuration bytes
 * @returns {{ conf: import("libcni/types").PluginConf, raw: Record<string, unknown> }}
 */
export function loadConf(stdinData) {
  let raw;
  try {
    raw = JSON.parse(new TextDecoder().decode(stdinData));
  } catch (error) {
    throw new CNIError(ErrDecodingFailure, "failed to parse network configuration", String(error));
  }
  return { conf: decodePluginConf(raw), raw };
}

/**
 * The plugin's `dataDir` key: where it keeps its state. Required, so that the example never
 * writes anywhere its configuration did not name.
 * @param {Record<string, unknown>} raw the configuration as parsed JSON
 * @returns {string}
 */
export function dataDir(raw) {
  if (typeof raw.dataDir !== "string" || raw.dataDir === "") {
    throw new CNIError(ErrInvalidNetworkConfig, "dataDir must be set to a directory");
  }
  return raw.dataDir;
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
