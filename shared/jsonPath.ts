import { quote } from './quote.ts';

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** Formats a path into a JSON document the way a designer reads it: `nodes[3].set["a b"]`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && key.length <= 40 && PLAIN_KEY.test(key)) {
      out += out ? `.${key}` : key;
    } else out += `[${quote(String(key), 40)}]`;
  }
  return out || '(top level)';
}
