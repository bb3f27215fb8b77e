// What a command reads and writes outside itself, passed in so the commands run the same from a
// terminal, a script and a test: the working folder, the environment, output, and the prompts
// (asked only on a terminal).
export interface Choice {
  readonly value: string;
  readonly name: string;
}

export interface Prompts {
  input(message: string, defaultValue: string): Promise<string>;
  select(message: string, choices: readonly Choice[]): Promise<string>;
  confirm(message: string, defaultValue: boolean): Promise<boolean>;
}

export interface CliIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** A person is at a terminal: stdin and stdout are TTYs and CI is not set. */
  readonly interactive: boolean;
  out(text: string): void;
  err(text: string): void;
  readonly prompts: Prompts;
}

/** The prompts of @inquirer (loaded when first asked: most runs never ask). */
const inquirerPrompts: Prompts = {
  async input(message, defaultValue) {
    const { default: input } = await import("@inquirer/input");
    return input({ message, default: defaultValue, validate: (value) => value.trim() !== "" || "a folder name, please" });
  },
  async select(message, choices) {
    const { default: select } = await import("@inquirer/select");
    return select({ message, choices: choices.map((c) => ({ value: c.value, name: c.name })) });
  },
  async confirm(message, defaultValue) {
    const { default: confirm } = await import("@inquirer/confirm");
    return confirm({ message, default: defaultValue });
  },
};

export function processIo(): CliIo {
  return {
    cwd: process.cwd(),
    env: process.env,
    interactive: process.stdin.isTTY === true && process.stdout.isTTY === true && !process.env.CI,
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    prompts: inquirerPrompts,
  };
}
