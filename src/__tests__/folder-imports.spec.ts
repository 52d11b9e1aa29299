import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import * as ts from "typescript"

/**
 * The folder map (docs/architecture.md) holds only while no two top-level folders of src import each
 * other, directly or round a longer loop: each folder then builds on the ones below it and can be
 * read (and tested) without the ones above. This walks every source file's relative imports (type
 * imports, re-exports, dynamic imports and requires included; tests left out: a test may reach
 * anywhere) and fails on any loop, naming the files that make it. Medusa's entry points (the routes,
 * the scheduled jobs, the subscribers) are loaded by Medusa from their folders; nothing imports them.
 */

const SRC = resolve(__dirname, "..")
const LOADED_BY_MEDUSA = ["api", "jobs", "subscribers"]

type Graph = Map<string, Map<string, string[]>>

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== "__tests__" && entry.name !== "node_modules") sourceFiles(path, out)
    } else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith(".d.ts") && !/\.(spec|test)\.tsx?$/.test(entry.name)) {
      out.push(path)
    }
  }
  return out
}

const folderOf = (path: string): string | null => {
  const rel = relative(SRC, path)
  return rel.startsWith("..") || !rel.includes(sep) ? null : rel.split(sep)[0]
}

/** folder → folder it imports → the file edges that make it. */
function folderGraph(): Graph {
  const graph: Graph = new Map()
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file)
    if (!from) continue
    for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue
      const to = folderOf(resolve(dirname(file), fileName))
      if (!to || to === from) continue
      const edges = graph.get(from) ?? new Map<string, string[]>()
      graph.set(from, edges)
      edges.set(to, [...(edges.get(to) ?? []), `${relative(SRC, file)} → ${fileName}`])
    }
  }
  return graph
}

/** The graph's loops: each strongly connected set of two or more folders (Tarjan). */
export function loopsOf(edges: Map<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const loops: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!))
      }
    }
    if (low.get(node) === index.get(node)) {
      const members: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        members.push(member)
      } while (member !== node)
      if (members.length > 1) loops.push(members.sort())
    }
  }
  for (const node of edges.keys()) if (!index.has(node)) visit(node)
  return loops
}

describe("src's top-level folders", () => {
  let graph: Graph
  beforeAll(() => {
    graph = folderGraph()
  })

  it("finds a loop when there is one (the check itself can fail)", () => {
    const g = (pairs: Array<[string, string[]]>) => new Map(pairs)
    expect(loopsOf(g([["a", ["b"]], ["b", ["c"]], ["c", []]]))).toEqual([])
    expect(loopsOf(g([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual([["a", "b", "c"]])
    expect(loopsOf(g([["a", ["b"]], ["b", ["a"]], ["c", ["d"]], ["d", ["c"]]])).length).toBe(2)
  })

  it("sees the imports it checks (type imports and re-exports too)", () => {
    // Known one-way edges, so a walker that saw nothing would not pass for a clean graph.
    expect(graph.get("settlement")?.has("modules")).toBe(true)
    expect(graph.get("jobs")?.has("job-runs")).toBe(true)
    expect(graph.get("job-runs")?.has("workflows")).toBe(true)
  })

  it("import each other in no loop", () => {
    const loops = loopsOf(new Map([...graph].map(([from, to]) => [from, [...to.keys()]])))
    const explained = loops.map((loop) =>
      loop
        .flatMap((from) => loop.filter((to) => graph.get(from)?.has(to)).map((to) => `${from} → ${to}: ${graph.get(from)!.get(to)!.join(", ")}`))
        .join("\n")
    )
    expect(explained).toEqual([])
  })

  it("never import Medusa's entry points (routes, jobs, subscribers)", () => {
    const upward = [...graph].flatMap(([from, to]) => LOADED_BY_MEDUSA.filter((entry) => to.has(entry)).map((entry) => `${from} → ${entry}: ${to.get(entry)!.join(", ")}`))
    expect(upward).toEqual([])
  })
})
