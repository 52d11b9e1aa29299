/**
 * A fresh Medusa store, made the way a merchant makes one, with this plugin installed from the
 * tarball `npm pack` produces: the artifact merchants get, not ./src.
 *
 * The store lives outside this repository (os.tmpdir()), so Node cannot fall back on the repo's own
 * node_modules: whatever the package forgot to ship or declare fails here as it would in a store.
 * A store on this repo's own Medusa version starts from hard links of this repo's node_modules (no
 * download), then `npm install` reconciles them with the store's package.json: the plugin's dev
 * dependencies are pruned and the tarball is unpacked like any registry package. A store on any
 * other Medusa version of the supported range is installed from the registry, as a merchant's is:
 * its dependencies first (started early, so the download overlaps the plugin's build and pack:
 * startRegistryInstall), then the plugin added with `npm install <tarball>`, as a merchant adds it
 * to a store they already have.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

export const REPO_ROOT = path.resolve(__dirname, "..", "..")

function ownPackageJson(): Record<string, any> {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"))
}

/**
 * The Medusa versions a fresh npm store is tested on: the version this repository develops on (its
 * devDependency, the latest release inside the peer range). The floor of the range is the DTC
 * starter workspace's (pnpm-workspace.spec.ts checks that they are the same). PAYLATER_AS_INSTALLED_MEDUSA
 * (comma-separated) picks others, e.g. the floor as a plain npm store too.
 */
export function medusaVersionsUnderTest(): string[] {
  const chosen = process.env.PAYLATER_AS_INSTALLED_MEDUSA?.split(",").map((v) => v.trim()).filter(Boolean)
  if (chosen?.length) return chosen
  return [developmentMedusa()]
}

/** The Medusa this repository develops and runs its in-process suites on (its devDependency). */
export function developmentMedusa(): string {
  return ownPackageJson().devDependencies["@medusajs/medusa"]
}

/** What `create-medusa-app` gives a store, at the given Medusa version (with the plugin when `tarball` is given). */
function storePackageJson(tarball: string | null, medusa: string): Record<string, unknown> {
  const own = ownPackageJson()
  return {
    name: "fresh-paylater-store",
    version: "0.0.1",
    private: true,
    scripts: { build: "medusa build", start: "medusa start", dev: "medusa develop" },
    dependencies: {
      "@medusajs/admin-sdk": medusa,
      "@medusajs/cli": medusa,
      "@medusajs/framework": medusa,
      "@medusajs/medusa": medusa,
      ...(tarball ? { "medusa-payment-paylater": `file:${tarball}` } : {}),
    },
    devDependencies: {
      "@medusajs/test-utils": medusa,
      "@swc/core": own.devDependencies["@swc/core"],
      "@types/node": own.devDependencies["@types/node"],
      "ts-node": own.devDependencies["ts-node"],
      typescript: own.devDependencies.typescript,
      vite: own.devDependencies.vite,
    },
    engines: { node: ">=20" },
  }
}

const STORE_TSCONFIG = {
  compilerOptions: {
    target: "ES2021",
    esModuleInterop: true,
    module: "Node16",
    moduleResolution: "Node16",
    emitDecoratorMetadata: true,
    experimentalDecorators: true,
    skipLibCheck: true,
    skipDefaultLibCheck: true,
    declaration: false,
    sourceMap: false,
    inlineSourceMap: true,
    outDir: "./.medusa/server",
    rootDir: "./",
    jsx: "react-jsx",
    forceConsistentCasingInFileNames: true,
    resolveJsonModule: true,
    checkJs: false,
    strictNullChecks: true,
  },
  "ts-node": { swc: true },
  include: ["**/*", ".medusa/types/*"],
  exclude: ["node_modules", ".medusa/server", ".medusa/admin", ".cache"],
}

export interface StepTiming {
  step: string
  ms: number
}

export class FreshStore {
  private readonly children: ChildProcess[] = []

  constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
    /** Every step's duration is added here (the issue asks how long the as-installed test takes). */
    readonly timings: StepTiming[]
  ) {}

  /** Runs a command to completion in the store; throws with the tail of its output on failure. */
  run(step: string, command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
    const started = Date.now()
    const res = spawnSync(command, args, {
      cwd: opts.cwd ?? this.dir,
      env: opts.env ?? this.env,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      timeout: 10 * 60_000,
    })
    this.timings.push({ step, ms: Date.now() - started })
    const output = `${res.stdout ?? ""}${res.stderr ?? ""}`
    if (res.status !== 0) {
      throw new Error(`${step} failed (exit ${res.status ?? res.signal}):\n${output.slice(-6000)}`)
    }
    return output
  }

  /** The store's own Medusa CLI, as `npx medusa …` runs it. */
  medusa(step: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
    return this.run(step, process.execPath, [path.join(this.dir, "node_modules", "@medusajs", "cli", "cli.js"), ...args], opts)
  }

  /** A long-running process (sandbox, server); stopped by `stopAll()`. */
  start(name: string, command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Running {
    const child = spawn(command, args, { cwd: opts.cwd ?? this.dir, env: opts.env ?? this.env, stdio: ["ignore", "pipe", "pipe"] })
    this.children.push(child)
    return new Running(name, child)
  }

  async stopAll(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve()
            const kill = setTimeout(() => child.kill("SIGKILL"), 10_000)
            child.once("exit", () => {
              clearTimeout(kill)
              resolve()
            })
            child.kill("SIGTERM")
          })
      )
    )
  }
}

export class Running {
  private text = ""

  constructor(
    readonly name: string,
    readonly child: ChildProcess
  ) {
    const add = (chunk: Buffer) => (this.text += chunk.toString())
    child.stdout?.on("data", add)
    child.stderr?.on("data", add)
  }

  output(): string {
    return this.text
  }

  /** Resolves when the output matches; rejects when the process exits first or time runs out. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`${this.name}: no ${pattern} within ${timeoutMs} ms:\n${this.text.slice(-4000)}`)), timeoutMs)
      const check = () => {
        const m = pattern.exec(this.text)
        if (m) finish(null, m)
      }
      const onExit = (code: number | null) => finish(new Error(`${this.name} exited (${code}) before ${pattern}:\n${this.text.slice(-4000)}`))
      const finish = (err: Error | null, m?: RegExpExecArray) => {
        clearTimeout(timer)
        this.child.stdout?.off("data", check)
        this.child.stderr?.off("data", check)
        this.child.off("exit", onExit)
        if (err) reject(err)
        else resolve(m as RegExpExecArray)
      }
      this.child.stdout?.on("data", check)
      this.child.stderr?.on("data", check)
      this.child.once("exit", onExit)
      check()
    })
  }
}

/* The demo's CommonJS helper (scripts/ is plain JavaScript, outside the TypeScript project). */
const { freePorts } = require("../../scripts/lib/database") as { freePorts(count: number, avoid?: number[]): Promise<number[]> }
/** `count` distinct free ports (each held open until all are chosen; see scripts/lib/database.js). */
export { freePorts }

/** `medusa plugin:build` then `npm pack`: the tarball a merchant's `npm install` unpacks. */
export function buildAndPack(outDir: string, timings: StepTiming[]): { tarball: string; files: string[] } {
  fs.mkdirSync(outDir, { recursive: true })
  let started = Date.now()
  // scripts/test.js builds once for the whole run (CI just before it) and says so.
  if (process.env.PAYLATER_PLUGIN_BUILT !== "1") {
    execFileSync("npm", ["run", "build"], { cwd: REPO_ROOT, stdio: "pipe", env: { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true" } })
    timings.push({ step: "plugin:build", ms: Date.now() - started })
  }
  started = Date.now()
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", outDir], { cwd: REPO_ROOT, encoding: "utf8" })
  timings.push({ step: "npm pack", ms: Date.now() - started })
  const [packed] = JSON.parse(out.slice(out.indexOf("["))) as Array<{ filename: string; files: Array<{ path: string }> }>
  return { tarball: path.join(outDir, packed.filename), files: packed.files.map((f) => f.path) }
}

/**
 * The tarball of this test run, built and packed once for every suite that installs it: the first
 * suite to ask builds it, the others (in other jest workers) wait for its result. Without a run folder
 * (`PAYLATER_TEST_RUN_DIR`, set by scripts/test.js; unset when jest is run by hand), into `outDir`.
 */
export async function packedPlugin(outDir: string, timings: StepTiming[]): Promise<{ tarball: string; files: string[] }> {
  const runDir = process.env.PAYLATER_TEST_RUN_DIR
  if (!runDir) return buildAndPack(outDir, timings)
  const dir = path.join(runDir, "plugin-pack")
  const result = path.join(dir, "packed.json")
  fs.mkdirSync(runDir, { recursive: true })
  try {
    fs.mkdirSync(dir) // atomic: only one suite of the run gets here
  } catch {
    const started = Date.now()
    const deadline = started + 15 * 60_000
    while (!fs.existsSync(result)) {
      if (fs.existsSync(path.join(dir, "failed"))) throw new Error(`the run's plugin pack failed: ${fs.readFileSync(path.join(dir, "failed"), "utf8")}`)
      if (Date.now() > deadline) throw new Error(`the run's plugin pack did not finish in 15 minutes (${dir})`)
      await new Promise((r) => setTimeout(r, 1000))
    }
    timings.push({ step: "plugin:build and npm pack (another suite's, waited for)", ms: Date.now() - started })
    return JSON.parse(fs.readFileSync(result, "utf8"))
  }
  try {
    const packed = buildAndPack(dir, timings)
    fs.writeFileSync(`${result}.tmp`, JSON.stringify(packed))
    fs.renameSync(`${result}.tmp`, result)
    return packed
  } catch (error) {
    fs.writeFileSync(path.join(dir, "failed"), String((error as Error)?.message ?? error).slice(0, 2000))
    throw error
  }
}

/**
 * Creates the store folder: package.json, tsconfig.json, the README's medusa-config.ts (verbatim)
 * and .env, node_modules (see the file comment), and `npm install`.
 */
const STORE_ENV: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, MEDUSA_DISABLE_TELEMETRY: "true" }
const NPM_ENV: NodeJS.ProcessEnv = { ...STORE_ENV, npm_config_loglevel: "error" }
const isOwnVersion = (medusaVersion: string) => medusaVersion === ownPackageJson().devDependencies["@medusajs/medusa"]

function newStoreDir(medusaVersion: string, tarball: string | null): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `paylater-fresh-store-${medusaVersion}-`))
  fs.chmodSync(dir, 0o755)
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(storePackageJson(tarball, medusaVersion), null, 2))
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(STORE_TSCONFIG, null, 2))
  return dir
}

