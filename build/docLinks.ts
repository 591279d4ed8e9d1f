/**
 * Citations of the project's docs (`docs/format.md#joins` in a comment, `[Joins](format.md#joins)`
 * in a doc) and the headings they must name. Plain functions of file texts, so that the test can
 * feed them a broken citation as well as the tree.
 */

/** A citation of `file#anchor`, where it was found (`path:line`). */
export interface Citation {
  at: string;
  file: string;
  anchor: string;
}

/**
 * GitHub's anchor of a heading (github-slugger's rule): the text as shown, in lower case, with
 * everything but letters, digits, `_`, `-` and spaces removed, and spaces made hyphens.
 */
export function slugOf(heading: string): string {
  const shown = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return shown.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a Markdown text's headings make, outside code blocks; repeats get `-1`, `-2`… */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/**
 * The doc citations in one file of the tree (`path`, from the repository's root): every
 * `docs/NAME.md#anchor`, and in a Markdown file its links to `NAME.md#anchor` beside it or to
 * `#anchor` in itself.
 */
export function citationsIn(path: string, text: string): Citation[] {
  const found: Citation[] = [];
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  text.split('\n').forEach((line, i) => {
    const at = `${path}:${i + 1}`;
    for (const m of line.matchAll(/(?<![\w/.-])docs\/([\w-]+\.md)#([\w-]+)/g))
      found.push({ at, file: `docs/${m[1]}`, anchor: m[2]! });
    if (!path.endsWith('.md')) return;
    for (const m of line.matchAll(/\]\(([\w-]+\.md)?#([\w-]+)\)/g))
      found.push({ at, file: m[1] ? `${dir}${m[1]}` : path, anchor: m[2]! });
  });
  return found;
}

/** Each citation whose file or heading does not exist, as `path:line: file#anchor: why`. */
export function brokenCitations(
  citations: readonly Citation[],
  read: (file: string) => string | undefined,
): string[] {
  const anchors = new Map<string, Set<string> | undefined>();
  const broken: string[] = [];
  for (const c of citations) {
    if (!anchors.has(c.file)) {
      const text = read(c.file);
      anchors.set(c.file, text === undefined ? undefined : anchorsOf(text));
    }
    const known = anchors.get(c.file);
    if (!known) broken.push(`${c.at}: ${c.file}#${c.anchor}: no such file`);
    else if (!known.has(c.anchor))
      broken.push(`${c.at}: ${c.file}#${c.anchor}: no heading makes this anchor`);
  }
  return broken;
}
