import jsonata from 'jsonata';

/**
 * What an expression may know of its step besides the context, handed in as data: the time of
 * the step and the next number of the process's seeded sequence (docs/format.md#flows, expressions are
 * deterministic). The same inputs always give the same result, so a step run again after a
 * compare-and-set conflict takes the same branch.
 */
export interface StepInputs {
  /** The step's time, ms since the epoch: the supervisor's clock, virtual or real. */
  now: number;
  /** The next number in [0, 1) of the process's seeded sequence (the snapshot counts draws). */
  draw: () => number;
  /**
   * Functions bound besides JSONata's own (evaluate.ts, ExtraFunctions): the engine's
   * environment's, which only a test gives.
   */
  functions?: Readonly<Record<string, (...args: never[]) => unknown>>;
}

/** The names stepBindings binds; nothing else may bind them (evaluate.ts, checkExtraFunctions). */
export const STEP_FUNCTIONS: ReadonlySet<string> = new Set(['now', 'millis', 'random', 'shuffle']);

interface NativeFunction {
  _jsonata_function: true;
  implementation: (...args: unknown[]) => unknown;
  signature: unknown;
}

// jsonata's own function objects, read once: the bound ones keep their signatures (and so their
// argument checks and error messages) and change only what they compute from.
let builtins: Promise<
  Record<'now' | 'millis' | 'random' | 'shuffle' | 'fromMillis', NativeFunction>
>;

function readBuiltins() {
  const read = async (name: string) => (await jsonata(`$${name}`).evaluate({})) as NativeFunction;
  builtins ??= (async () => ({
    now: await read('now'),
    millis: await read('millis'),
    random: await read('random'),
    shuffle: await read('shuffle'),
    fromMillis: await read('fromMillis'),
  }))();
  return builtins;
}

/** jsonata bindings that put `$now`, `$millis`, `$random` and `$shuffle` on the step's inputs. */
export async function stepBindings(step: StepInputs): Promise<Record<string, unknown>> {
  const b = await readBuiltins();
  const bound = (fn: NativeFunction, implementation: NativeFunction['implementation']) => ({
    ...fn,
    implementation,
  });
  return {
    now: bound(b.now, (picture, timezone) =>
      b.fromMillis.implementation(step.now, picture, timezone),
    ),
    millis: bound(b.millis, () => step.now),
    random: bound(b.random, () => step.draw()),
    shuffle: bound(b.shuffle, (arr) => shuffled(arr, step.draw)),
  };
}

/** jsonata's inside-out Fisher-Yates shuffle, on the seeded sequence. */
function shuffled(arr: unknown, draw: () => number): unknown {
  if (!Array.isArray(arr) || arr.length <= 1) return arr;
  const result: unknown[] = new Array(arr.length);
  for (let i = 0; i < arr.length; i++) {
    const j = Math.floor(draw() * (i + 1));
    if (i !== j) result[i] = result[j];
    result[j] = arr[i];
  }
  return result;
}
