/** Lines per block of a long preformatted text (LongText). */
export const LINES_PER_BLOCK = 200;

/**
 * A text cut into blocks of at most `perBlock` lines, each with the number of lines it holds;
 * the blocks put together, in order, are the text, each line break kept at the end of the block
 * whose line it ends.
 */
export function textBlocks(
  text: string,
  perBlock = LINES_PER_BLOCK,
): { text: string; lines: number }[] {
  const blocks: { text: string; lines: number }[] = [];
  let start = 0;
  while (start < text.length || blocks.length === 0) {
    let end = start;
    let lines = 0;
    // A line is counted when it has text or ends in a line break: a break that ends the text
    // starts no line of its own.
    while (lines < perBlock && end < text.length) {
      lines++;
      const next = text.indexOf('\n', end);
      end = next === -1 ? text.length : next + 1;
    }
    blocks.push({ text: text.slice(start, end), lines });
    start = end;
  }
  return blocks;
}
