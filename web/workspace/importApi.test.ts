import { describe, expect, it, vi } from 'vitest';
import { deepFile } from '../../e2e/fixtures/bad/generate.ts';
import { minimalFlow, text } from '../../shared/fixtures/flows.ts';
import { importApi } from './importApi.ts';

/** A file that says how large it is and notes whether it was read. */
function fakeFile(size: number, read: () => Promise<string>) {
  return { size, text: vi.fn(read) } as unknown as Blob & { text: ReturnType<typeof vi.fn> };
}

describe('the import worker reads the file itself, and refuses what it must not read', () => {
  it('imports a file it reads, renaming around the workspace ids it is given', async () => {
    const file = new Blob([text(minimalFlow('orders'))]);
    const result = await importApi.importFile(file, ['orders']);
    expect(result.ok && result.flows.map((f) => f.id)).toEqual(['orders-2']);
  });

  it('refuses a file over the size limit before reading a byte of it', async () => {
    const file = fakeFile(20 * 1024 * 1024, () => Promise.reject(new Error('read')));
    expect(await importApi.importFile(file, [])).toEqual({
      ok: false,
      message: 'The file was not imported: the file is 20.0 MB; a flow file can be at most 4 MB.',
    });
    expect(file.text).not.toHaveBeenCalled();
  });

  it('refuses a file that cannot be read, saying so', async () => {
    const file = fakeFile(10, () => Promise.reject(new Error('the file was moved')));
    expect(await importApi.importFile(file, [])).toEqual({
      ok: false,
      message: 'The file was not imported: it could not be read (the file was moved).',
    });
  });

  it('refuses broken and hostile text as the pure import does', async () => {
    expect(await importApi.importText('{"format": "flow/1", "id": ', [])).toEqual({
      ok: false,
      message: expect.stringMatching(/^The file was not imported: line 1, column \d+: /),
    });
    const deep = await importApi.importFile(new Blob([deepFile()]), []);
    expect(deep).toEqual({
      ok: false,
      message: expect.stringContaining('nested more than 256 levels deep'),
    });
  });
});
