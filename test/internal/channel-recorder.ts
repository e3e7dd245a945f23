/**
 * Subscribes to `libcni:verb` and `libcni:exec` as an APM tool would, by name only, and keeps
 * every event in order with a copy of the message as it was when the event fired.
 */
import diagnosticsChannel from "node:diagnostics_channel";
import type { ExecMessage, VerbMessage } from "../../src/index.js";

export type EventName = "start" | "end" | "asyncStart" | "asyncEnd" | "error";

/** One event: which channel, which event, the live message and a snapshot of it. */
export interface RecordedEvent {
  channel: "verb" | "exec";
  event: EventName;
  message: VerbMessage | ExecMessage;
  snapshot: Record<string, unknown>;
}

/** A subscription to both channels; `stop()` unsubscribes. */
export interface Recorder {
  events: RecordedEvent[];
  /** `"verb:start"`, `"exec:asyncEnd"`, ... in order. */
  names(): string[];
  stop(): void;
}

const eventNames: EventName[] = ["start", "end", "asyncStart", "asyncEnd", "error"];

/** Subscribes; `onStart` lets a test act in a start handler (abort, replace the trace context). */
export function recordEvents(
  onStart: { verb?: (m: VerbMessage) => void; exec?: (m: ExecMessage) => void } = {},
): Recorder {
  const events: RecordedEvent[] = [];
  const stops: (() => void)[] = [];
  for (const channel of ["verb", "exec"] as const) {
    const tc = diagnosticsChannel.tracingChannel<object, VerbMessage & ExecMessage>(
      `libcni:${channel}`,
    );
    const handlers = Object.fromEntries(
      eventNames.map((event) => [
        event,
        (message: VerbMessage & ExecMessage) => {
          events.push({ channel, event, message, snapshot: { ...message } });
          if (event === "start") onStart[channel]?.(message);
        },
      ]),
    ) as unknown as Parameters<typeof tc.subscribe>[0];
    tc.subscribe(handlers);
    stops.push(() => tc.unsubscribe(handlers));
  }
  return {
    events,
    names: () => events.map((e) => `${e.channel}:${e.event}`),
    stop: () => {
      for (const stop of stops) stop();
    },
  };
}

/** The events of one run of a traced call that succeeded, and of one that failed. */
export const succeeded = (channel: string): string[] =>
  ["start", "end", "asyncStart", "asyncEnd"].map((e) => `${channel}:${e}`);
export const failed = (channel: string): string[] =>
  ["start", "end", "error", "asyncStart", "asyncEnd"].map((e) => `${channel}:${e}`);
