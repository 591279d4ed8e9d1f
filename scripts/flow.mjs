// `npm run -s flow -- …`: the compiled command line when it is as new as its sources (built by
// `npm install`, scripts/buildCli.mjs), else the TypeScript sources through tsx, as before.
import { pathToFileURL } from 'node:url';
import { BUNDLE, ROOT, isFresh } from './cliBundle.mjs';

if (isFresh()) {
  await import(pathToFileURL(BUNDLE).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(`${ROOT}runtime/cli/main.ts`).href);
}
