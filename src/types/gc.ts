/** Upstream's `types.GCAttachment`, passed to plugins on GC in `cni.dev/valid-attachments`. */
import { goStruct } from "../encoding/json.js";
import type { FieldSchema } from "../encoding/struct.js";

/** A still-valid attachment. */
export interface GCAttachment {
  /** The container ID. */
  containerID: string;
  /** The interface name inside the container. */
  ifname: string;
}

/** The Go encoding of an attachment: `containerID` then `ifname`, neither omitted. */
export function gcAttachmentToGo(a: GCAttachment): object {
  return goStruct({ containerID: a.containerID, ifname: a.ifname });
}

/** The decoding schema of one attachment (a plain Go struct named `GCAttachment`). */
export const gcAttachmentField: FieldSchema = {
  type: "struct",
  goName: "GCAttachment",
  goType: "types.GCAttachment",
  struct: { fields: { containerID: { type: "string" }, ifname: { type: "string" } } },
};
