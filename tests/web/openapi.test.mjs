// The OpenAPI document errdex serve publishes (/v1/openapi.json) passes
// @redocly/cli's lint with no warning, and lists every route the server has
// (`errdex serve --routes`), and no route it lacks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BIN, makeCatalog, startServer, OUT_DIR } from "./fixture.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

test("the served OpenAPI document lints clean and covers every route", async () => {
  const cat = makeCatalog();
  const server = await startServer(cat.db);
  try {
    const res = await fetch(server.url + "/v1/openapi.json");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    const doc = await res.json();
    assert.equal(doc.openapi, "3.1.0");
    fs.mkdirSync(OUT_DIR, { recursive: true });
    const file = path.join(OUT_DIR, "openapi.json");
    fs.writeFileSync(file, JSON.stringify(doc, null, 1));

    const lint = spawnSync(path.join(here, "node_modules", ".bin", "redocly"),
                           ["lint", file, "--config", path.join(here, "redocly.yaml"), "--format", "stylish"],
                           { encoding: "utf8", env: { ...process.env, REDOCLY_TELEMETRY: "off",
                             REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" }, timeout: 120000 });
    const said = lint.stdout + lint.stderr;
    assert.equal(lint.status, 0, said);
    assert.match(said, /Your API description is valid/, said);
    assert.doesNotMatch(said, /^\s*\d+:\d+\s+(warning|error)\s/m, said);  // a rule's finding: "42:5  warning  rule  ..."

    const routes = JSON.parse(spawnSync(BIN, ["serve", "--routes"], { encoding: "utf8" }).stdout);
    assert.ok(routes.length >= 15);
    for (const r of routes) {
      const item = doc.paths[r.path];
      assert.ok(item, `route ${r.method} ${r.path} is not in the OpenAPI document`);
      assert.ok(item[r.method.toLowerCase()], `route ${r.method} ${r.path}: no ${r.method} operation documented`);
    }
    for (const [p, item] of Object.entries(doc.paths))
      for (const method of Object.keys(item).filter((k) => ["get", "post", "put", "delete", "patch"].includes(k)))
        assert.ok(routes.some((r) => r.path === p && r.method.toLowerCase() === method),
                  `the document has ${method.toUpperCase()} ${p}, the server does not`);
  } finally {
    await server.stop();
    cat.cleanup();
  }
});
