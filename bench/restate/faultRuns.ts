import {
  freePort,
  removeDataDir,
  startRestateNode,
  type NodePorts,
  type RestateNode,
  type RestateNodeOptions,
} from '../../scripts/restateServer.ts';
import { IngressClient } from '../../runtime/restate/ingressClient.ts';
import { loadRun, type LoadFigures, type LoadOptions } from './loadRun.ts';
import { startServe, type ServeProcess } from './serveProcess.ts';

/** The load of a fault run, without the fault (each run brings its own). */
export type Load = Omit<LoadOptions, 'fault'>;

/** Starts things and undoes them, last first, however the run ends. */
class Stack {
  private undo: (() => Promise<void>)[] = [];
  async node(options: RestateNodeOptions = {}, keepData = false): Promise<RestateNode> {
    const n = await startRestateNode(options);
    this.undo.push(async () => {
      await n.kill();
      if (!keepData) removeDataDir(n.baseDir);
    });
    return n;
  }
  async serve(port: number, admin: string): Promise<ServeProcess> {
    const s = await startServe(port, admin);
    this.undo.push(() => s.kill());
    return s;
  }
  later(fn: () => Promise<void>) {
    this.undo.push(fn);
  }
  async close() {
    for (const u of this.undo.splice(0).reverse()) await u().catch(() => undefined);
  }
}

async function withStack<T>(fn: (s: Stack) => Promise<T>): Promise<T> {
  const stack = new Stack();
  try {
    return await fn(stack);
  } finally {
    await stack.close();
  }
}

/** The service endpoint is killed (SIGKILL) mid-run and started again on its port. */
export const endpointKilled = (load: Load): Promise<LoadFigures> =>
  withStack(async (s) => {
    const n = await s.node();
    const port = await freePort();
    let endpoint = await s.serve(port, n.adminUrl);
    return loadRun(new IngressClient(n.ingressUrl), {
      ...load,
      fault: async () => {
        await endpoint.kill();
        endpoint = await s.serve(port, n.adminUrl);
      },
    });
  });

/** The Restate server is killed (SIGKILL) mid-run and started again on its data directory. */
export const serverKilled = (load: Load): Promise<LoadFigures> =>
  withStack(async (s) => {
    const first = await s.node({}, true);
    const { baseDir, ports } = first;
    s.later(async () => removeDataDir(baseDir));
    await s.serve(await freePort(), first.adminUrl);
    return loadRun(new IngressClient(first.ingressUrl), {
      ...load,
      fault: async () => {
        await first.kill();
        await s.node({ baseDir, ports }, true);
      },
    });
  });

/**
 * A three-node cluster on localhost with Restate's documented settings (one cluster name, every
 * node's address for the metadata, logs and partitions replicated on two nodes, one node that
 * provisions), and one node that is neither the ingress nor the admin used is killed mid-run.
 */
export const clusterNodeKilled = (load: Load): Promise<LoadFigures> =>
  withStack(async (s) => {
    const cluster = `wakeflow-${Date.now().toString(36)}`;
    const ports: NodePorts[] = [];
    for (let i = 0; i < 3; i++)
      ports.push({ ingress: await freePort(), admin: await freePort(), fabric: await freePort() });
    const env = (i: number) => ({
      RESTATE_CLUSTER_NAME: cluster,
      RESTATE_DEFAULT_REPLICATION: '2',
      RESTATE_DEFAULT_NUM_PARTITIONS: '4',
      RESTATE_AUTO_PROVISION: String(i === 0),
      RESTATE_METADATA_CLIENT__ADDRESSES: JSON.stringify(
        ports.map((p) => `http://127.0.0.1:${p.fabric}/`),
      ),
    });
    const nodes = await Promise.all(
      ports.map((p, i) => s.node({ ports: p, nodeName: `n${i + 1}`, env: env(i) })),
    );
    await s.serve(await freePort(), nodes[0]!.adminUrl);
    return loadRun(new IngressClient(nodes[0]!.ingressUrl), {
      ...load,
      fault: () => nodes[2]!.kill(),
    });
  });
