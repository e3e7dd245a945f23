/**
 * upstream #1183 on the spawner helper (needs the built helper, `npm run build:native`): see
 * text-busy-fresh.ts.
 */
import { describe, it } from "vitest";
import { expectRetriesAfresh } from "./text-busy-fresh.js";

describe('"text file busy" retries start afresh (upstream #1183)', () => {
  it("spawner helper: a new start with the whole stdin, only that run's output", async () => {
    await expectRetriesAfresh("spawner");
  });
});
