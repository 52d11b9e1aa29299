#!/usr/bin/env node
// The demo storefront's web server: plain Node, no framework. It bundles src/main.ts with esbuild
// once at start (nothing built is ever committed), serves one HTML shell for every page path (the
// pages are rendered in the browser), and writes the store's address and publishable key into that
// shell, so the same code works against any Medusa store. PAYLATER_SANDBOX_URL (optional, set by
// the demo) lets the Request to Pay waiting screen link to the sandbox's shopper app.
//
//   STOREFRONT_PORT=8000 MEDUSA_BACKEND_URL=http://localhost:9000 MEDUSA_PUBLISHABLE_KEY=pk_... \
//     PAYLATER_SANDBOX_URL=http://127.0.0.1:4010 node demo/storefront/server.js
const fs = require("node:fs")
const http = require("node:http")
const path = require("node:path")
const esbuild = require("esbuild")

const here = __dirname
const port = Number(process.env.STOREFRONT_PORT || 8000)
const config = {
  backendUrl: (process.env.MEDUSA_BACKEND_URL || "http://localhost:9000").replace(/\/+$/, ""),
  publishableKey: process.env.MEDUSA_PUBLISHABLE_KEY || "",
  // Demo only: where the local PayLater sandbox is (its shopper app stands in for the phone).
  paylaterSandboxUrl: (process.env.PAYLATER_SANDBOX_URL || "").replace(/\/+$/, "") || undefined,
}
if (!config.publishableKey) {
  console.error("MEDUSA_PUBLISHABLE_KEY is required (the demo passes the seeded store's key)")
  process.exit(1)
}

async function bundle() {
  const result = await esbuild.build({
    entryPoints: [path.join(here, "src", "main.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2020",
    sourcemap: "inline",
    logLevel: "warning",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    // The storefront kit (medusa-payment-paylater-storefront) from this repository's source, under the name a merchant's
    // storefront imports it by once the package is installed.
    alias: {
      "medusa-payment-paylater-storefront/react": path.join(here, "..", "..", "src", "storefront", "react", "index.ts"),
      "medusa-payment-paylater-storefront": path.join(here, "..", "..", "src", "storefront", "index.ts"),
    },
  })
  return result.outputFiles[0].text
}

// The config travels as inert JSON (never as script), escaped so no value can close the tag.
function renderShell(template) {
  const json = JSON.stringify(config).replace(/</g, "\\u003c")
  return template.replace("<!--STOREFRONT_CONFIG-->", json)
}

// Only what the pages need: our own files, and API calls to the Medusa backend.
const SECURITY_HEADERS = {
  "content-security-policy": `default-src 'self'; connect-src 'self' ${config.backendUrl}; img-src 'self' data: ${config.backendUrl}; object-src 'none'; base-uri 'none'; form-action 'self'`,
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
}

async function main() {
  const started = Date.now()
  const assets = {
    "/assets/app.js": { type: "text/javascript; charset=utf-8", body: await bundle() },
    "/assets/styles.css": { type: "text/css; charset=utf-8", body: fs.readFileSync(path.join(here, "styles.css")) },
  }
  const shell = renderShell(fs.readFileSync(path.join(here, "index.html"), "utf8"))

  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url, "http://storefront")
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end()
      return
    }
    const asset = assets[pathname]
    if (asset) {
      res.writeHead(200, { ...SECURITY_HEADERS, "content-type": asset.type, "cache-control": "no-cache" })
      res.end(req.method === "HEAD" ? undefined : asset.body)
      return
    }
    if (pathname === "/favicon.ico") {
      res.writeHead(204).end()
      return
    }
    // Every other path is a page: the browser-side router decides what it shows (or "not found").
    res.writeHead(200, { ...SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    res.end(req.method === "HEAD" ? undefined : shell)
  })

  server.on("error", (error) => {
    console.error(error.code === "EADDRINUSE" ? `Port ${port} is already in use (set STOREFRONT_PORT)` : error)
    process.exit(1)
  })
  server.listen(port, () => {
    console.log(`Storefront on http://localhost:${port} (bundled in ${Date.now() - started} ms), store ${config.backendUrl}`)
  })
  const stop = () => {
    server.close(() => process.exit(0))
    // A browser's keep-alive connections would otherwise hold the process open.
    server.closeAllConnections()
  }
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
