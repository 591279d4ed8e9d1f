// bpmn-moddle ships no types; this is the little of it that shared/bpmn/moddle.ts and bench/peers/bpmn.ts use.
declare module 'bpmn-moddle' {
  export default class BpmnModdle {
    constructor(options?: Record<string, unknown>);
    fromXML(xml: string): Promise<{ warnings: { message: string }[] } & Record<string, unknown>>;
  }
}
