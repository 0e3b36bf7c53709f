// The schema-to-TypeScript generator (scripts/schema-to-ts.mjs) reads the subset of JSON Schema
// the referee writes, and refuses any other keyword rather than typing it wrongly.
import assert from "node:assert/strict";
import { test } from "node:test";

const GENERATOR = "../../scripts/schema-to-ts.mjs"; // from dist/test/
const { tsType } = await import(GENERATOR) as { tsType: (schema: object) => string };

test("the subset the referee writes", () => {
  assert.equal(tsType({ type: "string", "x-codes": ["AS", "KH"], pattern: "^..$" }), '"AS" | "KH"');
  assert.equal(tsType({ type: ["integer", "null"], minimum: 0 }), "number | null");
  assert.equal(tsType({ anyOf: [{ $ref: "#/$defs/seat_or_none" }, { const: "pot" }] }), 'SeatOrNone | "pot"');
  assert.equal(tsType({ type: "object", additionalProperties: { type: "integer" } }), "{ [key: string]: number }");
  assert.equal(tsType({ type: "array", items: { enum: ["low", "high"] } }), 'Array<"low" | "high">');
});

test("another keyword is refused", () => {
  assert.throws(() => tsType({ type: "object", allOf: [] }), /`allOf` is not typed here/);
  // a YAML flow mapping's comma once made the end of a description a key
  assert.throws(() => tsType({ type: "string", "to check the commitment": null }), /not typed here/);
});
