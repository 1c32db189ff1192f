#!/usr/bin/env node
// Which lines and functions of the browser package's scripts ran, from V8's raw coverage:
// the files ENYGMA_E2E_JS_COVERAGE=dir had the browser tests write (e2e/js_coverage.ts), or
// those of NODE_V8_COVERAGE=dir (wasm/tests/module_test.cjs under Node).
//   node scripts/js_coverage.cjs DIR... [--files index.mjs,enygma_worker.js,demo.js,enygma_abi.js]
//   node scripts/js_coverage.cjs --self-test   (ctest: js_coverage_self_test)
// A place ran when the innermost range around it counted a call in any snapshot of any test.
// Prints, per file: functions and code lines that ran, then the functions that never ran and
// the lines that never ran (consecutive ones as one range, with the first line's text).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { fileURLToPath } = require('node:url');

const nameOf = (url) => path.basename(new URL(url).pathname);
// files: name -> {source, ran: Uint8Array, functions: Map(start:end -> {name, ran})}
function fileFor(files, wanted, url, source) {
  const name = nameOf(url);
  if (!wanted.includes(name)) return null;
  if (source == null) return null;
  let file = files.get(name);
  if (!file) {
    file = { source, ran: new Uint8Array(source.length), functions: new Map() };
    files.set(name, file);
  }
  if (file.source.length !== source.length) {
    console.error(`${name}: another version of the file (${url}); left out`);
    return null;
  }
  return file;
}

// One script's snapshot: each place counts as its innermost range says (V8's ranges nest).
function add(file, functions) {
  const ranges = [];
  for (const fn of functions) {
    const [whole] = fn.ranges;
    const key = `${whole.startOffset}:${whole.endOffset}`;
    const known = file.functions.get(key) || { name: fn.functionName, start: whole.startOffset, ran: false };
    known.ran ||= whole.count > 0;
    file.functions.set(key, known);
    ranges.push(...fn.ranges);
  }
  ranges.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  const here = new Uint8Array(file.source.length);
  for (const r of ranges) here.fill(r.count > 0 ? 1 : 0, r.startOffset, r.endOffset);
  for (let i = 0; i < here.length; i++) file.ran[i] |= here[i];
}

function sourceOfNodeUrl(url) {
  if (!url.startsWith('file:')) return null;
  try {
    return fs.readFileSync(fileURLToPath(url), 'utf8');
  } catch {
    return null;
  }
}

function collect(dirs, wanted) {
  const files = new Map();
  for (const dir of dirs) {
    for (const entry of fs.readdirSync(dir)) {
      if (!entry.endsWith('.json')) continue;
      const data = JSON.parse(fs.readFileSync(path.join(dir, entry), 'utf8'));
      const scripts = data.scripts || data.result || [];
      for (const script of scripts) {
        if (!/^(https?|file):/.test(script.url) || !wanted.includes(nameOf(script.url))) continue;
        const source = data.sources ? data.sources[script.url] : sourceOfNodeUrl(script.url);
        const file = fileFor(files, wanted, script.url, source);
        if (file) add(file, script.functions);
      }
    }
  }
  return files;
}

function lineStarts(source) {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
  return starts;
}
const lineOf = (starts, offset) => {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
};

// The report's lines.
function report(files, wanted) {
  const out = [];
  for (const name of wanted) {
    const file = files.get(name);
    if (!file) {
      out.push(`${name}: no coverage`);
      continue;
    }
    const { source, ran } = file;
    const starts = lineStarts(source);
    const lines = source.split('\n');
    const codeLines = [];
    const notRun = [];
    lines.forEach((text, i) => {
      const trimmed = text.trim();
      if (trimmed === '' || trimmed.startsWith('//')) return;
      codeLines.push(i + 1);
      let any = false;
      for (let o = starts[i]; o < starts[i] + text.length; o++) {
        if (ran[o] && !/\s/.test(source[o])) {
          any = true;
          break;
        }
      }
      if (!any) notRun.push(i + 1);
    });
    const fns = [...file.functions.values()].filter((f) => f.start > 0 || f.name !== '');
    const fnsNotRun = fns.filter((f) => !f.ran).sort((a, b) => a.start - b.start);
    out.push(`${name}: functions ${fns.length - fnsNotRun.length}/${fns.length}, ` +
              `lines ${codeLines.length - notRun.length}/${codeLines.length}`);
    for (const f of fnsNotRun) out.push(`  function not run: ${f.name || '(anonymous)'} (line ${lineOf(starts, f.start)})`);
    for (let i = 0; i < notRun.length;) {
      let j = i;
      while (j + 1 < notRun.length && notRun[j + 1] === notRun[j] + 1) j++;
      const range = notRun[i] === notRun[j] ? `${notRun[i]}` : `${notRun[i]}-${notRun[j]}`;
      out.push(`  lines not run ${range}: ${lines[notRun[i] - 1].trim().slice(0, 100)}`);
      i = j + 1;
    }
  }
  return out;
}

// A made-up page script and its coverage: one function that ran, one that did not.
function selfTest() {
  const os = require('node:os');
  const assert = require('node:assert');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'js-coverage-'));
  try {
    const source = 'function ran() {\n  return 1;\n}\n// a comment\nfunction never() {\n  return 2;\n}\nran();\n';
    const at = (text) => source.indexOf(text);
    const url = 'http://127.0.0.1:1/enygma/index.mjs?v=1';
    const whole = { functionName: '', ranges: [{ startOffset: 0, endOffset: source.length, count: 1 }] };
    const ran = { functionName: 'ran', ranges: [{ startOffset: at('function ran'), endOffset: at('// a'), count: 1 }] };
    const never = { functionName: 'never', ranges: [{ startOffset: at('function never'), endOffset: at('ran();'), count: 0 }] };
    fs.writeFileSync(path.join(dir, 'a-0.json'), JSON.stringify({ title: 'a', sources: { [url]: source },
      scripts: [{ url, functions: [whole, ran, never] }] }));
    const lines = report(collect([dir], ['index.mjs', 'demo.js']), ['index.mjs', 'demo.js']);
    assert.deepStrictEqual(lines, [
      'index.mjs: functions 1/2, lines 4/7',
      '  function not run: never (line 5)',
      '  lines not run 5-7: function never() {',
      'demo.js: no coverage',
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log('js_coverage self-test: ok');
}

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--self-test') {
  selfTest();
} else {
  let wanted = ['index.mjs', 'enygma.js', 'enygma_worker.js', 'demo.js', 'enygma_abi.js'];
  const dirs = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--files') wanted = args[++i].split(',');
    else dirs.push(args[i]);
  }
  if (dirs.length === 0) {
    console.error('usage: js_coverage.cjs DIR... [--files a.js,b.mjs] | --self-test');
    process.exit(2);
  }
  for (const line of report(collect(dirs, wanted), wanted)) console.log(line);
}
