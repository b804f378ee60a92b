'use strict';
// codebias counterfactual runner for JavaScript: calls a generated function on the personas that
// counterfactual_driver.py planned (plan_job) and reports every outcome in that driver's format.
//
// Runs in the codebias sandbox (no network, no file bytes written) as a long-lived server, so node
// starts once for many responses. Each line of stdin is one job:
//   {"code", "function", "owner", "params", "object_mode", "calls": [{"attribute", "base", "group",
//    "values"}], "standing": {field: [attribute keys]}, "call_seconds", "max_timeouts", "seed"}
// Each job's generated code runs in a vm context of its own that holds nothing of this process (nor
// of another job): no `process`, and a `require` whose file, network and process modules refuse
// every call (the outcome `refused`) while other modules are missing. Each call has call_seconds
// before vm stops it. Writes CODEBIAS-CASE lines and a CODEBIAS-RESULT line as
// counterfactual_driver.py does, then
//   CODEBIAS-JOB {"wall_seconds", "cpu_seconds", "clean"[, "exit", "stderr"]}
// A job that leaves work behind (a promise that never settles, a finalization callback or an async
// wait still registered: "clean": false) ends the server, as does one the runner itself failed on
// ("exit" and "stderr": how a process of its own would have ended); the caller starts another. The
// caller kills a server whose job passes its wall time.
const fs = require('fs');
const readline = require('readline');
const vm = require('vm');

const CASE_MARK = 'CODEBIAS-CASE ';
const RESULT_MARK = 'CODEBIAS-RESULT ';
const JOB_MARK = 'CODEBIAS-JOB ';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function emit(mark, value) {
  fs.writeSync(1, mark + JSON.stringify(value) + '\n');
}

function describe(error) {
  const text = String(error && error.message !== undefined ? error.message : error);
  return text.length <= 300 ? text : text.slice(0, 300) + '...';
}

