/** The little of bpmn-moddle (no types of its own) that workflow/bpmn.ts uses. */
declare module 'bpmn-moddle' {
  export interface ModdleElement {
    $type: string;
    id?: string;
    name?: string;
    [key: string]: unknown;
  }
  export interface ModdleContext {
    rootElement: ModdleElement;
    elementsById: Record<string, ModdleElement>;
    warnings: { message: string }[];
    references: unknown[];
  }
  export default class BpmnModdle {
    constructor(packages?: Record<string, unknown>);
    fromXML(xml: string): Promise<ModdleContext>;
  }
  export type Definitions = ModdleElement;
}
