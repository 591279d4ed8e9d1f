import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { IconButton } from '../ui/Button.tsx';
import { Search, X } from '../ui/icons.tsx';
import { useHandler } from '../ui/useHandler.ts';

/** How long typing pauses before the table is searched: one read per pause, not per key. */
const SEARCH_PAUSE_MS = 200;

/**
 * The process table's search box. What is typed is searched once typing pauses; clearing (the
 * button, or Escape while it holds text) searches at once. Escape on an empty box is left to
 * the rest of the page. Memoized, with a stable `onSearch`: a wake does not render it.
 */
export const TableSearch = memo(function TableSearch({
  onSearch,
}: {
  onSearch: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const sent = useRef('');
  const send = useHandler(onSearch);
  useEffect(() => {
    if (text === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = text;
      send(text);
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, send]);
  const clear = () => {
    setText('');
    sent.current = '';
    send('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Escape' || text === '') return;
    e.preventDefault();
    e.stopPropagation();
    clear();
  };
  return (
    <div className="table-search" role="search">
      <Search size={14} aria-hidden="true" className="table-search__icon" />
      <input
        ref={input}
        className="wf-input table-search__input"
        type="text"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Search id, flow, status"
        aria-label="Search processes by id, flow or status"
        spellCheck={false}
        autoComplete="off"
      />
      {text !== '' && (
        <IconButton
          size="sm"
          label="Clear the search"
          icon={<X size={14} />}
          className="table-search__clear"
          onClick={() => {
            clear();
            input.current?.focus();
          }}
        />
      )}
    </div>
  );
});
