import { isTextEntry } from '../../ui/isTextEntry.ts';
import { useCallback, useEffect, useState } from 'react';
import type { ImportResult } from '../../workspace/importFlows.ts';
import {
  createImporter,
  inThisThread,
  spawnImportWorker,
} from '../../workspace/importOffThread.ts';
import { useWorkspaceActions } from '../../workspace/workspaceActions.ts';
import { useDesigner } from '../designerStore.ts';

// Files are read, parsed and checked in a worker of their own, so that no file, however large
// or deep, can keep the page from drawing its next frame.
const importer = createImporter({
  spawn: typeof Worker === 'undefined' ? inThisThread : spawnImportWorker,
});

/** What the status says of an imported flow that cannot run yet. */
function cannotRunNote(name: string, problems: number): string {
  return problems === 1
    ? `"${name}" cannot run until its problem is fixed; Problems lists it.`
    : `"${name}" cannot run until its ${problems} problems are fixed; Problems lists them.`;
}

/** What an import says above the canvas; `about`, the ids of the flows it brought in. */
interface ImportMessage {
  ok: boolean;
  text: string;
  about?: string[];
}

/** Notes as sentences, each ended by a full stop, so that none runs into the next. */
export function sentences(notes: readonly string[]): string {
  return notes
    .map((n) => n.trim())
    .filter(Boolean)
    .map((n) => (/[.!?]$/.test(n) ? n : `${n}.`))
    .join(' ');
}

/**
 * Import by file picker, by dropping a file on the page, or by pasting a flow's JSON anywhere
 * but a text field. A refused file leaves the workspace as it was and the message says why.
 */
export function useFileImport() {
  const [message, setMessage] = useState<ImportMessage | undefined>();
  const { addImportedFlows, runtime, workspaceFlows } = useWorkspaceActions();
  // A message about the flows imported goes when another flow is opened: it was not about it.
  const openFlow = useDesigner((s) => (s.open ? s.meta.id : undefined));
  useEffect(() => {
    if (message?.about && (openFlow === undefined || !message.about.includes(openFlow)))
      setMessage(undefined);
  }, [openFlow, message]);

  useEffect(() => importer.warm(), []);

  const finish = useCallback(
    async (result: ImportResult, source: string) => {
      if (!result.ok) {
        setMessage({ ok: false, text: `${source}: ${result.message}` });
        return;
      }
      const refused = await addImportedFlows(result.flows, result.pins);
      if (refused) {
        setMessage({ ok: false, text: `${source}: The file was not imported: ${refused}.` });
        return;
      }
      const renamed = result.renamed.map(
        ([from, to]) => `"${from}" came in as "${to}" (that id was taken).`,
      );
      const cannotRun = result.cannotRun.map((f) => cannotRunNote(f.name, f.problems.length));
      const names = result.flows.map((f) => f.name ?? f.id).join(', ');
      const pinned =
        result.pins.length === 0
          ? []
          : [
              `${result.pins.length} pinned ${result.pins.length === 1 ? 'answer' : 'answers'} restored.`,
            ];
      setMessage({
        ok: true,
        text: sentences([
          `Imported ${names}.`,
          ...renamed,
          ...pinned,
          ...cannotRun,
          ...result.warnings,
        ]),
        about: result.flows.map((f) => f.id),
      });
    },
    [addImportedFlows],
  );

  // The workspace's ids must be known before deciding which imported ids are taken.
  const importText = useCallback(
    async (text: string, source: string) => {
      await runtime();
      await finish(await importer.importText(text, workspaceFlows().keys()), source);
    },
    [finish, runtime, workspaceFlows],
  );

  const importFile = useCallback(
    async (file: File) => {
      await runtime();
      await finish(await importer.importFile(file, workspaceFlows().keys()), file.name);
    },
    [finish, runtime, workspaceFlows],
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
