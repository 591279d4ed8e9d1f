import { memo, useMemo, type CSSProperties, type HTMLAttributes } from 'react';
import { textBlocks } from './textBlocks.ts';

/**
 * A preformatted text drawn in blocks of lines (textBlocks) that the browser lays out only near
 * the view (`content-visibility: auto`, inspector.css), each sized beforehand at its number of
 * lines: the live context of a split into 10,000 branches is 10,000 lines, and laying them all
 * out took tens of milliseconds at every reading. Its text, to read, copy or find, is the
 * whole text; a block not yet laid out is as tall as its lines unless some of them wrap.
 */
export const LongText = memo(function LongText({
  text,
  ...props
}: { text: string } & HTMLAttributes<HTMLPreElement>) {
  const blocks = useMemo(() => textBlocks(text), [text]);
  if (blocks.length <= 1) return <pre {...props}>{text}</pre>;
  return (
    <pre {...props}>
      {blocks.map((b, i) => (
        <span key={i} className="long-text__block" style={{ '--lines': b.lines } as CSSProperties}>
          {b.text}
        </span>
      ))}
    </pre>
  );
});
