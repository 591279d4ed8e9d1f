import type * as restate from '@restatedev/restate-sdk';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

/** A level name as RESTATE_LOGGING spells it (any case), or `fallback` when it is none. */
function levelOf(name: string | undefined, fallback: Level): Level {
  const level = name?.toLowerCase() as Level | undefined;
  return level !== undefined && LEVELS.includes(level) ? level : fallback;
}

/**
 * The endpoint's log lines, to `write` (the console), from `level` up, as the SDK's own console
 * transport writes them (`[restate][time][target][invocation] LEVEL: message`), none while an
 * invocation replays. The SDK's transport reads RESTATE_LOGGING once, as its module loads, so
 * `flow serve`'s default (WARN, set as it starts) never reached it: every invocation logged two
 * lines at INFO, a cost per invocation the endpoint had no use for. This one is given its level
 * when the endpoint is made.
 */
export function endpointLogger(
  level: string | undefined,
  write: (level: Level, line: string, rest: unknown[]) => void = (l, line, rest) =>
    console[l === 'trace' ? 'debug' : l](line, ...rest),
): restate.LoggerTransport {
  const from = LEVELS.indexOf(levelOf(level, 'info'));
  return (meta, message?: unknown, ...rest: unknown[]) => {
    const at = LEVELS.indexOf(meta.level as Level);
    if (meta.replaying || at < from) return;
    const context = meta.context;
    const where = context ? `[${context.invocationTarget}][${context.invocationId}]` : '';
    write(
      meta.level as Level,
      `[restate][${new Date().toISOString()}]${where} ${meta.level.toUpperCase()}: ${String(message)}`,
      rest,
    );
  };
}
