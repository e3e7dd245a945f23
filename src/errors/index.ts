/**
 * The library's error model (docs/errors.md), one file per area, as undici's
 * `lib/core/errors.js`. This barrel is for the main entry only: the modules that throw import
 * the area's own file, so an entry loads the error classes its calls can throw, not all of them.
 */
export * from "./api.js";
export * from "./base.js";
export * from "./cache.js";
export * from "./conf.js";
export * from "./go.js";
export * from "./invoke.js";
export * from "./netns.js";
export * from "./runtime.js";
export * from "./spawner.js";
export * from "./testing.js";
export * from "./types.js";
export * from "./version.js";
