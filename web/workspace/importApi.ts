import { looksLikeXml } from '../../shared/bpmn/looksLikeXml.ts';
import { importFlows, tooLarge, type ImportResult } from './importFlows.ts';

/** A flow file's text, JSON or (by its first character) BPMN 2.0 XML. */
async function importAny(text: string, existing: readonly string[]): Promise<ImportResult> {
  if (!looksLikeXml(text)) return importFlows(text, new Set(existing));
  // BPMN's parser is loaded with the first BPMN file, never with the page.
  const { importBpmnFlows } = await import('./importBpmnFlows.ts');
  return importBpmnFlows(text, new Set(existing));
}

/**
 * What the import worker does for the page (importWorker.ts), all of it on the worker's thread:
 * reading the file, parsing (JSON, or BPMN 2.0 XML), checking and validating it. Plain functions with no worker globals,
 * so that Node's tests call them as the worker does. The page sends a File, never its text.
 */
export const importApi = {
  async importText(text: string, existing: readonly string[]): Promise<ImportResult> {
    return importAny(text, existing);
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
    return importAny(text, existing);
  },
};

export type ImportApi = typeof importApi;
