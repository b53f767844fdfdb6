/*
 * BENCH_PG_TRACE=/some/file: preloaded (`--require`) into the processes the bench starts, it counts
 * the PostgreSQL statements each process sends (by prepared name, else the first words of the text)
 * and the HTTP requests it serves (by method and path), with the statements' median time from
 * submission to answer. For requests served one at a time (c=1) it also keeps each request's
 * timeline (statements and outgoing fetches between its arrival and its response's end) and reports
 * the median of each segment, in µs (the agent-host programs' IPC messages are segments' ends too). The counts are cleared on SIGUSR2 and written (JSON, one line,
 * appended to the file) on SIGUSR1, so a bench can take the statements per request of one window.
 */
const { createRequire } = require('node:module');
const { appendFileSync } = require('node:fs');
const http = require('node:http');
const { join } = require('node:path');

const out = process.env.BENCH_PG_TRACE;
const fromCwd = createRequire(join(process.cwd(), 'package.json'));
const statements = new Map();
const requests = new Map();
/** Finished requests' timelines: { path, events: [[label, start, end]], end } with times relative to the arrival. */
let timelines = [];
/** Requests in progress, latest last: an event belongs to the latest (a request made while serving another is served by this process too). */
let open = [];

function label(config) {
  if (config && typeof config === 'object') {
    const text = String(config.text ?? '').replace(/\s+/g, ' ').trim();
    return config.name ? `${config.name}: ${text.slice(0, 70)}` : text.slice(0, 80);
  }
  return String(config).replace(/\s+/g, ' ').trim().slice(0, 80);
}

function shortLabel(config) {
  if (config && typeof config === 'object' && config.name) return config.name;
  const text = String(config && typeof config === 'object' ? config.text : config).replace(/\s+/g, ' ').trim();
  return text.slice(0, 24);
}

/** An event of the request in progress, if any: returns its end marker. */
function begin(name) {
  const r = open[open.length - 1];
  if (!r) return () => undefined;
  const e = [name, performance.now() - r.t0, null];
  r.events.push(e);
  return () => {
    if (e[2] === null) e[2] = performance.now() - r.t0;
  };
}

try {
  const pg = fromCwd('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function traced(config, values, callback) {
    const key = label(config);
    const s = statements.get(key) ?? { n: 0, ms: [] };
    statements.set(key, s);
    s.n++;
    const started = performance.now();
    const end = begin(`pg ${shortLabel(config)}`);
    const took = () => {
      end();
      if (s.ms.length < 100_000) s.ms.push(performance.now() - started);
    };
    // pool.query passes a callback (as the third argument, or the second without values)
    if (typeof callback === 'function') {
      const cb = callback;
      callback = (...a) => (took(), cb(...a));
    } else if (typeof values === 'function') {
      const cb = values;
      values = (...a) => (took(), cb(...a));
    }
    const result = query.call(this, config, values, callback);
    if (result && typeof result.then === 'function') result.then(took, () => undefined);
    return result;
  };
} catch {
  // a process without pg (the fake provider)
}

if (typeof globalThis.fetch === 'function') {
  const fetch = globalThis.fetch;
  globalThis.fetch = function tracedFetch(...args) {
    const end = begin('fetch (to headers)');
    const p = fetch.apply(this, args);
    p.then(end, end);
    return p;
  };
}

// outgoing HTTP requests made with node:http (the provider transport): to the response's headers, then to its end
for (const mod of [http, require('node:https')]) {
  const request = mod.request;
  mod.request = function tracedRequest(...args) {
    const headers = begin('http out (to headers)');
    const req = request.apply(this, args);
    req.once('response', (res) => {
      headers();
      const body = begin('http out body');
      res.once('end', body);
      res.once('close', body);
    });
    req.once('error', headers);
    return req;
  };
}

