import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { definitions, processOf } from '../../shared/bpmn/fixtures/bpmnText.ts';
import { minimalFlow, text } from '../../shared/fixtures/flows.ts';
import { importApi } from './importApi.ts';
import { MAX_IMPORT_VALUES } from './importFlows.ts';

const pizza = readFileSync(
  new URL('../../shared/bpmn/fixtures/pizza-collaboration.bpmn', import.meta.url),
  'utf8',
);

describe('Import takes BPMN 2.0 files, read in the import worker as JSON files are', () => {
  it('a .bpmn file comes in as its flows, renamed around the workspace, each that cannot run with its problems', async () => {
    const result = await importApi.importFile(new Blob([pizza]), ['_6-2']);
    if (!result.ok) throw new Error(result.message);
    expect(result.flows.map((f) => [f.id, f.name])).toEqual([
      ['_6-2-2', 'Pizza Customer'],
      ['_6-1', 'Pizza vendor'],
    ]);
    expect(result.renamed).toEqual([['_6-2', '_6-2-2']]);
    expect(result.cannotRun).toEqual([
      {
        id: '_6-2-2',
        name: 'Pizza Customer',
        problems: expect.arrayContaining([
          expect.stringContaining(
            'node "_6-180": intermediate catch event "60 minutes" (_6-219): timer has no duration',
          ),
        ]),
      },
    ]);
    // What the mapping did not keep is said, not dropped.
    expect(result.warnings).toContainEqual(
      expect.stringContaining('message flow(s) between pools'),
    );
  });

  it('JSON files still come in as before', async () => {
    const result = await importApi.importText(text(minimalFlow('orders')), []);
    expect(result.ok && result.flows.map((f) => f.id)).toEqual(['orders']);
  });

  it('refuses broken, hostile and foreign XML with a message, changing nothing', async () => {
    const refused = async (xml: string) => {
      const result = await importApi.importFile(new Blob([xml]), []);
      if (result.ok) throw new Error('expected a refusal');
      return result.message;
    };
    expect(await refused(processOf('<bpmn:task id="a">'))).toMatch(
      /^The file was not imported: it is not BPMN that can be read: line \d+, column \d+: closing tag mismatch/,
    );
    expect(
      await refused(`<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${processOf('')}`),
    ).toContain('declares a DOCTYPE');
    expect(await refused('<html><body>not a diagram</body></html>')).toContain(
      '<bpmn:Definitions>',
    );
    const deep = processOf(
      `${'<bpmn:subProcess>'.repeat(5000)}${'</bpmn:subProcess>'.repeat(5000)}`,
    );
    expect(await refused(deep)).toContain('nested more than 256 levels deep');
  });

  it('holds a BPMN file to the import limit on values, as a JSON file', async () => {
    // More values than the limit, kept by an export as a node's unknown fields.
    const many = JSON.stringify({ extra: new Array(MAX_IMPORT_VALUES + 20_000).fill(0) });
    const xml = definitions(
      `<bpmn:process id="p"><bpmn:startEvent id="s"><bpmn:extensionElements><wakeflow:fields>${many}</wakeflow:fields></bpmn:extensionElements></bpmn:startEvent></bpmn:process>`,
      'xmlns:wakeflow="https://wakeflow.dev/bpmn/1"',
    );
    const result = await importApi.importText(xml, []);
    expect(result).toEqual({
      ok: false,
      message: expect.stringContaining(
        `more than ${MAX_IMPORT_VALUES.toLocaleString('en')} values`,
      ),
    });
  });
});
