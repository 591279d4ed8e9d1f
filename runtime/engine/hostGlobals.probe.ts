// Compiled with the pure layers (tsconfig.pure.json), never imported: each line names something a
// browser or Node gives that shared/, the engine and its expressions must not see. An expected
// error that does not come is an error itself, so `tsc -b` fails the day one of these compiles,
// whether an option or a package's declarations brought the DOM's or Node's types in.
/* eslint-disable no-restricted-globals -- the probe names them to prove they are not there */
export const hostGlobals = [
  // @ts-expect-error the page: no DOM in the pure layers
  typeof window,
  // @ts-expect-error the page's document
  typeof document,
  // @ts-expect-error storage
  typeof localStorage,
  // @ts-expect-error storage
  typeof indexedDB,
  // @ts-expect-error the network
  typeof fetch,
  // @ts-expect-error a clock of the host's (the supervisor passes time in)
  typeof setTimeout,
  // @ts-expect-error Node's process: no environment or arguments
  typeof process,
  // @ts-expect-error Node's buffers
  typeof Buffer,
  // @ts-expect-error Node's modules
  typeof require,
];
