import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The rule that keeps the workbench on WorkbenchRuntime (eslint.config.js, runtimeBoundary;
// docs/architecture.md, "The runtime interface"), run on small snippets as if they were views.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MESSAGE =
  'The workbench reaches its runtime through WorkbenchRuntime (web/runtime/workbenchRuntime.ts), not its supervisor or store';

/** The lines where the boundary's rule refuses `code`, linted as the file `filePath`. */
async function refusedLines(code: string, filePath = 'web/inspector/Probe.ts'): Promise<number[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return result!.messages
    .filter((m) => m.ruleId === 'no-restricted-syntax' && m.message === MESSAGE)
    .map((m) => m.line);
}

const REFUSED = "import { Supervisor } from '../../runtime/supervisor/supervisor.ts';";

describe('no view reaches the runtime past WorkbenchRuntime (eslint.config.js, runtimeBoundary)', () => {
  it("refuses a value of the supervisor's or store's modules, and a .supervisor or .store read", async () => {
    const code = [
      REFUSED,
      "import { ResilientStore } from '../../runtime/store/resilientStore.ts';",
      'declare const runtime: { supervisor: { stop(id: string): void }; store: unknown };',
      "runtime.supervisor.stop('p');",
      'export const kept = [Supervisor, ResilientStore, runtime.store];',
    ].join('\n');
    expect(await refusedLines(code)).toEqual([1, 2, 4, 5]);
  });

  it('allows their types (plain data) and the modules of pure helpers', async () => {
    const code = [
      "import type { Supervisor } from '../../runtime/supervisor/supervisor.ts';",
      "import { type SaveState } from '../../runtime/store/resilientStore.ts';",
      "import { PROCESS_STATUSES } from '../../runtime/supervisor/records.ts';",
      'export type Kept = Supervisor | SaveState;',
      'export const statuses = PROCESS_STATUSES;',
      // The one line refused, so that the rule is seen to run on this file.
      REFUSED.replace('{ Supervisor }', '{ Supervisor as S }'),
      'export const s = S;',
    ].join('\n');
    expect(await refusedLines(code)).toEqual([6]);
  });

  it('leaves web/runtime/, which implements the interface, free to reach them', async () => {
    const code = `${REFUSED}\nexport const s = Supervisor;\n`;
    expect(await refusedLines(code, 'web/runtime/Probe.ts')).toEqual([]);
    expect(await refusedLines(code)).toEqual([1]);
  });
});
