/** The CNI spec version this library implements (kept apart to avoid an import cycle). */
export const CURRENT_VERSION = "1.1.0";
