import type { Fiber, ReactCommits } from '../../test-support/reactCommits.ts';

/**
 * What the canvas benchmark installs in the app's page before any of its scripts run, after the
 * DevTools hook of reactCommits.ts (addReactProbe). It is serialized with
 * `Function.prototype.toString`, so it must not use anything from its module (types aside):
 * everything it needs is inside the function.
 *
 * - Frames: while recording, a `requestAnimationFrame` loop notes each frame's interval and its
 *   work: from the frame's first input event (or its rAF callback, if it had none) to the end of
 *   that frame's rendering (a message posted from rAF is delivered once style, layout and paint
 *   are done). The interval is quantized by the display's 60 Hz; the work says how much of the
 *   16.7 ms budget the frame used.
 * - Renders: while counting, each commit's fiber tree (from the hook of reactCommits.ts) is
 *   walked and a node counts as rendered when its node component's fiber is new in this commit
 *   and has React's PerformedWork flag, as React DevTools decides it. Counted for the node kind
 *   components (WorkNode …) and for React Flow's wrapper around each.
 * - DOM mutations: while counting, a MutationObserver notes which `.react-flow__node` elements
 *   changed, per frame (a render that changes nothing in the DOM is not seen by it).
 * - First render: the time from the file input's change event to the end of the first frame in
 *   which the imported flow's nodes are all measured and visible and the viewport has settled.
 */
