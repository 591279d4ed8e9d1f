/**
 * Whether a file's text is XML rather than JSON: how Import tells BPMN from flow/1. On its own,
 * so that the page can ask without loading BPMN's parser.
 */
export const looksLikeXml = (text: string) => /^\uFEFF?\s*</.test(text);