/** The registry installs under way (startRegistryInstall), by Medusa version. */
const registryInstalls = new Map<string, Promise<{ dir: string; ms: number }>>()

/**
 * Starts installing a store of `medusaVersion` from the registry, without the plugin: it waits on
 * the network, so started before the plugin is built and packed it costs the run little. A no-op
 * for this repo's own version (hard links, createStore) and for a version already started.
 */
export function startRegistryInstall(medusaVersion: string): void {
  if (isOwnVersion(medusaVersion) || registryInstalls.has(medusaVersion)) return
  const started = Date.now()
  const installed = (async () => {
    for (let attempt = 1; ; attempt++) {
      const dir = newStoreDir(medusaVersion, null)
      try {
        await npmInstallWithin(dir, REGISTRY_INSTALL_LIMIT_MS)
        return { dir, ms: Date.now() - started }
      } catch (error) {
        fs.rmSync(dir, { recursive: true, force: true })
        // npm sometimes stalls for good part-way through unpacking (seen once in CI: no output, no
        // network, alive after 18 minutes). An install is safe to repeat, and the second one finds
        // npm's cache warm.
        if (attempt >= 2 || !(error as { stalled?: boolean }).stalled) {
          throw new Error(`npm install (store, Medusa ${medusaVersion} from the registry) failed: ${(error as Error).message}`)
        }
        console.log(`npm install (store, Medusa ${medusaVersion}) stalled after ${REGISTRY_INSTALL_LIMIT_MS / 60_000} minutes; installing once more`)
      }
    }
  })()
  // Awaited by createStore; a failure is reported there, not as an unhandled rejection before it.
  installed.catch(() => {})
  registryInstalls.set(medusaVersion, installed)
}

/** Far above an install's 2-4 minutes on a loaded two-core machine; twice this stays under the suite's hook timeout. */
const REGISTRY_INSTALL_LIMIT_MS = 6 * 60_000

