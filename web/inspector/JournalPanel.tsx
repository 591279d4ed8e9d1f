import { useCallback, useRef } from 'react';
import { toJsonLines } from '../../runtime/store/jsonLines.ts';
import { download } from '../workspace/exportFlows.ts';
import { Button, IconButton } from '../ui/Button.tsx';
import { useHandler } from '../ui/useHandler.ts';
import { Download, History } from '../ui/icons.tsx';
import { useRuntimeConnection } from '../state/runtimeConnection.ts';
import { RetentionSetting } from './RetentionSetting.tsx';
import { showAsOf, showOlderJournal, useInspector, useInspectorStores } from './inspectorState.ts';
import { JournalChart } from './JournalChart.tsx';
import { JournalTimeline } from './JournalTimeline.tsx';
import { useInspectionOf } from './useInspectionOf.ts';

/**
 * The journal as a chart and as a timeline. Both are lists to choose from: choosing an entry (a
 * click, or the arrow keys, Home and End) shows the snapshot kept with it, read-only, in the
 * Snapshot panel and on the canvas. The newest page of entries is read first; older ones a page
 * at a time, as the timeline is scrolled up (or by the button, for whoever does not scroll).
 */
export function JournalPanel() {
  const inspection = useInspectionOf(['record', 'journal', 'journalMore']);
  const { journal, record, readAt: now, journalMore } = inspection;
  const asOf = useInspector((s) => s.asOf);
  const reading = useRef(false);
  const connection = useRuntimeConnection();
  const stores = useInspectorStores();
  const older = useCallback(() => {
    const runtime = connection.current;
    if (!runtime || reading.current) return;
    reading.current = true;
    void showOlderJournal(stores, runtime).finally(() => (reading.current = false));
  }, [connection, stores]);
  const choose = useCallback(
    (entry: number | undefined) => showAsOf(stores.inspector, entry),
    [stores],
  );

  const exportJournal = useHandler(async () => {
    // The whole journal, not only the entries shown.
    const runtime = connection.current;
    const all = runtime ? await runtime.journal(record.id) : journal;
    download(`${record.id}.journal.jsonl`, toJsonLines(all), 'application/x-ndjson');
  });

  return (
    <section className="inspector-panel journal" aria-labelledby="journal-heading">
      <h3 id="journal-heading">Journal</h3>
      <IconButton
        size="sm"
        className="journal__export"
        label="Export journal (JSON Lines)"
        tooltip="Download this process's whole journal, one JSON object a line"
        icon={<Download size={14} />}
        onClick={exportJournal}
      />
      <JournalChart journal={journal} now={now} asOf={asOf} onChoose={choose} />
      {journalMore && (
        <Button size="sm" icon={<History size={14} aria-hidden="true" />} onClick={older}>
          Show older entries
        </Button>
      )}
      <JournalTimeline
        journal={journal}
        more={journalMore}
        asOf={asOf}
        onChoose={choose}
        onOlder={older}
      />
      <RetentionSetting />
    </section>
  );
}