// the IPC channel to forked children (the agent-host programs): each message sent and received, as
// a point, and when the event loop is next free after a `deliver` or a `service-answer` is sent
{
  const cp = require('node:child_process');
  const fork = cp.fork;
  cp.fork = function tracedFork(...args) {
    const child = fork.apply(this, args);
    const send = child.send; // an own property of each forked child (node's setupChannel)
    child.send = function tracedSend(m, ...rest) {
      const type = m && typeof m === 'object' ? m.type : '?';
      begin(`ipc out ${type}`)();
      if (type === 'deliver' || type === 'service-answer') setImmediate(() => begin(`loop free after ${type}`)());
      return send.call(this, m, ...rest);
    };
    return child;
  };
  const cpEmit = cp.ChildProcess.prototype.emit;
  cp.ChildProcess.prototype.emit = function tracedEmit(event, m) {
    if (event === 'message') begin(`ipc in ${m && typeof m === 'object' ? m.type : '?'}`)();
    return cpEmit.apply(this, arguments);
  };
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request') {
    const path = `${req.method} ${String(req.url).split('?')[0]}`;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const r = { path, t0: performance.now(), events: [], end: null };
    open.push(r);
    res.once('finish', () => {
      r.end = performance.now() - r.t0;
      open = open.filter((o) => o !== r);
      if (timelines.length < 100_000) timelines.push(r);
    });
  }
  return emit.apply(this, arguments);
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : null;
};

/** Per path: the median total, and the median of each segment of the most common event sequence. */
function segments() {
  const byPath = new Map();
  for (const t of timelines) {
    const list = byPath.get(t.path) ?? [];
    byPath.set(t.path, list);
    list.push(t);
  }
  const outp = {};
  for (const [path, list] of byPath) {
    // events that ended inside the request, in start order
    const shapes = new Map();
    for (const t of list) {
      const evs = t.events.filter((e) => e[2] !== null && e[2] <= t.end + 1e-9);
      const key = evs.map((e) => e[0]).join(' > ');
      const group = shapes.get(key) ?? [];
      shapes.set(key, group);
      group.push({ evs, end: t.end });
    }
    const [shape, group] = [...shapes].sort((a, b) => b[1].length - a[1].length)[0];
    const parts = [];
    const n = group[0].evs.length;
    let prevName = 'arrival';
    for (let i = 0; i <= n; i++) {
      const gap = group.map((g) => (i < n ? g.evs[i][1] : g.end) - (i === 0 ? 0 : g.evs[i - 1][2]));
      parts.push({ segment: `${prevName} -> ${i < n ? group[0].evs[i][0] : 'response end'}`, us: Math.round(median(gap) * 1000) });
      if (i < n) {
        parts.push({ segment: group[0].evs[i][0], us: Math.round(median(group.map((g) => g.evs[i][2] - g.evs[i][1])) * 1000) });
        prevName = group[0].evs[i][0];
      }
    }
    outp[path] = { requests: list.length, shape, shareOfShape: group.length / list.length, totalUs: Math.round(median(list.map((t) => t.end)) * 1000), parts };
  }
  return outp;
}

// BENCH_PG_TRACE_PROFILE=dir: a V8 CPU profile of exactly the traced window (from the reset to the
// report), written there as <pid>-<n>.cpuprofile: the window's requests without the bench's other phases
const profileDir = process.env.BENCH_PG_TRACE_PROFILE;
let profiler = null;
let profiles = 0;
if (profileDir) {
  const inspector = require('node:inspector');
  profiler = new inspector.Session();
  profiler.connect();
  profiler.post('Profiler.enable');
}

process.on('SIGUSR2', () => {
  profiler?.post('Profiler.start');
  statements.clear();
  requests.clear();
  timelines = [];
  open = [];
});
process.on('SIGUSR1', () => {
  profiler?.post('Profiler.stop', (err, r) => {
    if (!err) require('node:fs').writeFileSync(join(profileDir, `${process.pid}-${++profiles}.cpuprofile`), JSON.stringify(r.profile));
  });
  const st = [...statements].map(([k, v]) => ({ statement: k, n: v.n, medianMs: median(v.ms) })).sort((a, b) => b.n - a.n);
  appendFileSync(out, JSON.stringify({ pid: process.pid, argv: process.argv.slice(1).join(' '), requests: Object.fromEntries(requests), statements: st, timelines: segments() }) + '\n');
});
