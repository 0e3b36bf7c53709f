// A real referee for the tests: `referee serve --port 0` (any free port), in memory, stacked
// decks and chosen seeds allowed, the rate quotas lifted (the bots are far faster than people),
// with an operator's create token when asked (the director's tests); or on a SQLite file and a
// given port, to be killed and started again in its place (a watch resuming).
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
  /** kill -9: no goodbye to its clients. */
  kill(): Promise<void>;
}

export interface ServeOptions {
  /** The operator's token (`--create-token`): CreateTable asks for it, and it makes a caller the
   *  director. None by default: anyone creates tables, and nobody rules. */
  createToken?: string;
  /** Its tables in this SQLite file (`--db`), not in memory. */
  db?: string;
  /** This port, not any free one. */
  port?: number;
}

export async function serve(options: ServeOptions = {}): Promise<Served> {
  const operator = options.createToken === undefined ? [] : ["--create-token", options.createToken];
  const store = options.db === undefined ? ["--memory"] : ["--db", options.db];
  const child = spawn(REFEREE, ["serve", "--host", "127.0.0.1", "--port", String(options.port ?? 0), ...store,
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
  return { target, stop: () => stop(child), kill: () => stop(child, "SIGKILL") };
}

function stop(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) { resolve(); return; }
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}
