import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The pure layers' world is their tsconfig's (docs/architecture.md#boundaries): the probe there
// expects every host global to be missing, so `tsc -b` fails if one compiles. These check the
// probe itself: clean in that world, and failing on every line where the DOM and Node are seen.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROBE = `${ROOT}runtime/engine/hostGlobals.probe.ts`;

function pureConfig(): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    `${ROOT}tsconfig.pure.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.pure.json could not be read');
  return parsed;
}

function probeErrors(options: ts.CompilerOptions): number[] {
  // Checked only: the build's options (declarations into a cache) need a whole project.
  const checkOnly = { composite: false, emitDeclarationOnly: false, noEmit: true };
  const program = ts.createProgram([PROBE], { ...options, ...checkOnly });
  return ts.getPreEmitDiagnostics(program).map((d) => d.code);
}

describe('the pure layers compile with no DOM and no Node (docs/architecture.md#boundaries)', () => {
  it('the probe is one of the pure project’s files and compiles clean in its world', () => {
    const config = pureConfig();
    expect(config.fileNames).toContain(PROBE);
    expect(probeErrors(config.options)).toEqual([]);
  });

  it('given the DOM and Node, every line of the probe fails, so tsc -b would', () => {
    const { options } = pureConfig();
    const hosted = { ...options, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], types: ['node'] };
    // 2578: an unused '@ts-expect-error' directive, one for each of the probe's nine lines.
    expect(probeErrors(hosted)).toEqual(Array(9).fill(2578));
  });
});
