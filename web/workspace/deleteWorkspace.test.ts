import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { IdbStore } from '../../runtime/store/idbStore.ts';
import type { Flow } from '../../shared/schema.ts';
import { CallSettingsStore, callsDbName } from '../calls/callSettingsStore.ts';
import { deleteWorkspace } from './deleteWorkspace.ts';
import { flowFileText, flowsFileText } from './exportFlows.ts';

const SECRET = 'sk-live-do-not-leak-1234';
const flow = {
  format: 'flow/1',
  id: 'pays',
  nodes: [
    { id: 'start', kind: 'start' },
    {
      id: 'pay',
      kind: 'continue-after',
      on: [
        {
          id: 'charged',
          into: 'payment',
          call: {
            url: "'https://shop.example/charge'",
            headers: { Authorization: "'Bearer ' & $secret('shop')" },
          },
        },
      ],
    },
  ],
  edges: [{ id: 'e1', from: 'start', to: 'pay' }],
} as unknown as Flow;

/** Every record of every store of a database, as text. */
async function dump(name: string): Promise<string> {
  const db = await openDB(name);
  const out: unknown[] = [];
  for (const store of db.objectStoreNames) out.push(store, await db.getAll(store));
  db.close();
  return JSON.stringify(out);
}

async function databases(): Promise<string[]> {
  return (await indexedDB.databases()).map((d) => d.name!);
}

describe('secrets stay out of the workspace (docs/security.md#calls)', () => {
  it("rule: no export and no record of the workspace's database holds a secret's value", async () => {
    const dbName = 'secrets-out-of-exports';
    const workspace = await IdbStore.open(dbName);
    await workspace.putFlow(flow);
    const settings = await CallSettingsStore.open(dbName);
    await settings.setSecret('shop', SECRET);
    // The value is kept, beside the workspace…
    expect((await settings.read()).secrets.get('shop')).toBe(SECRET);
    // …and not in it: the exports are built from the workspace's flows only.
    const flows = await workspace.listFlows();
    expect(flowsFileText(flows)).toContain("$secret('shop')");
    expect(flowsFileText(flows)).not.toContain(SECRET);
    expect(flowFileText(flows[0]!)).not.toContain(SECRET);
    expect(await dump(dbName)).not.toContain(SECRET);
    expect(await dump(callsDbName(dbName))).toContain(SECRET);
    settings.close();
    workspace.close();
  });
});

describe('deleting a workspace', () => {
  it('rule: deletes its call settings too, so that its secrets do not outlive it', async () => {
    const dbName = 'deleted-workspace';
    const workspace = await IdbStore.open(dbName);
    await workspace.putFlow(flow);
    workspace.close();
    const settings = await CallSettingsStore.open(dbName);
    await settings.setSecret('shop', SECRET);
    await settings.allowOrigin('https://shop.example');
    settings.close();
    expect(await databases()).toEqual(expect.arrayContaining([dbName, callsDbName(dbName)]));

    await deleteWorkspace(dbName);
    const left = await databases();
    expect(left).not.toContain(dbName);
    expect(left).not.toContain(callsDbName(dbName));
    // Opened again, it is empty.
    const again = await CallSettingsStore.open(dbName);
    expect(await again.view()).toEqual({ origins: [], secrets: [] });
    again.close();
  });
});
