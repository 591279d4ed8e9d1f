export const ROOT: string;
export const BUNDLE_DIR: string;
export const BUNDLE: string;
export const INPUTS: string;
export function isFresh(bundle?: string, inputs?: string, root?: string): boolean;
