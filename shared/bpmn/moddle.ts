import BpmnModdle from 'bpmn-moddle';

/**
 * bpmn-moddle, with the `wakeflow:` extension that keeps in a BPMN file what BPMN has no place
 * for: a work node's `set`, a node's `depends`, a trigger's id, `into` and form, an edge's
 * trigger, ids that BPMN's document-wide ids would clash on, and unknown fields (as JSON). With
 * them an exported flow imports back to the same signature; without them (a file from another
 * modeller) the import maps BPMN's own elements.
 */
export const WAKEFLOW_NS = 'https://wakeflow.dev/bpmn/1';

const wakeflowPackage = {
  name: 'wakeflow',
  prefix: 'wakeflow',
  uri: WAKEFLOW_NS,
  xml: { tagAlias: 'lowerCase' },
  associations: [],
  types: [
    {
      name: 'Marks',
      isAbstract: true,
      extends: ['bpmn:BaseElement'],
      properties: [
        // The flow/1 id where the BPMN id had to differ (ids are per flow in flow/1, per file in BPMN).
        { name: 'localId', isAttr: true, type: 'String' },
        // fanout or join, for a gateway whose shape does not say which.
        { name: 'kind', isAttr: true, type: 'String' },
        // On a sequence flow: the trigger of its continue-after source that the edge is for.
        { name: 'trigger', isAttr: true, type: 'String' },
      ],
    },
    {
      name: 'Set',
      superClass: ['Element'],
      properties: [
        { name: 'path', isAttr: true, type: 'String' },
        { name: 'expression', isBody: true, type: 'String' },
      ],
    },
    {
      name: 'Depends',
      superClass: ['Element'],
      properties: [{ name: 'node', isAttr: true, type: 'String' }],
    },
    {
      name: 'Trigger',
      superClass: ['Element'],
      properties: [
        // Not `id`: moddle keeps that name for BPMN's own ids.
        { name: 'triggerId', isAttr: true, type: 'String' },
        { name: 'into', isAttr: true, type: 'String' },
        { name: 'human', isAttr: true, type: 'Boolean' },
        { name: 'prompt', isAttr: true, type: 'String' },
        { name: 'fields', isMany: true, type: 'Field' },
      ],
    },
    {
      name: 'Field',
      superClass: ['Element'],
      properties: [
        { name: 'name', isAttr: true, type: 'String' },
        { name: 'type', isAttr: true, type: 'String' },
        { name: 'label', isAttr: true, type: 'String' },
      ],
    },
    {
      // A call trigger's request (docs/format.md#calls) as JSON, on the service task (or, beside
      // other triggers, the receive task) that stands for it: BPMN has no place for its fields.
      name: 'Call',
      superClass: ['Element'],
      properties: [{ name: 'json', isBody: true, type: 'String' }],
    },
    {
      // Unknown fields of a flow, node or edge, as JSON: kept on export, as flow/1 keeps them.
      name: 'Fields',
      superClass: ['Element'],
      properties: [{ name: 'json', isBody: true, type: 'String' }],
    },
  ],
};

/** A moddle element as this code reads it: its type and whatever properties it has. */
export interface El {
  $type: string;
  $parent?: El;
  id?: string;
  name?: string;
  [property: string]: unknown;
}

export interface Moddle {
  fromXML(xml: string, type: string): Promise<{ rootElement: El; warnings: { message: string }[] }>;
  toXML(element: El, options: { format: boolean }): Promise<{ xml: string }>;
  create(type: string, properties?: Record<string, unknown>): El;
}

export function createModdle(): Moddle {
  // bpmn-moddle ships no types (bpmn-moddle.d.ts declares the little it uses); this is the rest.
  return new BpmnModdle({ wakeflow: wakeflowPackage }) as unknown as Moddle;
}

/** The elements of a property that holds many (`flowElements`), or none. */
export const many = (el: El | undefined, property: string): El[] => {
  const value = el?.[property];
  return Array.isArray(value) ? (value as El[]) : [];
};

/** A property that holds one element, if it does. */
export const one = (el: El | undefined, property: string): El | undefined => {
  const value = el?.[property];
  return value !== null && typeof value === 'object' && '$type' in value
    ? (value as El)
    : undefined;
};

/** A string property, if it is one. */
export const text = (el: El | undefined, property: string): string | undefined => {
  const value = el?.[property];
  return typeof value === 'string' ? value : undefined;
};

/** The wakeflow extension elements of an element, of one type. */
export const extensions = (el: El | undefined, type: string): El[] =>
  many(one(el, 'extensionElements'), 'values').filter((v) => v.$type === type);

/** `bpmn:UserTask` → `UserTask`. */
export const localName = (type: string) => type.slice(type.indexOf(':') + 1);
