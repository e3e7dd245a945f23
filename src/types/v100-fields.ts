/**
 * The field types of a 1.x result (upstream types100), apart from the class so that the
 * result's JSON writer (v100-text.ts) can name them without importing v100.ts.
 */
import type { IPNet } from "./cidr.js";

/** An interface of a 1.x result (upstream `types100.Interface`). */
export interface Interface100 {
  /** Interface name. */
  name: string;
  /** MAC address, as written. */
  mac?: string;
  /** MTU; 0 or absent for none. */
  mtu?: number;
  /** The network namespace path it lives in; absent for the host. */
  sandbox?: string;
  /** The vhost-user socket path, for socket-based interfaces. */
  socketPath?: string;
  /** The PCI ID of the device, for device-based interfaces. */
  pciID?: string;
}

/** An IP configuration of a 1.x result (upstream `types100.IPConfig`): no IP version. */
export interface IPConfig100 {
  /** Index into the result's interfaces; 0 is a value, absent is none. */
  interface?: number;
  /** The address with its prefix length (host bits kept). */
  address: IPNet;
  /** The gateway; absent for none. */
  gateway?: Uint8Array;
}
