/** What a command prints and its exit code; commands return this and main prints it. */
export interface CommandResult {
  out: string[];
  err: string[];
  code: number;
}