/** `npm install` in `dir`, killed (SIGKILL: a stalled npm ignored SIGTERM) past `limitMs`, then rejected with `stalled`. */
function npmInstallWithin(dir: string, limitMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    // --prefer-offline: package data already in npm's cache is not asked for again, so the ranges
    // resolve against what the cache knows (a release newer than the cache can go unseen until it
    // refreshes; any version in range is one a merchant may get); what it lacks comes from the registry.
    const child = spawn("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: dir, env: NPM_ENV, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    let stalled = false
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-6000))
    child.stdout.on("data", keep)
    child.stderr.on("data", keep)
    const timer = setTimeout(() => {
      stalled = true
      child.kill("SIGKILL")
    }, limitMs)
    child.on("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on("exit", (code, signal) => {
      clearTimeout(timer)
      if (code === 0) return resolve()
      const error = new Error(stalled ? `no end after ${limitMs / 60_000} minutes:\n${output}` : `exit ${code ?? signal}:\n${output}`)
      reject(Object.assign(error, { stalled }))
    })
  })
}

export async function createStore(opts: {
  tarball: string
  medusaVersion: string
  medusaConfig: string
  env: Record<string, string>
  timings: StepTiming[]
}): Promise<FreshStore> {
  const own = isOwnVersion(opts.medusaVersion)
  if (!own) startRegistryInstall(opts.medusaVersion)
  const prepared = own ? null : await registryInstalls.get(opts.medusaVersion)!
  const dir = prepared?.dir ?? newStoreDir(opts.medusaVersion, opts.tarball)
  fs.writeFileSync(path.join(dir, "medusa-config.ts"), opts.medusaConfig)
  fs.writeFileSync(path.join(dir, ".env"), Object.entries(opts.env).map(([k, v]) => `${k}=${v}`).join("\n") + "\n")
  fs.mkdirSync(path.join(dir, "src"), { recursive: true })

  const store = new FreshStore(dir, STORE_ENV, opts.timings)
  const npmEnv = NPM_ENV
  if (prepared) {
    store.timings.push({ step: `npm install (store, Medusa ${opts.medusaVersion} from the registry; started before the plugin was packed)`, ms: prepared.ms })
    store.run("npm install <the plugin's tarball>", "npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", opts.tarball], { env: npmEnv })
    return store
  }
  const started = Date.now()
  try {
    // Hard links: seconds instead of a full copy, where the temp folder shares this disk.
    execFileSync("cp", ["-al", path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules")], { stdio: "pipe" })
  } catch {
    fs.rmSync(path.join(dir, "node_modules"), { recursive: true, force: true })
  }
  store.timings.push({ step: "node_modules (hard links)", ms: Date.now() - started })
  store.run("npm install (store)", "npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], { env: npmEnv })
  return store
}

/**
 * What stands in front of a production Medusa: a proxy that terminates TLS and says so with
 * `X-Forwarded-Proto: https`. In production Medusa marks its admin session cookie `Secure` and
 * express-session only sets it on a request it believes is HTTPS, so a plain-http production server
 * cannot keep an admin signed in. (Chromium accepts Secure cookies from http://localhost.)
 */
export async function startHttpsTerminatingProxy(
  port: number,
  targetPort: number
): Promise<{ port: number; close(): Promise<void> }> {
  const http = await import("node:http")
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: targetPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-proto": "https", "x-forwarded-for": req.socket.remoteAddress ?? "" },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    upstream.on("error", (e) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" })
      res.end(JSON.stringify({ message: `proxy: ${e.message}` }))
    })
    req.pipe(upstream)
  })
  // The suite's fetch keeps its connection to this proxy alive for the 5 s Medusa's answers announce
  // (their Keep-Alive header passes through) and closes it itself; this server must never close an
  // idle connection first: the tests block this process in spawnSync (`medusa exec`), and the first
  // request after such a block went out on a connection whose overdue idle timer then fired here:
  // ECONNRESET (reproduced with a proxy, an upstream process and two 9 s spawnSync: reset with Node's
  // default 5 s, answered with no idle timeout). 0: no idle timeout at all, however long a block.
  server.keepAliveTimeout = 0
  // Both loopback families: "localhost" may resolve to ::1 or 127.0.0.1.
  // Port 0 binds a free port now and keeps it: a port only looked up early can be taken by
  // another process during the minutes the store takes to install and build.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, () => {
      server.off("error", reject)
      resolve()
    })
  })
  return {
    port: (server.address() as import("node:net").AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
