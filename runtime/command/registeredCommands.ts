import type { CommandResult } from './commandResult.ts';

/** A command that reads its own arguments (everything after its name on the line). */
export type ArgsCommand = (args: string[]) => Promise<CommandResult>;

/**
 * Commands that another part of the runtime adds to the `flow` command line (the Restate ones,
 * runtime/restate/cliNames.ts), so that the command line does not import that part: each name
 * loads its code only when it is run, and `usage` is what `flow --help` adds for them.
 */
export interface RegisteredCommands {
  commands: Readonly<Record<string, () => Promise<ArgsCommand>>>;
  usage: readonly string[];
  /**
   * Options that may come before the command's name (`flow --ingress URL status`), each taking
   * a value: they are moved after the name, where the command reads them.
   */
  leadingOptions: readonly string[];
}

export const NO_COMMANDS: RegisteredCommands = { commands: {}, usage: [], leadingOptions: [] };
