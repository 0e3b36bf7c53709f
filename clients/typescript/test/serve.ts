// A real referee for the tests: `referee serve --port 0` (any free port), in memory, stacked
// decks and chosen seeds allowed, the rate quotas lifted (the bots are far faster than people),
// with an operator's create token when asked (the director's tests).
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

// dist/test/serve.js -> the repository's root
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const REFEREE = process.env.REFEREE ?? `${ROOT}.venv/bin/referee`;

/** The address in the referee's first stdout line, `{"address": "HOST:PORT", "event": "listening", ...}`. */
function listeningAddress(line: string): string | undefined {
  if (!line.startsWith("{")) return undefined;
  const said = JSON.parse(line) as { event?: string; address?: string };
  return said.event === "listening" ? said.address : undefined;
}

export interface Served {
  target: string;
  stop(): Promise<void>;
}

export interface ServeOptions {
  /** The operator's token (`--create-token`): CreateTable asks for it, and it makes a caller the
   *  director. None by default: anyone creates tables, and nobody rules. */
  createToken?: string;
}

export async function serve(options: ServeOptions = {}): Promise<Served> {
  const operator = options.createToken === undefined ? [] : ["--create-token", options.createToken];
  const child = spawn(REFEREE, ["serve", "--host", "127.0.0.1", "--port", "0", "--memory",
    "--allow-stacked", "--peer-rate", "100000", "--token-rate", "100000", "--create-rate", "10000",
    "--log-level", "warning", ...operator], { stdio: ["ignore", "pipe", "inherit"] });
  const target = await new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${REFEREE} exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const address = listeningAddress(line);
      if (address !== undefined) resolve(address);
    });
  });
  return { target, stop: () => stop(child) };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) { resolve(); return; }
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
