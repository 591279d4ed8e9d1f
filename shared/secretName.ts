/**
 * What a secret's name may be: letters, digits, `_`, `.` and `-` (docs/format.md#calls). A module
 * of its own, so that the page's settings check a name without loading the expression parsers
 * (secretRefs.ts reads expressions).
 */
export const SECRET_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
