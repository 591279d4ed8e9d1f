// A local Restate server for yourself (`npm run restate`): installed on demand into the cache,
// ingress on :8080 and admin on :9070 (or --ingress/--admin PORT), data kept in --data DIR
// (default ~/.cache/wakeflow/restate-data) across restarts. Ctrl+C stops it.
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startRestateNode } from './restateServer.ts';

const { values } = parseArgs({
  options: {
    ingress: { type: 'string', default: '8080' },
    admin: { type: 'string', default: '9070' },
    data: { type: 'string', default: join(homedir(), '.cache', 'wakeflow', 'restate-data') },
  },
  strict: true,
});
mkdirSync(values.data, { recursive: true });
const node = await startRestateNode({
  baseDir: values.data,
  ports: { ingress: Number(values.ingress), admin: Number(values.admin), fabric: await freePort() },
});
console.log(`Restate: ingress ${node.ingressUrl}, admin ${node.adminUrl}, data in ${node.baseDir}`);
console.log(
  `Now: npm run -s flow -- serve --admin ${node.adminUrl}   (Ctrl+C here stops the server)`,
);
await new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});
await node.stop();
