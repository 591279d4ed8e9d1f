import { RE2JS } from 're2js';

/**
 * The regular expressions of JSONata expressions, matched in time linear in the input (RE2's
 * automata, through re2js) instead of by the backtracking of the platform's RegExp. A pattern
 * such as `/^(a+)+$/` on 30 characters runs for minutes under backtracking, inside one
 * synchronous call that no timeout can interrupt; here it answers at once. The price is RE2's
 * syntax: no backreferences and no lookarounds, refused when the expression is checked.
 *
 * jsonata calls `new RegexEngine(regexp)` with the literal it parsed (flags `i`, `m`, and the
 * `g` it always adds), then sets `lastIndex` and calls `exec` as on a global RegExp; this class
 * answers that protocol and nothing more.
 */
export class LinearRegExp {
  lastIndex = 0;
  private readonly compiled: RE2JS;

  constructor(literal: RegExp | string) {
    const source = typeof literal === 'string' ? literal : literal.source;
    const flags = typeof literal === 'string' ? '' : literal.flags;
    this.compiled = compileLinear(source, flags);
  }

  exec(input: string): RegExpExecArray | null {
    if (this.lastIndex > input.length) {
      this.lastIndex = 0;
      return null;
    }
    const matcher = this.compiled.matcher(input);
    if (!matcher.find(this.lastIndex)) {
      this.lastIndex = 0;
      return null;
    }
    const groups: (string | undefined)[] = [];
    for (let g = 0; g <= matcher.groupCount(); g++) groups.push(matcher.group(g) ?? undefined);
    // As a global RegExp does: the next search starts where this match ended.
    this.lastIndex = matcher.end();
    return Object.assign(groups, { index: matcher.start(), input }) as RegExpExecArray;
  }
}

/** An error a pattern outside RE2's syntax raises, in a designer's words. */
export class UnsupportedRegexError extends Error {
  constructor(source: string, reason: string) {
    super(
      `the regular expression /${source}/ cannot be used: ${reason}. Regular expressions are ` +
        'matched in linear time, so backreferences (\\1) and lookarounds ((?=…), (?!…), (?<=…)) ' +
        'are not available',
    );
    this.name = 'UnsupportedRegexError';
  }
}

function compileLinear(source: string, flags: string): RE2JS {
  let re2Flags = 0;
  if (flags.includes('i')) re2Flags |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) re2Flags |= RE2JS.MULTILINE;
  try {
    return RE2JS.compile(RE2JS.translateRegExp(source), re2Flags);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new UnsupportedRegexError(source, reason);
  }
}

/** Why a regular expression literal cannot be matched here; undefined when it can. */
export function regexProblem(literal: RegExp): string | undefined {
  try {
    new LinearRegExp(literal);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
