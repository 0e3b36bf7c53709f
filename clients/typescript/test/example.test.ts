// The README's example is examples/whole_hand.ts word for word (but its import); test/referee.test.ts
// plays it against a real referee: so the README cannot rot.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const PACKAGE = fileURLToPath(new URL("../../", import.meta.url)); // dist/test/ -> clients/typescript/
const SOURCE = "examples/whole_hand.ts";

test("the README shows examples/whole_hand.ts, as a user imports it", () => {
  const readme = readFileSync(`${PACKAGE}README.md`, "utf8");
  const shown = new RegExp(`<!-- ${SOURCE} -->\\n\`\`\`ts\\n([^]*?)\`\`\`\\n`).exec(readme)?.[1];
  const source = readFileSync(`${PACKAGE}${SOURCE}`, "utf8").replace('"../src/index.js"', '"@referee/client"');
  assert.equal(shown, source);
});
