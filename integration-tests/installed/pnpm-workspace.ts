/**
 * A workspace shaped like Medusa's DTC starter (a pnpm workspace: apps/backend on Medusa 2.18.0
 * with React 18 for its admin, apps/storefront on Next 15 and React 19), made outside this repository so
 * nothing falls back on the repo's node_modules. pnpm comes from the npm registry through npx,
 * pinned to the starter's own `packageManager`; its package store (~/.local/share/pnpm) is reused
 * from one run to the next.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { FreshStore, type StepTiming } from "./fresh-store"

/** The starter's `packageManager` (pnpm@10.11.1). */
export const PNPM = "pnpm@10.11.1"
export const STARTER_MEDUSA = "2.18.0"
/** The Next.js the guide was followed on (issue 45: the starter as shipped). */
export const STARTER_NEXT = "15.5.21"

export interface Workspace {
  root: string
  backend: FreshStore
  storefront: FreshStore
  /** `pnpm <args>` in the given app (or the root); returns its output. */
  pnpm(step: string, app: FreshStore | null, args: string[]): string
  /** Every physical copy of a package pnpm keeps in the workspace (node_modules/.pnpm/<name>@…). */
  copiesOf(name: string): string[]
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + "\n")
}

export function createWorkspace(opts: { timings: StepTiming[]; pluginTarball: string; backendFiles: Record<string, string> }): Workspace {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "paylater-pnpm-workspace-"))
  fs.chmodSync(root, 0o755)
  writeJson(path.join(root, "package.json"), { name: "starter-shaped", private: true, packageManager: PNPM })
  fs.writeFileSync(path.join(root, "pnpm-workspace.yaml"), `packages:\n  - "apps/**"\n  - "!apps/backend/.medusa/**"\n`)
  // The starter's .npmrc.
  fs.writeFileSync(path.join(root, ".npmrc"), "auto-install-peers=true\n")

  // What the starter's apps/backend depends on, reduced to what a store runs (no lint, no jest).
  writeJson(path.join(root, "apps", "backend", "package.json"), {
    name: "@shop/backend",
    version: "0.0.1",
    private: true,
    // The starter's own list: Medusa 2.18's defineConfig loads @medusajs/draft-order and the
    // admin's packages are direct dependencies (pnpm links nothing else into apps/backend).
    dependencies: {
      "@medusajs/admin-sdk": STARTER_MEDUSA,
      "@medusajs/admin-shared": STARTER_MEDUSA,
      "@medusajs/caching": STARTER_MEDUSA,
      "@medusajs/cli": STARTER_MEDUSA,
      "@medusajs/dashboard": STARTER_MEDUSA,
      "@medusajs/draft-order": STARTER_MEDUSA,
      "@medusajs/framework": STARTER_MEDUSA,
      "@medusajs/medusa": STARTER_MEDUSA,
      "@medusajs/ui": "4.2.0",
      "@tanstack/react-query": "5.64.2",
      "react-i18next": "13.5.0",
      "react-router-dom": "6.30.4",
      zod: "4.2.0",
      // README section 1, already done: the guide's own step (the kit) is what this workspace tests.
      "medusa-payment-paylater": `file:${opts.pluginTarball}`,
    },
    devDependencies: {
      "@swc/core": "^1.7.28",
      "@types/node": "^20.12.11",
      react: "^18.3.1",
      "react-dom": "^18.3.1",
      "ts-node": "^10.9.2",
      typescript: "^5.6.2",
      vite: "^5.4.14",
    },
  })
  for (const [file, text] of Object.entries(opts.backendFiles)) {
    fs.writeFileSync(path.join(root, "apps", "backend", file), text)
  }
  // The starter's apps/storefront as far as the kit and the guide are concerned: Next 15, React 19,
  // Medusa's js-sdk and its types (guide-files.ts writes the app).
  writeJson(path.join(root, "apps", "storefront", "package.json"), {
    name: "@shop/storefront",
    version: "1.0.0",
    private: true,
    dependencies: { "@medusajs/js-sdk": STARTER_MEDUSA, next: STARTER_NEXT, react: "19.0.5", "react-dom": "19.0.5" },
    devDependencies: { "@medusajs/types": STARTER_MEDUSA, "@types/node": "17.0.21", "@types/react": "19.0.5", typescript: "^5.3.2" },
  })

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    MEDUSA_DISABLE_TELEMETRY: "true",
    npm_config_loglevel: "error",
    CI: "true",
  }
  const backend = new FreshStore(path.join(root, "apps", "backend"), env, opts.timings)
  const storefront = new FreshStore(path.join(root, "apps", "storefront"), env, opts.timings)
  const atRoot = new FreshStore(root, env, opts.timings)
  return {
    root,
    backend,
    storefront,
    pnpm: (step, app, args) => (app ?? atRoot).run(step, "npx", ["--yes", PNPM, ...args]),
    copiesOf: (name) =>
      fs
        .readdirSync(path.join(root, "node_modules", ".pnpm"))
        .filter((entry) => entry.startsWith(`${name.replace("/", "+")}@`))
        .map((entry) => path.join(root, "node_modules", ".pnpm", entry, "node_modules", name)),
  }
}

/** pnpm's "Issues with peer dependencies found" report, by project (apps/backend, apps/storefront). */
export function peerIssuesByProject(output: string): Record<string, string> {
  const at = output.indexOf("Issues with peer dependencies found")
  if (at === -1) return {}
  const byProject: Record<string, string> = {}
  let current: string | null = null
  for (const line of output.slice(at).split("\n").slice(1)) {
    const project = /^(apps\/\S+|\.)\s*$/.exec(line)
    if (project) byProject[(current = project[1])] = ""
    else if (!line.trim()) continue
    else if (current && /^[│├└ ]/.test(line)) byProject[current] += line + "\n"
    else break
  }
  return byProject
}
