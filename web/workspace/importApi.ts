import { importFlows, tooLarge, type ImportResult } from './importFlows.ts';

/**
 * What the import worker does for the page (importWorker.ts), all of it on the worker's thread:
 * reading the file, parsing, checking and validating it. Plain functions with no worker globals,
 * so that Node's tests call them as the worker does. The page sends a File, never its text.
 */
export const importApi = {
  async importText(text: string, existing: readonly string[]): Promise<ImportResult> {
    return importFlows(text, new Set(existing));
  },

  async importFile(file: Blob, existing: readonly string[]): Promise<ImportResult> {
    // Refused before a byte is read.
    const large = tooLarge(file.size);
    if (large) return large;
    let text: string;
    try {
      text = await file.text();
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return { ok: false, message: `The file was not imported: it could not be read (${why}).` };
    }
    return importFlows(text, new Set(existing));
  },
};

export type ImportApi = typeof importApi;
