import { callProblems, type CallField } from '../../../shared/callProblems.ts';
import { CALL_DEFAULTS } from '../../../shared/callRules.ts';
import { CALL_FAILURES, type Call, type CallRetry, type Trigger } from '../../../shared/schema.ts';
import { freshId } from '../../designer/newIds.ts';
import { replaceAt } from './listEdits.ts';
import { removeAssignment, renamePath, setExpression } from './setEdits.ts';

/**
 * Edits of a call trigger's headers, body and retry (docs/format.md#calls), each returning the
 * node's new triggers; method, URL and timeout are triggerEdits.ts's `setCall`. Headers are an
 * object from name to expression whose key order is the order the form lists them in, so their
 * edits reuse the `set` edits (setEdits.ts), which keep the order of the other rows.
 */

type Headers = Readonly<Record<string, string>>;

/** Trigger `index` with its call changed; the triggers as they were when it has no call. */
function withCall(triggers: readonly Trigger[], index: number, change: (c: Call) => Call) {
  const t = triggers[index];
  if (t?.call === undefined) return [...triggers];
  return replaceAt(triggers, index, { ...t, call: change(t.call) });
}

/** The call with `headers`, or without the field when there are none left. */
function withHeaders(call: Call, headers: Headers | undefined): Call {
  const next: Call = { ...call };
  if (headers === undefined || Object.keys(headers).length === 0) delete next.headers;
  else next.headers = { ...headers };
  return next;
}

/**
 * Why `name` cannot be header `index`'s new name: empty, or another header has it. Names ignore
 * case in HTTP, so `accept` is taken by `Accept`. A name that is not a token is not refused here:
 * it is kept and shown with its problem, as the problems list shows it (`headerProblem`).
 */
export function headerNameRefusal(
  headers: Headers,
  index: number,
  name: string,
): string | undefined {
  if (name === '') return 'a header needs a name';
  const lower = name.toLowerCase();
  const other = Object.keys(headers).findIndex((h, i) => i !== index && h.toLowerCase() === lower);
  return other === -1 ? undefined : `header ${other + 1} is already called "${name}"`;
}

/** Adds a header at the end, with a name no header has (`X-Header-1`, …) and an empty value. */
export function addHeader(triggers: readonly Trigger[], index: number): Trigger[] {
  return withCall(triggers, index, (call) => {
    const headers = call.headers ?? {};
    const taken = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
    const name = freshId('x-header-', taken).replace(/^x-header/, 'X-Header');
    return withHeaders(call, { ...headers, [name]: "''" });
  });
}

/** Renames header `row` in place; refused (triggers unchanged) as `headerNameRefusal` says. */
export function renameHeader(
  triggers: readonly Trigger[],
  index: number,
  row: number,
  name: string,
): Trigger[] {
  return withCall(triggers, index, (call) => {
    const headers = call.headers ?? {};
    if (headerNameRefusal(headers, row, name) !== undefined) return call;
    return withHeaders(call, renamePath(headers, row, name) ?? headers);
  });
}

export function setHeaderValue(
  triggers: readonly Trigger[],
  index: number,
  row: number,
  value: string,
): Trigger[] {
  return withCall(triggers, index, (call) =>
    withHeaders(call, setExpression(call.headers ?? {}, row, value)),
  );
}

export function removeHeader(triggers: readonly Trigger[], index: number, row: number): Trigger[] {
  return withCall(triggers, index, (call) =>
    withHeaders(call, removeAssignment(call.headers ?? {}, row)),
  );
}

/** Sets the body's expression; an empty text removes the body (the request is sent without). */
export function setBody(triggers: readonly Trigger[], index: number, body: string): Trigger[] {
  return withCall(triggers, index, (call) => {
    const next: Call = { ...call };
    if (body.trim() === '') delete next.body;
    else next.body = body;
    return next;
  });
}

