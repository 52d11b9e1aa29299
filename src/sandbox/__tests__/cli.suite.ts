import { spawn } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { HELP, banner, main, maskSecret, parseCli, parseOutlet } from "../cli"
import { client } from "./helpers"

const ROOT = path.resolve(__dirname, "../../..")
const CLI = path.resolve(__dirname, "../cli.ts")

describe("sandbox CLI", () => {
  it("starts with a shebang so the compiled file can be the package's bin", () => {
    expect(fs.readFileSync(CLI, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node")
  })

  it("defaults to port 4010 and nothing else", () => {
    expect(parseCli([], {})).toEqual({ help: false, quiet: false, options: { port: 4010 } })
  })

  it("reads every flag", () => {
    const parsed = parseCli(
      [
        "--port", "0",
        "--host", "0.0.0.0",
        "--public-url", "https://sandbox.example.test",
        "--webhook-url", "http://localhost:9000/hooks/paylater",
        "--client-id", "merchant-138",
        "--client-secret", "cs",
        "--merchant-id", "138",
        "--webhook-secret", "ws",
        "--outlet", "1000000061",
        "--outlet", "42:300-4000.50",
        "--state-file", ".tmp/sandbox.json",
        "--quiet",
      ],
      {}
    )
    expect(parsed).toEqual({
      help: false,
      quiet: true,
      options: {
        port: 0,
        host: "0.0.0.0",
        publicUrl: "https://sandbox.example.test",
        webhookUrl: "http://localhost:9000/hooks/paylater",
        clientId: "merchant-138",
        clientSecret: "cs",
        merchantId: "138",
        webhookSecret: "ws",
        outlets: [{ id: 1000000061 }, { id: 42, minAmount: "300", maxAmount: "4000.50" }],
        stateFile: ".tmp/sandbox.json",
      },
    })
  })

  it("reads environment variables; flags win", () => {
    const env = {
      PAYLATER_SANDBOX_PORT: "5000",
      PAYLATER_SANDBOX_CLIENT_ID: "from-env",
      PAYLATER_SANDBOX_WEBHOOK_URL: "http://localhost:1/h",
      PAYLATER_SANDBOX_OUTLETS: "1,2:500-600",
      PAYLATER_SANDBOX_QUIET: "1",
      PAYLATER_SANDBOX_STATE_FILE: "/var/tmp/sandbox.json",
    }
    expect(parseCli([], env)).toEqual({
      help: false,
      quiet: true,
      options: {
        port: 5000,
        clientId: "from-env",
        webhookUrl: "http://localhost:1/h",
        outlets: [{ id: 1 }, { id: 2, minAmount: "500", maxAmount: "600" }],
        stateFile: "/var/tmp/sandbox.json",
      },
    })
    expect(parseCli(["--port", "6000"], env)).toMatchObject({ options: { port: 6000 } })
  })

  it("refuses bad input with a clear message", () => {
    expect(() => parseCli(["--port", "x"], {})).toThrow(/--port must be 0-65535/)
    expect(() => parseCli(["--outlet", "abc"], {})).toThrow(/--outlet must look like/)
    expect(() => parseCli(["--colour"], {})).toThrow(/Unknown option '--colour'/)
    expect(() => parseOutlet("1:300")).toThrow()
  })

  it("--help lists every flag and its environment variable", async () => {
    expect(parseCli(["--help"], {})).toEqual({ help: true })
    expect(parseCli(["-h"], {})).toEqual({ help: true })
    for (const flag of ["--port", "--host", "--webhook-url", "--client-id", "--client-secret", "--merchant-id", "--webhook-secret", "--outlet", "--public-url", "--help"]) {
      expect(HELP).toContain(flag)
    }
    for (const name of ["PAYLATER_SANDBOX_PORT", "PAYLATER_SANDBOX_WEBHOOK_URL", "PAYLATER_SANDBOX_CLIENT_SECRET"]) {
      expect(HELP).toContain(name)
    }
    const out: string[] = []
    const started = await main(["--help"], {}, { out: (l) => out.push(l), err: (l) => out.push(l) })
    expect(started).toBeNull()
    expect(out.join("\n")).toBe(HELP)
  })

  it("masks secrets unless they are the built-in sandbox defaults", () => {
    expect(maskSecret("sandbox-secret", "sandbox-secret")).toBe("sandbox-secret (built-in sandbox default)")
    const masked = maskSecret("live-looking-secret-value", "sandbox-secret")
    expect(masked).not.toContain("looking")
    expect(masked).toMatch(/^li\*+ue \(25 characters, masked\)$/)
    expect(maskSecret("abc", "x")).toBe("***")
  })

  it("prints where to point the plugin, the credentials and the shopper app", async () => {
    const out: string[] = []
    const sandbox = await main(
      ["--port", "0", "--client-secret", "my-real-secret", "--webhook-url", "http://127.0.0.1:9/hook", "--quiet"],
      {},
      { out: (l) => out.push(l), err: (l) => out.push(l) }
    )
    try {
      expect(sandbox).not.toBeNull()
      const text = out.join("\n")
      const url = sandbox?.url as string
      expect(text).toBe(banner(sandbox as NonNullable<typeof sandbox>))
      expect(text).toContain(`apiBaseUrl (plugin option)  ${url}`)
      expect(text).toContain(`POST ${url}/auth/realms/api/protocol/openid-connect/token`)
      expect(text).toContain(`${url}/api/paylater/merchant-portal/v2/web-checkout`)
      expect(text).toContain("http://127.0.0.1:9/hook")
      expect(text).toContain("sandbox-client")
      expect(text).not.toContain("my-real-secret")
      expect(text).toContain("sandbox-webhook-secret (built-in sandbox default)")
      expect(text).toContain(`${url}/app?mobile=97451118021`)
      // The .env block of README section 8, with this sandbox's own address and merchant id.
      expect(text).toContain("  PAYLATER_MERCHANT_ID=sandbox-merchant")
      expect(text).toContain(`  PAYLATER_API_BASE_URL=${url}`)
      expect(text).toContain("  PAYLATER_WEBHOOK_SECRET=sandbox-webhook-secret")
      expect(text).toContain("  PAYLATER_CLIENT_SECRET=<the secret you passed>")
      // Complete: the store's own address (the webhook target's) and the storefront's (issue 34).
      expect(text).toContain("  MEDUSA_BACKEND_URL=http://127.0.0.1:9\n  STOREFRONT_URL=http://localhost:8000")
      expect((await client(url).get("/app")).status).toBe(200)
    } finally {
      await sandbox?.stop()
    }
  })

  it("reports a start failure (port taken) without throwing", async () => {
    const first = await main(["--port", "0", "--quiet"], {}, { out: () => undefined, err: () => undefined })
    const errors: string[] = []
    try {
      const second = await main(["--port", String(first?.port), "--quiet"], {}, { out: () => undefined, err: (l) => errors.push(l) })
      expect(second).toBeNull()
      expect(errors.join("\n")).toMatch(/EADDRINUSE/)
      expect(process.exitCode).toBe(1)
    } finally {
      process.exitCode = undefined
      await first?.stop()
    }
  })

  it("runs as a process and exits cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", CLI, "--port", "0"], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: "", TS_NODE_COMPILER_OPTIONS: '{"module":"commonjs"}' },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()))
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (c: Buffer) => {
        stdout += c.toString()
        const m = /listening on (http:\/\/\S+)/.exec(stdout)
        if (m) resolve(m[1])
      })
      child.once("exit", (code) => reject(new Error(`CLI exited early (${code}): ${stderr}`)))
    })
    const res = await client(url).get("/__sandbox/clock")
    expect(res.status).toBe(200)
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    child.kill("SIGTERM")
    expect(await exited).toBe(0)
    expect(stdout).toContain("SIGTERM received")
  }, 30_000)
})
