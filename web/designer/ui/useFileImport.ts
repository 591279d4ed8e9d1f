import { isTextEntry } from '../../isTextEntry.ts';
import { useCallback, useEffect, useState } from 'react';
import { importFlows } from '../../workspace/importFlows.ts';
import { addImportedFlows, runtime, workspaceFlows } from '../../workspace/workspaceActions.ts';

/** Longest file read for import; larger ones are refused before reading. */
const MAX_BYTES = 32 * 1024 * 1024;

/**
 * Import by file picker, by dropping a file on the page, or by pasting a flow's JSON anywhere
 * but a text field. A refused file leaves the workspace as it was and the message says why.
 */
export function useFileImport() {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>();

  const importText = useCallback(async (text: string, source: string) => {
    // The workspace's ids must be known before deciding which imported ids are taken.
    await runtime();
    const result = importFlows(text, new Set(workspaceFlows().keys()));
    if (!result.ok) {
      setMessage({ ok: false, text: `${source}: ${result.message}` });
      return;
    }
    await addImportedFlows(result.flows);
    const renamed = result.renamed.map(
      ([from, to]) => `"${from}" came in as "${to}" (that id was taken)`,
    );
    const names = result.flows.map((f) => f.name ?? f.id).join(', ');
    setMessage({
      ok: true,
      text: [`Imported ${names}.`, ...renamed, ...result.warnings].join(' '),
    });
  }, []);

  const importFile = useCallback(
    async (file: File) => {
      if (file.size > MAX_BYTES) {
        setMessage({
          ok: false,
          text: `${file.name}: the file is too large to be a flow; nothing was imported.`,
        });
        return;
      }
      await importText(await file.text(), file.name);
    },
    [importText],
  );

  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      if (isTextEntry(e.target)) return;
      const text = e.clipboardData?.getData('text/plain') ?? '';
      if (!text.trimStart().startsWith('{')) return;
      e.preventDefault();
      void importText(text, 'Pasted text');
    };
    const onDragOver = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    const onDrop = (e: DragEvent) => {
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      e.preventDefault();
      void importFile(file);
    };
    document.addEventListener('paste', onPaste);
    document.addEventListener('dragover', onDragOver);
    document.addEventListener('drop', onDrop);
    return () => {
      document.removeEventListener('paste', onPaste);
      document.removeEventListener('dragover', onDragOver);
      document.removeEventListener('drop', onDrop);
    };
  }, [importFile, importText]);

  return { importFile, message, dismiss: () => setMessage(undefined) };
}
