// `npm run bench:restate`: the fault runs at full size, 100 processes in 10 shared contexts on
// 1 s timers, each context looping to a total of 30, and a table of what was found. Not part of
// npm test (it takes minutes); the tests run the same faults smaller.
import { cpus, loadavg } from 'node:os';
import { clusterNodeKilled, endpointKilled, serverKilled } from './faultRuns.ts';

const runs = {
  'endpoint killed': endpointKilled,
  'server killed': serverKilled,
  'one of three cluster nodes killed': clusterNodeKilled,
};
process.env.RESTATE_LOGGING ??= 'ERROR';
console.log(`${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`);
console.log(
  '| fault | processes | contexts | wakes | seconds | wakes/s | lost | repeated | not finished |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [name, run] of Object.entries(runs)) {
  const f = await run({
    prefix: `bench${Date.now().toString(36)}-`,
    processes: 100,
    perContext: 10,
    total: 30,
    faultAfterMs: 3000,
    deadlineMs: 600_000,
  });
  console.log(
    `| ${name} | ${f.processes} | ${f.contexts} | ${f.wakes} | ${f.seconds} | ${f.wakesPerSecond} | ${f.lost} | ${f.repeated} | ${f.notFinished} |`,
  );
}
