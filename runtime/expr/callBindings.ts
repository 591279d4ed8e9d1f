import { SECRET_NAME } from '../../shared/secretName.ts';
import { secretPlaceholder } from '../../shared/secretRefs.ts';

/**
 * What a call's url, headers and body may call besides a step's functions: `$secret(name)`,
 * which gives the secret's placeholder, never its value (docs/format.md#calls). The sender puts
 * the value in when it sends an attempt, so that what the engine records (the wait, and through
 * it the snapshot, the journal and the inspector) never holds a secret. Nothing else binds it:
 * a `set` or a condition that names `$secret` fails as an unknown function would.
 */
export const CALL_BINDINGS: Readonly<Record<string, unknown>> = Object.freeze({
  secret: (name: unknown): string => {
    // Validation refuses any other use; a flow that skipped it fails here rather than guess.
    if (typeof name !== 'string' || !SECRET_NAME.test(name))
      throw new Error("$secret takes one name written as text, such as $secret('shop')");
    return secretPlaceholder(name);
  },
});