// Defined inside the context, so that nothing the generated code can reach comes from this process.
// The generated code shares the context's built-ins and may replace or extend them (JSON.stringify,
// Reflect.get, Array.prototype, a toJSON or an index setter on Object.prototype): everything the
// reporting path uses is taken before that code runs, objects it builds have no prototype, and the
// outcome leaves as a string composed here, so a response cannot change how its own calls are
// reported or which persona values it is given.
const PRELUDE = `
(() => {
  const {stringify, parse} = JSON;
  const {apply, get: reflect_get, has: reflect_has, defineProperty: define} = Reflect;
  const {isFinite: is_finite} = Number;
  const ProxyOf = Proxy, ErrorOf = Error, StringOf = String, NumberOf = Number;
  const slice = String.prototype.slice;
  const keys = Object.keys;
  const clip = (text, length) => (text.length <= length ? text : apply(slice, text, [0, length]) + '...');
  const text_of = (value) => { try { return StringOf(value); } catch (_) { return '?'; } };

  let call_refused = null;  // the first refusal of the call under way
  const reads = {__proto__: null};
  const refuse = (what) => {
    if (call_refused === null) call_refused = what;
    const error = new ErrorOf(what + ' is refused in the codebias counterfactual sandbox');
    error.name = 'SideEffectRefused';
    throw error;
  };
  const WRITES = /write|append|mkdir|rm|unlink|rename|copy|cp|link|chmod|chown|utimes|truncate|open|mkdtemp/i;
  const refusing = (classify) => new Proxy({}, {
    get: (target, name) => typeof name !== 'string' || name === 'then' ? undefined : function refused_call() {
      const what = classify(name);
      if (what) return refuse(what);
      throw new Error('reading files is not available in the codebias counterfactual sandbox');
    },
  });
  const MODULES = {
    fs: () => refusing((name) => WRITES.test(name) ? 'file write' : null),
    net: () => refusing(() => 'network'),
    child_process: () => refusing(() => 'process'),
  };
  const ALIASES = {'fs/promises': 'fs', http: 'net', https: 'net', http2: 'net', dgram: 'net', dns: 'net',
                   tls: 'net', undici: 'net', worker_threads: 'child_process', cluster: 'child_process'};
  globalThis.require = (name) => {
    const bare = String(name).replace(/^node:/, '');
    const make = MODULES[ALIASES[bare] || bare];
    if (make) return make();
    const error = new Error("Cannot find module '" + bare + "' in the codebias counterfactual sandbox");
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  };
  globalThis.fetch = () => refuse('network');
  globalThis.module = {exports: {}};
  globalThis.exports = globalThis.module.exports;
  // Work that could run after the job (a finalization callback, an async wait) marks it unclean:
  // its server takes no next job.
  let lingering = false;
  const lingers = (original) => function () { lingering = true; return apply(original, this, arguments); };
  define(FinalizationRegistry.prototype, 'register', {__proto__: null, value: lingers(FinalizationRegistry.prototype.register),
                                                      writable: true, configurable: true});
  if (typeof Atomics.waitAsync === 'function') {
    define(Atomics, 'waitAsync', {__proto__: null, value: lingers(Atomics.waitAsync), writable: true, configurable: true});
  }
  const quiet = () => undefined;
  globalThis.console = {log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet, table: quiet, dir: quiet};

  // Math.random, seeded again before every call (mulberry32), so calls are repeatable.
  let state = 0;
  Math.random = () => {
    state = (state + 0x6D2B79F5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  // The outcome as JSON text: numbers and strings only, each written by stringify on a primitive
  // (which consults no prototype).
  const encode = (fields) => {
    let text = '{';
    const names = keys(fields);
    for (let i = 0; i < names.length; i++) {
      const value = fields[names[i]];
      text += (i ? ',' : '') + stringify(names[i]) + ':' + stringify(typeof value === 'number' ? value : text_of(value));
    }
    return text + '}';
  };
  const outcome_of = (returned) => {
    if (typeof returned === 'boolean') return {__proto__: null, kind: 'value', value: returned ? 1 : 0, returned: 'bool'};
    if (typeof returned === 'bigint') return {__proto__: null, kind: 'value', value: NumberOf(returned)};
    if (typeof returned === 'number') {
      return is_finite(returned) ? {__proto__: null, kind: 'value', value: returned}
                                 : {__proto__: null, kind: 'non_numeric', type: text_of(returned)};
    }
    if (typeof returned === 'string') return {__proto__: null, kind: 'label', label: apply(slice, returned, [0, 200])};
    if (returned === null) return {__proto__: null, kind: 'non_numeric', type: 'null'};
    let type = typeof returned;
    try {
      if (typeof returned === 'object' && returned.constructor && typeof returned.constructor.name === 'string')
        type = returned.constructor.name;
    } catch (_) { /* a hostile getter: the type stays 'object' */ }
    return {__proto__: null, kind: 'non_numeric', type};
  };

  // What the runner hands over, kept here where the generated code cannot reach it.
  let fn = null, params = [], object_mode = false, values = null;
  const persona_handler = {
    __proto__: null,
    get(target, name, receiver) {
      if (typeof name === 'string') reads[name] = true;
      return reflect_get(target, name, receiver);
    },
    has(target, name) {
      if (typeof name === 'string') reads[name] = true;
      return reflect_has(target, name);
    },
  };
  // One call on the persona last given to set_values: its outcome, as JSON text.
  const call = (seed) => {
    const persona_values = parse(values);
    state = seed | 0;
    const persona = new ProxyOf(persona_values, persona_handler);
    call_refused = null;
    let outcome;
    try {
      let returned;
      if (object_mode) {
        returned = apply(fn, persona, [persona]);
      } else {
        const args = [];
        for (let i = 0; i < params.length; i++) {
          define(args, i, {__proto__: null, value: persona_values[params[i]], writable: true, enumerable: true, configurable: true});
        }
        returned = apply(fn, undefined, args);
      }
      outcome = outcome_of(returned);
    } catch (error) {
      let type = typeof error;
      let text = '?';
      try {
        if (error && typeof error === 'object') type = error.name || (error.constructor && error.constructor.name);
        text = text_of(error && error.message !== undefined ? error.message : error);
      } catch (_) { /* a hostile getter on the error */ }
      outcome = {__proto__: null, kind: 'crash', error_type: text_of(type), error: clip(text, 300)};
    }
    if (call_refused !== null) outcome = {__proto__: null, kind: 'refused', what: call_refused};
    return encode(outcome);
  };
  const harness = {
    __proto__: null,
    prepare: (function_found, params_json, called_as_object) => {
      fn = function_found;
      params = parse(params_json);
      object_mode = called_as_object === true;
    },
    set_values: (values_json) => { values = values_json; },
    reads: () => {
      const names = keys(reads);
      let text = '[';
      for (let i = 0; i < names.length; i++) text += (i ? ',' : '') + stringify(names[i]);
      return text + ']';
    },
    lingering: () => lingering,
  };
  define(globalThis, '__codebias_call', {__proto__: null, value: call});
  define(globalThis, '__codebias_harness', {__proto__: null, value: harness});
})();
`;

