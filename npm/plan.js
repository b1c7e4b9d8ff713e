#!/usr/bin/env node
// The `plan` command of the npm package: runs the binary from the platform package
// npm installed beside it (an optional dependency picked by os, cpu and libc), with
// the arguments, stdio and exit status passed through. Nothing is downloaded, at
// install time or here; no dependencies, so it runs on any node npm runs on.
"use strict";

const { spawn } = require("child_process");
const path = require("path");

const main = require("../package.json");
const platform = `${process.platform}-${process.arch}`;
const pkg = `${main.name}-${platform}`;
const exe = process.platform === "win32" ? "plan.exe" : "plan";

function fail(message, hint) {
  process.stderr.write(`plan: ${message}\n  hint: ${hint}\n`);
  // plan's own exit code for a wrong environment (docs/src/troubleshooting.md, "Exit codes").
  process.exit(3);
}

if (!(main.optionalDependencies || {})[pkg]) {
  fail(
    `no prebuilt plan for ${platform}`,
    "build it from source: cargo install --locked --path . (in a clone of plan)",
  );
}

let bin;
try {
  bin = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
} catch {
  fail(
    `${pkg}, the package holding plan's binary for ${platform}, is not installed`,
    `install it with npm install ${pkg}@${main.version}, or reinstall ${main.name} ` +
      "without --omit=optional / --no-optional",
  );
}

const child = spawn(bin, process.argv.slice(2), { stdio: "inherit" });
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const signal of forwarded) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (err) => fail(`cannot run ${bin}: ${err.message}`, `reinstall ${pkg}`));
child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so a caller sees what plan saw.
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
  } else {
    process.exit(code);
  }
});
