/**
 * A byte collector with a hard cap: upstream keeps all of a plugin's output, so one plugin
 * could take the runtime's memory. Past the cap the run is stopped and what still arrives is
 * discarded, so memory stays flat however much the plugin writes while it dies.
 */
export class BoundedSink {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  private full = false;

  constructor(private readonly limit: number) {}

  /** Adds a chunk; returns false the first time the cap is crossed, true otherwise. */
  push(chunk: Uint8Array): boolean {
    if (this.full) return true;
    if (this.size + chunk.length > this.limit) {
      const room = this.limit - this.size;
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.size = this.limit;
      this.full = true;
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  bytes(): Uint8Array {
    if (this.chunks.length === 1) return Uint8Array.from(this.chunks[0]);
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}
