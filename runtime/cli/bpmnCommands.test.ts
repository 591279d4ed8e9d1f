import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processOf } from '../../shared/bpmn/fixtures/bpmnText.ts';
import { checkWithSchema } from '../../shared/fixtures/schemaValidator.ts';
import { parseFlowFile } from '../../shared/parseFlowFile.ts';
import { signature } from '../../shared/signature.ts';
import { runCli } from './runCli.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const pizza = joinPath(repo, 'shared/bpmn/fixtures/pizza-collaboration.bpmn');
let dir: string;
const file = async (name: string, content: string) => {
  const path = joinPath(dir, name);
  await writeFile(path, content, 'utf8');
  return path;
};
beforeAll(async () => {
  dir = await mkdtemp(joinPath(tmpdir(), 'wakeflow-bpmn-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('flow import-bpmn FILE', () => {
  it('prints the diagram as flows/1 (with its schema), warnings and problems on standard error, exit 0', async () => {
    const result = await runCli(['import-bpmn', pizza]);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.out.join('\n')) as object;
    expect(checkWithSchema(printed)).toEqual({ ok: true, errors: 'No errors' });
    const parsed = parseFlowFile(result.out.join('\n'));
    expect(parsed.ok && parsed.flows.map((f) => f.name)).toEqual([
      'Pizza Customer',
      'Pizza vendor',
    ]);
    expect(result.err).toContainEqual(expect.stringMatching(/^warning: 6 message flow\(s\)/));
    expect(result.err).toContainEqual(
      expect.stringMatching(/^problem: flow "_6-2", node "_6-180": .*timer has no duration/),
    );
  });

  it('refuses broken and hostile files with one clear line, exit 1, printing nothing', async () => {
    const cases: [string, RegExp][] = [
      [processOf('<bpmn:task id="a">'), /^line \d+, column \d+: closing tag mismatch/],
      [
        `<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>${processOf('')}`,
        /declares a DOCTYPE/,
      ],
      ['{"format":"flow/1"}', /^not XML/],
      [
        processOf(`${'<bpmn:subProcess>'.repeat(400)}${'</bpmn:subProcess>'.repeat(400)}`),
        /nested more than 256/,
      ],
      [processOf(`<!-- ${'x'.repeat(5 * 1024 * 1024)} -->`), /^the file is 5\.0 MB/],
    ];
    for (const [text, message] of cases) {
      const result = await runCli(['import-bpmn', await file('bad.bpmn', text)]);
      expect(result).toEqual({ out: [], err: [expect.stringMatching(message)], code: 1 });
    }
  });
});

describe('flow export-bpmn FILE', () => {
  it('prints an example as BPMN XML that import-bpmn reads back to the same signature', async () => {
    const example = joinPath(repo, 'examples/nightly-refresh.flows.json');
    const exported = await runCli(['export-bpmn', example]);
    expect(exported.code).toBe(0);
    expect(exported.out.join('\n')).toMatch(/^<\?xml[\s\S]*<bpmndi:BPMNDiagram/);
    const back = await runCli(['import-bpmn', await file('x.bpmn', exported.out.join('\n'))]);
    const before = await runCli(['signature', example]);
    const after = await runCli(['signature', await file('x.flows.json', back.out.join('\n'))]);
    expect(after.out).toEqual(before.out);
    expect(before.out.map((l) => l.split(' ')[1])).toEqual(
      (
        parseFlowFile(back.out.join('\n')) as { flows: Parameters<typeof signature>[0][] }
      ).flows.map(signature),
    );
  });

  it('refuses a file that is not flow/1 or flows/1, as validate does', async () => {
    const result = await runCli([
      'export-bpmn',
      await file(
        'bad.json',
        '{"format":"flow/1","id":"x","nodes":[{"id":"a","kind":"wrok"}],"edges":[]}',
      ),
    ]);
    expect(result).toEqual({
      out: [],
      err: [expect.stringContaining('unknown kind "wrok"')],
      code: 1,
    });
  });
});
