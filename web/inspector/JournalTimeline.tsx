import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import { rovingIndex } from '../ui/rovingIndex.ts';
import { describeEntry } from './describeEntry.ts';
import { formatInstant } from './formatTime.ts';
import { generationOf, kindOf, seqOf } from './journalKinds.ts';
import { gapLabel } from './timeAxis.ts';

/** One line per entry: a fixed height, so that pages added above keep the view where it was. */
export const TIMELINE_ROW_PX = 40;
/** Older entries are asked for when the view comes this near the oldest one read. */
const NEAR_TOP_ROWS = 6;
/**
 * A journal this short is drawn whole (as the canvas draws a small flow whole), so that the
 * page's search finds every entry; a longer one only the rows in view and a few around them.
 */
export const DRAW_ALL_ENTRIES = 60;

export const entryOptionId = (entry: number) => `journal-${entry}`;

const keyOf = (e: JournalEntry | undefined, i: number) =>
  e === undefined ? i : (seqOf(e) ?? `${e.at}:${e.type}:${i}`);

/**
 * The journal as a timeline, oldest at the top and newest at the bottom (where it opens): the
 * virtual time of each entry down its left, how long after the one before it came, a mark
 * coloured by what happened, and the pass's generation as a label. Only the rows in view are in
 * the DOM; scrolling near the top reads the next older page from the runtime. A listbox: the
 * arrows, Home and End move the choice, which shows the snapshot as of that entry.
 */
export function JournalTimeline({
  journal,
  more,
  asOf,
  onChoose,
  onOlder,
}: {
  journal: readonly JournalEntry[];
  /** Whether older entries are left in the store. */
  more: boolean;
  asOf: number | undefined;
  onChoose: (entry: number) => void;
  onOlder: () => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: journal.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => TIMELINE_ROW_PX,
    getItemKey: (i) => keyOf(journal[i], i),
    overscan: journal.length <= DRAW_ALL_ENTRIES ? DRAW_ALL_ENTRIES : 6,
    // The entry chosen stays drawn wherever the view is, so that it keeps the keyboard's focus
    // while a page comes in above it.
    rangeExtractor: (range) => {
      const rows = defaultRangeExtractor(range);
      return asOf === undefined || rows.includes(asOf)
        ? rows
        : [...rows, asOf].sort((a, b) => a - b);
    },
    // It opens on the newest entry, at the bottom.
    initialOffset: () => journal.length * TIMELINE_ROW_PX,
  });
  const focused = asOf ?? journal.length - 1;
  const pendingFocus = useRef<number | undefined>(undefined);
  // What the list held at the last render, to tell a page added above from entries added below.
  const shown = useRef<{ first: string | number | undefined; length: number; atEnd: boolean }>({
    first: undefined,
    length: 0,
    atEnd: true,
  });

  // Where this component last scrolled to itself: the scroll event of that is not the designer's.
  const ours = useRef<number | undefined>(undefined);
  const scrollOurs = (offset: number) => {
    ours.current = Math.max(0, Math.round(offset));
    virtualizer.scrollToOffset(ours.current);
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    const before = shown.current;
    const first = keyOf(journal[0], 0);
    if (el && journal.length !== before.length) {
      const added =
        before.first === undefined ? -1 : journal.findIndex((e, i) => keyOf(e, i) === before.first);
      if (added > 0) scrollOurs(el.scrollTop + added * TIMELINE_ROW_PX);
      // The newest entry stays in view as entries come, unless the designer scrolled away.
      else if (before.atEnd) scrollOurs(virtualizer.getTotalSize() - el.clientHeight);
    }
    shown.current = { first, length: journal.length, atEnd: before.atEnd };
  });

  // An entry chosen elsewhere (the chart, the keyboard) is brought into view.
  useEffect(() => {
    if (asOf !== undefined) virtualizer.scrollToIndex(asOf, { align: 'auto' });
  }, [asOf, virtualizer]);

  // Focus follows the keyboard's choice once its row is drawn.
  useLayoutEffect(() => {
    if (pendingFocus.current === undefined) return;
    const row = scroller.current?.querySelector<HTMLElement>(
      `#${entryOptionId(pendingFocus.current)}`,
    );
    if (row) {
      row.focus();
      pendingFocus.current = undefined;
    }
  });

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    // The list may have grown since this component scrolled to its end: that is still the end.
    if (ours.current === undefined || Math.abs(el.scrollTop - ours.current) > 1)
      shown.current.atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - TIMELINE_ROW_PX;
    if (more && el.scrollTop < NEAR_TOP_ROWS * TIMELINE_ROW_PX) onOlder();
  };

  const onKey = (e: KeyboardEvent) => {
    const next = rovingIndex(e.key, focused, journal.length);
    if (next === undefined) return;
    e.preventDefault();
    pendingFocus.current = next;
    virtualizer.scrollToIndex(next, { align: 'auto' });
    onChoose(next);
    // The keyboard reaches older pages too, not only the scroll wheel.
    if (next === 0 && more) onOlder();
  };

  return (
    <div className="timeline" ref={scroller} onScroll={onScroll}>
      <ol
        role="listbox"
        aria-label="Journal entries"
        onKeyDown={onKey}
        className="timeline__list"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((row) => {
          const i = row.index;
          const e = journal[i]!;
          const kind = kindOf(e);
          const gen = generationOf(e);
          const previous = journal[i - 1];
          const gap = previous ? gapLabel(e.at - previous.at) : '';
          return (
            <li
              key={row.key}
              id={entryOptionId(i)}
              role="option"
              aria-selected={asOf === i}
              aria-posinset={i + 1}
              aria-setsize={journal.length}
              // One stop in the tab order: the entry chosen, else the newest (roving tabindex).
              tabIndex={i === focused ? 0 : -1}
              className={`timeline__entry timeline__entry--${kind}`}
              style={{ transform: `translateY(${row.start}px)`, height: TIMELINE_ROW_PX }}
              onClick={() => onChoose(i)}
            >
              <time className="timeline__time" dateTime={new Date(e.at).toISOString()}>
                {formatInstant(e.at)}
              </time>{' '}
              {gap && <span className="timeline__gap">{gap} </span>}
              <span className="timeline__mark" aria-hidden="true" />
              <span className="timeline__what" title={describeEntry(e)}>
                {describeEntry(e, { generation: false })}
              </span>
              {gen && <span className="timeline__gen"> generation {gen}</span>}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
