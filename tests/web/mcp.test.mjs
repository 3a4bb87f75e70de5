// errdex as an MCP server, driven by the official TypeScript SDK client over both
// transports: stdio (spawning `errdex mcp`) and Streamable HTTP (errdex serve's
// /mcp). Initialize (version negotiation), list the tools, call each, read a
// resource, and a bad argument is a JSON-RPC error, not a crash.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION, McpError } from "@modelcontextprotocol/sdk/types.js";
import { BIN, makeCatalog, startServer, traceback } from "./fixture.mjs";

let cat, server;
before(async () => {
  cat = makeCatalog();
  server = await startServer(cat.db);
});
after(async () => {
  await server?.stop();
  cat?.cleanup();
});

async function exercise(client, t) {
  // Negotiated: the SDK asks for its newest revision, which errdex supports.
  assert.equal(client.getServerVersion().name, "errdex");
  assert.ok(client.getServerCapabilities().tools);
  assert.ok(client.getServerCapabilities().resources);
  assert.match(client.getInstructions() ?? "", /explain_error/);

  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), ["explain_error", "get_error", "list_repos", "search_errors"]);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object", tool.name);
    assert.equal(tool.outputSchema?.type, "object", tool.name);
    assert.ok(tool.description.length > 80, tool.name);
  }

  // explain_error on a real traceback: the raise in app/shapes.py, its value captured.
  const tb = traceback(cat.dir, "import app.shapes as s; s.check_shape((2, 3), (2, 4))");
  const explained = await client.callTool({ name: "explain_error", arguments: { text: tb } });
  assert.equal(explained.isError, false);
  const hit = explained.structuredContent.hits[0];
  assert.equal(hit.errorMessage, "dimension mismatch: {a} != {b}");
  assert.equal(hit.filePath, "app/shapes.py");
  assert.equal(hit.exact, true);
  assert.equal(hit.captures[0].text, "3");
  assert.deepEqual(JSON.parse(explained.content[0].text), explained.structuredContent);

  // A near-exact answer (the case differs) carries its own label; the SDK checks
  // the result against the tool's output schema, so every label must be in it.
  const near = await client.callTool({ name: "explain_error", arguments: { text: "DIMENSION MISMATCH: 3 != 4" } });
  assert.equal(near.isError, false);
  assert.equal(near.structuredContent.hits[0].matchedBy, "normalized");
  assert.equal(near.structuredContent.hits[0].approximate, true);

  const got = await client.callTool({ name: "get_error", arguments: { id_or_slug: hit.recordId } });
  assert.equal(got.structuredContent.records[0].record.id, hit.recordId);
  assert.ok(got.structuredContent.records[0].record.sourceCode.includes("raise ValueError"));

  const found = await client.callTool({ name: "search_errors", arguments: { query: "missing model", limit: 5 } });
  assert.equal(found.structuredContent.results[0].errorMessage, "missing model name");

  const repos = await client.callTool({ name: "list_repos", arguments: {} });
  assert.equal(repos.structuredContent.repos[0].repo, "test/app");

  const missing = await client.callTool({ name: "get_error", arguments: { id_or_slug: "no-such-error" } });
  assert.equal(missing.isError, true);

  // Resources: errdex://errors/{id}.
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.equal(resourceTemplates[0].uriTemplate, "errdex://errors/{id}");
  const read = await client.readResource({ uri: `errdex://errors/${hit.recordId}` });
  assert.equal(JSON.parse(read.contents[0].text).record.id, hit.recordId);
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === `errdex://errors/${hit.recordId}`));

  // Bad arguments: JSON-RPC errors (-32602), and the server goes on answering.
  for (const bad of [{ name: "explain_error", arguments: { text: 42 } },
                     { name: "explain_error", arguments: {} },
                     { name: "search_errors", arguments: { query: "x", limit: 1000 } },
                     { name: "get_error", arguments: { id_or_slug: "x", extra: true } },
                     { name: "no_such_tool", arguments: {} }]) {
    await assert.rejects(client.callTool(bad), (e) => e instanceof McpError && e.code === -32602,
                         JSON.stringify(bad));
  }
  await assert.rejects(client.readResource({ uri: "errdex://errors/0000000000000000" }),
                       (e) => e instanceof McpError && e.code === -32002);
  assert.deepEqual(await client.ping(), {});
}

test("stdio: errdex mcp", async (t) => {
  const transport = new StdioClientTransport({ command: BIN, args: ["mcp", "--db", cat.db], stderr: "pipe" });
  const client = new Client({ name: "errdex-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    await exercise(client, t);
  } finally {
    await client.close();
  }
});

test("Streamable HTTP: errdex serve /mcp", async (t) => {
  const transport = new StreamableHTTPClientTransport(new URL(server.url + "/mcp"));
  const client = new Client({ name: "errdex-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    assert.equal(transport.protocolVersion, LATEST_PROTOCOL_VERSION);
    await exercise(client, t);
  } finally {
    await client.close();
  }
});
