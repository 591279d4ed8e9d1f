// structuredClone is the same deep copy in a browser and in Node (17 on), but the language's own
// library (the only one the pure layers see) does not declare it: the DOM's and Node's types do.
declare function structuredClone<T>(value: T): T;
