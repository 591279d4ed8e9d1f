import { durationProblem } from '../duration.ts';
import type { HumanField, Trigger } from '../schema.ts';
import { extensions, localName, many, one, text, type El } from './moddle.ts';

export type TriggerResult = { trigger: Trigger; problems: string[] } | { problem: string };

const safe = (id: string) => id.replace(/\//g, '_');

/**
 * The trigger that a user task, receive task, or catch or boundary event waits for: a person's
 * input, an event named by its message, or a timer's ISO-8601 duration. A trigger that has no
 * meaning in flow/1 says why; one that is there but incomplete (a timer with no duration) comes
 * with its problems, to be noted on its node.
 */
export function triggerOf(el: El, _expressionLanguage?: string): TriggerResult {
  const ext = extensions(el, 'wakeflow:Trigger')[0];
  const id = safe(text(ext, 'triggerId') ?? el.id ?? 'trigger');
  const into = text(ext, 'into');
  const withInto = into !== undefined ? { into } : {};
  const call = extensions(el, 'wakeflow:Call')[0];
  if (call) return callTrigger(call, id, withInto);
  if (el.$type === 'bpmn:UserTask' || ext?.human === true) {
    const prompt = text(ext, 'prompt') ?? (text(el, 'name') || id);
    const fields = ext ? extFields(ext) : formFields(el);
    return { trigger: { id, human: { prompt, fields }, ...withInto }, problems: [] };
  }
  if (el.$type === 'bpmn:ReceiveTask') return messageTrigger(el, el, id, withInto);
  const definitions = many(el, 'eventDefinitions');
  if (definitions.length === 0) return { problem: 'it waits for no event (no event definition)' };
  if (definitions.length > 1) {
    return { problem: 'it waits for several events at once; use an event-based gateway instead' };
  }
  const d = definitions[0]!;
  if (d.$type === 'bpmn:MessageEventDefinition') return messageTrigger(el, d, id, withInto);
  if (d.$type === 'bpmn:TimerEventDefinition') return timerTrigger(d, id);
  const kind = localName(d.$type)
    .replace(/EventDefinition$/, '')
    .toLowerCase();
  return { problem: `${kind} events have no meaning in flow/1` };
}

/**
 * A call trigger from its `wakeflow:Call` extension (JSON, as the export writes it); the shape is
 * checked when the flow is, and a text that is not a JSON object is a problem of the node.
 */
function callTrigger(ext: El, id: string, into: { into?: string }): TriggerResult {
  let call: unknown;
  try {
    call = JSON.parse(text(ext, 'json') ?? '');
  } catch {
    call = undefined;
  }
  if (call === null || typeof call !== 'object' || Array.isArray(call))
    return { problem: 'its wakeflow:Call is not a call written as a JSON object' };
  return { trigger: { id, call: call as NonNullable<Trigger['call']>, ...into }, problems: [] };
}

function messageTrigger(el: El, holder: El, id: string, into: { into?: string }): TriggerResult {
  const message = one(holder, 'messageRef');
  // A message without a name (common: modellers leave it out) is known by what waits for it.
  const event = text(message, 'name') || (message && text(el, 'name')) || text(message, 'id');
  if (event) return { trigger: { id, event, ...into }, problems: [] };
  const fallback = text(el, 'name') || el.id || id;
  return {
    trigger: { id, event: fallback, ...into },
    problems: [`names no message; it waits for an event named "${fallback}" until one is chosen`],
  };
}

function timerTrigger(d: El, id: string): TriggerResult {
  const body = (key: string) => {
    const e = one(d, key);
    return e ? (text(e, 'body') ?? '').trim() : undefined;
  };
  const duration = body('timeDuration');
  const date = body('timeDate');
  const cycle = body('timeCycle');
  const problems: string[] = [];
  if (duration) {
    const p = durationProblem(duration);
    if (p) problems.push(`timer duration ${p}; it may be an expression of another language`);
    return { trigger: { id, timer: duration }, problems };
  }
  if (date)
    problems.push(
      `timer waits until a date (timeDate "${date}"); flow/1 timers wait for a duration: give it one`,
    );
  else if (cycle)
    problems.push(
      `a repeating timer (timeCycle "${cycle}") has no meaning in flow/1; give it a duration and draw the loop`,
    );
  else problems.push('timer has no duration; give it one, such as PT1H');
  return { trigger: { id, timer: '' }, problems };
}

const FIELD_TYPES: Record<string, HumanField['type']> = {
  boolean: 'boolean',
  number: 'number',
  string: 'string',
  long: 'number',
  integer: 'number',
  double: 'number',
};

function extFields(ext: El): HumanField[] {
  return many(ext, 'fields').flatMap((f) => {
    const name = text(f, 'name');
    if (!name) return [];
    const label = text(f, 'label');
    return [
      { name, type: FIELD_TYPES[text(f, 'type') ?? ''] ?? 'string', ...(label ? { label } : {}) },
    ];
  });
}

/** Camunda's `<camunda:formField id type label>`, read without Camunda's extension package. */
function formFields(el: El): HumanField[] {
  const out: HumanField[] = [];
  const visit = (node: El, depth: number) => {
    if (depth > 4) return;
    if (/formField$/i.test(node.$type)) {
      const attrs = { ...(node.$attrs as Record<string, string> | undefined), ...node } as Record<
        string,
        unknown
      >;
      const name = typeof attrs.id === 'string' ? attrs.id : undefined;
      if (name && !out.some((f) => f.name === name)) {
        const label = typeof attrs.label === 'string' ? attrs.label : undefined;
        out.push({
          name,
          type: FIELD_TYPES[String(attrs.type)] ?? 'string',
          ...(label ? { label } : {}),
        });
      }
    }
    for (const child of many(node, '$children')) visit(child, depth + 1);
  };
  for (const v of many(one(el, 'extensionElements'), 'values')) visit(v, 0);
  return out;
}
