import type { Browser, CDPSession, Page } from '@playwright/test';
import { median, stats, type Stats } from '../harness.ts';
import { BIG_EDGES, BIG_NODES, BIG_PREFIX, bigFlow } from './bigFlow.ts';

/** The size of the big-flow goal: pan and drag at 60 Hz, first render within a second. */
export const HUGE = { nodes: 5000, edges: 6000 };
import { installCanvasProbe, type CanvasProbe } from './canvasProbe.ts';
import { addReactProbe } from '../../test-support/reactCommits.ts';
import { serve } from './serve.ts';

/**
 * 5. The canvas in Chromium: the production build of the app (the one bench/bundle.ts makes),
 * a flow of 1,000 nodes and 1,200 edges (section `canvas`) or of 5,000 nodes and 6,000 edges
 * (section `canvas-big`, the big-flow goal) imported through the designer's file input ("Flow
 * file to import"), then the time to first render, frame times while panning (dragging the empty
 * pane) and while dragging a node, and how many nodes render per drag frame. See
 * canvasProbe.ts for how each is measured.
 */

export interface GestureFigures {
  /** Frame work (first input to the end of the frame's rendering), ms: median over gestures. */
  workMs: { median: number; p95: number };
  /** Interval between frames, ms: median over gestures (60 Hz gives 16.7). */
  intervalMs: { median: number; p95: number };
  gestures: number;
  framesPerGesture: number;
}

export interface CanvasResult {
  nodes: number;
  edges: number;
  /** Nodes on screen after the import (React Flow draws only the visible ones). */
  nodesDrawn: number;
  firstRenderMs: Stats;
  /**
   * The page's main-thread CPU time over the same import, ms (DevTools' ThreadTime): unlike the
   * wall time it does not grow with what else the machine runs, so two builds measured on a
   * busy machine can still be compared (docs/performance.md, "The canvas import").
   */
  firstRenderCpuMs?: Stats;
  pan: GestureFigures;
  drag: GestureFigures;
  /** Per drag frame that committed: node components rendered (React DevTools hook). */
  nodeRendersPerDragFrame: { median: number; max: number };
  /** The same for React Flow's wrapper around each node. */
  wrapperRendersPerDragFrame: { median: number; max: number };
  /** Per drag frame that committed: `.react-flow__node` elements whose DOM changed. */
  mutatedNodesPerDragFrame: { median: number; max: number };
}

type Frames = Awaited<ReturnType<CanvasProbe['stopRecording']>>;

const IMPORTS = 4; // one warm-up and three timed
const GESTURES = 4; // one warm-up and three timed, each way
const MOVES = 60;
const VIEWPORT = { width: 1280, height: 800 };

const probe = (page: Page) =>
  page.evaluateHandle(() => (window as unknown as { __wfProbe: CanvasProbe }).__wfProbe);

/** The page's main-thread CPU time so far, ms. */
async function threadTime(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN) * 1000;
}

async function importBigFlow(page: Page, text: string): Promise<number> {
  await page.getByLabel('Flow file to import').setInputFiles({
    name: 'bench-canvas.flow.json',
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  });
  const p = await probe(page);
  const ms = await p.evaluate((x) => x.firstRender());
  if (ms === null || !Number.isFinite(ms))
    throw new Error('canvas: the imported flow never showed');
  return ms;
}

/** A point on the empty pane near the middle of the canvas, away from nodes, edges and panels. */
async function emptyPanePoint(page: Page): Promise<{ x: number; y: number }> {
  const point = await page.evaluate(() => {
    const pane = document.querySelector('.react-flow__pane')!.getBoundingClientRect();
    const cx = pane.left + pane.width / 2;
    const cy = pane.top + pane.height / 2;
    // Rings outward from the middle; the first spot where the pane itself is hit wins.
    for (let r = 0; r < Math.min(pane.width, pane.height) / 2 - 40; r += 10) {
      for (let a = 0; a < 360; a += 15) {
        const x = cx + r * Math.cos((a * Math.PI) / 180);
        const y = cy + r * Math.sin((a * Math.PI) / 180);
        if (document.elementFromPoint(x, y)?.classList.contains('react-flow__pane'))
          return { x, y };
      }
    }
    return null;
  });
  if (!point) throw new Error('canvas: no empty spot on the pane to pan from');
  return point;
}

/** The header of a node near the middle of the canvas, to drag it by. */
async function nodeHandle(page: Page): Promise<{ x: number; y: number; id: string }> {
  const found = await page.evaluate(() => {
    const pane = document.querySelector('.react-flow__pane')!.getBoundingClientRect();
    const cx = pane.left + pane.width / 2;
    const cy = pane.top + pane.height / 2;
    let best: { x: number; y: number; id: string; d: number } | null = null;
    for (const el of document.querySelectorAll<HTMLElement>('.react-flow__node')) {
      const header = el.querySelector('.wf-node__header') ?? el;
      const r = header.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (document.elementFromPoint(x, y)?.closest('.react-flow__node') !== el) continue;
      const d = Math.hypot(x - cx, y - cy);
      if (!best || d < best.d) best = { x, y, id: el.dataset.id ?? '', d };
    }
    return best;
  });
  if (!found) throw new Error('canvas: no node to drag');
  return found;
}

