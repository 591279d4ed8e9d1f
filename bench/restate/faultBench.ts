// `npm run bench:restate`: the workbench attached to a server holding 10,000 processes
// (workbenchBench.ts), wakeflow's sleep loop beside a hand-written object's (sleepLoopBench.ts),
// then the fault runs at full size, 100 processes in 10 shared contexts on
// 1 s timers, each context looping to a total of 30, and a table of what was found. Not part of
// npm test (it takes minutes); the tests run the same faults smaller.
// `npm run bench:restate -- loop` runs only the sections named: `workbench`, `loop`, `faults`.
// BENCH_LOOP_PROCESSES and BENCH_LATENCY_PROCESSES set the sleep loop's two loads.
import './quietRestate.ts';
import { cpus, loadavg } from 'node:os';
import { clusterNodeKilled, endpointKilled, serverKilled } from './faultRuns.ts';
import { sleepLoop, type LoopFigures } from './sleepLoopBench.ts';
import { workbenchAtScale } from './workbenchBench.ts';

const faultRuns = {
  'endpoint killed': endpointKilled,
  'server killed': serverKilled,
  'one of three cluster nodes killed': clusterNodeKilled,
};
const SECTIONS = ['workbench', 'loop', 'faults'] as const;
const asked = process.argv.slice(2);
const unknown = asked.filter((a) => !(SECTIONS as readonly string[]).includes(a));
if (unknown.length > 0) {
  console.error(`unknown section ${unknown.join(', ')}; the sections: ${SECTIONS.join(', ')}`);
  process.exit(2);
}
const runs = (section: (typeof SECTIONS)[number]) => asked.length === 0 || asked.includes(section);

console.log(`${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`);

if (runs('workbench')) await workbench();
if (runs('loop')) await loop();
if (runs('faults')) await faults();
console.log(`load ${loadavg()[0]!.toFixed(1)} at the end`);

async function workbench() {
  const w = await workbenchAtScale(Number(process.env.BENCH_PROCESSES ?? 10_000));
  console.log(
    `\nThe workbench on a server with ${w.processes} processes (started ${w.startsPerSecond}/s, all in the index ${w.indexedAfterSeconds} s after the last start):`,
  );
  console.log('| figure | median | worst | goal |');
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| open the table (first window and counts) | ${w.openMs.median} ms | ${w.openMs.max} ms (max) | under 1,000 ms |`,
  );
  console.log(
    `| a window of 60 rows anywhere (a scroll) | ${w.windowMs.median} ms | ${w.windowMs.p95} ms (p95) | only the rows shown are asked |`,
  );
  console.log(
    `| select a process (its reading) | ${w.selectMs.median} ms | ${w.selectMs.p95} ms (p95) | under 300 ms |`,
  );
  console.log(
    `| scroll the table by wheel (${w.scroll.windowsAsked} windows asked, the largest ${w.scroll.largestWindow} rows; ${w.scroll.rowsDrawn} rows drawn) | frame ${w.scroll.frameMs.median} ms | frame ${w.scroll.frameMs.p95} ms (p95), longest ${w.scroll.frameMs.longest} ms | 60 fps (16.7 ms) |`,
  );
  console.log('');
}

async function loop() {
  const passes = Number(process.env.BENCH_LOOP_PASSES ?? 10);
  // Throughput at saturation: 500 processes ask for 500 wakes a second, more than either side
  // sustains on two cores, so a timer's lateness there is how deep the queue is.
  const { wakeflow: wf, handWritten: hw } = await sleepLoop(
    Number(process.env.BENCH_LOOP_PROCESSES ?? 500),
    passes,
  );
  // Lateness at a load both sides sustain: a timer's lateness is a latency.
  const light = await sleepLoop(Number(process.env.BENCH_LATENCY_PROCESSES ?? 25), passes);
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const late = (f: LoopFigures) => `${f.lateMs.median} / ${f.lateMs.p99} / ${f.lateMs.max} ms`;
  console.log(
    `A PT1S sleep loop, ${wf.processes} processes × ${wf.passes} passes, beside a hand-written Virtual Object doing the same loop with the same SDK (goal: within 2× of its throughput, p99 lateness under 250 ms):`,
  );
  console.log('| figure | wakeflow | hand-written object | ratio |');
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| processes started per second | ${wf.startsPerSecond} | ${hw.startsPerSecond} | ${ratio(hw.startsPerSecond, wf.startsPerSecond)}× slower |`,
  );
  console.log(
    `| wakes per second | ${wf.wakesPerSecond} | ${hw.wakesPerSecond} | ${ratio(hw.wakesPerSecond, wf.wakesPerSecond)}× slower |`,
  );
  console.log(
    `| CPU per wake, server / endpoint | ${wf.cpuMsPerWake.server} / ${wf.cpuMsPerWake.endpoint} ms | ${hw.cpuMsPerWake.server} / ${hw.cpuMsPerWake.endpoint} ms | ${ratio(wf.cpuMsPerWake.server + wf.cpuMsPerWake.endpoint, hw.cpuMsPerWake.server + hw.cpuMsPerWake.endpoint)}× |`,
  );
  console.log(
    `| timer lateness at ${wf.processes} processes (saturated), median / p99 / worst | ${late(wf)} | ${late(hw)} | |`,
  );
  console.log(
    `| timer lateness at ${light.wakeflow.processes} processes, median / p99 / worst | ${late(light.wakeflow)} | ${late(light.handWritten)} | |`,
  );
  console.log('');
}

async function faults() {
  console.log(
    '| fault | processes | contexts | wakes | seconds | wakes/s | lost | repeated | not finished |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, run] of Object.entries(faultRuns)) {
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
}
