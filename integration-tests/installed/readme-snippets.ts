/**
 * The README's own code blocks, as a merchant's developer copies them. A block is marked by an HTML
 * comment right above it (`<!-- as-installed:NAME ... -->`), invisible on npm and GitHub, so the
 * as-installed test uses exactly the text a reader sees: change the README and the test follows.
 */
import fs from "node:fs"

export function readmeSnippet(readmePath: string, name: string): string {
  const text = fs.readFileSync(readmePath, "utf8")
  const marker = `<!-- as-installed:${name}`
  const at = text.indexOf(marker)
  if (at === -1) throw new Error(`README has no block marked ${marker} -->`)
  const fence = /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(text.indexOf("-->", at)))
  if (!fence) throw new Error(`README block ${name}: no code fence after its marker`)
  return fence[1]
}

/** `KEY=value` lines of a .env block (comments and blank lines dropped), in order. */
export function envLines(block: string): Array<[string, string]> {
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const eq = line.indexOf("=")
      if (eq <= 0) throw new Error(`not a KEY=value line: ${line}`)
      return [line.slice(0, eq), line.slice(eq + 1)] as [string, string]
    })
}
