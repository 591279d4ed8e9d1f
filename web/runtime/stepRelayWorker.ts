import { stepRelay } from './stepRelay.ts';

/**
 * The step relay's worker (stepRelay.ts): given two ports, it hears the runtime worker's step
 * events on `steps` and passes them on, thinned, to the page on `page`.
 */
self.onmessage = (e: MessageEvent<{ steps: MessagePort; page: MessagePort }>) => {
  const { steps, page } = e.data;
  const hear = stepRelay((event) => page.postMessage(event));
  steps.onmessage = (m: MessageEvent) => hear(m.data as Parameters<typeof hear>[0]);
};
