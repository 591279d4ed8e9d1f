import { z } from 'zod';

// No code generation: zod's faster path compiles validators with `new Function`, which the app's
// Content-Security-Policy forbids, and merely probing for it is reported as a violation. The probe
// runs when the first object schema is made, so the setting must come before any schema module:
// every module imports zod from here (an ESLint rule holds it), and ES modules evaluate this one
// first (docs/security.md).
z.config({ jitless: true });

export { z };