/** Retries on, with the defaults written out (docs/format.md#calls), or off (no `retry`). */
export function setRetryOn(triggers: readonly Trigger[], index: number, on: boolean): Trigger[] {
  return withCall(triggers, index, (call) => {
    const next: Call = { ...call };
    if (!on) delete next.retry;
    else next.retry ??= { ...CALL_DEFAULTS.retry };
    return next;
  });
}

export type RetryField = 'max' | 'interval' | 'backoff' | 'maxInterval' | 'on';

/**
 * Why a retry field's text cannot be written at all: it would make a file the format refuses
 * (docs/format.md#calls: `max` a whole number from 0, `backoff` a number from 1, `on` statuses
 * 100–599, "network" and "timeout"). An empty text is allowed: it removes the field, and the
 * default applies. Bounds the format allows but validation flags (`max` over 100) are not
 * refusals; they are written and shown as `callProblems` shows them.
 */
export function retryRefusal(field: RetryField, text: string): string | undefined {
  const t = text.trim();
  if (t === '' || field === 'interval' || field === 'maxInterval') return undefined;
  if (field === 'on') {
    const bad = splitList(t).find((item) => parseFailure(item) === undefined);
    return bad === undefined
      ? undefined
      : `"${bad}" is not a status from 100 to 599, "network" or "timeout"`;
  }
  const n = Number(t);
  if (!Number.isFinite(n)) return `"${t}" is not a number`;
  if (field === 'max' && (!Number.isInteger(n) || n < 0))
    return 'max must be a whole number, 0 or more';
  if (field === 'backoff' && n < 1) return 'backoff must be 1 or more';
  return undefined;
}

const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function parseFailure(item: string): number | 'network' | 'timeout' | undefined {
  if ((CALL_FAILURES as readonly string[]).includes(item)) return item as 'network' | 'timeout';
  if (!/^\d{3}$/.test(item)) return undefined;
  const n = Number(item);
  return n >= 100 && n <= 599 ? n : undefined;
}

/** A retry field as the form shows it: `on` as "429, 503, timeout". */
export function retryText(retry: CallRetry | undefined, field: RetryField): string {
  const v = retry?.[field];
  if (v === undefined) return '';
  return Array.isArray(v) ? v.join(', ') : String(v);
}

/**
 * Sets a retry field from its text; an empty text removes it (its default applies). A text that
 * `retryRefusal` refuses changes nothing.
 */
export function setRetryField(
  triggers: readonly Trigger[],
  index: number,
  field: RetryField,
  text: string,
): Trigger[] {
  if (retryRefusal(field, text) !== undefined) return [...triggers];
  return withCall(triggers, index, (call) => {
    const retry: Record<string, unknown> = { ...call.retry };
    const t = text.trim();
    if (t === '') delete retry[field];
    else if (field === 'max' || field === 'backoff') retry[field] = Number(t);
    else if (field === 'on') retry[field] = splitList(t).map(parseFailure);
    else retry[field] = t;
    return { ...call, retry: retry as CallRetry };
  });
}

/** The messages of the call's problems in one field, as the form shows them under it. */
export function callFieldProblem(call: Call, field: CallField): string | undefined {
  const found = callProblems(call).filter((p) => p.field === field);
  return found.length === 0 ? undefined : found.map((p) => p.message).join('; ');
}

/** The problem a retry field's draft would have once written: its refusal, else validation's. */
export function retryDraftProblem(call: Call, field: RetryField, text: string): string | undefined {
  const refused = retryRefusal(field, text);
  if (refused !== undefined) return refused;
  const [t] = setRetryField([{ id: 'draft', call }], 0, field, text);
  return callFieldProblem(t!.call!, `retry.${field}`);
}

/** The problem header `row`'s name draft would have once written (not a token, set by the runtime). */
export function headerNameDraftProblem(call: Call, row: number, name: string): string | undefined {
  const refused = headerNameRefusal(call.headers ?? {}, row, name);
  if (refused !== undefined) return refused;
  const [t] = renameHeader([{ id: 'draft', call }], 0, row, name);
  return callFieldProblem(t!.call!, `header:${name}`);
}
