import { SECRET_NAME } from '../../../../shared/secretName.ts';
import { completeExpression, inString, type ExpressionCompletion } from './completeExpression.ts';

export interface CallCompletionOption {
  label: string;
  type: 'function' | 'variable' | 'secret';
  detail?: string;
  /** Set on `$secret`: the option writes `$secret('')` and asks for a name inside the quotes. */
  secretCall?: true;
}

export interface CallCompletion {
  from: number;
  options: CallCompletionOption[];
}

/** `$secret(` and an opened quote before the cursor, and the part of a name typed after it. */
const SECRET_NAME_BEFORE = /\$secret\(\s*(['"])([A-Za-z0-9_.-]*)$/;
const DOLLAR_WORD_BEFORE = /\$\w*$/;

/**
 * What a call's URL, header value or body editor offers at `pos` (docs/format.md#calls: only these
 * may read secrets): inside `$secret('…')`, the names of the workspace's secrets (names only, the
 * page never holds a value); after a `$`, `$secret` first, then JSONata's functions; elsewhere
 * what every expression editor offers (completeExpression.ts: the flow's context paths). Names
 * the format would refuse are never offered, whatever the settings hold.
 */
export function completeCallExpression(
  text: string,
  pos: number,
  paths: readonly string[],
  secrets: readonly string[],
  explicit = false,
): CallCompletion | null {
  const before = text.slice(0, pos);
  const inName = SECRET_NAME_BEFORE.exec(before);
  // The quote must open a string, not close one (`'see $secret('` is a string and then code).
  if (inName && !inString(text, pos - inName[2]!.length - 1)) {
    const typed = inName[2]!;
    const options = secrets
      .filter((name) => SECRET_NAME.test(name) && name.startsWith(typed) && name !== typed)
      .map((name) => ({ label: name, type: 'secret' as const, detail: 'secret' }));
    return options.length > 0 ? { from: pos - typed.length, options } : null;
  }
  const found: ExpressionCompletion | null = completeExpression(text, pos, paths, explicit);
  const dollar = DOLLAR_WORD_BEFORE.exec(before)?.[0];
  const offerSecret =
    dollar !== undefined && '$secret'.startsWith(dollar) && dollar !== '$secret'
      ? [
          {
            label: '$secret',
            type: 'function' as const,
            detail: "('name') a secret of the workspace",
            secretCall: true as const,
          },
        ]
      : [];
  if (offerSecret.length === 0) return found;
  return { from: pos - dollar!.length, options: [...offerSecret, ...(found?.options ?? [])] };
}
