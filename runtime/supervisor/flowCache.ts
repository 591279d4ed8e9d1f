import type { Flow } from '../../shared/schema.ts';
import { flowModel } from '../engine/flowModel.ts';

/**
 * One object per flow content, so that what is cached per flow object (the engine's model in
 * flowModel.ts, compiled expressions in expr/evaluate.ts, the signature) is built once, not on
 * every wake: every read from the store gives a new object.
 *
 * Nothing here says whether a flow is current. The supervisor still reads the workspace's flow
 * from the store on every wake, whichever tab saved it; this only swaps what it read for the
 * object it already has when the content is the same. A saved flow has other content, so it is
 * a new object with caches of its own, and a wake compares its signature as always.
 */
export class FlowCache {
  /**
   * The last content seen per flow id: the object kept for it, and its JSON text once another
   * object of that id has come to be compared with it.
   */
  private readonly current = new Map<string, { json?: string; flow: Flow }>();
  /**
   * Kept versions by flow id and signature. A version's runnable content is fixed by its
   * signature (shared/signature.ts), so an entry never goes stale.
   */
  private readonly versions = new Map<string, Flow>();

  /** The object kept for this content, or `flow` itself, kept from now on. */
  canonical(flow: Flow | undefined): Flow | undefined {
    if (!flow) return undefined;
    const known = this.current.get(flow.id);
    // The very object kept (a store that hands back what it holds): no text to compare.
    if (known?.flow === flow) return flow;
    if (!known) {
      // Nothing to compare with yet: the text is made when another object comes (never, from a
      // store that hands back what it holds), not now. A flow of 10,000 nodes took a tenth of
      // its own run to write out.
      this.current.set(flow.id, { flow });
      return flow;
    }
    const json = JSON.stringify(flow);
    if ((known.json ??= JSON.stringify(known.flow)) === json) return known.flow;
    this.current.set(flow.id, { json, flow });
    return flow;
  }

  /** The signature of a flow, computed once per object. */
  signature(flow: Flow): string {
    return flowModel(flow).signature;
  }

  async version(
    id: string,
    signature: string,
    load: () => Promise<Flow | undefined>,
  ): Promise<Flow | undefined> {
    const key = `${id}\u0000${signature}`;
    const known = this.versions.get(key);
    if (known) return known;
    // Not `canonical`: that keeps the current content per id, which an old version is not.
    const flow = await load();
    // A version not (yet) in the store is not remembered: it may be written later.
    if (flow) this.versions.set(key, flow);
    return flow;
  }
}