export function installCanvasProbe(nodePrefix: string): void {
  interface Frame {
    interval: number;
    input: boolean;
    work: number;
    commits: number;
    nodeRenders: number;
    wrapperRenders: number;
    mutatedNodes: number;
  }

  const react = (window as unknown as { __wfReact: ReactCommits }).__wfReact;
  const rendered = react.renderJudge();
  const counts = { commits: 0, nodeRenders: 0, wrapperRenders: 0 };
  let counting = false;

  const walk = (root: Fiber, count: boolean) => {
    let fiber: Fiber | null = root;
    while (fiber) {
      const props = fiber.memoizedProps;
      const isNode =
        react.isHost(fiber) &&
        typeof props?.className === 'string' &&
        props.className.split(' ').includes('react-flow__node') &&
        typeof props['data-id'] === 'string';
      if (isNode) {
        const id = props!['data-id'] as string;
        let wrapper = fiber.return;
        while (wrapper && !react.isComponent(wrapper)) wrapper = wrapper.return;
        let component = fiber.child;
        while (component && !react.isComponent(component)) component = component.child;
        if (wrapper && rendered(`w:${id}`, wrapper) && count) counts.wrapperRenders++;
        if (component && rendered(`c:${id}`, component) && count) counts.nodeRenders++;
        // Nothing inside a node is another node: skip its subtree.
        while (fiber && !fiber.sibling && fiber !== root) fiber = fiber.return;
        fiber = fiber && fiber !== root ? fiber.sibling : null;
        continue;
      }
      if (fiber.child) {
        fiber = fiber.child;
        continue;
      }
      while (fiber && !fiber.sibling && fiber !== root) fiber = fiber.return;
      fiber = fiber && fiber !== root ? fiber.sibling : null;
    }
  };
  react.onCommit((root) => {
    if (!counting) return;
    counts.commits++;
    walk(root, true);
  });

  // Node elements changed since the last frame (only while counting).
  const mutated = new Set<Element>();
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target instanceof Element ? r.target : r.target.parentElement;
      const node = el?.closest('.react-flow__node');
      if (node) mutated.add(node);
    }
  });

  // Frames.
  let recording = false;
  let frames: Frame[] = [];
  let inputAt: number | null = null;
  let lastTs = 0;
  let seen = { ...counts };
  const afterFrame: { frame: Frame; from: number }[] = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const next = afterFrame.shift();
    if (next) next.frame.work = performance.now() - next.from;
  };
  const markInput = () => {
    if (recording && inputAt === null) inputAt = performance.now();
  };
  for (const type of ['pointermove', 'mousemove', 'pointerdown', 'mousedown', 'wheel'])
    window.addEventListener(type, markInput, { capture: true, passive: true });

  const tick = (ts: number) => {
    if (!recording) return;
    const start = performance.now();
    const frame: Frame = {
      interval: lastTs ? ts - lastTs : Number.NaN,
      input: inputAt !== null,
      work: Number.NaN,
      commits: counts.commits - seen.commits,
      nodeRenders: counts.nodeRenders - seen.nodeRenders,
      wrapperRenders: counts.wrapperRenders - seen.wrapperRenders,
      mutatedNodes: mutated.size,
    };
    afterFrame.push({ frame, from: inputAt ?? start });
    channel.port2.postMessage(0);
    frames.push(frame);
    inputAt = null;
    lastTs = ts;
    seen = { ...counts };
    mutated.clear();
    requestAnimationFrame(tick);
  };

  // First render of an imported flow.
  let firstRender: Promise<number> | null = null;
  document.addEventListener(
    'change',
    (e) => {
      const input = e.target;
      if (!(input instanceof HTMLInputElement) || input.type !== 'file') return;
      const t0 = performance.now();
      // The canvas is keyed by flow, so the imported flow gets a new viewport element: mark the
      // one showing now, to wait for one that is not marked.
      document
        .querySelectorAll('.react-flow__viewport')
        .forEach((v) => v.setAttribute('data-bench-before-import', ''));
      firstRender = new Promise<number>((resolve) => {
        let stable = 0;
        let last = '';
        let stableSince = 0;
        const poll = () => {
          const nodes = [...document.querySelectorAll<HTMLElement>('.react-flow__node')];
          const viewport = document.querySelector<HTMLElement>('.react-flow__viewport');
          const ours =
            viewport !== null &&
            !viewport.hasAttribute('data-bench-before-import') &&
            nodes.length > 0 &&
            nodes.every((n) => n.dataset.id?.startsWith(nodePrefix)) &&
            nodes.every((n) => n.style.visibility !== 'hidden');
          const key = ours ? `${nodes.length}|${viewport?.style.transform ?? ''}` : '';
          if (ours && key === last) stable++;
          else stable = 0;
          last = key;
          const begun = performance.now();
          if (stable === 0 && ours) {
            // Possibly the first frame of the settled view: note when it has been drawn.
            const ch = new MessageChannel();
            ch.port1.onmessage = () => (stableSince = performance.now());
            ch.port2.postMessage(0);
          }
          // Two more frames alike: the view had settled at the first of them.
          if (stable >= 2) resolve(stableSince - t0);
          else if (begun - t0 > 60_000) resolve(Number.NaN);
          else requestAnimationFrame(poll);
        };
        requestAnimationFrame(poll);
      });
    },
    { capture: true },
  );

  const probe = {
    startRecording() {
      frames = [];
      inputAt = null;
      lastTs = 0;
      seen = { ...counts };
      mutated.clear();
      recording = true;
      requestAnimationFrame(tick);
    },
    /** Stops after two more frames, so that the last frame's work is known. */
    async stopRecording(): Promise<Frame[]> {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      recording = false;
      await new Promise((r) => setTimeout(r, 50));
      return frames;
    },
    startCounting() {
      // Note the fibers as they stand, so that the first counted commit compares with them.
      const root = react.lastRoot();
      if (root) walk(root, false);
      observer.observe(document.body, {
        subtree: true,
        attributes: true,
        childList: true,
        characterData: true,
      });
      counting = true;
    },
    stopCounting() {
      counting = false;
      observer.disconnect();
    },
    firstRender: () => firstRender,
  };
  Object.defineProperty(window, '__wfProbe', { value: probe, configurable: true });
}

export type CanvasProbe = {
  startRecording(): void;
  stopRecording(): Promise<
    {
      interval: number;
      input: boolean;
      work: number;
      commits: number;
      nodeRenders: number;
      wrapperRenders: number;
      mutatedNodes: number;
    }[]
  >;
  startCounting(): void;
  stopCounting(): void;
  firstRender(): Promise<number> | null;
};
