// Shared by the node tests of errdex serve: a catalog made by the real
// `errdex scan` of a small Python package written here (with a hostile record:
// HTML, a terminal escape and a bidi override in one message), real tracebacks
// from running python3 in it, and the real `errdex serve` on a free loopback port.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const BIN = process.env.ERRDEX_BINARY;
if (!BIN) throw new Error("set ERRDEX_BINARY to the errdex binary (ctest does)");
export const OUT_DIR = process.env.ERRDEX_WEB_OUT || path.join(os.tmpdir(), "errdex-web-out");

const SHAPES = `"""Shape checks."""


class ShapeError(ValueError):
    pass


def check_shape(shape, expected):
    if len(shape) != len(expected):
        raise ShapeError(f"expected {len(expected)} dimensions, got {len(shape)}")
    for a, b in zip(shape, expected):
        if a != b:
            raise ValueError(f"dimension mismatch: {a} != {b}")
    return shape
`;

const MODELS = `"""Model loading."""


def load(name):
    """Loads a model by name."""
    if not name:
        raise KeyError("missing model name")
    if name == "xss":
        raise RuntimeError("<img src=x onerror=alert(1)> \\x1b[31mboom\\x1b[0m \\u202etxt.exe")
    if name.startswith("/"):
        raise ValueError(f"model name {name!r} must not be a path")
    return name
`;

export function makeCatalog() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "errdex-web-"));
  fs.mkdirSync(path.join(dir, "repo", "app"), { recursive: true });
  fs.writeFileSync(path.join(dir, "repo", "app", "__init__.py"), "");
  fs.writeFileSync(path.join(dir, "repo", "app", "shapes.py"), SHAPES);
  fs.writeFileSync(path.join(dir, "repo", "app", "models.py"), MODELS);
  const db = path.join(dir, "c.db");
  const scan = spawnSync(BIN, ["scan", path.join(dir, "repo"), "--repo", "test/app", "--sha", "1".repeat(40), "--db", db],
                         { encoding: "utf8" });
  if (scan.status !== 0) throw new Error("errdex scan failed: " + scan.stderr);
  return { dir, db, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// A real traceback: python3 -c CODE in the package's directory.
export function traceback(dir, code) {
  const py = spawnSync("python3", ["-c", code], { cwd: path.join(dir, "repo"), encoding: "utf8" });
  if (!py.stderr.includes("Traceback (most recent call last):")) throw new Error("no traceback: " + py.stderr);
  return py.stderr;
}

// Starts errdex serve; resolves once /readyz says ready.
export async function startServer(db, extra = []) {
  const child = spawn(BIN, ["serve", "--db", db, "--listen", "127.0.0.1:0", ...extra], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stderr.on("data", (d) => { log += d; });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("errdex serve did not start: " + log)), 30000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/[^ ]+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on("exit", (code) => reject(new Error(`errdex serve exited (${code}): ${log}`)));
  });
  for (let i = 0; i < 600; ++i) {
    try {
      const r = await fetch(url + "/readyz");
      if (r.status === 200) break;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    log: () => log,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode);
      child.once("exit", (code) => resolve(code));
      child.kill("SIGTERM");
    }),
  };
}
