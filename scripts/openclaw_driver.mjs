#!/usr/bin/env node
// A `richout jsonl` driver (see the JSONL protocol in the shared spec) that answers the four
// reference ops by calling the parsing functions bundled inside an installed `openclaw`
// package. No upstream code is copied here: every answer comes from the package's own chunks,
// loaded at run time.
//
//   node scripts/openclaw_driver.mjs [PACKAGE_DIR]        (or OPENCLAW_DIR=PACKAGE_DIR)
//
// PACKAGE_DIR is the unpacked package (the folder holding package.json and dist/), or a
// folder that holds node_modules/openclaw. Requests are read from stdin, one JSON object per
// line; one response line is written per non-blank input line. `options.profile` and
// `options.explain` are accepted and ignored (this driver is one profile: whatever the package
// does).
//
// Ops and the upstream function each one calls:
//   media      splitMediaFromOutput  (dist/reply-directives-*.mjs, over parse-output-*.mjs)
//   directives parseInlineDirectives (dist/directive-tags-*.mjs)
//   reply      parseReplyDirectives  (dist/reply-directives-*.mjs)
//   embed      the canvas shortcode reader of the Control UI
//              (dist/control-ui/assets/control-ui-boot-shared-*.js, a browser bundle)

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const OPS = {
  media: {
    options: ["extractMarkdownImages", "markdownImageAllowlist", "extractMediaDirectives",
      "extractAudioDirectives"],
    outputs: ["text", "mediaUrls", "audioAsVoice", "segments", "rejectedMediaCount"],
  },
  directives: {
    options: ["currentMessageId", "stripAudioTag", "stripReplyTags"],
    outputs: ["text", "audioAsVoice", "replyToId", "replyToExplicitId", "replyToCurrent",
      "hasAudioTag", "hasReplyTag"],
  },
  reply: {
    options: ["currentMessageId", "silentToken", "extractMarkdownImages",
      "extractMediaDirectives"],
    outputs: ["text", "mediaUrls", "mediaUrl", "audioAsVoice", "replyToId", "replyToCurrent",
      "replyToTag", "isSilent"],
  },
  embed: { options: [], outputs: ["text", "previews"] },
};
const IGNORED_OPTIONS = new Set(["profile", "explain"]);

class RequestError extends Error {
  constructor(type, message) {
    super(message);
    this.type = type;
  }
}

// ---------------------------------------------------------------------------------------------
// Locating the package and its chunks

function resolvePackageDir() {
  const given = process.argv[2] || process.env.OPENCLAW_DIR;
  if (!given) {
    throw new Error("give the openclaw package folder as the first argument or in OPENCLAW_DIR");
  }
  const candidates = [
    given,
    path.join(given, "package"),
    path.join(given, "node_modules", "openclaw"),
  ];
  for (const dir of candidates) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, "dist"))) {
      return path.resolve(dir);
    }
  }
  throw new Error(`no openclaw package (package.json + dist/) found at ${given}`);
}

let PACKAGE_DIR;
try {
  PACKAGE_DIR = resolvePackageDir();
} catch (error) {
  process.stderr.write(`openclaw_driver: ${error.message}\n`);
  process.exit(2);
}
const DIST = path.join(PACKAGE_DIR, "dist");
const PACKAGE_VERSION = JSON.parse(
  readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8"),
).version;

/** Files of `dir` named `<prefix><hash><suffix>`, where the hash is one rolldown hash. */
function chunkFiles(dir, prefix, suffix) {
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`^${escape(prefix)}[A-Za-z0-9_-]{6,12}${escape(suffix)}$`);
  return readdirSync(dir)
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => path.join(dir, name));
}

/** Imports the chunks matching the glob and returns the export whose function name is `name`. */
async function findExport(prefix, name) {
  const files = chunkFiles(DIST, prefix, ".mjs");
  if (files.length === 0) throw new Error(`no dist/${prefix}*.mjs in ${PACKAGE_DIR}`);
  for (const file of files) {
    const mod = await import(pathToFileURL(file).href);
    for (const value of Object.values(mod)) {
      if (typeof value === "function" && value.name === name) return value;
    }
  }
  throw new Error(`no function ${name} exported by dist/${prefix}*.mjs`);
}