/** Presses at `from`, moves by (dx, dy) in MOVES steps, releases; frames recorded meanwhile. */
async function gesture(page: Page, from: { x: number; y: number }, dx: number, dy: number) {
  const p = await probe(page);
  await page.mouse.move(from.x, from.y);
  await p.evaluate((x) => x.startRecording());
  await page.mouse.down();
  for (let i = 1; i <= MOVES; i++) {
    await page.mouse.move(from.x + (dx * i) / MOVES, from.y + (dy * i) / MOVES);
  }
  await page.mouse.up();
  const frames: Frames = await p.evaluate((x) => x.stopRecording());
  return frames.filter((f) => f.input);
}

function gestureFigures(perGesture: Frames[]): GestureFigures {
  const timed = perGesture.slice(1);
  const per = timed.map((frames) => ({
    work: stats(frames.map((f) => f.work).filter(Number.isFinite)),
    interval: stats(frames.map((f) => f.interval).filter(Number.isFinite)),
  }));
  return {
    workMs: {
      median: median(per.map((g) => g.work.median)),
      p95: median(per.map((g) => g.work.p95)),
    },
    intervalMs: {
      median: median(per.map((g) => g.interval.median)),
      p95: median(per.map((g) => g.interval.p95)),
    },
    gestures: timed.length,
    framesPerGesture: median(timed.map((f) => f.length)),
  };
}

const settle = (page: Page, ms = 400) => page.waitForTimeout(ms);

export async function canvasBench(
  browser: Browser,
  appDir: string,
  log: (line: string) => void,
  size: { nodes: number; edges: number } = { nodes: BIG_NODES, edges: BIG_EDGES },
): Promise<CanvasResult> {
  const server = await serve(appDir);
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await addReactProbe(page, installCanvasProbe, BIG_PREFIX);
    await page.goto(server.url);
    // The workspace has opened once a flow (an example) shows on the canvas.
    await page.locator('.react-flow__node').first().waitFor();

    const text = JSON.stringify(bigFlow(size.nodes, size.edges));
    log(`canvas: importing a flow of ${size.nodes} nodes and ${size.edges} edges ${IMPORTS}× …`);
    const firstRenders: number[] = [];
    const firstRenderCpu: number[] = [];
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    for (let i = 0; i < IMPORTS; i++) {
      const cpuBefore = await threadTime(cdp);
      firstRenders.push(await importBigFlow(page, text));
      firstRenderCpu.push((await threadTime(cdp)) - cpuBefore);
      await settle(page, 800);
    }
    const nodesDrawn = await page.locator('.react-flow__node').count();

    log('canvas: panning …');
    const pans: Frames[] = [];
    for (let i = 0; i < GESTURES; i++) {
      const from = await emptyPanePoint(page);
      const sign = i % 2 === 0 ? 1 : -1;
      pans.push(await gesture(page, from, sign * -360, sign * -220));
      await settle(page);
    }

    log('canvas: dragging a node …');
    const drags: Frames[] = [];
    for (let i = 0; i < GESTURES; i++) {
      const handle = await nodeHandle(page);
      const sign = i % 2 === 0 ? 1 : -1;
      drags.push(await gesture(page, handle, sign * 240, sign * 120));
      await settle(page);
    }

    log('canvas: counting renders while dragging a node …');
    const p = await probe(page);
    const counted: Frames = [];
    for (let i = 0; i < 2; i++) {
      const handle = await nodeHandle(page);
      await p.evaluate((x) => x.startCounting());
      const sign = i % 2 === 0 ? 1 : -1;
      counted.push(...(await gesture(page, handle, sign * 240, sign * 120)));
      await p.evaluate((x) => x.stopCounting());
      await settle(page);
    }
    const committing = counted.filter((f) => f.commits > 0);
    const spread = (values: number[]) => ({ median: median(values), max: Math.max(...values) });

    return {
      nodes: size.nodes,
      edges: size.edges,
      nodesDrawn,
      firstRenderMs: stats(firstRenders.slice(1)),
      firstRenderCpuMs: stats(firstRenderCpu.slice(1)),
      pan: gestureFigures(pans),
      drag: gestureFigures(drags),
      nodeRendersPerDragFrame: spread(committing.map((f) => f.nodeRenders)),
      wrapperRendersPerDragFrame: spread(committing.map((f) => f.wrapperRenders)),
      mutatedNodesPerDragFrame: spread(committing.map((f) => f.mutatedNodes)),
    };
  } finally {
    await context.close();
    await server.close();
  }
}
