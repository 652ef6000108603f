// Parses each Mermaid file named on the command line with the mermaid package's own
// parser, as GitHub's renderer would, and exits 1 naming every file that fails.
// Mermaid's sanitiser (DOMPurify) needs a DOM, which jsdom provides.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;

const { default: mermaid } = await import('mermaid');
const { readFileSync } = await import('node:fs');

let failed = 0;
for (const file of process.argv.slice(2)) {
  try {
    const ok = await mermaid.parse(readFileSync(file, 'utf8'));
    if (!ok) throw new Error('not recognised as a diagram');
  } catch (e) {
    failed++;
    console.log(`${file}: ${String(e.message || e).split('\n').slice(0, 4).join(' | ')}`);
  }
}
process.exit(failed ? 1 : 0);
