import { schemaUrl } from '../../shared/schemaUrl.ts';
import type { Pin } from '../../shared/pins.ts';
import type { Flow } from '../../shared/schema.ts';

/** A flow and every flow it calls, transitively, those the workspace has, the flow first. */
export function withCalledFlows(flow: Flow, workspace: ReadonlyMap<string, Flow>): Flow[] {
  const out = new Map<string, Flow>([[flow.id, flow]]);
  const pending = [flow];
  while (pending.length > 0) {
    for (const n of pending.pop()!.nodes) {
      if (n.kind !== 'subflow' || out.has(n.flow)) continue;
      const called = workspace.get(n.flow);
      if (!called) continue;
      out.set(called.id, called);
      pending.push(called);
    }
  }
  return [...out.values()];
}

/** A `flow/1` file, led by the address of its JSON Schema so that an editor can check it. */
export const flowFileText = (flow: Flow) =>
  `${JSON.stringify({ $schema: schemaUrl('flow/1'), ...withoutSchema(flow) }, null, 2)}\n`;

/**
 * A `flows/1` file, led by the address of its JSON Schema, with the pins of its flows' calls
 * (docs/format.md#pinned-answers), when any of them has one.
 */
export function flowsFileText(flows: readonly Flow[], pins: readonly Pin[] = []): string {
  const ids = new Set(flows.map((f) => f.id));
  const own = pins.filter((p) => ids.has(p.flow));
  const file = {
    $schema: schemaUrl('flows/1'),
    format: 'flows/1',
    flows,
    ...(own.length > 0 ? { pins: own } : {}),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

// A flow imported with a "$schema" keeps it; the file written names the schema of its own format.
function withoutSchema(flow: Flow): Flow {
  const { $schema: _, ...rest } = flow;
  return rest as Flow;
}

/** Offers text as a file download. */
export function download(fileName: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