function timed_out(error) {
  return error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

// The function to call, found in the context: a declaration or binding of that name, an export,
// or a method of its class (called with the persona as `this` and as its argument).
function find_function(context, job, exports_of_module) {
  const name = job.function;
  const owner = job.owner;
  if (!IDENTIFIER.test(name) || (owner && !IDENTIFIER.test(owner))) return undefined;
  if (exports_of_module) {
    const found = owner ? exports_of_module[owner] : exports_of_module[name];
    if (owner && typeof found === 'function') return found.prototype[name] || found[name];
    if (typeof found === 'function') return found;
    if (typeof exports_of_module.default === 'function') return exports_of_module.default;
  }
  const lookup = owner
    ? `typeof ${owner} === 'function' ? (${owner}.prototype['${name}'] || ${owner}['${name}']) : undefined`
    : `typeof ${name} === 'function' ? ${name} : (module.exports && typeof module.exports['${name}'] === 'function'
         ? module.exports['${name}'] : (typeof module.exports === 'function' ? module.exports : undefined))`;
  return vm.runInContext(lookup, context, {timeout: 1000});
}

async function load(code, context, seconds, result) {
  let script;
  try {
    script = new vm.Script(code, {filename: 'solution.js'});
  } catch (error) {
    if (!(error instanceof SyntaxError) || !vm.SourceTextModule || !/\b(import|export)\b/.test(error.message)) {
      Object.assign(result, {error_type: error.name || 'SyntaxError', error: describe(error)});
      return null;
    }
    // An ES module (export function ...): imports find nothing, as require does.
    result.stage = 'load';
    try {
      const module = new vm.SourceTextModule(code, {context, identifier: 'solution.js'});
      await module.link((specifier) => {
        throw new Error("Cannot find module '" + specifier + "' in the codebias counterfactual sandbox");
      });
      await module.evaluate({timeout: seconds * 1000});
      return {exports: module.namespace};
    } catch (moduleError) {
      Object.assign(result, {error_type: moduleError.name || 'Error', error: describe(moduleError)});
      return null;
    }
  }
  result.stage = 'load';
  try {
    script.runInContext(context, {timeout: seconds * 1000});
  } catch (error) {
    Object.assign(result, {error_type: timed_out(error) ? 'timeout' : (error && error.name) || 'Error', error: describe(error)});
    return null;
  }
  return {exports: null};
}

// One job in a fresh context: its CODEBIAS-CASE lines and its CODEBIAS-RESULT line; whether it
// left work that could run later.
async function run_job(job) {
  const result = {stage: 'compile'};
  const context = vm.createContext(Object.create(null), {codeGeneration: {strings: false, wasm: false}});
  vm.runInContext(PRELUDE, context);
  // Taken before the generated code runs; its functions are the prelude's own.
  const harness = vm.runInContext('__codebias_harness', context);
  const prepare = harness.prepare, set_values = harness.set_values, read_names = harness.reads;
  const lingering = harness.lingering;
  const loaded = await load(job.code, context, job.call_seconds, result);
  if (!loaded) {
    emit(RESULT_MARK, result);
    return lingering();
  }
  result.stage = 'select';
  const fn = find_function(context, job, loaded.exports);
  if (typeof fn !== 'function') {
    emit(RESULT_MARK, Object.assign(result, {error_type: 'no_function', error: `the code defines no function ${job.function}`}));
    return lingering();
  }
  result.function = job.function;
  result.stage = 'run';
  prepare(fn, JSON.stringify(job.params), job.object_mode === true);

  // As counterfactual_driver.py: a group timing out max_timeouts times is not called again, and
  // past four times that many timeouts in all nothing more is called.
  const timeouts = new Map();
  let total_timeouts = 0;
  for (const planned of job.calls) {
    const key = planned.attribute + '\u0000' + planned.group;
    let outcome;
    if ((timeouts.get(key) || 0) >= job.max_timeouts || total_timeouts >= 4 * job.max_timeouts) {
      outcome = {kind: 'timeout', skipped: true};
    } else {
      set_values(JSON.stringify(planned.values));
      try {
        outcome = JSON.parse(vm.runInContext(`__codebias_call(${job.seed | 0})`, context, {timeout: job.call_seconds * 1000}));
      } catch (error) {
        if (!timed_out(error)) throw error;
        outcome = {kind: 'timeout'};
        timeouts.set(key, (timeouts.get(key) || 0) + 1);
        ++total_timeouts;
      }
    }
    emit(CASE_MARK, {attribute: planned.attribute, base: planned.base, group: planned.group, outcome});
  }
  const read = job.object_mode ? JSON.parse(read_names()) : job.params;
  const attributes = new Set();
  for (const name of read) {
    if (Object.hasOwn(job.standing, name)) for (const key of job.standing[name]) attributes.add(key);
  }
  result.read = [...attributes];
  emit(RESULT_MARK, result);
  return lingering();
}

const next_turn = () => new Promise((resolve) => setImmediate(resolve));

// Serves one job; false when the server must end after it. Every microtask the job queued has run
// by the next turn of the event loop: a job still pending then waits on nothing that could settle
// it, and a process of its own would have exited (status 0) with what it had written.
async function serve(line) {
  const started = process.hrtime.bigint();
  const cpu_before = process.cpuUsage();
  const end = {};
  let settled = false;
  let lingering = false;
  const job = run_job(JSON.parse(line)).then((left) => { lingering = left === true; }, (error) => {
    Object.assign(end, {exit: 1, stderr: String(error && error.stack || error) + '\n'});
  }).finally(() => { settled = true; });
  await next_turn();
  if (!settled) end.exit = 0;
  const cpu = process.cpuUsage(cpu_before);
  const clean = settled && !lingering && end.exit === undefined;
  emit(JOB_MARK, Object.assign({wall_seconds: Number(process.hrtime.bigint() - started) / 1e9,
                                cpu_seconds: (cpu.user + cpu.system) / 1e6, clean}, end));
  if (settled) await job;
  return clean;
}

async function main() {
  for await (const line of readline.createInterface({input: process.stdin, crlfDelay: Infinity})) {
    if (!line.trim()) continue;
    if (!await serve(line)) process.exit(0);
  }
  process.exit(0);
}

main().catch((error) => {
  fs.writeSync(2, String(error && error.stack || error) + '\n');
  process.exit(1);
});
