/**
 * GC's valid attachments are encoded once, by hand: the bytes must be the Go encoder's for
 * the same `[]types.GCAttachment`, whatever the strings hold.
 */
import { describe, expect, it } from "vitest";
import { encodeValidAttachments } from "../../src/api/gc.js";
import { marshal } from "../../src/encoding/json.js";
import { gcAttachmentToGo } from "../../src/types/gc.js";

describe("encodeValidAttachments", () => {
  it("writes what marshal writes for the structs", () => {
    const valid = [
      { containerID: "", ifname: "" },
      { containerID: "c1", ifname: "eth0" },
      { containerID: `<a href="x">&'\\`, ifname: "\u2028\u2029\u007f\u0000\t\n" },
      { containerID: "\ud800 lone and \ud83d\ude00 paired", ifname: "\udc00" },
      { containerID: "ünïcødé", ifname: "eth\u0001" },
    ];
    expect(encodeValidAttachments(valid).text).toBe(marshal(valid.map(gcAttachmentToGo)));
    expect(encodeValidAttachments([]).text).toBe(marshal([]));
  });
});