// ---------------------------------------------------------------------------------------------
// The browser bundle holding the canvas shortcode reader

/**
 * The bundle's Markdown parser decodes character references through
 * `document.createElement("i").innerHTML` (the browser build of micromark). Node has no DOM, so
 * give it the smallest stand-in: a decoder over the entity table that the package's own Node
 * build of the same library carries (read at run time from dist/lib-*.mjs). Without that table,
 * named references are treated as unknown (they only affect decoded text, not code regions).
 */
function installDocumentShim() {
  if (globalThis.document !== undefined) return;
  let entities = null;
  for (const file of chunkFiles(DIST, "lib-", ".mjs")) {
    const source = readFileSync(file, "utf8");
    const start = source.indexOf("const characterEntities = {");
    if (start < 0) continue;
    const open = source.indexOf("{", start);
    const close = source.indexOf("\n};", open);
    if (close < 0) continue;
    try {
      entities = new Function(`return (${source.slice(open, close + 2)});`)();
    } catch {
      entities = null;
    }
    if (entities) break;
  }
  if (!entities) {
    process.stderr.write(
      "openclaw_driver: no entity table found; named character references stay undecoded\n",
    );
  }
  const own = Object.prototype.hasOwnProperty;
  globalThis.document = {
    createElement() {
      let html = "";
      return {
        set innerHTML(value) {
          html = String(value);
        },
        get innerHTML() {
          return html;
        },
        get textContent() {
          const match = /^&([A-Za-z0-9]+);$/.exec(html);
          if (match && entities && own.call(entities, match[1])) return entities[match[1]];
          return html;
        },
      };
    },
  };
}

