// bpmn-moddle ships no types; this is the little of it that bench/peers/bpmn.ts uses.
declare module 'bpmn-moddle' {
  export default class BpmnModdle {
    constructor(options?: Record<string, unknown>);
    fromXML(xml: string): Promise<{ warnings: { message: string }[] } & Record<string, unknown>>;
  }
}
