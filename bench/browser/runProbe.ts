/**
 * What the timing benchmark installs in the app's page just before it presses Run
 * (`page.evaluate`). Serialized with `Function.prototype.toString`, so everything it needs is
 * inside the function. A run begins with the next click on a button named Run and ends when the
 * inspector's "Process status" reads one of `ends`; a `requestAnimationFrame` loop notes every
 * frame meanwhile, and the record closes two frames after the status changed, so that the frame
 * that painted it is counted.
 */
export function installRunProbe(ends: string[]): void {
  const done = new Promise<RunRecord>((resolve) => {
    const onClick = (e: MouseEvent) => {
      const button = (e.target as Element | null)?.closest('button');
      if (button?.textContent?.trim() !== 'Run') return;
      document.removeEventListener('click', onClick, true);
      const t0 = performance.now();
      const frames: number[] = [];
      let endedAt: number | undefined;
      let status = '';
      const tick = () => {
        frames.push(performance.now());
        const shown = document.querySelector('[aria-label="Process status"]')?.textContent ?? '';
        if (endedAt === undefined && ends.includes(shown)) {
          endedAt = performance.now();
          status = shown;
        }
        const after = endedAt === undefined ? 0 : frames.filter((t) => t > endedAt!).length;
        if (after < 2) {
          requestAnimationFrame(tick);
          return;
        }
        const gaps = frames.map((t, i) => t - (i === 0 ? t0 : frames[i - 1]!));
        resolve({ ms: endedAt! - t0, status, maxGapMs: Math.max(...gaps) });
      };
      requestAnimationFrame(tick);
    };
    document.addEventListener('click', onClick, true);
  });
  Object.defineProperty(window, '__runProbe', { value: done, configurable: true });

  interface RunRecord {
    ms: number;
    status: string;
    maxGapMs: number;
  }
}

export interface RunRecord {
  /** From the click on Run to the first frame that found the status at its end. */
  ms: number;
  /** The status the run ended in. */
  status: string;
  /** The longest time the page went without a frame, from the click to two frames after. */
  maxGapMs: number;
}
