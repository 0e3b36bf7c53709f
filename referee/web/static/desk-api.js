// The referee's HTTP routes as the operator calls them (docs/web.md): the operator's token is
// kept in this tab's sessionStorage and sent in the `x-create-token` header alone, never in a
// URL; the language in Accept-Language; a call of a table names it in x-referee-table (`naming`).
// A call the referee refuses for the token (PERMISSION_DENIED, UNAUTHENTICATED) tells the desk
// first (`whenRefused`), then throws.

import { ApiError, naming } from "./api.js";
import { packOf } from "./cards.js";
import { language } from "./words.js";

const TOKEN_KEY = "referee-operator-token";
const DENIED = new Set(["PERMISSION_DENIED", "UNAUTHENTICATED"]);
const games = new Map(); // `game|language` -> {pack, schema, title, tallies}
let onRefused = () => {};

export const token = () => sessionStorage.getItem(TOKEN_KEY);
export const keepToken = (typed) => sessionStorage.setItem(TOKEN_KEY, typed);
export const forgetToken = () => sessionStorage.removeItem(TOKEN_KEY);
export const isRefusal = (error) => DENIED.has(error?.code);

export function whenRefused(handler) {
  onRefused = handler;
}

export async function call(method, path, body) {
  const headers = naming(path, { "x-create-token": token() ?? "", "Accept-Language": language() });
  const init = { method, headers };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => null);
  if (response.ok) return data;
  const error = new ApiError(response.status, data?.code ?? "UNKNOWN", data?.message ?? response.statusText);
  if (isRefusal(error)) onRefused(error);
  throw error;
}

export const tablePath = (tableId, rest) => `/v1/tables/${encodeURIComponent(tableId)}/${rest}`;

// a game as the desk draws it (DescribeGame), in the language chosen
export async function gameOf(name) {
  const key = `${name}|${language()}`;
  if (!games.has(key)) {
    const { description } = await call("GET", `/v1/games/${encodeURIComponent(name)}`);
    games.set(key, {
      pack: packOf(description),
      schema: description.schemas?.view?.properties ?? {},
      title: typeof description.title === "object" ? description.title[language()] ?? description.title.en : description.title ?? name,
      tallies: description.tallies ?? [],
    });
  }
  return games.get(key);
}
