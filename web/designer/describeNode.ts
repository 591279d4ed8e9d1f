import { CALL_DEFAULTS } from '../../shared/callRules.ts';
import { describeDuration, parseDuration } from '../../shared/duration.ts';
import type { Call, FlowNode, Trigger } from '../../shared/schema.ts';
import { KIND_NAMES } from './kinds.ts';

/** `n problem` or `n problems`. */
export function countProblems(n: number): string {
  return `${n} problem${n === 1 ? '' : 's'}`;
}

/** The label a designer gave a node, or undefined when it has none (an empty label is none). */
export function nodeLabel(node: FlowNode): string | undefined {
  return node.label !== undefined && node.label.trim() !== '' ? node.label : undefined;
}

/**
 * The call of a continue-after whose one trigger is a call, which the canvas draws as a Call;
 * undefined for every other node (a call raced by a deadline is a wait).
 */
export function loneCall(node: FlowNode): Call | undefined {
  return node.kind === 'continue-after' && node.on.length === 1 ? node.on[0]!.call : undefined;
}

/**
 * A node's accessible name: its kind, id, label and how many problems it has, e.g.
 * "work node read: Re-read prices, 2 problems".
 */
export function nodeAriaLabel(
  node: FlowNode,
  problems: readonly string[],
  warnings: readonly string[] = [],
): string {
  const label = nodeLabel(node);
  // Said as the Call it is drawn as (web/designer/callNode.ts), with its method and host.
  const call = loneCall(node);
  const kind = call ? 'call' : KIND_NAMES[node.kind].toLowerCase();
  let named = `${kind} node ${node.id}${label !== undefined ? `: ${label}` : ''}`;
  if (call) named += ` (${call.method ?? CALL_DEFAULTS.method} ${callHost(call.url)})`;
  if (problems.length > 0) named += `, ${countProblems(problems.length)}`;
  if (warnings.length > 0) named += `, ${countWarnings(warnings.length)}`;
  return named;
}

/** `n warning` or `n warnings`. */
export function countWarnings(n: number): string {
  return `${n} warning${n === 1 ? '' : 's'}`;
}

export interface Assignment {
  path: string;
  expression: string;
}

/** The first `max` assignments of a work node's `set`, in the order written, and how many more. */
export function summarizeAssignments(
  set: Readonly<Record<string, string>> | undefined,
  max = 3,
): { shown: Assignment[]; more: number } {
  const all = Object.entries(set ?? {});
  const shown = all.slice(0, Math.max(0, max)).map(([path, expression]) => ({ path, expression }));
  return { shown, more: all.length - shown.length };
}

export type TriggerKind = 'timer' | 'event' | 'human' | 'call';

/** Decorative icons per trigger kind; the text beside them says the same in words. */
export const TRIGGER_ICONS: Readonly<Record<TriggerKind, string>> = {
  timer: '⏱',
  event: '✉',
  human: '👤',
  call: '⇄',
};

export function triggerKind(trigger: Trigger): TriggerKind {
  if (trigger.timer !== undefined) return 'timer';
  if (trigger.event !== undefined) return 'event';
  if (trigger.call !== undefined) return 'call';
  return 'human';
}

export interface TriggerDescription {
  kind: TriggerKind;
  icon: string;
  /** What the row says beside the icon: "24 hours", "prices.changed", "Approve the order?". */
  text: string;
  /** Where an event's payload or a human's input is written, when set. */
  into: string | undefined;
  /** The whole trigger in words, for titles and screen readers. */
  words: string;
}

/** A trigger of a continue-after node as its row on the canvas says it. */
export function describeTrigger(trigger: Trigger): TriggerDescription {
  const kind = triggerKind(trigger);
  const into = trigger.into !== undefined && trigger.into !== '' ? trigger.into : undefined;
  let text: string;
  let words: string;
  if (kind === 'timer') {
    const timer = trigger.timer ?? '';
    const duration = parseDuration(timer);
    text = duration !== undefined ? describeDuration(duration) : `"${timer}" (not a duration)`;
    words = `timer ${trigger.id}: after ${text}`;
  } else if (kind === 'event') {
    text = trigger.event ?? '';
    words = `event ${trigger.id}: on ${text}`;
  } else if (kind === 'call') {
    text = `${trigger.call?.method ?? CALL_DEFAULTS.method} ${callHost(trigger.call?.url ?? '')}`;
    words = `call ${trigger.id}: ${text}`;
  } else {
    const prompt = trigger.human?.prompt?.trim();
    const fields = trigger.human?.fields.length ?? 0;
    text =
      prompt !== undefined && prompt !== ''
        ? prompt
        : `asks for ${fields} field${fields === 1 ? '' : 's'}`;
    words = `human ${trigger.id}: ${text}`;
  }
  if (into !== undefined) words += `, into ${into}`;
  return { kind, icon: TRIGGER_ICONS[kind], text, into, words };
}

/**
 * The host a call's url expression names, for the node's row: the host of the text it starts
 * with (`'https://shop.example/api/' & order.id` is shop.example), "a computed URL" when the
 * expression does not write it out, "no URL yet" when there is none.
 */
export function callHost(url: string): string {
  if (url.trim() === '') return 'no URL yet';
  const m = /^\s*["']https?:\/\/([^/"'?#\s]+)/i.exec(url);
  return m ? m[1]! : 'a computed URL';
}

/** "a, b and c", for a join's `depends`. */
export function listIds(ids: readonly string[]): string {
  if (ids.length <= 1) return ids.join('');
  return `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;
}
