// Parses each Mermaid file named on the command line with the mermaid package's own
// parser, as GitHub's renderer would, and prints one line per file:
// "FILE ok NODES EDGES SUBGRAPHS" with what the parser saw, or "FILE error MESSAGE".
// Exits 1 when any file fails. Mermaid's sanitiser (DOMPurify) needs a DOM, which
// jsdom provides.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;

const { default: mermaid } = await import('mermaid');
// The check is about syntax: the fixture trees draw more than Mermaid's default
// 500-edge rendering cap, which is a display setting, not a parse error.
mermaid.initialize({ startOnLoad: false, maxEdges: 100000 });
const { readFileSync } = await import('node:fs');

let failed = 0;
for (const file of process.argv.slice(2)) {
  try {
    const text = readFileSync(file, 'utf8');
    const ok = await mermaid.parse(text);
    if (!ok) throw new Error('not recognised as a diagram');
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    const db = diagram.db;
    const count = (x) => (x instanceof Map ? x.size : Object.keys(x).length);
    console.log(`${file} ok ${count(db.getVertices())} ${db.getEdges().length} ${db.getSubGraphs().length}`);
  } catch (e) {
    failed++;
    console.log(`${file} error ${String(e.message || e).split('\n').slice(0, 4).join(' | ')}`);
  }
}
process.exit(failed ? 1 : 0);
