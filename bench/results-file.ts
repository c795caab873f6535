// bench/RESULTS.md is shared by the bench's tools: each owns one section between its own two markers
// and rewrites only that, so one tool's run never disturbs another's numbers or the text around them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const RESULTS_FILE = 'bench/RESULTS.md';

const HEADER = `# Bench results

Sections written by the bench's tools, each between its own markers; a tool's next run replaces its
section and leaves the rest of this file alone. How each is measured: bench/README.md.
`;

export function sectionMarkers(name: string): { begin: string; end: string } {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`a section name is lower-case letters, digits and dashes, got "${name}"`);
  return { begin: `<!-- ${name}: begin (written by the tool; edits here are overwritten) -->`, end: `<!-- ${name}: end -->` };
}

/** The document with `body` between the section's markers: replacing the section, or appended when it has none. */
export function withSection(doc: string, name: string, body: string): string {
  const { begin, end } = sectionMarkers(name);
  const block = `${begin}\n${body.trim()}\n${end}`;
  const from = doc.indexOf(begin);
  const to = from === -1 ? -1 : doc.indexOf(end, from);
  if (from !== -1 && to === -1) throw new Error(`section "${name}" has its begin marker but not its end marker`);
  if (from === -1) return `${doc.trimEnd()}\n\n${block}\n`;
  return doc.slice(0, from) + block + doc.slice(to + end.length);
}

/** Writes the section into the file, creating the file when there is none. */
export function writeSection(file: string, name: string, body: string): void {
  const doc = existsSync(file) ? readFileSync(file, 'utf8') : HEADER;
  writeFileSync(file, withSection(doc, name, body));
}
