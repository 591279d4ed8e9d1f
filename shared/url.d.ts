// URL parsing is the same WHATWG algorithm in a browser and in Node, a pure function of its text,
// but the language's own library (the only one the pure layers see) does not declare it: the
// DOM's and Node's types do. Only what the pure layers use (a call's URL checked as it is written).
declare const URL: { canParse(url: string, base?: string): boolean };