const LAZY_INIT_RE = /function ([\w$]+)\(\)\{return\(\1=[\w$]+\(\(\(\)=>\{/g;

function exportAliases(source) {
  const aliases = new Map(); // local name -> exported names
  for (const match of source.matchAll(/export\{([^}]*)\}/g)) {
    for (const entry of match[1].split(",")) {
      const [local, exported = local] = entry.trim().split(/\s+as\s+/);
      if (!local) continue;
      if (!aliases.has(local)) aliases.set(local, []);
      aliases.get(local).push(exported);
    }
  }
  return aliases;
}

async function loadEmbedReader() {
  const assets = path.join(DIST, "control-ui", "assets");
  const files = chunkFiles(assets, "control-ui-boot-shared-", ".js");
  let found = null;
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    const regexAt = source.indexOf("/\\[embed\\s+");
    if (regexAt < 0 || !source.includes("previews")) continue;
    // The reader is the function whose body holds the shortcode pattern.
    const before = source.slice(0, regexAt);
    const fnMatches = [...before.matchAll(/function ([\w$]+)\(/g)];
    const reader = fnMatches.at(-1);
    if (!reader) continue;
    found = { file, source, readerName: reader[1], readerAt: reader.index };
    break;
  }
  if (!found) {
    throw new Error(
      "no canvas shortcode reader in dist/control-ui/assets/control-ui-boot-shared-*.js",
    );
  }
  const aliases = exportAliases(found.source);
  const readerAlias = aliases.get(found.readerName)?.[0];
  if (!readerAlias) {
    const file = path.basename(found.file);
    throw new Error(`the shortcode reader ${found.readerName} is not exported by ${file}`);
  }

  // rolldown emits lazy module initialisers (`function X(){return(X=init(()=>{...}))()}`); the
  // one for the reader's module follows the module's functions. The reader needs it to have
  // run (it sets up the Markdown code-region finder), as the UI's entry point would have done.
  const inits = [];
  for (const match of found.source.matchAll(LAZY_INIT_RE)) {
    const alias = aliases.get(match[1])?.[0];
    if (alias) inits.push({ at: match.index, alias });
  }
  installDocumentShim();
  const mod = await import(pathToFileURL(found.file).href);
  const reader = mod[readerAlias];
  if (typeof reader !== "function") throw new Error(`export ${readerAlias} is not a function`);
  // Code span, fence and indented code hide two shortcodes; only the last one is read.
  const probe = 'a `[embed ref="p" /]`\n```\n[embed ref="q" /]\n```\n    x\n[embed ref="r" /]';
  const works = () => {
    try {
      const result = reader(probe);
      return Array.isArray(result?.previews) && result.previews.length === 1;
    } catch {
      return false;
    }
  };
  const own = inits.find((init) => init.at > found.readerAt);
  if (own) {
    try {
      mod[own.alias]();
    } catch (error) {
      process.stderr.write(`openclaw_driver: module initialiser failed: ${error}\n`);
    }
  }
  if (!works()) {
    for (const init of inits) {
      try {
        mod[init.alias]();
      } catch {
        // a browser-only module; the reader does not need it
      }
    }
  }
  if (!works()) {
    const file = path.basename(found.file);
    throw new Error(`the shortcode reader in ${file} fails outside a browser`);
  }
  return reader;
}

// ---------------------------------------------------------------------------------------------
// Ops

const loaders = {
  media: async () => {
    const splitMediaFromOutput = await findExport("reply-directives-", "splitMediaFromOutput");
    return (input, options) => splitMediaFromOutput(input, options);
  },
  directives: async () => {
    const parseInlineDirectives = await findExport("directive-tags-", "parseInlineDirectives");
    return (input, options) => parseInlineDirectives(input, options);
  },
  reply: async () => {
    const parseReplyDirectives = await findExport("reply-directives-", "parseReplyDirectives");
    return (input, options) => parseReplyDirectives(input, options);
  },
  embed: async () => {
    const reader = await loadEmbedReader();
    return (input) => reader(input);
  },
};
const handlers = new Map();

async function handler(op) {
  if (!handlers.has(op)) {
    handlers.set(op, loaders[op]().catch((error) => {
      handlers.delete(op);
      const message = `openclaw@${PACKAGE_VERSION}: ${error.message}`;
      throw new RequestError("upstream_unavailable", message);
    }));
  }
  return handlers.get(op);
}

function checkOptions(op, options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new RequestError("invalid_options", "options must be a JSON object");
  }
  const known = OPS[op].options;
  const out = {};
  for (const [key, value] of Object.entries(options)) {
    if (IGNORED_OPTIONS.has(key)) continue;
    if (!known.includes(key)) {
      const names = known.join(", ") || "none";
      const message = `unknown option ${JSON.stringify(key)} for op ${op}; known: ${names}`;
      throw new RequestError("invalid_options", message);
    }
    if (value !== null) out[key] = value;
  }
  return out;
}

async function answer(request) {
  const { op, input } = request;
  if (!Object.hasOwn(OPS, op)) {
    const names = Object.keys(OPS).join(", ");
    throw new RequestError("unknown_op", `unknown op ${JSON.stringify(op)}; known: ${names}`);
  }
  if (typeof input !== "string") {
    throw new RequestError("invalid_input", `op ${op} takes a string input`);
  }
  const options = checkOptions(op, request.options);
  const run = await handler(op);
  let result;
  try {
    result = run(input, options);
  } catch (error) {
    const message = `openclaw@${PACKAGE_VERSION} threw: ${error?.stack ?? error}`;
    throw new RequestError("upstream_error", message);
  }
  const output = {};
  for (const key of OPS[op].outputs) {
    if (result?.[key] !== undefined) output[key] = result[key];
  }
  return output;
}

function write(response) {
  process.stdout.write(`${JSON.stringify(response)}\n`);
}

async function main() {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  for await (const line of lines) {
    if (!line.trim()) continue; // blank lines carry no request (as in `richout jsonl`)
    let request;
    try {
      request = JSON.parse(line);
    } catch (error) {
      const message = `the line is not JSON: ${error.message}`;
      write({ id: null, error: { type: "invalid_json", message } });
      continue;
    }
    if (request === null || typeof request !== "object" || Array.isArray(request)) {
      const message = "the line is not a JSON object";
      write({ id: null, error: { type: "invalid_json", message } });
      continue;
    }
    const id = request.id ?? null;
    if (request.id === undefined || request.op === undefined) {
      const message = 'a request needs "id" and "op"';
      write({ id, error: { type: "invalid_request", message } });
      continue;
    }
    try {
      write({ id, output: await answer(request) });
    } catch (error) {
      const type = error instanceof RequestError ? error.type : "internal_error";
      write({ id, error: { type, message: String(error?.message ?? error) } });
    }
  }
}

process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});
await main();
